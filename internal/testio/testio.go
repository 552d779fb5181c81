package testio

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
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
