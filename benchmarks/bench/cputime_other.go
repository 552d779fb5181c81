//go:build !unix

package bench

import (
	"os"
	"time"
)

var processStart = time.Now()

// CPUTime returns the wall time since the process started: this system has no getrusage.
func CPUTime() time.Duration { return time.Since(processStart) }

// HaveCPUTime reports whether CPUTime measures CPU time on this system.
const HaveCPUTime = false

// maxRSS reports no peak memory: this system has no getrusage.
func maxRSS(*os.ProcessState) (mib float64, ok bool) { return 0, false }
