package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/rafle/rafle/pkg/internal/filelock"
)

// File is a file of JSON lines open for reading back and appending, under a lock.
type File struct {
	f *os.File
}

// Open opens the file at path for reading and appending, creating it, and locks it: an
// error wrapping filelock.ErrLocked when another process holds it.
func Open(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &File{f: f}, nil
}

// Read reads the file from where Open left it (its start), to read it back.
func (f *File) Read(p []byte) (int, error) { return f.f.Read(p) }

// ReadAt reads len(p) bytes of the file from offset off.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// Size returns the file's size.
func (f *File) Size() (int64, error) {
	info, err := f.f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

// Restart cuts the file to its first good bytes (the whole lines read back) and appends
// from there.
func (f *File) Restart(good int64) error {
	if err := f.f.Truncate(good); err != nil {
		return err
	}
	_, err := f.f.Seek(good, io.SeekStart)
	return err
}

// Append writes v as one JSON line and syncs the file, so that the line survives a crash
// of the process or the machine once Append returns.
func (f *File) Append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if bytes.Count(b, []byte{'\n'}) != 1 {
		return errors.New("record spans lines")
	}
	if _, err := f.f.Write(b); err != nil {
		return err
	}
	return f.f.Sync()
}

// Close closes the file, releasing its lock.
func (f *File) Close() error { return f.f.Close() }
