//go:build !unix

package filelock

import "os"

// Lock does nothing where flock does not exist: two writers of one file are not detected
// there.
func Lock(*os.File) error { return nil }
