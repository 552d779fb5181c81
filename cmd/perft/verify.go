package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/olekukonko/tablewriter"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:  "verify",
		Usage: "check rafle against the published perft counts shipped in corpus/perft",
		UsageText: "perft verify [--variant V] [--max-nodes N] [--jobs N] [--hash MB] [--verbose]\n\n" +
			"Every row carries its source and its duplicate convention; rows marked 'both' are checked\n" +
			"with keep and with unique. Rows above --max-nodes are skipped and counted. Prints one line\n" +
			"per variant and every failed check; --verbose prints every check.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Usage: "only this variant (default: all)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"V"}, Usage: "print the table of every check with its source (default: one line per variant, and the failed checks)"},
			&cli.Uint64Flag{Name: "max-nodes", Value: 100_000_000, Usage: "skip rows with more leaves than this"},
			threadsFlag(),
			hashFlag(),
		},
		Action:       verifyAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

func verifyAction(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	variants := engine.Variants()
	if name := c.String("variant"); name != "" {
		v, err := engine.Lookup(name)
		if err != nil {
			return cliutil.UsageError{Err: err}
		}
		variants = []*engine.Variant{v}
	}
	opt, _, err := readOptions(c)
	if err != nil {
		return err
	}
	maxNodes := c.Uint64("max-nodes")
	checks, skipped, err := corpus.PerftChecks(variants, maxNodes)
	if err != nil {
		return err
	}
	rep := newVerifyReport(c.App.Writer, c.Bool("verbose"))
	if err := runChecks(c, checks, opt, rep); err != nil {
		return err
	}
	if err := rep.render(); err != nil {
		return err
	}
	failed := rep.failed
	of := fmt.Sprintf("%d variants", len(variants))
	if len(variants) == 1 {
		of = variants[0].Name
	}
	fmt.Fprintf(c.App.Writer, "%d checks (%s), %d failed; %d rows over --max-nodes %d skipped\n",
		len(checks), of, failed, skipped, maxNodes)
	if failed > 0 {
		return fmt.Errorf("%d published counts not matched", failed)
	}
	return nil
}

// runChecks counts the checks in turn with opt, each timed without the clearing of the
// table, into rep, under a progress bar. A count that fails stops them: the checks done
// are printed, and what stopped.
func runChecks(c *cli.Context, checks []corpus.PerftCheck, opt engine.PerftOptions, rep *verifyReport) error {
	var work uint64 // leaves to count, for the progress bar
	for _, k := range checks {
		work += k.Case.Nodes
	}
	label := func(i int) string {
		if i >= len(checks) {
			return "verify"
		}
		k := &checks[i]
		return fmt.Sprintf("verify %s %s depth %d, check %d of %d", k.Variant.Name, k.Case.Position, k.Case.Depth, i+1, len(checks))
	}
	// The bar moves by leaves counted, and names the check under way. It predicts no time
	// left: small rows count far fewer leaves a second than large ones (the table is cleared
	// for each), so a prediction from the first rows is hours too long.
	bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(work), label(0),
		progressbar.OptionSetPredictTime(false), progressbar.OptionSetElapsedTime(true))
	for i, k := range checks {
		if bar != nil && i > 0 {
			bar.Describe(label(i))
		}
		opt.Duplicates = k.Duplicates
		if i > 0 {
			fresh(opt) // outside the time of the check
		}
		start := now()
		got, err := k.Variant.Perft(c.Context, k.Position, k.Case.Depth, opt)
		if err != nil {
			// say what was done: the checks so far, then what stopped
			if bar != nil {
				bar.Exit()
			}
			if rerr := rep.render(); rerr != nil {
				return rerr
			}
			fmt.Fprintf(c.App.Writer, "stopped: %d of %d checks done, %d failed\n", i, len(checks), rep.failed)
			return fmt.Errorf("%s %s depth %d: %w", k.Variant.Name, k.Case.Position, k.Case.Depth, err)
		}
		if bar != nil {
			bar.Add64(int64(k.Case.Nodes))
		}
		rep.add(verifyRow{k.Variant.Name, k.Case, k.Duplicates, got, now().Sub(start).Seconds()})
	}
	if bar != nil {
		bar.Finish()
	}
	return nil
}

// verifyRow is one check of verify: a published count and rafle's.
type verifyRow struct {
	variant string
	pc      engine.PerftCase
	dup     engine.Duplicates
	got     uint64
	seconds float64
}

func (r verifyRow) ok() bool { return r.got == r.pc.Nodes }

// verifyReport prints verify's checks: every one in a table (verbose), or one line per
// variant followed by the table of the failed checks.
type verifyReport struct {
	w       io.Writer
	verbose bool
	rows    []verifyRow
	failed  int
}

func newVerifyReport(w io.Writer, verbose bool) *verifyReport {
	return &verifyReport{w: w, verbose: verbose}
}

func (r *verifyReport) add(row verifyRow) {
	r.rows = append(r.rows, row)
	if !row.ok() {
		r.failed++
	}
}

func (r *verifyReport) render() error {
	if len(r.rows) == 0 {
		return nil
	}
	if !r.verbose {
		if err := r.summary(); err != nil {
			return err
		}
	}
	var rows []verifyRow
	for _, row := range r.rows {
		if r.verbose || !row.ok() {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if !r.verbose {
		if _, err := fmt.Fprintln(r.w, "\nfailed:"); err != nil {
			return err
		}
	}
	table := tablewriter.NewTable(r.w)
	table.Header("variant", "position", "depth", "duplicates", "expected", "got", "ok", "seconds", "source")
	for _, row := range rows {
		ok := "ok"
		if !row.ok() {
			ok = "FAIL"
		}
		if err := table.Append(row.variant, row.pc.Position, row.pc.Depth, row.dup.String(), row.pc.Nodes, row.got, ok,
			fmt.Sprintf("%.2f", row.seconds), row.pc.Source); err != nil {
			return err
		}
	}
	return table.Render()
}

// summary prints one line per variant: its positions, the deepest count, the checks, the
// failed ones, the leaves counted and the time.
func (r *verifyReport) summary() error {
	type sum struct {
		checks, failed int
		depth          int
		positions      []string
		leaves         uint64
		seconds        float64
	}
	var order []string
	sums := map[string]*sum{}
	for _, row := range r.rows {
		s := sums[row.variant]
		if s == nil {
			s = &sum{}
			sums[row.variant] = s
			order = append(order, row.variant)
		}
		s.checks++
		if !row.ok() {
			s.failed++
		}
		if !slices.Contains(s.positions, row.pc.Position) {
			s.positions = append(s.positions, row.pc.Position)
		}
		s.leaves += row.pc.Nodes
		s.depth = max(s.depth, row.pc.Depth)
		s.seconds += row.seconds
	}
	if _, err := fmt.Fprintf(r.w, "%-14s %9s %6s %6s %6s %16s %9s\n", "variant", "positions", "depth", "checks", "failed", "leaves", "seconds"); err != nil {
		return err
	}
	for _, name := range order {
		s := sums[name]
		if _, err := fmt.Fprintf(r.w, "%-14s %9d %6d %6d %6d %16d %9.2f\n", name, len(s.positions), s.depth, s.checks, s.failed, s.leaves, s.seconds); err != nil {
			return err
		}
	}
	return nil
}
