package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/benchmarks/bench"
)

var oneBench = []bench.Benchmark{{Name: "spin", Unit: "iters/s"}}

// noisyRunner returns a runner whose throughput is base speed times factor[side] times
// noise drawn from rng: a per-round machine load shared by both sides of a round (the
// drift that interleaving cancels) and a small independent jitter per run.
func noisyRunner(seed uint64, factor [2]float64, drift, jitter float64) Runner {
	rng := rand.New(rand.NewPCG(seed, 1))
	load, runs := 1.0, 0
	return func(ctx context.Context, side Side, name string) (bench.Sample, error) {
		if runs%2 == 0 {
			load = 1 + drift*rng.Float64() // both runs of a round share it
		}
		runs++
		cpu := time.Duration(float64(100*time.Millisecond) * load * (1 + jitter*rng.NormFloat64()) * factor[side])
		return bench.Sample{Work: 1e6, CPU: cpu, Wall: cpu}, nil
	}
}

// TestRunGate: a planted 1.5x slowdown fails the gate, identical builds pass, under
// heavy drift between rounds (up to 60%) and 3% jitter between runs, in short mode (6
// rounds) and full mode (10 rounds), over many seeds.
func TestRunGate(t *testing.T) {
	for _, rounds := range []int{6, 10} {
		for seed := uint64(1); seed <= 50; seed++ {
			cfg := Config{Benchmarks: oneBench, Rounds: rounds, Threshold: 0.10, Confidence: 0.95}
			rep, err := Run(context.Background(), cfg, noisyRunner(seed, [2]float64{1, 1.5}, 0.6, 0.03))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Rows[0]; got.Verdict != Regression {
				t.Errorf("rounds %d, seed %d: 1.5x slower: verdict %s (%+v), want %s", rounds, seed, got.Verdict, got.Ratio, Regression)
			}
			rep, err = Run(context.Background(), cfg, noisyRunner(seed, [2]float64{1, 1}, 0.6, 0.03))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Rows[0]; got.Verdict == Regression {
				t.Errorf("rounds %d, seed %d: identical: verdict %s (%+v)", rounds, seed, got.Verdict, got.Ratio)
			}
		}
	}
}

// TestRunGateSmallSlowdown: a 5% slowdown is below the 10% threshold: never a regression.
func TestRunGateSmallSlowdown(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		cfg := Config{Benchmarks: oneBench, Rounds: 10, Threshold: 0.10}
		rep, err := Run(context.Background(), cfg, noisyRunner(seed, [2]float64{1, 1.05}, 0.6, 0.02))
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Rows[0]; got.Verdict == Regression {
			t.Errorf("seed %d: 5%% slower: verdict %s (%+v)", seed, got.Verdict, got.Ratio)
		}
	}
}

// TestRunGateRealCPU measures real work in CPU time: the new side spins 1.5 times as long
// for the same work. It shows the gate on this machine's own noise.
func TestRunGateRealCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("burns CPU for a few seconds")
	}
	spin := func(factor float64) bench.Workload {
		return func(ctx context.Context) (float64, error) {
			c0 := bench.CPUTime()
			end := c0 + time.Duration(factor*float64(20*time.Millisecond))
			bench.Spin(func() bool { return bench.CPUTime() >= end })
			return 1, nil
		}
	}
	for _, tc := range []struct {
		name    string
		factor  float64
		regress bool
	}{{"planted 1.5x", 1.5, true}, {"identical", 1, false}} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(ctx context.Context, side Side, name string) (bench.Sample, error) {
				f := 1.0
				if side == New {
					f = tc.factor
				}
				return bench.Measure(ctx, spin(f), 1)
			}
			rep, err := Run(context.Background(), Config{Benchmarks: oneBench, Rounds: 6, Threshold: 0.10}, run)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			rep.WriteTable(&b)
			if got := len(rep.Regressions()) > 0; got != tc.regress {
				t.Errorf("regression %v, want %v:\n%s", got, tc.regress, b.String())
			}
		})
	}
}

func TestRunOrderAndSkip(t *testing.T) {
	var order []string
	run := func(ctx context.Context, side Side, name string) (bench.Sample, error) {
		if name == "gone" {
			return bench.Sample{}, fmt.Errorf("no corpus: %w", bench.ErrSkip)
		}
		order = append(order, side.String())
		return bench.Sample{Work: 1, CPU: time.Second}, nil
	}
	bs := []bench.Benchmark{{Name: "a"}, {Name: "gone"}}
	rep, err := Run(context.Background(), Config{Benchmarks: bs, Rounds: 4, Threshold: 0.1}, run)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(order, " "), "base new new base base new new base"; got != want {
		t.Errorf("run order %q, want %q (ABBA)", got, want)
	}
	if rep.Rows[1].Skipped == "" || rep.Rows[0].Verdict != Same {
		t.Errorf("rows %+v: want a skipped second row and ~ for the first", rep.Rows)
	}
}

// TestRunGateAmount: for an amount where lower is better (peak memory, MiB), the figure is
// the work itself, not work per second; more by 1.5 times is a regression, less never is,
// whatever the CPU time of the runs.
func TestRunGateAmount(t *testing.T) {
	mem := []bench.Benchmark{{Name: "memory/x", Unit: bench.MiB}}
	for _, tc := range []struct {
		factor float64
		want   Verdict
	}{{1.5, Regression}, {1.05, More}, {1, Same}, {0.5, Less}} {
		rng := rand.New(rand.NewPCG(1, 2))
		run := func(ctx context.Context, side Side, name string) (bench.Sample, error) {
			mib := 100.0
			if side == New {
				mib *= tc.factor
			}
			cpu := time.Duration(float64(time.Second) * (0.5 + rng.Float64())) // unrelated to the figure
			return bench.Sample{Work: mib, CPU: cpu, Wall: cpu}, nil
		}
		rep, err := Run(context.Background(), Config{Benchmarks: mem, Rounds: 6, Threshold: 0.10}, run)
		if err != nil {
			t.Fatal(err)
		}
		row := rep.Rows[0]
		if row.Verdict != tc.want || bench.Median(row.New) != 100*tc.factor {
			t.Errorf("new = %g x base: verdict %s, new median %g; want %s and %g", tc.factor, row.Verdict, bench.Median(row.New), tc.want, 100*tc.factor)
		}
	}
}
