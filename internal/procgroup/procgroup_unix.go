//go:build unix

package procgroup

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// pgid is the group's id: the leader's process id (Setpgid with Pgid 0).
func (g *Group) pgid() int { return g.cmd.Process.Pid }

// empty reports whether no process of the group is left.
func (g *Group) empty() bool {
	return errors.Is(syscall.Kill(-g.pgid(), 0), syscall.ESRCH)
}

func terminate(g *Group, grace time.Duration) {
	if g.gone.Load() {
		return
	}
	_ = syscall.Kill(-g.pgid(), syscall.SIGTERM)
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		select {
		case <-g.exited:
			if g.empty() {
				return
			}
		default:
		}
		time.Sleep(5 * time.Millisecond)
	}
	kill(g)
	<-g.exited
}

func kill(g *Group) {
	if !g.gone.Load() {
		_ = syscall.Kill(-g.pgid(), syscall.SIGKILL)
	}
}

// reaped is called once the leader has been reaped: a group then empty is gone for good,
// and its id may be reused by another process, which must not be signalled.
func (g *Group) reaped() {
	if g.empty() {
		g.gone.Store(true)
	}
}

func interrupted(state *os.ProcessState) (string, bool) {
	if state == nil {
		return "", false
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	if !ok {
		return "", false
	}
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if ws.Signaled() && ws.Signal() == s || ws.Exited() && ws.ExitStatus() == 128+int(s) {
			return s.String(), true
		}
	}
	return "", false
}

// Ended reports whether process pid has ended: it does not exist, or it is a zombie that
// its (new) parent has not reaped yet. Tests use it to check that no process is left.
func Ended(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// "pid (comm) state ...": comm may hold spaces and parentheses; the state follows the
	// last ')'
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// WaitEnded waits until process pid has ended (Ended) and reports whether it did within
// bound; tests use it with a generous bound.
func WaitEnded(pid int, bound time.Duration) bool {
	for deadline := time.Now().Add(bound); !Ended(pid); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
