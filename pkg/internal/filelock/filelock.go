package filelock

import "errors"

// ErrLocked is Lock's error when another process holds the lock.
var ErrLocked = errors.New("locked")
