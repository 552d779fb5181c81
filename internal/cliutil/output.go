package cliutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// WriteError is a failed write to an output of a command, standard output or a file:
// "write stdout: no space left on device".
type WriteError struct {
	Name string // "stdout", or the file name as the user gave it
	Err  error  // what the system said, without the file name
}

func (e *WriteError) Error() string { return "write " + e.Name + ": " + e.Err.Error() }

// Unwrap returns the system's error.
func (e *WriteError) Unwrap() error { return e.Err }

// pathErr returns the error inside a *fs.PathError, whose path the caller names better.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// output is a writer that keeps the first error of the writer it wraps: every later Write
// returns that error without writing, so that nothing is written after a gap and the error
// is never lost, even by a caller that ignores it. It is safe for concurrent use.
type output struct {
	mu     sync.Mutex
	w      io.Writer
	name   string
	err    *WriteError
	failed func(error) // called with the first error, if set
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		o.err = &WriteError{Name: o.name, Err: pathErr(err)}
		if o.failed != nil {
			o.failed(o.err)
		}
		return n, o.err
	}
	return n, nil
}

// Err returns the first write error, or nil.
func (o *output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err == nil {
		return nil
	}
	return o.err
}

// WriteFile writes the output file path with write, so that a failure never leaves a
// half-written file behind and no write error goes unnoticed:
//
//   - symbolic links are followed: their target is written and the links stay;
//   - a regular file, or a new one, is written to a temporary file in the same directory,
//     synced, and renamed over path only when write and every write of it succeeded; a
//     file replaced keeps its permissions, a new one gets 0644;
//   - a character device or a FIFO ("/dev/stdout", a named pipe) is written directly: it
//     cannot be replaced, and what it has received cannot be taken back;
//   - anything else (a directory, a socket, a block device) is an error.
//
// The writer given to write is buffered; WriteFile flushes it. The first write error is the
// error returned, "write PATH: ...", even when write ignored it.
func WriteFile(path string, write func(io.Writer) error) error {
	target, err := followLinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replaceFile(path, target, 0o644, write)
	case err != nil:
		return err
	case st.Mode().IsRegular():
		return replaceFile(path, target, st.Mode().Perm(), write)
	case st.Mode()&(fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		err = writeTo(f, path, write)
		if cerr := f.Close(); err == nil && cerr != nil {
			err = &WriteError{Name: path, Err: pathErr(cerr)}
		}
		return err
	}
	return fmt.Errorf("%s: not a regular file, character device or FIFO (%v)", path, st.Mode().Type())
}

// writeTo runs write over a buffer on w and flushes it; the first write error wins.
func writeTo(w io.Writer, name string, write func(io.Writer) error) error {
	out := &output{w: w, name: name}
	bw := bufio.NewWriterSize(out, 64<<10)
	err := write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if werr := out.Err(); werr != nil {
		return werr
	}
	return err
}

// replaceFile writes a temporary file next to target and renames it over target.
func replaceFile(path, target string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = writeTo(tmp, path, write); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return &WriteError{Name: path, Err: pathErr(err)}
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return &WriteError{Name: path, Err: pathErr(err)}
	}
	return os.Rename(tmp.Name(), target)
}

// followLinks returns the file path names after following symbolic links, which may not
// exist yet (a dangling link names the file to create).
func followLinks(path string) (string, error) {
	p := path
	for range 255 {
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return p, nil // missing (to be created) or not a link; other errors come later
		}
		l, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(filepath.Dir(p), l)
		}
		p = l
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}
