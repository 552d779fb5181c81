//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an exclusive advisory lock (flock) on f, held until f is closed, without
// waiting: ErrLocked when another process holds it.
func Lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}
