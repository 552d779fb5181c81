//go:build unix

package bench

import (
	"os"
	"runtime"
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

// maxRSS returns the maximum resident set size of the exited process ps in MiB, where
// getrusage reports it in kilobytes (Linux).
func maxRSS(ps *os.ProcessState) (mib float64, ok bool) {
	ru, isRu := ps.SysUsage().(*syscall.Rusage)
	if !isRu || ru == nil || runtime.GOOS != "linux" {
		return 0, false
	}
	return float64(ru.Maxrss) / 1024, true
}
