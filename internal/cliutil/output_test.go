package cliutil

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testio"
	"github.com/urfave/cli/v2"
)

// TestMain lets the test binary be a command built with Main: with CLIUTIL_DEMO set it runs
// demoApp and exits, so that the tests can see its exit status, signals and /dev/full.
func TestMain(m *testing.M) {
	if mode := os.Getenv("CLIUTIL_DEMO"); mode != "" {
		Main(func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			return Run(ctx, demoApp(mode, stdout, stderr), []string{"demo"}, stderr)
		})
	}
	os.Exit(m.Run())
}

// demoApp writes lines to stdout ("write", ignoring errors as a careless command would), or
// waits for its context to end and says what it did ("wait").
func demoApp(mode string, stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name: "demo", Writer: stdout, ErrWriter: stderr,
		Action: func(c *cli.Context) error {
			switch mode {
			case "write":
				for i := range 3 {
					fmt.Fprintf(c.App.Writer, "line %d\n", i)
				}
				return nil
			case "table", "table-unbounded": // a 64 MiB table, then 128 MiB of garbage
				if mode == "table" {
					BoundHeap(64) // in Main
				}
				table := make([]byte, 64<<20)
				for i := range table {
					table[i] = byte(i)
				}
				for range 2048 {
					garbage := make([]byte, 64<<10)
					for i := range garbage {
						garbage[i] = byte(i)
					}
					sink = garbage
				}
				fmt.Fprintln(c.App.Writer, table[12345])
				return nil
			case "wait":
				fmt.Fprintln(c.App.ErrWriter, "ready")
				<-c.Context.Done()
				fmt.Fprintln(c.App.ErrWriter, "stopped after 0 of 1 tasks")
				return fmt.Errorf("task 1: %w", c.Context.Err())
			}
			return errors.New("unknown mode " + mode)
		},
	}
}

// sink keeps garbage from being optimised away.
var sink []byte

// failWriter fails as a full disk does, after ok bytes.
type failWriter struct {
	ok     int
	writes int
}

func (w *failWriter) Write(p []byte) (int, error) {
	w.writes++
	if len(p) <= w.ok {
		w.ok -= len(p)
		return len(p), nil
	}
	n := w.ok
	w.ok = 0
	return n, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

func TestRunWriteError(t *testing.T) {
	const want = "demo: write stdout: no space left on device\n"
	for _, tc := range []struct {
		name   string
		action cli.ActionFunc
	}{
		{"ignored", func(c *cli.Context) error {
			for range 5 {
				fmt.Fprintln(c.App.Writer, "a line of output")
			}
			return nil
		}},
		{"returned", func(c *cli.Context) error {
			_, err := fmt.Fprintln(c.App.Writer, "a line of output")
			return err
		}},
		{"wrapped", func(c *cli.Context) error {
			if _, err := fmt.Fprintln(c.App.Writer, "a line of output"); err != nil {
				return fmt.Errorf("table: %w", err)
			}
			return nil
		}},
		{"long work stops", func(c *cli.Context) error {
			for i := 0; c.Context.Err() == nil; i++ {
				if i == 1000 {
					return errors.New("the context was not cancelled after a failed write")
				}
				fmt.Fprintln(c.App.Writer, "a line of output")
			}
			return c.Context.Err()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &failWriter{ok: 5}
			app := &cli.App{Name: "demo", Writer: w, Action: tc.action}
			var stderr bytes.Buffer
			if code := Run(context.Background(), app, []string{"demo"}, &stderr); code != 1 || stderr.String() != want {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
			}
			if w.writes > 1 {
				t.Errorf("%d writes reached the failed writer, want 1", w.writes)
			}
		})
	}
	// An error of the command's own is reported too.
	app := &cli.App{Name: "demo", Writer: &failWriter{}, Action: func(c *cli.Context) error {
		fmt.Fprintln(c.App.Writer, "x")
		return errors.New("bad game")
	}}
	var stderr bytes.Buffer
	if code := Run(context.Background(), app, []string{"demo"}, &stderr); code != 1 || stderr.String() != "demo: bad game\n"+want {
		t.Errorf("a write error and another: exit %d, stderr %q", code, stderr.String())
	}
}

// demo starts the test binary as the demo command in mode with stdout on stdout.
func demo(t *testing.T, mode string, stdout *os.File) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "CLIUTIL_DEMO="+mode)
	cmd.Stdout = stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(errPipe)
}

func TestMainDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	cmd, stderr := demo(t, "write", full)
	msg, _ := io.ReadAll(stderr)
	err = cmd.Wait()
	if cmd.ProcessState.ExitCode() != 1 || string(msg) != "demo: write stdout: no space left on device\n" {
		t.Errorf("demo > /dev/full: %v, stderr %q; want exit 1 and the write error", err, msg)
	}
}

func TestMainSignals(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		cmd, stderr := demo(t, "wait", nil)
		if line, err := stderr.ReadString('\n'); line != "ready\n" {
			cmd.Process.Kill()
			t.Fatalf("demo wait: %q, %v", line, err)
		}
		start := time.Now()
		cmd.Process.Signal(tc.sig)
		rest, _ := io.ReadAll(stderr)
		cmd.Wait()
		if got := cmd.ProcessState.ExitCode(); got != tc.code || !strings.Contains(string(rest), "stopped after 0 of 1 tasks\n") ||
			!strings.Contains(string(rest), "demo: task 1: interrupted") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, what was done and the interrupt", tc.sig, got, rest, tc.code)
		}
		if d := time.Since(start); d > testio.StopBound {
			t.Errorf("%v: stopped after %v", tc.sig, d)
		}
	}
}

// TestRunInterrupted: Run reports a context cancelled by a signal with 128 + its number.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(Interrupted{syscall.SIGTERM})
	var stderr bytes.Buffer
	app := demoApp("wait", io.Discard, io.Discard)
	if code := Run(ctx, app, []string{"demo"}, &stderr); code != 143 || stderr.String() != "demo: task 1: interrupted (SIGTERM)\n" {
		t.Errorf("Run after SIGTERM: exit %d, stderr %q", code, stderr.String())
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error {
			_, err := io.WriteString(w, s)
			return err
		}
	}
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	entries := func() int {
		es, _ := os.ReadDir(dir)
		return len(es)
	}

	// A new file, then the same file replaced; a failing writer leaves the old content.
	path := filepath.Join(dir, "out.json")
	if err := WriteFile(path, write("one")); err != nil || read(path) != "one" {
		t.Fatalf("WriteFile(new): %v, %q", err, read(path))
	}
	if st, _ := os.Stat(path); st.Mode() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode())
	}
	os.Chmod(path, 0o600)
	if err := WriteFile(path, write("two")); err != nil || read(path) != "two" {
		t.Fatalf("WriteFile(existing): %v, %q", err, read(path))
	}
	if st, _ := os.Stat(path); st.Mode() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600 as before", st.Mode())
	}
	failed := errors.New("failed half way")
	err := WriteFile(path, func(w io.Writer) error { io.WriteString(w, "thr"); return failed })
	if !errors.Is(err, failed) || read(path) != "two" || entries() != 1 {
		t.Errorf("WriteFile with a failing writer: %v, content %q, %d entries; want the error, \"two\", 1", err, read(path), entries())
	}

	// Symbolic links are followed and stay links, dangling ones too.
	link := filepath.Join(dir, "link.json")
	os.Symlink("out.json", link)
	if err := WriteFile(link, write("three")); err != nil || read(path) != "three" {
		t.Errorf("WriteFile(link): %v, target %q", err, read(path))
	}
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink(filepath.Join(dir, "new.json"), dangling)
	if err := WriteFile(dangling, write("four")); err != nil || read(filepath.Join(dir, "new.json")) != "four" {
		t.Errorf("WriteFile(dangling link): %v", err)
	}
	for _, l := range []string{link, dangling} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", l)
		}
	}

	// A FIFO gets the bytes and stays a FIFO.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		got := make(chan string)
		go func() {
			f, err := os.Open(fifo)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- string(b)
		}()
		if err := WriteFile(fifo, write("five")); err != nil {
			t.Errorf("WriteFile(fifo): %v", err)
		}
		if s := <-got; s != "five" {
			t.Errorf("read from the FIFO: %q", s)
		}
		if st, _ := os.Lstat(fifo); st.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("the FIFO was replaced: %v", st.Mode())
		}
	}

	// A device is written directly, and its errors are reported even when the writer
	// ignores them.
	if _, err := os.Stat("/dev/full"); err == nil {
		careless := func(w io.Writer) error { fmt.Fprint(w, "six"); return nil }
		err := WriteFile("/dev/full", careless)
		if !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("WriteFile(/dev/full) = %v, want no space left", err)
		}
		if st, _ := os.Stat("/dev/full"); st.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("/dev/full is no longer a device: %v", st.Mode())
		}
	}
	if err := WriteFile(dir, write("seven")); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("WriteFile(a directory) = %v, want an error naming it", err)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such"), write("eight")); err == nil {
		t.Errorf("WriteFile(in a missing directory): no error")
	}
}
