//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
			var pid int
			for deadline := time.Now().Add(20 * time.Second); ; {
				b, _ := os.ReadFile(pidFile)
				if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && strings.HasSuffix(string(b), "\n") {
					pid = n
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the wrapper wrote no child pid")
				}
				time.Sleep(10 * time.Millisecond)
			}
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
