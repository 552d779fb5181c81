package main

import (
	"fmt"
	"runtime"
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
			&cli.IntFlag{Name: "threads", Aliases: []string{"t"}, Value: runtime.NumCPU(), Usage: "threads"},
			&cli.IntFlag{Name: "hash", Value: 64, Usage: "transposition table size in MiB (0: none)"},
		},
		Action:       verifyAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

func verifyAction(c *cli.Context) error {
	variants := engine.Variants()
	if name := c.String("variant"); name != "" {
		v, err := engine.Lookup(name)
		if err != nil {
			return cliutil.UsageError{Err: err}
		}
		variants = []*engine.Variant{v}
	}
	opt := engine.PerftOptions{Threads: c.Int("threads"), HashMB: c.Int("hash")}
	if opt.Threads < 1 || opt.HashMB < 0 {
		return cliutil.Usagef("--threads must be at least 1 and --hash at least 0")
	}
	maxNodes := c.Uint64("max-nodes")
	var work uint64 // leaves to count, for the progress bar
	suites := map[*engine.Variant][]engine.PerftCase{}
	for _, v := range variants {
		cases, err := corpus.PerftSuite(v)
		if err != nil {
			return err
		}
		suites[v] = cases
		for _, pc := range cases {
			if pc.Nodes <= maxNodes {
				work += pc.Nodes * uint64(len(pc.Conventions()))
			}
		}
	}
	bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(work), "verify", progressbar.OptionShowCount())
	table := tablewriter.NewTable(c.App.Writer)
	table.Header("variant", "position", "depth", "duplicates", "expected", "got", "ok", "seconds", "source")
	checked, skipped, failed := 0, 0, 0
	for _, v := range variants {
		for _, pc := range suites[v] {
			if pc.Nodes > maxNodes {
				skipped++
				continue
			}
			p, err := v.ParseFEN(pc.FEN)
			if err != nil {
				return err
			}
			for _, dup := range pc.Conventions() {
				opt.Duplicates = dup
				start := time.Now()
				got, err := v.Perft(c.Context, p, pc.Depth, opt)
				if err != nil {
					return err
				}
				ok := "ok"
				if got != pc.Nodes {
					ok = "FAIL"
					failed++
				}
				checked++
				if bar != nil {
					bar.Add64(int64(pc.Nodes))
				}
				if err := table.Append(v.Name, pc.Position, pc.Depth, dup.String(), pc.Nodes, got, ok,
					fmt.Sprintf("%.2f", time.Since(start).Seconds()), pc.Source); err != nil {
					return err
				}
			}
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
		checked, strings.Join(names, ", "), failed, skipped, maxNodes)
	if failed > 0 {
		return fmt.Errorf("%d published counts not matched", failed)
	}
	return nil
}
