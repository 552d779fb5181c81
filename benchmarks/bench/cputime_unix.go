//go:build unix

package bench

import (
	"syscall"
	"time"
)

// CPUTime returns the CPU time (user plus system) the process has used so far, from
// getrusage(RUSAGE_SELF).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// HaveCPUTime reports whether CPUTime measures CPU time on this system.
const HaveCPUTime = true
