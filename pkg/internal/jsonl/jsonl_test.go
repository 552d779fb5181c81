package jsonl

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rafle/rafle/pkg/internal/filelock"
)

// TestAppendRestart: lines appended are synced whole; Restart cuts the file to its good
// bytes and appends from there; a second Open of a locked file fails with ErrLocked.
func TestAppendRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, v := range []any{map[string]int{"a": 1}, "b\nc"} {
		if err := f.Append(v); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(path); string(b) != "{\"a\":1}\n\"b\\nc\"\n" {
		t.Fatalf("file %q", b)
	}
	if n, err := f.Size(); err != nil || n != 15 {
		t.Fatalf("size %d, %v", n, err)
	}
	if err := f.Restart(8); err != nil {
		t.Fatal(err)
	}
	if err := f.Append(2); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 10)
	if _, err := f.ReadAt(b, 0); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if string(b) != "{\"a\":1}\n2\n" {
		t.Fatalf("after Restart(8) and Append(2): %q", b)
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		return // no flock: Lock does nothing there
	}
	if g, err := Open(path); !errors.Is(err, filelock.ErrLocked) {
		if g != nil {
			g.Close()
		}
		t.Errorf("second Open: %v, want ErrLocked", err)
	}
}
