package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check games and report warnings and errors by file, game, line and column",
		UsageText: "pdn validate [--syntax-only] [--variant NAME] [--strict] [--json] [-j N] [FILE...]",
		Description: "Reads every game and replays its moves with the rules of its variant: the GameType tag,\n" +
			"else --variant when the squares fit its board, else inferred (square numbers above 50:\n" +
			"canadian; above 32: international; algebraic squares: russian; else english). Short\n" +
			"captures are resolved to the legal capture; illegal and ambiguous moves and bad FEN tags\n" +
			"are errors reported with file, game, line, column, move number, move and the position\n" +
			"before it. Variations are replayed too (their errors are warnings). A GameType the engine\n" +
			"does not play is a warning (unsupported-variant), and so is a result that contradicts a\n" +
			"final position without legal moves (result-contradicts-position; the first number of a\n" +
			"result is the first mover's).\n" +
			"Counts games, moves, warnings and errors per file and in total. --json prints every problem\n" +
			"as a JSON line (file, game, line, column, level, kind, message) and then the counts.\n" +
			"Exit status 1 when any game has an error. --strict makes anything outside the PDN 3.0\n" +
			"reading grammar an error. Output is in input order whatever -j is.",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.BoolFlag{Name: "syntax-only", Usage: "check syntax only, without replaying moves"},
			&cli.StringFlag{Name: "variant", Usage: "variant of games without a GameType tag (default: inferred)"},
			&cli.BoolFlag{Name: "json", Usage: "JSON lines output"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "all cores",
				Usage: "goroutines: files read in parallel, a large file in pieces, and games replayed in parallel"},
		}),
		OnUsageError: cliutil.OnUsageError,
		Action:       validateAction,
	}
}

// replayer returns the replay settings from --variant.
func replayer(c *cli.Context) (*pdn.Replayer, error) {
	rp := &pdn.Replayer{}
	if name := c.String("variant"); name != "" {
		v, err := engine.Lookup(name)
		if err != nil {
			return nil, cliutil.UsageError{Err: err}
		}
		rp.Default = v
	}
	return rp, nil
}

