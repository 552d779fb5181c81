package main

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/rafle/rafle/internal/cliutil"
)

// fullWriter fails as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// TestWriteErrors: output that cannot be written is an error, whatever the output.
func TestWriteErrors(t *testing.T) {
	const want = "perft: write stdout: no space left on device\n"
	for _, args := range [][]string{
		{"-d", "2"},
		{"-d", "2", "--json"},
		{"divide", "-d", "2"},
		{"verify", "-v", "english", "--max-nodes", "1000"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), append([]string{"perft"}, args...), strings.NewReader(""), fullWriter{}, &stderr)
		if code != 1 || stderr.String() != want {
			t.Errorf("perft %v > full disk: exit %d, stderr %q; want 1 and %q", args, code, stderr.String(), want)
		}
	}
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "verify", "-v", "english", "--max-nodes", "1000")
	cmd.Env = append(os.Environ(), "RAFLE_PERFT_MAIN=1")
	cmd.Stdout = full
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 || stderr.String() != want {
		t.Errorf("perft verify > /dev/full: exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
	}
}

// TestFlagsAfterArguments: flags count wherever they are before "--".
func TestFlagsAfterArguments(t *testing.T) {
	code, out, errOut := runPerft(t, "divide", "-v", "english", "-d", "2", "--json")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 8 || !strings.HasPrefix(lines[0], `{"move":`) || !strings.Contains(lines[7], `"nodes":49`) {
		t.Errorf("divide with --json last: exit %d, %q, stderr %q; want 7 moves and the total as JSON", code, out, errOut)
	}
}

// TestInterrupted: a run stopped by a signal exits 130 and says how far it got.
func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cliutil.Interrupted{Signal: os.Interrupt})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-d", "3"}, "depth 2: interrupted (SIGINT)"},
		{[]string{"divide", "-d", "3"}, "divide depth 3: interrupted (SIGINT)"},
		{[]string{"verify", "-v", "english", "--max-nodes", "1000"}, "checks done"},
	} {
		var out, errb bytes.Buffer
		code := run(ctx, append([]string{"perft"}, tc.args...), strings.NewReader(""), &out, &errb)
		if code != 130 || !strings.Contains(errb.String()+out.String(), tc.want) {
			t.Errorf("perft %v interrupted: exit %d, stdout %q, stderr %q; want 130 and %q", tc.args, code, out.String(), errb.String(), tc.want)
		}
	}
}

// terminal is a stderr that says it is a terminal, so that the progress bar is drawn.
type terminal struct{ bytes.Buffer }

func (*terminal) IsTerminal() bool { return true }

// TestVerifyProgress: the bar names the check it runs, shows no raw node counts and
// predicts no remaining time (the rows differ too much in speed: it predicted 21 hours).
func TestVerifyProgress(t *testing.T) {
	var errb terminal
	code := run(context.Background(), []string{"perft", "verify", "-v", "english", "--max-nodes", "1000"}, strings.NewReader(""), io.Discard, &errb)
	bar := strings.ReplaceAll(errb.String(), "\r", "\n")
	if code != 0 || !strings.Contains(bar, "english") {
		t.Fatalf("verify: exit %d, stderr %q", code, bar)
	}
	if m := regexp.MustCompile(`\(\d+/\d+\)|\[\d+s:\d+s\]|\d+h`).FindString(bar); m != "" {
		t.Errorf("the bar shows %q:\n%s", m, bar)
	}
}
