package cliutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Reopenable reports whether the input name reads the same bytes each time it is opened: a
// regular file (or a symbolic link to one). Standard input ("-"), a FIFO, a process
// substitution (/dev/fd/N) or a device can be read once only. A name that cannot be
// examined is reported reopenable: opening it reports the error.
func Reopenable(name string) bool {
	if name == "-" {
		return false
	}
	st, err := os.Stat(name)
	return err != nil || st.Mode().IsRegular() || st.IsDir()
}

// OpenInput opens the input file name to read it, without a wait that ctx cannot end:
//
//   - opening a FIFO waits for a writer; when ctx is done first, OpenInput wakes the open
//     up and returns ctx's error;
//   - the file returned is closed when ctx is done, so that a read waiting on a pipe ends
//     (with ctx's error).
func OpenInput(ctx context.Context, name string) (io.ReadCloser, error) {
	var f *os.File
	var err error
	if st, serr := os.Stat(name); serr == nil && st.Mode()&fs.ModeNamedPipe != 0 {
		f, err = openFIFO(ctx, name)
	} else {
		f, err = os.Open(name)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		f.Close()
		return nil, err
	}
	cf := &ctxFile{f: f, ctx: ctx}
	cf.stop = context.AfterFunc(ctx, func() { f.Close() })
	return cf, nil
}

// openFIFO opens the FIFO name, waiting for a writer until ctx is done.
func openFIFO(ctx context.Context, name string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
	}
	// The open is waiting for a writer: be one for a moment, so that it returns (a
	// non-blocking open for writing succeeds since a reader is waiting), and close what
	// it opens. If that fails, the goroutine waits until a writer comes or the process ends.
	if w, err := os.OpenFile(name, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		o := <-ch
		w.Close()
		if o.f != nil {
			o.f.Close()
		}
	} else {
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
	}
	return nil, ctx.Err()
}

// ctxFile is a file that ctx closes (see OpenInput).
type ctxFile struct {
	f    *os.File
	ctx  context.Context
	stop func() bool
}

func (c *ctxFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	if err != nil && errors.Is(err, os.ErrClosed) {
		if cerr := c.ctx.Err(); cerr != nil {
			return n, cerr
		}
	}
	return n, err
}

func (c *ctxFile) Close() error {
	if !c.stop() {
		return nil // closed by ctx
	}
	return c.f.Close()
}

// Stat returns the file's information.
func (c *ctxFile) Stat() (fs.FileInfo, error) { return c.f.Stat() }

// InterruptibleReader returns a reader of r whose Read returns ctx's error as soon as ctx
// is done, even while r's Read waits (standard input on a terminal or a pipe that nothing
// writes to): r is then read by a goroutine that is left waiting. Each Read of r reads
// into a buffer of the reader's own, so that the caller's buffer is never written after
// its Read returned.
func InterruptibleReader(ctx context.Context, r io.Reader) io.Reader {
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
	buf []byte
	res chan readResult
	err error
}

type readResult struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if c.err != nil {
		return 0, c.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if c.res == nil {
		c.res = make(chan readResult, 1)
	}
	if cap(c.buf) < len(p) {
		c.buf = make([]byte, len(p))
	}
	buf := c.buf[:len(p)]
	go func() {
		n, err := c.r.Read(buf)
		c.res <- readResult{n, err}
	}()
	select {
	case r := <-c.res:
		copy(p, buf[:r.n])
		c.err = r.err
		return r.n, r.err
	case <-c.ctx.Done():
		c.buf = nil // still the goroutine's
		return 0, c.ctx.Err()
	}
}

// SpoolError is an input that is too large to be kept in a temporary file.
type SpoolError struct {
	Name  string // the input, as the user gave it
	Limit int64  // bytes
	Dir   string // where temporary files go
}

func (e *SpoolError) Error() string {
	return fmt.Sprintf("%s: more than %s from a stream (kept in a temporary file in %s, to be read twice): "+
		"give the input as a file, or the variant (--variant) so that it is read once", e.Name, sizeText(e.Limit), e.Dir)
}

// SpoolLimit is the most bytes Spool keeps of one input: half the space free in the
// directory of temporary files, so that a stream never fills the disk.
func SpoolLimit() int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(os.TempDir(), &st); err != nil {
		return 1 << 30
	}
	return int64(st.Bavail) * int64(st.Bsize) / 2
}

// Spool copies r, the input name, into a new temporary file, at most limit bytes (else a
// *SpoolError), stopping when ctx is done. It returns the file's path and size; the caller
// removes the file (path is "" when none was made).
func Spool(ctx context.Context, r io.Reader, name string, limit int64) (path string, n int64, err error) {
	f, err := os.CreateTemp("", "rafle-input-*")
	if err != nil {
		return "", 0, err
	}
	path = f.Name()
	n, err = io.Copy(f, io.LimitReader(InterruptibleReader(ctx, r), limit+1))
	if err == nil && n > limit {
		err = &SpoolError{Name: name, Limit: limit, Dir: os.TempDir()}
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", 0, err
	}
	return path, n, nil
}

// sizeText writes n bytes in the largest binary unit that keeps it at least 1.
func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
