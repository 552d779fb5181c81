package match

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rafle/rafle/pkg/internal/filelock"
)

// ErrPDNExists is returned, wrapped, when a match would write over a PDN file that is there
// already and is not the file of the match being resumed.
var ErrPDNExists = errors.New("PDN file exists (give another name, remove it, or resume the match that wrote it with its journal)")

// ErrPDNLocked is returned, wrapped, when another match writes the PDN file: two runs with
// different journals on one PDN file would leave it holding one run's games and its
// journal the other's.
var ErrPDNLocked = errors.New("PDN file is in use by another match (a second selfplay on the same --pdn?)")

// pdnFile is a match's PDN output, open and, when it is a regular file, locked.
type pdnFile struct {
	f       *os.File
	path    string
	regular bool // a regular file: locked, and truncated before it is written
	created bool // the match created it
	held    bool // it held data before the match
}

// DevicePath reports whether path names a file of /dev or /proc (/dev/stdout, /dev/fd/3):
// a stream the caller opened, written as it is even when it leads to a regular file (a
// shell's redirection), never locked, emptied or refused for what it holds, and with no
// file named after it beside it.
func DevicePath(path string) bool {
	abs, err := filepath.Abs(path)
	return err == nil && (strings.HasPrefix(abs, "/dev/") || strings.HasPrefix(abs, "/proc/"))
}

// openPDN opens the PDN file at path for the match, without changing it yet: a regular file
// is locked (ErrPDNLocked when another match holds it); whether the match may write over
// what it holds is for own to say. A directory is an error; a character device or a FIFO
// (/dev/stdout, a named pipe), or any file named by a DevicePath, is written as it is,
// unlocked.
func openPDN(path string) (_ *pdnFile, err error) {
	p := &pdnFile{path: path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("match: PDN file %s: is a directory", path)
	}
	if DevicePath(path) {
		// appended to: /dev/stdout redirected to a file is written after what the command
		// prints there, not over it from the file's start
		if p.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		return p, nil
	}
	// O_RDWR, not O_WRONLY: a FIFO opens at once, as os.Create opens it
	p.f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	p.created = err == nil
	if errors.Is(err, fs.ErrExist) {
		p.f, err = os.OpenFile(path, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) { // a symbolic link to a file not there yet
			p.f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
			p.created = err == nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	defer func() {
		if err != nil {
			p.discard()
		}
	}()
	st, err := p.f.Stat()
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	if p.regular = st.Mode().IsRegular(); !p.regular {
		return p, nil
	}
	if err := filelock.Lock(p.f); err != nil {
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("match: %s: %w", path, ErrPDNLocked)
		}
		return nil, fmt.Errorf("match: lock %s: %w", path, err)
	}
	p.held = st.Size() > 0
	return p, nil
}

// own checks that the match may write over the data the file held (ErrPDNExists): only
// when it resumes a journal holding games (the games the file holds come from it, and are
// written again). Then it empties the file.
func (p *pdnFile) own(resume bool, journal string, games int) error {
	switch {
	case p.held && !resume:
		return fmt.Errorf("match: %s: %w", p.path, ErrPDNExists)
	case p.held && games == 0:
		return fmt.Errorf("match: %s: %w; the journal %s holds no game of it", p.path, ErrPDNExists, journal)
	}
	if !p.regular {
		return nil
	}
	if err := p.f.Truncate(0); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// discard closes the file, and removes it when the match created it and wrote nothing: a
// match that could not start leaves no file behind.
func (p *pdnFile) discard() {
	p.f.Close()
	if !p.created {
		return
	}
	target, err := filepath.EvalSymlinks(p.path) // a link stays; the file made through it goes
	if err != nil {
		return
	}
	if st, err := os.Stat(target); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		os.Remove(target)
	}
}
