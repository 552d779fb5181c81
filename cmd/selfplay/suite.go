package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/search"
)

// suiteCommand is "selfplay suite": an engine scored on test suites.
func suiteCommand() *cli.Command {
	return &cli.Command{
		Name:  "suite",
		Usage: "score an engine on test suites: positions with the moves that solve them",
		UsageText: "selfplay suite --variant V (--player P | --engine name=NAME,cmd=PATH,...) [--depth D | --nodes N | --movetime T]\n" +
			"       [--engine-start D] [--format text|json] [--quiet] [SUITE...]",
		Description: "Puts each position of each SUITE (a file, or - for standard input; none: the suite shipped\n" +
			"for the variant) to one of rafle's players or to an external engine (Hub or DXP, as\n" +
			"--engine of a match gives it), one at a time, and says which it solved: its move is one\n" +
			"of the winning moves (wm) when the line gives them, else one of the best moves (bm), and\n" +
			"none of the moves to avoid (am). A suite is JSON lines as 'egdb suite' writes them, or\n" +
			"EPD-like lines 'FEN bm MOVES; am MOVES; id \"NAME\";' (docs/suites.md). --depth, --nodes\n" +
			"and --movetime replace the player's or the engine's own limits. Prints a table of every\n" +
			"position with the move, depth, nodes and time of the search, then the unsolved ones with\n" +
			"their position. A line that cannot be read is named (file:line) on stderr and left out.\n" +
			"Exit status 0 when every position was read and solved, 1 otherwise, 2 for a bad command line.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "english", Usage: "variant of the suites: " + strings.Join(engine.Names(), ", ")},
			&cli.StringFlag{Name: "player", Aliases: []string{"p"}, Usage: "one of rafle's players: easy, medium, hard or a search spec such as depth=10"},
			&cli.StringFlag{Name: "engine", Usage: "an external engine, as selfplay --engine gives it (docs/engines.md)"},
			&cli.IntFlag{Name: "depth", Usage: "search each position to this depth in plies"},
			&cli.Int64Flag{Name: "nodes", Usage: "search each position this many nodes"},
			&cli.DurationFlag{Name: "movetime", Usage: "search each position this long"},
			&cli.DurationFlag{Name: "engine-start", Value: 10 * time.Second, Usage: "how long the engine may take to start and answer the handshake"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
		}, cliutil.FormatFlags("one object")...),
		Action:       suiteAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

func suiteAction(c *cli.Context) error {
	asJSON, err := cliutil.JSONOutput(c)
	if err != nil {
		return err
	}
	v, err := engine.Lookup(c.String("variant"))
	if err != nil {
		return cliutil.UsageError{Err: fmt.Errorf("--variant: %w", err)}
	}
	opt := match.SuiteOptions{HandshakeTimeout: c.Duration("engine-start")}
	if opt.HandshakeTimeout <= 0 {
		return cliutil.Usagef("--engine-start %v: must be positive", opt.HandshakeTimeout)
	}
	depth, nodes, movetime := c.Int("depth"), c.Int64("nodes"), c.Duration("movetime")
	switch {
	case c.IsSet("depth") && (depth < 1 || depth > search.MaxDepth):
		return cliutil.Usagef("--depth %d: out of range (1-%d)", depth, search.MaxDepth)
	case c.IsSet("nodes") && nodes < 1:
		return cliutil.Usagef("--nodes %d: must be positive", nodes)
	case c.IsSet("movetime") && movetime <= 0:
		return cliutil.Usagef("--movetime %v: must be positive", movetime)
	}
	limited := c.IsSet("depth") || c.IsSet("nodes") || c.IsSet("movetime")
	switch {
	case c.IsSet("player") == c.IsSet("engine"):
		return cliutil.Usagef("give one of --player and --engine")
	case c.IsSet("player"):
		ps, err := search.ParsePlayer(c.String("player"))
		if err != nil {
			return cliutil.UsageError{Err: fmt.Errorf("--player: %w", err)}
		}
		if limited {
			ps.Limits = search.Limits{Depth: depth, Nodes: nodes, MoveTime: movetime, NoQuiescence: ps.Limits.NoQuiescence}
		}
		if err := cliutil.CheckMemory("--player hash=", int64(ps.HashMiB())); err != nil {
			return err
		}
		opt.Player = &ps
	default:
		spec, err := match.ParseEngineSpec(c.String("engine"))
		if err != nil {
			return cliutil.UsageError{Err: fmt.Errorf("--engine: %w", err)}
		}
		if limited {
			if spec.Proto == "dxp" && (depth > 0 || nodes > 0) {
				return cliutil.Usagef("--depth and --nodes: a DXP engine takes only a clock (--movetime)")
			}
			tc := &spec.Control
			tc.Moves, tc.Base, tc.Inc = 0, 0, 0
			tc.MoveTime, tc.Depth, tc.Nodes = movetime, depth, nodes
		}
		opt.Engine = &spec
	}
	positions, readErr := readSuites(c, v)
	for _, e := range splitErrors(readErr) {
		fmt.Fprintf(c.App.ErrWriter, "selfplay: %v\n", e)
	}
	if len(positions) == 0 {
		if readErr != nil {
			return errors.New("suite: no position could be read")
		}
		return errors.New("suite: the suites hold no position")
	}
	bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(len(positions)), "positions")
	if bar != nil {
		opt.Progress = func(done int) { bar.Set(done) }
	}
	rep, err := match.RunSuite(c.Context, v, positions, opt)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	w := c.App.Writer
	if asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", b)
	} else if err := writeSuite(w, rep); err != nil {
		return err
	}
	if rep.Solved < rep.Total {
		return fmt.Errorf("suite: %s solved %d of %d positions", rep.Engine, rep.Solved, rep.Total)
	}
	if readErr != nil {
		return fmt.Errorf("suite: %d lines could not be read (above)", len(splitErrors(readErr)))
	}
	return nil
}

