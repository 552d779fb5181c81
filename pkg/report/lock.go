package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rafle/rafle/pkg/internal/filelock"
)

// ErrInUse is returned, wrapped, by Reserve when another process writes a report to the
// same folder.
var ErrInUse = errors.New("another rafle writes a report to this folder")

// Reserve creates dir and reserves it for one writer of a report: a second Reserve of it,
// from another process, fails with ErrInUse until release is called (or the process ends).
// A command that writes a report at the end of a long run (selfplay --report) reserves
// its folder at the start, so that two runs cannot write one folder in turn.
func Reserve(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	// the lock is taken on the page's temporary file, which a killed run leaves (and the
	// next one reuses): no other file is added to the folder
	f, err := os.OpenFile(filepath.Join(dir, tempIndex), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		if errors.Is(err, filelock.ErrLocked) {
			return nil, fmt.Errorf("report: %s: %w", dir, ErrInUse)
		}
		return nil, fmt.Errorf("report: lock %s: %w", dir, err)
	}
	name := f.Name()
	return func() {
		// the page renamed it to index.html when it was written; otherwise it is empty
		if st, err := f.Stat(); err == nil && st.Size() == 0 {
			if cur, err := os.Stat(name); err == nil && os.SameFile(st, cur) {
				os.Remove(name)
			}
		}
		f.Close()
	}, nil
}
