//go:build unix

package procgroup

import (
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testio"
)

// waitGone waits until pid has ended, failing after a generous bound.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !Ended(pid); {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d still runs after its group was terminated", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTerminateWrapperChild: a wrapper that leaves a child behind when it exits (and one
// that does not exit at all, ignoring SIGTERM) has the whole group ended.
func TestTerminateWrapperChild(t *testing.T) {
	for _, tc := range []struct{ name, script string }{
		{"leader exits", `sleep 1000 & echo $! > "$1"; exit 0`},
		{"leader stays", `trap '' TERM; sleep 1000 & echo $! > "$1"; while :; do sleep 1; done`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			g, err := Start(exec.Command("sh", "-c", tc.script, "sh", pidFile))
			if err != nil {
				t.Fatal(err)
			}
			pid := testio.ReadPID(t, pidFile) // the wrapper's child
			g.Terminate(200 * time.Millisecond)
			select {
			case <-g.Exited():
			default:
				t.Fatal("Terminate returned before the leader was reaped")
			}
			waitGone(t, pid)
		})
	}
}

func TestInterrupted(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   string
	}{
		{`kill -TERM $$`, "terminated"},
		{`kill -HUP $$`, "hangup"},
		{`exit 143`, "terminated"},
		{`exit 130`, "interrupt"},
		{`exit 3`, ""},
		{`kill -KILL $$`, ""},
		{`exit 0`, ""},
	} {
		if tc.want == "hangup" && signal.Ignored(syscall.SIGHUP) {
			// started under nohup: the shell inherits SIGHUP ignored and cannot die of it
			t.Logf("%s: skipped, SIGHUP is ignored in this process", tc.script)
			continue
		}
		g, err := Start(exec.Command("sh", "-c", tc.script))
		if err != nil {
			t.Fatal(err)
		}
		<-g.Exited() // ended by itself, not by Terminate's signal
		g.Terminate(time.Second)
		got, ok := Interrupted(g.State())
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: Interrupted = %q, %v; want %q", tc.script, got, ok, tc.want)
		}
	}
}
