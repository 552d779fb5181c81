package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Sample is one measured run of a workload.
type Sample struct {
	// Work is what the run did, in the unit of its figure (leaves, MB, nodes, games).
	Work float64 `json:"work"`
	// CPU is the CPU time of the process during the run (user plus system, all threads).
	CPU time.Duration `json:"cpu_ns"`
	// Wall is the elapsed time of the run.
	Wall time.Duration `json:"wall_ns"`
}

// Rate returns work per second of CPU time, or of wall time when wall is set.
func (s Sample) Rate(wall bool) float64 {
	d := s.CPU
	if wall {
		d = s.Wall
	}
	if d <= 0 {
		d = time.Microsecond
	}
	return s.Work / d.Seconds()
}

// SlowdownEnv names the environment variable that makes Measure burn extra CPU time
// after each run: with RAFLE_BENCH_SLOWDOWN=1.5 every run costs 1.5 times its CPU time.
// It exists for the tests of the regression gate, which plant a slowdown with it.
const SlowdownEnv = "RAFLE_BENCH_SLOWDOWN"

// SlowdownFromEnv returns the factor set by SlowdownEnv, or 1.
func SlowdownFromEnv() (float64, error) {
	s := os.Getenv(SlowdownEnv)
	if s == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 1 {
		return 1, fmt.Errorf("bench: %s=%q: want a number of at least 1", SlowdownEnv, s)
	}
	return f, nil
}

// Measure runs w once and returns its work and the CPU and wall time it took. With
// slowdown > 1 it then spins until the run has cost slowdown times its CPU time (a
// planted regression, see SlowdownEnv).
func Measure(ctx context.Context, w Workload, slowdown float64) (Sample, error) {
	runtime.GC() // start each run from a collected heap
	c0, t0 := CPUTime(), time.Now()
	work, err := w(ctx)
	if err != nil {
		return Sample{}, err
	}
	if slowdown > 1 {
		target := c0 + time.Duration(float64(CPUTime()-c0)*slowdown)
		Spin(func() bool { return CPUTime() >= target })
	}
	return Sample{Work: work, CPU: CPUTime() - c0, Wall: time.Since(t0)}, nil
}

var spinSink uint64

// Spin burns CPU until done returns true (checked every few thousand iterations).
func Spin(done func() bool) {
	x := spinSink | 1
	for !done() {
		for range 4096 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	spinSink = x
}

// Figure is the result of one benchmark: the throughput of each repetition and their
// median and range.
type Figure struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
	Doc  string `json:"doc,omitempty"`
	// Work is the work of one repetition (leaves, MB, nodes, games); a change of Work for
	// a benchmark with a fixed workload means its behaviour changed.
	Work float64 `json:"work,omitempty"`
	// Values are the throughputs (work per CPU second) of the repetitions, in run order, or
	// for an amount (a unit without "/s", such as MiB) the work of each.
	Values []float64 `json:"values,omitempty"`
	// Median, Min and Max summarise Values.
	Median float64 `json:"median,omitempty"`
	Min    float64 `json:"min,omitempty"`
	Max    float64 `json:"max,omitempty"`
	// WallMedian is the median throughput per wall second (for an amount, Median).
	WallMedian float64 `json:"wall_median,omitempty"`
	// Skipped says why the benchmark did not run.
	Skipped string `json:"skipped,omitempty"`
}

// Spread returns the largest distance of a repetition from the median, as a fraction of
// the median (the "±" of the tables).
func (f *Figure) Spread() float64 {
	if f.Median == 0 {
		return 0
	}
	return max(f.Max-f.Median, f.Median-f.Min) / f.Median
}

// Median returns the median of xs (0 for none). It does not change xs.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// RunOptions configures Run.
type RunOptions struct {
	// Reps is the number of measured repetitions (at least 1); one warm-up run precedes
	// them unless NoWarmup.
	Reps     int
	NoWarmup bool
	// Slowdown is passed to Measure (see SlowdownEnv).
	Slowdown float64
	// Progress, if not nil, is called before each benchmark.
	Progress func(b *Benchmark)
}

// Run measures each benchmark in turn and returns one figure per benchmark. A benchmark
// whose Setup returns an error wrapping ErrSkip gets a Figure with Skipped set; any other
// error ends the run.
func Run(ctx context.Context, bs []Benchmark, cfg Config, opt RunOptions) ([]Figure, error) {
	reps := max(opt.Reps, 1)
	var out []Figure
	for i := range bs {
		b := &bs[i]
		if opt.Progress != nil {
			opt.Progress(b)
		}
		f := Figure{Name: b.Name, Unit: b.Unit, Doc: b.Doc}
		w, err := b.Setup(cfg)
		if errors.Is(err, ErrSkip) {
			f.Skipped = strings.TrimSuffix(err.Error(), ": "+ErrSkip.Error())
			out = append(out, f)
			continue
		}
		if err != nil {
			return out, fmt.Errorf("bench: %s: %w", b.Name, err)
		}
		if !opt.NoWarmup {
			if _, err := w(ctx); err != nil {
				return out, fmt.Errorf("bench: %s: %w", b.Name, err)
			}
		}
		var walls []float64
		for range reps {
			s, err := Measure(ctx, w, opt.Slowdown)
			if err != nil {
				return out, fmt.Errorf("bench: %s: %w", b.Name, err)
			}
			f.Work = s.Work
			f.Values = append(f.Values, Value(b.Unit, s, false))
			walls = append(walls, Value(b.Unit, s, true))
		}
		f.Median, f.WallMedian = Median(f.Values), Median(walls)
		f.Min, f.Max = f.Values[0], f.Values[0]
		for _, v := range f.Values {
			f.Min, f.Max = min(f.Min, v), max(f.Max, v)
		}
		out = append(out, f)
	}
	return out, nil
}
