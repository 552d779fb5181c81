package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// MiB is the unit of the peak-memory benchmarks: the figure is an amount, not a rate, and
// lower is better (see Value and LowerIsBetter).
const MiB = "MiB"

// LowerIsBetter reports whether a smaller figure in unit is the better one: amounts (units
// without "/s", such as MiB), unlike throughputs.
func LowerIsBetter(unit string) bool { return !strings.HasSuffix(unit, "/s") }

// Value returns the figure of s in unit: the work itself for an amount (LowerIsBetter),
// work per second of CPU time (or of wall time, with wall) for a throughput.
func Value(unit string, s Sample, wall bool) float64 {
	if LowerIsBetter(unit) {
		return s.Work
	}
	return s.Rate(wall)
}

// CmdsEnv names the environment variable that gives the peak-memory benchmarks the
// directory holding the commands they run (perft, selfplay and pdn, as BuildCommands builds
// them): compare and history build them from the tree of each side. When it is unset they
// are built once per process from the module at the working directory; "none" skips the
// benchmarks.
const CmdsEnv = "RAFLE_BENCH_CMDS"

// Commands are the packages of the commands that the peak-memory benchmarks run.
var Commands = []string{"github.com/rafle/rafle/cmd/perft", "github.com/rafle/rafle/cmd/selfplay", "github.com/rafle/rafle/cmd/pdn"}

// BuildCommands builds Commands of the module in dir into the directory out.
func BuildCommands(ctx context.Context, dir, out string) error {
	args := append([]string{"build", "-trimpath", "-o", out + string(filepath.Separator)}, Commands...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w: %s", strings.Join(Commands, " "), err, strings.TrimSpace(string(b)))
	}
	return nil
}

// commandsDir returns the directory of the commands (see CmdsEnv).
var commandsDir = sync.OnceValues(func() (string, error) {
	if dir, ok := os.LookupEnv(CmdsEnv); ok {
		if dir == "none" {
			return "", fmt.Errorf("no commands (%s=none): %w", CmdsEnv, ErrSkip)
		}
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "rafle-bench-cmds-")
	if err != nil {
		return "", err
	}
	// the process ends without removing it: the binaries are a few tens of MB in the
	// system's temporary directory
	return dir, BuildCommands(context.Background(), ".", dir)
})

// peakMemoryEnv is cliutil.PeakMemoryEnv (internal/cliutil; the benchmarks import only
// pkg/*): a command started with it set writes its peak memory, in bytes, to the file it
// names as it ends.
const peakMemoryEnv = "RAFLE_PEAK_MEMORY"

// peakSetup returns the setup of a benchmark that runs command name with args and reports
// its peak memory in MiB: the command's own high-water mark of resident memory, which
// it writes itself (peakMemoryEnv), or for a revision whose commands do not, the maximum
// resident set size from wait4, which also counts the high-water mark of this process
// when it started the command (Go starts children with vfork): compare's exec processes
// are small, so it is the command's.
func peakSetup(name string, args ...string) func(Config) (Workload, error) {
	return func(cfg Config) (Workload, error) {
		dir, err := commandsDir()
		if err != nil {
			return nil, err
		}
		bin := filepath.Join(dir, name)
		if _, err := os.Stat(bin); err != nil {
			return nil, fmt.Errorf("%v: %w", err, ErrSkip)
		}
		return func(ctx context.Context) (float64, error) {
			f, err := os.CreateTemp("", "rafle-bench-peak-")
			if err != nil {
				return 0, err
			}
			f.Close()
			defer os.Remove(f.Name())
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = append(os.Environ(), peakMemoryEnv+"="+f.Name())
			cmd.Stdout = io.Discard
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				return 0, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
			}
			b, err := os.ReadFile(f.Name())
			if err != nil {
				return 0, err
			}
			if peak, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
				return float64(peak) / (1 << 20), nil
			}
			if mib, ok := maxRSS(cmd.ProcessState); ok {
				return mib, nil
			}
			return 0, fmt.Errorf("%s: no peak memory on this system: %w", name, ErrSkip)
		}, nil
	}
}

// memoryBenchmarks are the peak-memory benchmarks: each runs a command and reports its
// peak memory, which should stay within the tables it is given plus 32 MiB.
func memoryBenchmarks() []Benchmark {
	return []Benchmark{
		{Name: "memory/perft", Unit: MiB, Short: true,
			Doc:   "peak memory of perft -v international -d 9 --hash 64 -t 2 (every depth from 1; bound: 64 + 32 MiB)",
			Setup: peakSetup("perft", "-v", "international", "-d", "9", "--hash", "64", "-t", "2")},
		{Name: "memory/perft-verify", Unit: MiB, Short: true,
			Doc:   "peak memory of perft verify -v international --max-nodes 1000000 --hash 64 -t 2 (31 rows; bound: 64 + 32 MiB)",
			Setup: peakSetup("perft", "verify", "-v", "international", "--max-nodes", "1000000", "--hash", "64", "-t", "2", "-q")},
		{Name: "memory/selfplay", Unit: MiB, Short: true,
			Doc: "peak memory of selfplay -v english -p depth=6:hash=32,depth=5:hash=32 -n 4 -j 2 --seed 1 " +
				"(four 32 MiB tables; bound: 128 + 32 MiB)",
			Setup: peakSetup("selfplay", "-v", "english", "-p", "depth=6:hash=32,depth=5:hash=32", "-n", "4", "-j", "2", "--seed", "1", "-q")},
		{Name: "memory/book", Unit: MiB, Short: true,
			Doc:   "peak memory of pdn book --expand --variant english --nodes 100 --depth 6 -j 2 (two 8 MiB tables; bound: 16 + 32 MiB)",
			Setup: peakSetup("pdn", "book", "--expand", "--variant", "english", "--nodes", "100", "--depth", "6", "-j", "2", "-q")},
	}
}
