package procgroup

import (
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"
)

// Group is a program started by Start, the leader of its own process group.
type Group struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once the leader has been reaped
	err    error         // cmd.Wait's error, set before exited is closed
	once   sync.Once
	gone   atomic.Bool // no process of the group is left: its id may be reused
}

// live holds the groups not yet terminated, for KillAll.
var live = struct {
	sync.Mutex
	m map[*Group]bool
}{m: map[*Group]bool{}}

// Start starts cmd as the leader of a new process group and reaps it in a goroutine. Give
// cmd files (or nil) as its standard streams, not other readers or writers: the copying
// goroutines os/exec would add make the reaping wait for every process that keeps them
// open.
func Start(cmd *exec.Cmd) (*Group, error) {
	setGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	g := &Group{cmd: cmd, exited: make(chan struct{})}
	live.Lock()
	live.m[g] = true
	live.Unlock()
	go func() {
		g.err = cmd.Wait()
		g.reaped()
		close(g.exited)
	}()
	return g, nil
}

// Exited is closed once the leader has exited and been reaped.
func (g *Group) Exited() <-chan struct{} { return g.exited }

// Err is the leader's exit error (cmd.Wait's), once Exited is closed.
func (g *Group) Err() error { return g.err }

// State is the leader's exit state, once Exited is closed.
func (g *Group) State() *os.ProcessState { return g.cmd.ProcessState }

// Terminate ends the group: SIGTERM to every process of it, then, once the leader has been
// reaped and the others are gone or grace has passed, SIGKILL to whatever is left. It
// returns when the leader has been reaped. Calling it again does nothing.
func (g *Group) Terminate(grace time.Duration) {
	g.once.Do(func() {
		terminate(g, grace)
		live.Lock()
		delete(live.m, g)
		live.Unlock()
	})
}

// KillAll sends SIGKILL to every group started and not yet terminated, for a command that
// must exit at once (a second Ctrl-C).
func KillAll() {
	live.Lock()
	defer live.Unlock()
	for g := range live.m {
		kill(g)
	}
}

// Interrupted reports whether the leader's exit says that it was stopped by SIGINT, SIGTERM or
// SIGHUP, the signals of a Ctrl-C, timeout(1), Slurm or a closed terminal, rather than by a
// failure of its own: killed by one of them, or exiting with status 128 plus its number, as
// a shell does whose foreground child was killed by it. It returns the signal's name.
func Interrupted(state *os.ProcessState) (string, bool) {
	return interrupted(state)
}

// Pid is the leader's process id (the group's id where there are groups).
func (g *Group) Pid() int { return g.cmd.Process.Pid }
