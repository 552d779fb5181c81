package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
)

func diffCommand() *cli.Command {
	flags := commonFlags()
	flags = append(flags, &cli.StringFlag{Name: "engine", Required: true,
		Usage: `the other engine's command; it is run as CMD VARIANT FEN DEPTH and prints one "MOVE COUNT" line per root move`})
	return &cli.Command{
		Name:  "diff",
		Usage: "find the first position where another engine's divide disagrees with rafle's",
		UsageText: "perft diff --engine CMD --variant V [--fen F] --depth N [--duplicates keep|unique]\n\n" +
			"Both divides are compared move by move (moves are read in any notation rafle accepts); the\n" +
			"search descends into the first move whose counts differ until the move lists themselves differ,\n" +
			"then prints that position and the missing, extra or miscounted moves. Exit status 1 when a\n" +
			"difference is found, 0 when the counts agree.",
		Flags:        flags,
		Action:       diffAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

// divideCounts maps each move to its leaf count, and keeps the notation to print.
type divideCounts struct {
	counts map[engine.Move]uint64
	names  map[engine.Move]string
	extra  map[string]uint64 // lines whose move rafle does not find legal
}

func diffAction(c *cli.Context) error {
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	argv := strings.Fields(c.String("engine"))
	if len(argv) == 0 {
		return cliutil.Usagef("--engine: empty command")
	}
	w := c.App.Writer
	v, p := cfg.variant, cfg.pos
	var line []string
	for depth := cfg.depth; depth >= 1; depth-- {
		ours, err := rafleDivide(c.Context, v, p, depth, cfg.opt)
		if err != nil {
			return err
		}
		theirs, err := engineDivide(c.Context, argv, v, p, depth)
		if err != nil {
			return err
		}
		var missing, extra, miscounted []string
		var next engine.Move // the miscounted move to descend into: the first by name
		for m, n := range ours.counts {
			t, ok := theirs.counts[m]
			switch {
			case !ok:
				missing = append(missing, fmt.Sprintf("%s %d", ours.names[m], n))
			case t != n:
				miscounted = append(miscounted, fmt.Sprintf("%s rafle %d, engine %d", ours.names[m], n, t))
				if len(miscounted) == 1 || ours.names[m] < ours.names[next] {
					next = m
				}
			}
		}
		for m, n := range theirs.counts {
			if _, ok := ours.counts[m]; !ok {
				extra = append(extra, fmt.Sprintf("%s %d", theirs.names[m], n))
			}
		}
		for text, n := range theirs.extra {
			extra = append(extra, fmt.Sprintf("%s %d", text, n))
		}
		if len(missing)+len(extra) > 0 || len(miscounted) > 0 && depth == 1 {
			fmt.Fprintf(w, "difference at depth %d after %s\nfen %s\n", depth, movesOrStart(line), v.FEN(p))
			report(w, "missing (rafle has, engine lacks)", missing)
			report(w, "extra (engine has, rafle lacks)", extra)
			report(w, "miscounted", miscounted)
			return fmt.Errorf("move generators differ at %s", v.FEN(p))
		}
		if len(miscounted) == 0 {
			fmt.Fprintf(w, "no difference: %s depth %d agrees move by move\n", v.FEN(p), depth)
			return nil
		}
		fmt.Fprintf(w, "depth %d: %d moves miscounted, descending into %s\n", depth, len(miscounted), ours.names[next])
		line = append(line, ours.names[next])
		p = p.Play(next)
	}
	return nil
}

func movesOrStart(line []string) string {
	if len(line) == 0 {
		return "the start position"
	}
	return strings.Join(line, " ")
}

func report(w io.Writer, title string, items []string) {
	if len(items) == 0 {
		return
	}
	sort.Strings(items)
	fmt.Fprintf(w, "%s:\n", title)
	for _, s := range items {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

func rafleDivide(ctx context.Context, v *engine.Variant, p engine.Position, depth int, opt engine.PerftOptions) (divideCounts, error) {
	entries, err := v.Divide(ctx, p, depth, opt)
	if err != nil {
		return divideCounts{}, err
	}
	d := divideCounts{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}}
	for _, e := range entries {
		d.counts[e.Move] += e.Nodes
		d.names[e.Move] = v.FormatMove(&p, e.Move, false)
	}
	return d, nil
}

// engineDivide runs the other engine and reads its "MOVE COUNT" lines. Blank lines and lines
// starting with '#' are ignored; a last line "total N" or "N" is allowed.
func engineDivide(ctx context.Context, argv []string, v *engine.Variant, p engine.Position, depth int) (divideCounts, error) {
	fen := v.FEN(p)
	args := append(append([]string{}, argv[1:]...), v.Name, fen, strconv.Itoa(depth))
	cmd := exec.CommandContext(ctx, argv[0], args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return divideCounts{}, fmt.Errorf("engine %q %s %q %d: %v: %s", argv[0], v.Name, fen, depth, err, strings.TrimSpace(stderr.String()))
	}
	d := divideCounts{counts: map[engine.Move]uint64{}, names: map[engine.Move]string{}, extra: map[string]uint64{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) == 1 || len(f) == 2 && strings.EqualFold(strings.TrimSuffix(f[0], ":"), "total") {
			continue // a total line
		}
		if len(f) != 2 {
			return d, fmt.Errorf("engine output line %d %q: want MOVE COUNT", n, sc.Text())
		}
		count, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return d, fmt.Errorf("engine output line %d: bad count %q", n, f[1])
		}
		m, err := v.ParseMove(&p, strings.TrimSuffix(f[0], ":"))
		if err != nil {
			d.extra[f[0]] += count
			continue
		}
		d.counts[m] += count
		d.names[m] = f[0]
	}
	return d, nil
}
