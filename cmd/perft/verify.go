package main

import (
	"fmt"
	"strings"
	"time"

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
		UsageText: "perft verify [--variant V] [--max-nodes N] [--threads N] [--hash MB]\n\n" +
			"Every row carries its source and its duplicate convention; rows marked 'both' are checked\n" +
			"with keep and with unique. Rows above --max-nodes are skipped and counted.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Usage: "only this variant (default: all)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
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
	opt, err := readOptions(c)
	if err != nil {
		return err
	}
	maxNodes := c.Uint64("max-nodes")
	type check struct {
		v   *engine.Variant
		pc  engine.PerftCase
		pos engine.Position
		dup engine.Duplicates
	}
	var checks []check
	var work uint64 // leaves to count, for the progress bar
	skipped := 0
	for _, v := range variants {
		cases, err := corpus.PerftSuite(v)
		if err != nil {
			return err
		}
		for _, pc := range cases {
			if pc.Nodes > maxNodes {
				skipped++
				continue
			}
			p, err := v.ParseFEN(pc.FEN)
			if err != nil {
				return err
			}
			for _, dup := range pc.Conventions() {
				checks = append(checks, check{v, pc, p, dup})
				work += pc.Nodes
			}
		}
	}
	label := func(i int) string {
		if i >= len(checks) {
			return "verify"
		}
		k := &checks[i]
		return fmt.Sprintf("verify %s %s depth %d, check %d of %d", k.v.Name, k.pc.Position, k.pc.Depth, i+1, len(checks))
	}
	// The bar moves by leaves counted, and names the check under way. It predicts no time
	// left: small rows count far fewer leaves a second than large ones (the table is cleared
	// for each), so a prediction from the first rows is hours too long.
	bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(work), label(0),
		progressbar.OptionSetPredictTime(false), progressbar.OptionSetElapsedTime(true))
	table := tablewriter.NewTable(c.App.Writer)
	table.Header("variant", "position", "depth", "duplicates", "expected", "got", "ok", "seconds", "source")
	failed := 0
	for i, k := range checks {
		if bar != nil && i > 0 {
			bar.Describe(label(i))
		}
		opt.Duplicates = k.dup
		start := time.Now()
		if i > 0 {
			fresh(opt)
		}
		got, err := k.v.Perft(c.Context, k.pos, k.pc.Depth, opt)
		if err != nil {
			// say what was done: the checks so far, then what stopped
			if bar != nil {
				bar.Exit()
			}
			if rerr := table.Render(); rerr != nil {
				return rerr
			}
			fmt.Fprintf(c.App.Writer, "stopped: %d of %d checks done, %d failed\n", i, len(checks), failed)
			return fmt.Errorf("%s %s depth %d: %w", k.v.Name, k.pc.Position, k.pc.Depth, err)
		}
		ok := "ok"
		if got != k.pc.Nodes {
			ok = "FAIL"
			failed++
		}
		if bar != nil {
			bar.Add64(int64(k.pc.Nodes))
		}
		if err := table.Append(k.v.Name, k.pc.Position, k.pc.Depth, k.dup.String(), k.pc.Nodes, got, ok,
			fmt.Sprintf("%.2f", time.Since(start).Seconds()), k.pc.Source); err != nil {
			return err
		}
	}
	if bar != nil {
		bar.Finish()
	}
	if err := table.Render(); err != nil {
		return err
	}
	names := make([]string, len(variants))
	for i, v := range variants {
		names[i] = v.Name
	}
	fmt.Fprintf(c.App.Writer, "%d checks (%s), %d failed; %d rows over --max-nodes %d skipped\n",
		len(checks), strings.Join(names, ", "), failed, skipped, maxNodes)
	if failed > 0 {
		return fmt.Errorf("%d published counts not matched", failed)
	}
	return nil
}
