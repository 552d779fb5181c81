//go:build unix

package cliutil

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/procgroup"
)

// init makes the test binary, with CLIUTIL_GROUP_DEMO set, a command that starts a program
// in a process group of its own (as selfplay starts an engine), prints its pid, and does not
// stop on the first signal.
func init() {
	if os.Getenv("CLIUTIL_GROUP_DEMO") == "" {
		return
	}
	Main(func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		g, err := procgroup.Start(exec.Command("sleep", "1000"))
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		fmt.Fprintf(stderr, "child %d\n", g.Pid())
		<-ctx.Done()
		fmt.Fprintln(stderr, "interrupted, still busy")
		select {}
	})
}

// TestMainSecondSignalEndsGroups: a second signal ends the command at once, by the signal,
// and the programs it started in their own process groups with it.
func TestMainSecondSignalEndsGroups(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "CLIUTIL_GROUP_DEMO=1")
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	stderr := bufio.NewReader(errPipe)
	line, _ := stderr.ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(line), "child "))
	if err != nil {
		t.Fatalf("demo said %q", line)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	cmd.Process.Signal(syscall.SIGINT)
	if line, _ := stderr.ReadString('\n'); line != "interrupted, still busy\n" {
		t.Fatalf("after the first signal: %q", line)
	}
	if procgroup.Ended(pid) {
		t.Fatal("the first signal ended the child: it is not in a group of its own")
	}
	cmd.Process.Signal(syscall.SIGINT)
	io.Copy(io.Discard, stderr)
	cmd.Wait()
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("after the second signal: %v, want killed by SIGINT", cmd.ProcessState)
	}
	if !procgroup.WaitEnded(pid, 20*time.Second) {
		t.Errorf("the child (%d) still runs after the command ended", pid)
	}
}
