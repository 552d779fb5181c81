//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
	"time"
)

// Without process groups, the leader alone is ended.
func setGroup(*exec.Cmd) {}

func terminate(g *Group, grace time.Duration) {
	t := time.NewTimer(grace)
	defer t.Stop()
	_ = g.cmd.Process.Signal(os.Interrupt)
	select {
	case <-g.exited:
	case <-t.C:
		kill(g)
		<-g.exited
	}
}

func kill(g *Group) { _ = g.cmd.Process.Kill() }

func interrupted(*os.ProcessState) (string, bool) { return "", false }

func (g *Group) reaped() { g.gone.Store(true) }
