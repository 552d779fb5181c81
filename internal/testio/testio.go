package testio

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FIFO makes the FIFO dir/name, which a goroutine fills with data once a reader opens it.
// The test is skipped where FIFOs cannot be made.
func FIFO(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return path
}

// Pipe returns the name /dev/fd/N of the read end of a pipe that a goroutine fills with
// data, as a shell's <(...) gives: opening the name again gives the same pipe. The test is
// skipped where /dev/fd does not exist.
func Pipe(t testing.TB, data []byte) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("/dev/fd/%d", r.Fd())
	if _, err := os.Stat(name); err != nil {
		t.Skipf("no /dev/fd: %v", err)
	}
	go func() {
		w.Write(data)
		w.Close()
	}()
	t.Cleanup(func() { r.Close() })
	return name
}

// Wrapper writes dir/engine.sh, an executable shell script in the shape of an engine
// started through a wrapper: it starts a child that outlives it (sleep, its pid written
// with a newline to the file it returns as sleepPID), then runs the lines of rest.
func Wrapper(t testing.TB, dir, rest string) (script, sleepPID string) {
	t.Helper()
	script, sleepPID = filepath.Join(dir, "engine.sh"), filepath.Join(dir, "sleep.pid")
	text := "#!/bin/sh\nsleep 1000 &\necho $! > " + sleepPID + "\n" + rest
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, sleepPID
}

// ReadPID waits, up to 20 seconds, for a process id written with its newline to the file
// at path, and returns it; it fails t when none comes.
func ReadPID(t testing.TB, path string) int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; {
		b, _ := os.ReadFile(path)
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && strings.HasSuffix(string(b), "\n") {
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// StopBound is how long a test waits for something it stopped (a cancelled build, a closed
// engine, a signalled command) before it calls it a hang. The commands stop within a second
// (measured; docs/benchmarks.md), but a test's verdict must not depend on the machine's load,
// so the bound only tells a stop from work that went on: it is far below the time of the work
// each such test interrupts, and far above a stop at any load the tests are run under.
const StopBound = 30 * time.Second
