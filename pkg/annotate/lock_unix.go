//go:build unix

package annotate

import (
	"errors"
	"os"
	"syscall"
)

// errLocked is lockFile's error when another process holds the lock.
var errLocked = errors.New("locked")

// lockFile takes an exclusive advisory lock on f, held until f is closed, without waiting
// (as pkg/match locks its journal).
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
