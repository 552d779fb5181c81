package match

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
)

// Process is an engine program started for a whole match: a DXP engine given with cmd=,
// which listens for the games the match requests. It runs in a process group of its own,
// with a standard input that stays open until Close (an engine that reads commands there,
// as Moby Dam does, would otherwise see it end at once, and Moby Dam then spins a core
// while it waits for games).
type Process struct {
	name  string
	group *procgroup.Group
	stdin *os.File
}

// processGrace is how long Close leaves the engine after SIGTERM before SIGKILL.
const processGrace = time.Second

// StartProcess starts spec's Cmd with its Args in its Dir, with its standard output and
// error going to out (nil: discarded).
func StartProcess(spec EngineSpec, out io.Writer) (*Process, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", spec.Name, err)
	}
	cmd := exec.Command(spec.Cmd, spec.Args...)
	cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = spec.Dir, r, out, out
	g, err := procgroup.Start(cmd)
	r.Close()
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("engine %s: %w", spec.Name, err)
	}
	return &Process{name: spec.Name, group: g, stdin: w}, nil
}

// Close ends the engine: the end of its input, then SIGTERM to its process group and
// SIGKILL a second later to what is left. It returns an error when the engine had already
// exited by itself with a failure.
func (p *Process) Close() error {
	var early error
	select {
	case <-p.group.Exited():
		if err := p.group.Err(); err != nil {
			early = fmt.Errorf("engine %s exited during the match: %w", p.name, err)
		}
	default:
	}
	p.stdin.Close()
	p.group.Terminate(processGrace)
	return early
}

// interrupted reports whether the engine was stopped by a signal from outside rafle
// (procgroup.Interrupted), waiting up to wait for it to exit: a connection that closes is
// seen a moment before the process is reaped.
func (p *Process) interrupted(wait time.Duration) (string, bool) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-p.group.Exited():
		return procgroup.Interrupted(p.group.State())
	case <-t.C:
		return "", false
	}
}

// processInterrupted is how long a DXP player whose connection closed waits for the
// engine's process to exit, to tell an interruption from a crash.
const processInterrupted = 2 * time.Second

// errProcessInterrupted is the error of an engine process stopped by a signal from outside.
var errProcessInterrupted = errors.New("engine stopped by a signal")
