package compare

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rafle/rafle/benchmarks/bench"
)

// Side says which build a run uses.
type Side int

// The two builds.
const (
	Base Side = iota
	New
)

func (s Side) String() string {
	if s == Base {
		return "base"
	}
	return "new"
}

// Runner runs one benchmark once on one side and returns the sample, as the benchmark
// binary's exec subcommand measures it. A benchmark that cannot run returns an error
// wrapping bench.ErrSkip.
type Runner func(ctx context.Context, side Side, name string) (bench.Sample, error)

// Config configures Run.
type Config struct {
	// Benchmarks are the names of the benchmarks to compare, with their units.
	Benchmarks []bench.Benchmark
	// Rounds is the number of pairs of runs per benchmark.
	Rounds int
	// Threshold is the slowdown that fails the gate with confidence (0.10: 10%).
	Threshold float64
	// Confidence is the wanted coverage of the intervals (0.95).
	Confidence float64
	// Wall compares wall-time throughputs instead of CPU-time ones.
	Wall bool
	// Progress, if not nil, is called after each run.
	Progress func(round int, side Side, name string, s bench.Sample)
}

// Row is the comparison of one benchmark.
type Row struct {
	Name, Unit string
	// Base and New are the throughputs of the rounds, paired by index (for an amount such
	// as MiB, where lower is better, the amounts).
	Base, New []float64
	Ratio
	Verdict Verdict
	// WorkDiffers is set when the two builds did different amounts of work (a change of
	// behaviour, such as the number of nodes of a search).
	WorkDiffers bool
	// Skipped says why the benchmark was not compared.
	Skipped string
}

// Report is the outcome of Run.
type Report struct {
	Rows      []Row
	Threshold float64
}

// Regressions returns the rows whose verdict is Regression.
func (r *Report) Regressions() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Verdict == Regression {
			out = append(out, row)
		}
	}
	return out
}

// Run compares the benchmarks of cfg: in each round it runs every benchmark on both
// sides, alternating which side goes first (ABBA), and then judges each benchmark's
// paired ratios.
func Run(ctx context.Context, cfg Config, run Runner) (*Report, error) {
	rounds := max(cfg.Rounds, 1)
	conf := cfg.Confidence
	if conf == 0 {
		conf = 0.95
	}
	rows := make([]Row, len(cfg.Benchmarks))
	for i, b := range cfg.Benchmarks {
		rows[i] = Row{Name: b.Name, Unit: b.Unit}
	}
	for round := 0; round < rounds; round++ {
		for i := range rows {
			row := &rows[i]
			if row.Skipped != "" {
				continue
			}
			order := [2]Side{Base, New}
			if (round+i)%2 == 1 {
				order = [2]Side{New, Base}
			}
			var got [2]bench.Sample
			for _, side := range order {
				s, err := run(ctx, side, row.Name)
				if err != nil {
					if errors.Is(err, bench.ErrSkip) {
						row.Skipped = fmt.Sprintf("%s: %v", side, err)
						break
					}
					return nil, fmt.Errorf("compare: %s (%s): %w", row.Name, side, err)
				}
				got[side] = s
				if cfg.Progress != nil {
					cfg.Progress(round, side, row.Name, s)
				}
			}
			if row.Skipped != "" {
				continue
			}
			if got[Base].Work != got[New].Work && !bench.LowerIsBetter(row.Unit) { // an amount is the work
				row.WorkDiffers = true
			}
			row.Base = append(row.Base, bench.Value(row.Unit, got[Base], cfg.Wall))
			row.New = append(row.New, bench.Value(row.Unit, got[New], cfg.Wall))
		}
	}
	for i := range rows {
		row := &rows[i]
		if row.Skipped != "" || len(row.Base) == 0 {
			continue
		}
		row.Ratio = PairedRatio(row.Base, row.New, conf)
		row.Verdict = Judge(row.Ratio, cfg.Threshold)
		if bench.LowerIsBetter(row.Unit) {
			row.Verdict = JudgeAmount(row.Ratio, cfg.Threshold)
		}
	}
	return &Report{Rows: rows, Threshold: cfg.Threshold}, nil
}

// WriteTable writes the report as a text table: per benchmark the median throughputs,
// the ratio new/base with its interval, and the verdict.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tunit\tbase\tnew\tnew/base\tinterval\tconf\tn\tverdict\t")
	for _, row := range r.Rows {
		if row.Skipped != "" {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t\tskipped\t  %s\n", row.Name, row.Unit, row.Skipped)
			continue
		}
		note := ""
		if row.WorkDiffers {
			note = "  (work differs: behaviour changed)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.3f\t[%.3f, %.3f]\t%.0f%%\t%d\t%s\t%s\n", row.Name, row.Unit,
			bench.SI(bench.Median(row.Base)), bench.SI(bench.Median(row.New)), row.Ratio.Ratio, row.Lo, row.Hi,
			100*row.Confidence, row.N, row.Verdict, note)
	}
	return tw.Flush()
}
