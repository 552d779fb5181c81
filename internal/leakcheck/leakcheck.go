package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// Check fails t when goroutines started during the test are still running after its
// cleanups, waiting up to wait for them to end. Call it first in the test, so that its
// cleanup runs last, after those that close engines and connections.
func Check(t testing.TB, wait time.Duration) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(wait)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Errorf("goroutines: %d before the test, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}