func validateAction(c *cli.Context) error {
	if c.Int("jobs") < 1 {
		return cliutil.Usagef("--jobs %d: must be at least 1", c.Int("jobs"))
	}
	opt := pdn.ValidateOptions{Jobs: c.Int("jobs")}
	if !c.Bool("syntax-only") {
		rp, err := replayer(c)
		if err != nil {
			return err
		}
		opt.Replay = rp
	}
	job, done, err := readJob(c)
	if err != nil {
		return err
	}
	out := c.App.Writer
	asJSON := c.Bool("json")
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if asJSON {
		opt.Problem = func(p pdn.Problem) { enc.Encode(p) }
	}
	sums, err := pdn.Validate(job, opt)
	done()
	total := &pdn.Summary{File: "total", Warnings: map[string]int{}, Errors: map[string]int{}}
	for _, s := range sums {
		total.Add(s)
	}
	if asJSON {
		if eerr := enc.Encode(struct {
			Files []*pdn.Summary `json:"files"`
			Total *pdn.Summary   `json:"total"`
		}{sums, total}); eerr != nil {
			return eerr
		}
	} else if rerr := renderSummaries(out, sums, total, opt.Replay != nil); rerr != nil {
		return rerr
	}
	if err != nil {
		return err
	}
	if total.GamesWithErrors > 0 {
		return fmt.Errorf("%d of %d games have errors", total.GamesWithErrors, total.Games)
	}
	return nil
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func renderSummaries(w io.Writer, sums []*pdn.Summary, total *pdn.Summary, replayed bool) error {
	t := tablewriter.NewTable(w)
	header := []string{"file", "games", "moves", "warnings", "errors", "games with errors"}
	if replayed {
		header = append(header, "replayed")
	}
	t.Header(header)
	rows := append(append([]*pdn.Summary(nil), sums...), total)
	for _, s := range rows {
		row := []string{s.File, strconv.Itoa(s.Games), strconv.Itoa(s.Moves), strconv.Itoa(sumCounts(s.Warnings)),
			strconv.Itoa(sumCounts(s.Errors)), strconv.Itoa(s.GamesWithErrors)}
		if replayed {
			row = append(row, strconv.Itoa(s.Replayed))
		}
		if err := t.Append(row); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if len(total.Warnings)+len(total.Errors)+len(total.Variants) == 0 {
		return nil
	}
	t = tablewriter.NewTable(w)
	t.Header("file", "level", "kind", "count")
	for _, s := range rows {
		for _, lv := range []struct {
			name string
			m    map[string]int
		}{{"error", s.Errors}, {"warning", s.Warnings}, {"variant", s.Variants}} {
			for _, k := range sortedKeys(lv.m) {
				if err := t.Append(s.File, lv.name, k, strconv.Itoa(lv.m[k])); err != nil {
					return err
				}
			}
		}
	}
	return t.Render()
}

func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func convertCommand() *cli.Command {
	return &cli.Command{
		Name:  "convert",
		Usage: "write games as canonical PDN or JSON lines, or their positions as CSV or FEN lines",
		UsageText: "pdn convert [--to pdn|json|csv|fen] [--notation numeric|algebraic] [--captures short|full] [--variant NAME]\n" +
			"   [--drop-comments] [--drop-variations] [--drop-nags] [FILE...]",
		Description: "--to csv writes one row per position of each game's main line, replayed (the variant as in\n" +
			"validate), with a header row and the columns:\n" +
			"  game    input name ':' game number in the input (1-based)\n" +
			"  ply     0 for the start position, then 1, 2, ... after each move\n" +
			"  fen     the position (canonical FEN of the variant)\n" +
			"  side    side to move: white or black\n" +
			"  move    the move played from it, in the variant's notation (or --notation/--captures);\n" +
			"          empty for the last position\n" +
			"  result  the game's PDN result (first number: the first mover's), * when unknown\n" +
			"  score   the result as the score of the side to move: 1, 0.5 or 0; empty when unknown\n" +
			"This is the input of tune. --to fen writes the same fields tab-separated, FEN first, no header.\n" +
			"A game with an illegal move gives the positions up to that move and an error (exit 1).\n" +
			"--notation and --captures rewrite the replayed moves of PDN and JSON output (main line and\n" +
			"variations); moves after an illegal one stay as written.",
		Flags: flags(readFlags(), outFlags()),
		Action: func(c *cli.Context) error {
			_, err := copyGames(c, pdn.CopyOptions{})
			return err
		},
		OnUsageError: cliutil.OnUsageError,
	}
}

func filterCommand() *cli.Command {
	return &cli.Command{
		Name:      "filter",
		Usage:     "keep the games that match every condition",
		UsageText: "pdn filter [--tag Name=Value|Name~regexp]... [--result R]... [--min-plies N] [--max-plies N] [--fen FEN] [FILE...]",
		Flags: flags(readFlags(), outFlags(), []cli.Flag{
			&cli.StringSliceFlag{Name: "tag", Usage: "tag condition: Name=Value (exact) or Name~regexp; repeat for more"},
			&cli.StringSliceFlag{Name: "result", Usage: "keep games with this result (1-0, 2-0, 1-1, *, ...); repeat for any of several"},
			&cli.IntFlag{Name: "min-plies", Usage: "at least this many main-line moves"},
			&cli.IntFlag{Name: "max-plies", Usage: "at most this many main-line moves (0: no limit)"},
			&cli.StringFlag{Name: "fen", Usage: "keep games whose main line reaches this position (compared as a position, in each game's variant)"},
		}),
		OnUsageError: cliutil.OnUsageError,
		Action: func(c *cli.Context) error {
			f := &pdn.Filter{Results: c.StringSlice("result"), MinPlies: c.Int("min-plies"), MaxPlies: c.Int("max-plies")}
			for _, s := range c.StringSlice("tag") {
				m, err := pdn.ParseTagMatch(s)
				if err != nil {
					return cliutil.UsageError{Err: err}
				}
				f.Tags = append(f.Tags, m)
			}
			for _, r := range f.Results {
				if r != "*" && !pdn.IsResult(r) {
					return cliutil.Usagef("--result %q: not a PDN result", r)
				}
			}
			if f.MinPlies < 0 || f.MaxPlies < 0 || (f.MaxPlies > 0 && f.MaxPlies < f.MinPlies) {
				return cliutil.Usagef("--min-plies %d --max-plies %d: bad range", f.MinPlies, f.MaxPlies)
			}
			opt := pdn.CopyOptions{Filter: f}
			if fen := c.String("fen"); fen != "" {
				reach, err := pdn.NewPositionFilter(fen)
				if err != nil {
					return cliutil.Usagef("--fen %q: %v", fen, err)
				}
				opt.Replay = &pdn.ReplayCopy{Reach: reach}
			}
			res, err := copyGames(c, opt)
			if !c.Bool("quiet") {
				fmt.Fprintf(c.App.ErrWriter, "pdn: kept %d of %d games\n", res.Written, res.Read)
			}
			return err
		},
	}
}

func dedupeCommand() *cli.Command {
	return &cli.Command{
		Name:      "dedupe",
		Usage:     "drop games whose main-line moves (and FEN) repeat an earlier game",
		UsageText: "pdn dedupe [--to pdn|json] [FILE...]",
		Flags:     flags(readFlags(), outFlags()),
		Action: func(c *cli.Context) error {
			res, err := copyGames(c, pdn.CopyOptions{Dedupe: &pdn.Deduper{}})
			fmt.Fprintf(c.App.ErrWriter, "pdn: dropped %d duplicate games of %d\n", res.Duplicates, res.Read)
			return err
		},
		OnUsageError: cliutil.OnUsageError,
	}
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:      "stats",
		Usage:     "count games, variants, results, plies, first moves, players and events",
		UsageText: "pdn stats [--format table|csv|json] [--top N] [--report DIR] [FILE...]",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "table, csv or json"},
			&cli.StringFlag{Name: "report", Usage: "also write a report to `DIR`: index.html (games per year and event, results, lengths, openings, errors by kind) and PNG plots"},
			&cli.IntFlag{Name: "top", Value: 10, Usage: "entries in the first-move, player and event lists (0: all)"},
			jobsFlag(),
		}),
		OnUsageError: cliutil.OnUsageError,
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if format != "table" && format != "csv" && format != "json" {
				return cliutil.Usagef("--format %q: want table, csv or json", format)
			}
			job, done, err := readJob(c)
			if err != nil {
				return err
			}
			st, err := collectStats(c, job)
			done()
			if err != nil {
				return err
			}
			return renderStats(c.App.Writer, format, st.Report(c.Int("top")))
		},
	}
}

