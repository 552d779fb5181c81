package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/internal/shellwords"
	"github.com/rafle/rafle/pkg/perftdiff"
)

func diffCommand() *cli.Command {
	flags := commonFlags()
	flags = append(flags, &cli.StringFlag{Name: "engine", Required: true,
		Usage: `the other engine's command line, split as a shell would ("'/opt/my engine' --perft"); ` +
			`it is run with VARIANT FEN DEPTH added and prints one "MOVE COUNT" line per root move`},
		&cli.DurationFlag{Name: "engine-timeout", Value: perftdiff.DefaultEngineTimeout,
			Usage: "how long the other engine may take for one divide before it is stopped and diff fails"})
	return &cli.Command{
		Name:  "diff",
		Usage: "find the first position where another engine's divide disagrees with rafle's",
		UsageText: "perft diff --engine CMD --variant V [--fen F|NAME] --depth N [--duplicates keep|unique|paths] [--format text|json]\n\n" +
			"Both divides are compared move by move (moves are read in any notation rafle accepts); the\n" +
			"search descends into the first move whose counts differ until the move lists themselves differ,\n" +
			"then prints that position and the missing, extra or miscounted moves. A miscount that does not\n" +
			"reproduce below is a difference too: the engine's count contradicts its own divide. Lines of\n" +
			"the engine's output other than MOVE COUNT are ignored; a total (\"Nodes searched: N\", \"total N\"\n" +
			"or a lone number) must be the sum of its moves. The output is bounded (" + strconv.Itoa(perftdiff.MaxEngineBytes>>10) +
			" KiB, lines of " + strconv.Itoa(perftdiff.MaxEngineLine) + " bytes).\n" +
			"Exit status 1 when a difference is found, 0 when the counts agree.",
		Flags:        flags,
		Action:       diffAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

func diffAction(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	argv, err := shellwords.Split(c.String("engine"))
	if err != nil {
		return cliutil.Usagef("--engine: %v", err)
	}
	if len(argv) == 0 {
		return cliutil.Usagef("--engine: empty command")
	}
	timeout := c.Duration("engine-timeout")
	if timeout <= 0 {
		return cliutil.Usagef("--engine-timeout %v: must be positive", timeout)
	}
	w := c.App.Writer
	st, err := perftdiff.Search(c.Context, cfg.variant, cfg.pos, cfg.depth, perftdiff.Rafle(cfg.opt), perftdiff.Engine(argv, timeout),
		func(st *perftdiff.Step) error { return printStep(w, cfg.json, st) })
	switch {
	case err != nil:
		return err
	case st.Result != perftdiff.Difference:
		return nil
	case st.Reason != "" && len(st.Missing)+len(st.Extra) == 0:
		return fmt.Errorf("the engine's counts contradict its own divide at %s", st.FEN)
	}
	return fmt.Errorf("move generators differ at %s", st.FEN)
}

// printStep prints one step of the search: a line of JSON, or text.
func printStep(w io.Writer, asJSON bool, st *perftdiff.Step) error {
	if asJSON {
		return json.NewEncoder(w).Encode(st)
	}
	var err error
	switch st.Result {
	case perftdiff.Agree:
		_, err = fmt.Fprintf(w, "no difference: %s depth %d agrees move by move\n", st.FEN, st.Depth)
	case perftdiff.Descend:
		_, err = fmt.Fprintf(w, "depth %d: %d miscounted, descending into %s\n", st.Depth, len(st.Miscounted), st.Next)
	case perftdiff.Difference:
		fmt.Fprintf(w, "difference at depth %d after %s\nfen %s\n", st.Depth, perftdiff.Line(st.After), st.FEN)
		report(w, "missing (rafle has, engine lacks)", st.Missing)
		report(w, "extra (engine has, rafle lacks)", st.Extra)
		report(w, "miscounted", st.Miscounted)
		if st.Reason != "" {
			_, err = fmt.Fprintln(w, st.Reason)
		}
	}
	return err
}

// report lists items under a title, if any.
func report(w io.Writer, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "%s:\n", title)
	for _, s := range items {
		fmt.Fprintf(w, "  %s\n", s)
	}
}