// splitErrors returns the errors joined in err (errors.Join), or err alone.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// readSuites reads the suites named on the command line (- for standard input), or the
// variant's shipped suite when none is named. A file that cannot be opened stops the
// command; lines that cannot be read are returned joined in the error, with the others.
func readSuites(c *cli.Context, v *engine.Variant) ([]match.SuitePosition, error) {
	if c.NArg() == 0 {
		data, path, err := corpus.Suite(v.Name)
		if err != nil {
			return nil, cliutil.UsageError{Err: fmt.Errorf("no SUITE given, and %w", err)}
		}
		return match.ReadSuite(bytes.NewReader(data), "corpus/"+path, v)
	}
	var all []match.SuitePosition
	var errs []error
	for _, name := range c.Args().Slice() {
		var r io.Reader
		if name == "-" {
			r, _ = c.Context.Value(stdinKey{}).(io.Reader)
			if r == nil {
				r = os.Stdin
			}
			name = "stdin"
		} else {
			f, err := os.Open(name)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r = f
		}
		ps, err := match.ReadSuite(r, name, v)
		all = append(all, ps...)
		if err != nil {
			errs = append(errs, splitErrors(err)...)
		}
	}
	return all, errors.Join(errs...)
}

// writeSuite prints the report: a table of every position, the count solved, and each
// unsolved position with the engine's move.
func writeSuite(w io.Writer, rep *match.SuiteReport) error {
	fmt.Fprintf(w, "%s, %s (%s): %d positions\n", rep.Variant, rep.Engine, rep.Limits, rep.Total)
	t := newTable(w)
	t.Header([]string{"id", "result", "move", "solution", "depth", "nodes", "time"})
	for _, r := range rep.Results {
		result := "solved"
		if !r.Solved {
			result = "FAIL"
		}
		depth, nodes := "", ""
		if r.Depth > 0 || r.Nodes > 0 {
			depth, nodes = strconv.Itoa(r.Depth), strconv.FormatInt(r.Nodes, 10)
		}
		if err := t.Append([]string{suiteName(r), result, r.Move, solution(r.SuitePosition), depth, nodes,
			roundDuration(r.Elapsed)}); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(w, "solved %d of %d (%.1f%%)\n", rep.Solved, rep.Total, 100*float64(rep.Solved)/float64(max(rep.Total, 1)))
	first := true
	for _, r := range rep.Results {
		if r.Solved {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nnot solved:")
			first = false
		}
		fmt.Fprintf(w, "%s (%s:%d)\n  position %s\n", suiteName(r), r.File, r.Line, r.FEN)
		played := r.Move
		if played == "" {
			played = "no move"
		}
		fmt.Fprintf(w, "  played %s, wanted %s\n", played, solution(r.SuitePosition))
		if r.Error != "" {
			fmt.Fprintf(w, "  %s\n", r.Error)
		}
	}
	return nil
}

// roundDuration writes d with three or four significant digits: 382µs, 1.23ms, 1.234s.
func roundDuration(d time.Duration) string {
	if d < time.Second {
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// suiteName is the position's id, or its place in the suite.
func suiteName(r match.SuiteResult) string {
	if r.ID != "" {
		return r.ID
	}
	return fmt.Sprintf("%s:%d", r.File, r.Line)
}

// solution writes what solves sp: "wm 6-9 6-10", "bm 9-14", "am 11-15", or both.
func solution(sp match.SuitePosition) string {
	var parts []string
	switch {
	case len(sp.Winning) > 0:
		parts = append(parts, "wm "+strings.Join(sp.Winning, " "))
	case len(sp.Best) > 0:
		parts = append(parts, "bm "+strings.Join(sp.Best, " "))
	}
	if len(sp.Avoid) > 0 {
		parts = append(parts, "am "+strings.Join(sp.Avoid, " "))
	}
	return strings.Join(parts, "; ")
}