// statRows flattens a report into (section, value, count) rows.
func statRows(r pdn.StatsReport) [][]string {
	rows := [][]string{
		{"games", "", strconv.Itoa(r.Games)},
		{"games with errors", "", strconv.Itoa(r.Errors)},
		{"plies", "min", strconv.Itoa(r.MinPlies)},
		{"plies", "median", strconv.Itoa(r.MedianPlies)},
		{"plies", "max", strconv.Itoa(r.MaxPlies)},
	}
	for _, sec := range []struct {
		name string
		cs   []pdn.Count
	}{{"variant", r.Variants}, {"result", r.Results}, {"first move", r.FirstMoves}, {"player", r.Players}, {"event", r.Events}} {
		for _, c := range sec.cs {
			rows = append(rows, []string{sec.name, c.Value, strconv.Itoa(c.N)})
		}
	}
	return rows
}

func renderStats(w io.Writer, format string, r pdn.StatsReport) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"section", "value", "count"})
		cw.WriteAll(statRows(r))
		return cw.Error()
	}
	t := tablewriter.NewTable(w)
	t.Header("section", "value", "count")
	for _, row := range statRows(r) {
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

func splitCommand() *cli.Command {
	return &cli.Command{
		Name:      "split",
		Usage:     "write games into several files, every N games or one file per tag value",
		UsageText: "pdn split (--every N | --by-tag NAME) --out PREFIX [--to pdn|json] [FILE...]",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.IntFlag{Name: "every", Usage: "games per file: PREFIX0001.pdn, PREFIX0002.pdn, ..."},
			&cli.StringFlag{Name: "by-tag", Usage: "one file per value of this tag: PREFIX<value>.pdn"},
			&cli.StringFlag{Name: "out", Usage: "file name prefix, may include a directory (required)"},
			&cli.StringFlag{Name: "to", Value: "pdn", Usage: "pdn or json"},
			jobsFlag(),
		}),
		OnUsageError: cliutil.OnUsageError,
		Action: func(c *cli.Context) error {
			opt := pdn.SplitOptions{Every: c.Int("every"), ByTag: c.String("by-tag"), Prefix: c.String("out")}
			if (opt.Every > 0) == (opt.ByTag != "") || opt.Every < 0 {
				return cliutil.Usagef("split: give either --every N (N > 0) or --by-tag NAME")
			}
			if opt.Prefix == "" {
				return cliutil.Usagef("split: --out PREFIX is required")
			}
			switch c.String("to") {
			case "pdn":
			case "json":
				opt.JSON = true
			default:
				return cliutil.Usagef("--to %q: want pdn or json", c.String("to"))
			}
			job, done, err := readJob(c)
			if err != nil {
				return err
			}
			res, err := pdn.Split(job, opt)
			done()
			if !c.Bool("quiet") {
				fmt.Fprintf(c.App.ErrWriter, "pdn: wrote %d games into %d files\n", res.Games, len(res.Files))
			}
			for _, f := range res.Files {
				fmt.Fprintln(c.App.Writer, f)
			}
			return err
		},
	}
}
