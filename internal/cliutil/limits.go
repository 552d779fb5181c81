package cliutil

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
)

// MaxJobsPerCPU bounds the goroutines or processes a flag such as -j may ask for, per CPU:
// more than this only adds memory and scheduling, never speed, for work that is CPU-bound
// (and matches against external engines are CPU-bound in the engines).
const MaxJobsPerCPU = 16

// CheckJobs returns a usage error when n, the value of the flag named flag (for instance
// "-j"), is below 1 or above MaxJobsPerCPU times the number of CPUs of this machine.
func CheckJobs(flag string, n int) error {
	limit := MaxJobsPerCPU * runtime.NumCPU()
	switch {
	case n < 1:
		return Usagef("%s %d: must be at least 1", flag, n)
	case n > limit:
		return Usagef("%s %d: at most %d on this machine (%d CPUs)", flag, n, limit, runtime.NumCPU())
	}
	return nil
}

// CheckMemory returns a usage error when the flag named flag asks for mib MiB in all (the
// sum of every table it sizes) and that is more than this machine can give: the memory
// available now, or the cgroup's limit when one is set, less a reserve for the rest of the
// program. A negative size is an error too. When the available memory cannot be read, only
// sizes above 1 TiB are refused.
func CheckMemory(flag string, mib int64) error {
	if mib < 0 {
		return Usagef("%s %d: must not be negative", flag, mib)
	}
	avail, ok := AvailableMiB()
	if !ok {
		avail = 1 << 20
	}
	const reserve = 256 // MiB for the program itself, its buffers and the Go runtime
	if limit := avail - reserve; mib > limit {
		return Usagef("%s %d: more memory than this machine has available (%d MiB)", flag, mib, max(limit, 0))
	}
	return nil
}

// AvailableMiB returns the memory this process can still use, in MiB: MemAvailable from
// /proc/meminfo, or the cgroup v2 limit less its current use when that is smaller. ok is
// false when neither can be read (not Linux).
func AvailableMiB() (mib int64, ok bool) {
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, found := strings.CutPrefix(sc.Text(), "MemAvailable:"); found {
				fields := strings.Fields(rest) // "12345 kB"
				if kb, err := strconv.ParseInt(fields[0], 10, 64); err == nil && len(fields) == 2 && fields[1] == "kB" {
					mib, ok = kb/1024, true
				}
			}
		}
		f.Close()
	}
	limit, err1 := readInt("/sys/fs/cgroup/memory.max") // "max" when unlimited: an error here
	used, err2 := readInt("/sys/fs/cgroup/memory.current")
	if err1 == nil && err2 == nil {
		if c := (limit - used) >> 20; !ok || c < mib {
			mib, ok = max(c, 0), true
		}
	}
	return mib, ok
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// HeapSlackMiB is how far the Go heap of a command that calls BoundHeap may grow beyond its
// tables, or what it keeps live, before the garbage collector runs. With the runtime, the
// program's code and the pages not yet returned to the system, peak memory is then the
// tables plus about 20 MiB (the commands' tests check that it is within 32 MiB).
const HeapSlackMiB = 12

// BoundHeap sets the Go memory limit (debug.SetMemoryLimit) to tablesMiB, the size of the
// tables the command allocates once and keeps (perft's transposition table, the players'
// search tables), plus HeapSlackMiB: the garbage collector then runs before the heap grows
// by more than the slack over the tables, instead of at twice the live heap (GOGC=100), and
// peak memory is the tables plus some 20 MiB rather than up to twice the tables. What
// else the command keeps live (the records of a long match) raises the limit: after each
// collection it is the live heap plus the slack when that is more, the live heap being the
// smaller of the last two collections' (one alone counts what was allocated while it ran).
// The limit only lowers the heap goal that GOGC sets. BoundHeap does nothing outside Main
// (a test that calls a command's run in its own process keeps its memory settings) and
// after its first call.
func BoundHeap(tablesMiB int64) {
	if !inMain.Load() || !bounded.CompareAndSwap(false, true) {
		return
	}
	floor := (max(tablesMiB, 0) + HeapSlackMiB) << 20
	debug.SetMemoryLimit(floor)
	rebound(floor, 0)
}

var bounded atomic.Bool

// gcMark is an object whose finalizer runs after the collection that finds it unreachable;
// its pointer field keeps it out of the tiny allocator, whose objects may never be finalized.
type gcMark struct{ _ *byte }

// rebound arms the finalizer that sets the limit after the next collection, given the live
// heap after the one before, and rearms.
func rebound(floor int64, last uint64) {
	runtime.SetFinalizer(&gcMark{}, func(*gcMark) {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		live := last
		if s[0].Value.Kind() == metrics.KindUint64 {
			live = s[0].Value.Uint64()
		}
		debug.SetMemoryLimit(max(floor, int64(min(live, last))+HeapSlackMiB<<20))
		rebound(floor, live)
	})
}

// inMain is set by Main: the process is the command.
var inMain atomic.Bool
