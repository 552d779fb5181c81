//go:build unix

package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
	"github.com/rafle/rafle/internal/testio"
)

// silentWrapper writes a wrapper script that starts a child that outlives it (its pid in
// the file pids) and runs the test binary as an engine that never answers.
func silentWrapper(t *testing.T) (script, pids string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script, pids = testio.Wrapper(t, t.TempDir(), "'"+self+`' "$@"`+"\n")
	t.Setenv("RAFLE_FAKE_ENGINE", "silent")
	return script, pids
}

func checkEnded(t *testing.T, pid int) {
	t.Helper()
	if !procgroup.WaitEnded(pid, 20*time.Second) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the engine's child %d still runs after diff", pid)
	}
}

// TestDiffEngineTimeout: an engine that never answers is stopped after --engine-timeout,
// with its whole process group, and diff fails saying so.
func TestDiffEngineTimeout(t *testing.T) {
	script, pids := silentWrapper(t)
	code, _, errOut := runPerft(t, "diff", "--engine", script, "--engine-timeout", "300ms", "-v", "english", "-d", "3")
	if code != 1 || !strings.Contains(errOut, "no complete divide within 300ms (--engine-timeout)") {
		t.Errorf("exit %d, stderr %q; want exit 1 and the timeout named", code, errOut)
	}
	checkEnded(t, testio.ReadPID(t, pids))
	if code, _, errOut := runPerft(t, "diff", "--engine", script, "--engine-timeout", "0s", "-d", "3"); code != 2 || !strings.Contains(errOut, "--engine-timeout") {
		t.Errorf("--engine-timeout 0s: exit %d, stderr %q; want a usage error", code, errOut)
	}
}

// TestDiffInterrupted: Ctrl-C (the context's end) stops diff while the engine is silent,
// and ends the engine's process group.
func TestDiffInterrupted(t *testing.T) {
	script, pids := silentWrapper(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // once the engine runs (or after a bound)
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile(pids); strings.HasSuffix(string(b), "\n") {
				break
			}
		}
		cancel()
	}()
	var out, errb strings.Builder
	code := run(ctx, []string{"perft", "diff", "--engine", script, "-v", "english", "-d", "3"}, strings.NewReader(""), &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "context canceled") && !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d, stderr %q; want a failure saying it was interrupted", code, errb.String())
	}
	checkEnded(t, testio.ReadPID(t, pids))
}
