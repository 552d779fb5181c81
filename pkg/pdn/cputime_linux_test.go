package pdn

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling thread has used (getrusage RUSAGE_THREAD):
// the caller locks its goroutine to the thread.
func threadCPU() time.Duration {
	const rusageThread = 1 // RUSAGE_THREAD, linux/resource.h
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
