package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check games and report warnings and errors by file, game, line and column",
		UsageText: "pdn validate [--syntax-only] [--variant NAME] [--strict] [--format text|json] [--max-errors N] [-j N] [-o FILE] [FILE...]",
		Description: "Reads every game and replays its moves with the rules of its variant: its GameType tag,\n" +
			"else --variant, else the variant inferred from its whole file: the GameType tags of the\n" +
			"file's other games if they agree, else its largest square (numbers above 50: canadian;\n" +
			"above 32: international; algebraic squares: russian), else its first moves (international\n" +
			"or english). A game whose first move is not one of the tags' variant, and is one of the\n" +
			"variant its own squares point to, takes that one; squares that no variant's board holds\n" +
			"are an error (no-variant), never the largest board. The report says where each game's\n" +
			"variant came from.\n" +
			"Short captures are resolved to the legal capture; illegal and ambiguous moves and bad FEN\n" +
			"tags are errors, with the move number, the move and the position before it. Variations are\n" +
			"replayed too (their errors are warnings). A GameType the engine does not play is a warning\n" +
			"(unsupported-variant), and so is a result that contradicts a final position without legal\n" +
			"moves (result-contradicts-position; the first number of a result is the first mover's).\n" +
			"--strict makes anything outside the PDN 3.0 reading grammar an error.\n" +
			"Prints each error and warning as FILE:LINE:COLUMN: game N: LEVEL: KIND: MESSAGE (at most\n" +
			"--max-errors of each per file, then how many more), then the counts of games, moves,\n" +
			"warnings and errors per file and in total, and of problems by kind. --format json prints every\n" +
			"problem as a JSON line (file, game, line, column, level, kind, message; for a move: move_number,\n" +
			"move, fen, variant) and then the counts. Output is in input order whatever -j is.\n" +
			"Exit status 1 when a game has an error or a file cannot be read.",
		Flags: flags(readFlags(), []cli.Flag{
			boolFlag("syntax-only", "check the syntax only, without replaying the moves"),
			variantFlag(),
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json (JSON lines: every problem, then the counts)"},
			boolFlag("json", "the same as --format json"),
			&cli.IntFlag{Name: "max-errors", Value: 20, Usage: "list at most `N` errors and N warnings per file (0: all); count the rest"},
			jobsFlag("`N` goroutines: files read in parallel, a large file in pieces, games replayed in parallel"),
		}, shardFlags()),
		OnUsageError: cliutil.OnUsageError,
		Action:       toOutput(validateAction),
	}
}

// variantFlag is -v, the variant of the games without a GameType tag.
func variantFlag() cli.Flag {
	return &cli.StringFlag{Name: "variant", Aliases: []string{"v"}, DefaultText: "inferred from each file",
		Usage: "`NAME` of the variant of the games without a GameType tag (instead of the one their file points to): " +
			strings.Join(engine.Names(), ", ") + ", or a GameType value such as 20 or 20,W,10,10,N2,0"}
}

// replayJob is the job of validate and stats, and their replay settings: nil with
// --syntax-only, else --variant or the variants inferred from each input.
func replayJob(c *cli.Context) (*pdn.Replayer, archive.Job, func(), error) {
	rp, err := replayer(c) // checks --variant even with --syntax-only
	if err != nil {
		return nil, archive.Job{}, nil, err
	}
	if c.Bool("syntax-only") {
		job, done, err := readJob(c, noInfer)
		return nil, job, done, err
	}
	job, done, err := readJob(c, infer)
	return rp, job, done, err
}

// replayer returns the replay settings from --variant.
func replayer(c *cli.Context) (*pdn.Replayer, error) {
	rp := &pdn.Replayer{Strict: c.Bool("strict")}
	if name := c.String("variant"); name != "" {
		v, err := pdn.LookupVariant(name)
		if err != nil {
			return nil, flagError("--variant", err)
		}
		rp.Default = v
	}
	return rp, nil
}

// replayRun runs c's replay job through run: the whole job, or shard so of it (nil: the
// whole job). A shard then records what run found with keep and writes its file; shard is
// true and err is the shard's status. Otherwise err is the error of reading the flags and
// inputs, and run's own error is left to run to keep.
func replayRun(c *cli.Context, so *shardOut, run func(rp *pdn.Replayer, job archive.Job) error, keep func(*archive.ShardEnd)) (shard bool, err error) {
	rp, job, done, err := replayJob(c)
	if err != nil {
		return false, err
	}
	if so != nil {
		job.Select = so.selector()
		if err := so.begin(); err != nil {
			done()
			return true, err
		}
	}
	rerr := run(rp, job)
	done()
	if so == nil {
		return false, nil
	}
	keep(&so.end)
	return true, so.finish(c, rerr)
}

func validateAction(c *cli.Context) error {
	if c.Int("max-errors") < 0 {
		return cliutil.Usagef("--max-errors %d: must not be negative", c.Int("max-errors"))
	}
	so, err := shardOf(c)
	if err != nil {
		return err
	}
	opt := archive.ValidateOptions{Jobs: c.Int("jobs")}
	out := c.App.Writer
	asJSON, err := cliutil.JSONOutput(c)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var list *problemList
	if asJSON {
		opt.Problem = func(p archive.Problem) { enc.Encode(p) }
	} else {
		list = &problemList{w: out, max: c.Int("max-errors")}
		opt.Problem = list.add
	}
	var sums []*archive.Summary
	if m := merging(c); m != nil {
		if sums, err = m.Validate(c.Context, opt.Problem); archive.IsMergeError(err) {
			return err
		}
	} else {
		if so != nil {
			opt.Problem = so.problem
		}
		shard, rerr := replayRun(c, so, func(rp *pdn.Replayer, job archive.Job) error {
			opt.Replay, opt.Infer = rp, true
			sums, err = archive.Validate(c.Context, job, opt)
			return err
		}, func(end *archive.ShardEnd) { end.Summaries = sums })
		if shard || rerr != nil {
			return rerr
		}
	}
	if list != nil {
		list.end()
	}
	total := &archive.Summary{File: "total", Warnings: map[string]int{}, Errors: map[string]int{}}
	for _, s := range sums {
		total.Add(s)
	}
	if asJSON {
		if eerr := enc.Encode(struct {
			Files []*archive.Summary `json:"files"`
			Total *archive.Summary   `json:"total"`
		}{sums, total}); eerr != nil {
			return eerr
		}
	} else if rerr := renderSummaries(out, sums, total, !c.Bool("syntax-only")); rerr != nil {
		return rerr
	}
	return outcome(c, err, total.Games, total.GamesWithErrors)
}

// problemList prints problems one per line, "FILE:LINE:COLUMN: game N: LEVEL: KIND:
// MESSAGE", at most max errors and max warnings per file (0: all), and then how many more
// each file has.
type problemList struct {
	w      io.Writer
	max    int
	file   string
	shown  [2]int // errors, warnings of file
	hidden [2]int
}

func (l *problemList) add(p archive.Problem) {
	if p.File != l.file {
		l.end()
		l.file = p.File
	}
	k := 0
	if p.Level != "error" {
		k = 1
	}
	if l.max > 0 && l.shown[k] >= l.max {
		l.hidden[k]++
		return
	}
	l.shown[k]++
	where := p.File
	if p.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column)
	}
	msg := p.Kind
	if p.Message != "" {
		msg += ": " + p.Message
	}
	fmt.Fprintf(l.w, "%s: game %d: %s: %s\n", where, p.Game, p.Level, msg)
}

// end says how many problems of the current file were not shown.
func (l *problemList) end() {
	var more []string
	for k, what := range [][2]string{{"error", "errors"}, {"warning", "warnings"}} {
		if n := l.hidden[k]; n > 0 {
			more = append(more, fmt.Sprintf("%d more %s", n, plural(n, what[0], what[1])))
		}
	}
	if len(more) > 0 {
		fmt.Fprintf(l.w, "%s: %s not shown (--max-errors %d; --format json lists all)\n", l.file, strings.Join(more, " and "), l.max)
	}
	l.shown, l.hidden = [2]int{}, [2]int{}
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func renderSummaries(w io.Writer, sums []*archive.Summary, total *archive.Summary, replayed bool) error {
	t := tablewriter.NewTable(w)
	header := []string{"file", "games", "moves", "warnings", "errors", "games with errors"}
	if replayed {
		header = append(header, "replayed")
	}
	t.Header(header)
	var rows []*archive.Summary
	for _, s := range sums {
		if s.Error == "" || s.Games > 0 { // an input that could not be read is named on stderr
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	rows = append(rows, total)
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
		UsageText: "pdn convert [--format pdn|json|csv|fen] [-o FILE] [--notation numeric|algebraic] [--captures short|full]\n" +
			"   [--variant NAME] [--drop-comments] [--drop-variations] [--drop-nags] [--skip-bad] [FILE...]",
		Description: "--format csv writes one row per position of each game's main line, replayed (the variant as in\n" +
			"validate), with a header row and the columns:\n" +
			"  game    input name ':' game number in the input (1-based)\n" +
			"  ply     0 for the start position, then 1, 2, ... after each move\n" +
			"  fen     the position (canonical FEN of the variant)\n" +
			"  side    side to move: white or black\n" +
			"  move    the move played from it, in the variant's notation (or --notation/--captures);\n" +
			"          empty for the last position\n" +
			"  result  the game's PDN result (first number: the first mover's), * when unknown\n" +
			"  score   the result as the score of the side to move: 1, 0.5 or 0; empty when unknown\n" +
			"This is the input of tune. --format fen writes the same fields tab-separated, FEN first, no header.\n" +
			"--format json writes one JSON object per game: tags, movetext, result and warnings; --positions\n" +
			"adds where each game, tag and node is in the input.\n" +
			"A game with an illegal move gives the positions up to that move and an error (exit 1).\n" +
			"--notation and --captures rewrite the replayed moves of PDN and JSON output (main line and\n" +
			"variations); moves after an illegal one stay as written. A replayed game without a GameType\n" +
			"tag gets the tag of the variant it was replayed with, so that its moves read back the same.\n" +
			"With -j N, N goroutines read a PDN input (a file or standard input) in pieces and format the\n" +
			"games of each piece they read; JSON-lines input is read by one goroutine, and a .gz input is\n" +
			"decompressed by one, which bounds the speed of the others.",
		Flags: flags(readFlags(), outFlags(), shardFlags()),
		Action: toOutput(func(c *cli.Context) error {
			_, err := copyGames(c, archive.CopyOptions{})
			return err
		}),
		OnUsageError: cliutil.OnUsageError,
	}
}

func filterCommand() *cli.Command {
	return &cli.Command{
		Name:  "filter",
		Usage: "keep the games that match every condition",
		UsageText: "pdn filter [--tag Name=Value|Name~regexp]... [--player NAME|~regexp]... [--result R]... [--min-plies N]\n" +
			"   [--max-plies N] [--fen FEN|NAME] [--format pdn|json|csv|fen] [-o FILE] [options] [FILE...]",
		Description: "Writes the games that meet every condition given, as convert does, and says on stderr how\n" +
			"many it kept. A tag condition takes the whole value after '=', commas included:\n" +
			"  pdn filter --tag \"Black=Tinsley, M.F.\" --tag \"Event~^World\" OCA_2.0.pdn\n" +
			"--fen replays the games (the variant as in validate).",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.StringSliceFlag{Name: "tag", Usage: "tag `CONDITION`: Name=Value (the whole value, exactly) " +
				"or Name~regexp (Go syntax, matched anywhere in the value); repeat --tag for more conditions, all of which must hold"},
			&cli.StringSliceFlag{Name: "player", Usage: "keep games where `NAME` plays either colour: the whole White or Black tag, " +
				"or ~regexp (Go syntax, matched anywhere in the tag); repeat for any of several"},
			&cli.StringSliceFlag{Name: "result", Usage: "keep games with this `RESULT` (1-0, 2-0, 1-1, *, ...); repeat for any of several"},
			&cli.IntFlag{Name: "min-plies", Usage: "keep games with at least `N` main-line moves"},
			&cli.IntFlag{Name: "max-plies", Usage: "keep games with at most `N` main-line moves (0: no limit)"},
			&cli.StringFlag{Name: "fen", Usage: "keep games whose main line reaches this position, given as a `FEN` (compared as a position, in each game's variant) " +
				"or by name (of --variant, or else of each game's variant): " + strings.TrimPrefix(cliutil.PositionHelp(), "a FEN, or the name of a position: ")},
		}, outFlags(), shardFlags()),
		OnUsageError: cliutil.OnUsageError,
		Action: toOutput(func(c *cli.Context) error {
			f := &archive.Filter{Results: c.StringSlice("result"), MinPlies: c.Int("min-plies"), MaxPlies: c.Int("max-plies")}
			for _, s := range c.StringSlice("tag") {
				m, err := archive.ParseTagMatch(s)
				if err != nil {
					return cliutil.UsageError{Err: err}
				}
				f.Tags = append(f.Tags, m)
			}
			for _, s := range c.StringSlice("player") {
				m := archive.TagMatch{Value: s}
				if re, ok := strings.CutPrefix(s, "~"); ok {
					var err error
					if m.Re, err = regexp.Compile(re); err != nil {
						return cliutil.Usagef("--player %q: %v", s, err)
					}
				}
				f.Players = append(f.Players, m)
			}
			for _, r := range f.Results {
				if r != "*" && !pdn.IsResult(r) {
					return cliutil.Usagef("--result %q: not a PDN result", r)
				}
			}
			if f.MinPlies < 0 || f.MaxPlies < 0 || (f.MaxPlies > 0 && f.MaxPlies < f.MinPlies) {
				return cliutil.Usagef("--min-plies %d --max-plies %d: bad range", f.MinPlies, f.MaxPlies)
			}
			opt := archive.CopyOptions{Filter: f}
			if fen := c.String("fen"); fen != "" {
				reach, err := positionFilter(c, fen)
				if err != nil {
					return err // bad data, not a bad command line
				}
				opt.Replay = &archive.ReplayCopy{Reach: reach}
			}
			res, err := copyGames(c, opt)
			if !c.Bool("quiet") && !sharded(c) {
				fmt.Fprintf(c.App.ErrWriter, "pdn: kept %d of %d games\n", res.Written, res.Read)
			}
			return err
		}),
	}
}

func dedupeCommand() *cli.Command {
	return &cli.Command{
		Name:      "dedupe",
		Usage:     "drop games whose main-line moves (and FEN) repeat an earlier game",
		UsageText: "pdn dedupe [--format pdn|json|csv|fen] [-o FILE] [options] [FILE...]",
		Description: "Writes each game whose start position (FEN tag) and main-line moves no earlier game had, as\n" +
			"convert does (move numbers, comments and other tags do not count), and says on stderr how\n" +
			"many it dropped. It keeps 8 bytes per distinct game.",
		Flags: flags(readFlags(), outFlags(), shardFlags()),
		Action: toOutput(func(c *cli.Context) error {
			res, err := copyGames(c, archive.CopyOptions{Dedupe: &archive.Deduper{}})
			if !sharded(c) {
				fmt.Fprintf(c.App.ErrWriter, "pdn: dropped %d duplicate games of %d\n", res.Duplicates, res.Read)
			}
			return err
		}),
		OnUsageError: cliutil.OnUsageError,
	}
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:  "stats",
		Usage: "count games, variants, results, plies, first moves, players and events",
		UsageText: "pdn stats [--format table|csv|json] [--top N] [--report DIR] [--syntax-only] [--variant NAME]\n" +
			"   [--egdb DIR [--verbose]] [--skip-bad] [-j N] [FILE...]",
		Description: "Replays every game, as validate does, and counts the games by the variant they were\n" +
			"replayed with and where it came from; a game read or replayed with an error is counted and\n" +
			"named on stderr (exit status 1), or left out with --skip-bad. --syntax-only does not replay:\n" +
			"variants are then the GameType tags as written. With --egdb DIR, an endgame database (egdb\n" +
			"build) of --variant or of the variant DIR is named after, each game of that variant\n" +
			"replayed to the end with a result is compared with it at the first position of its main\n" +
			"line that it holds: the games whose result is not the database's value there are counted\n" +
			"(listed with --verbose, and in the JSON with their file, game number, ply and position).\n" +
			"The database's values leave out the move-count draw rules.",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "table", Usage: "output `FORMAT`: table, csv or json"},
			&cli.StringFlag{Name: "report", Usage: "also write a report to `DIR`: index.html (games per year and event, results, lengths, openings, errors by kind) and PNG plots"},
			&cli.IntFlag{Name: "top", Value: 10, Usage: "list the `N` commonest first moves, players and events (0: all)"},
			boolFlag("syntax-only", "do not replay the games: count variants by their GameType tag"),
			variantFlag(),
			skipBadFlag(),
			jobsFlag("`N` goroutines reading a large file in pieces and replaying games"),
			&cli.StringFlag{Name: "egdb", Usage: "compare the games with the endgame database in `DIR` (of --variant, or of the variant DIR is named after)"},
			boolFlag("verbose", "with --egdb, list the games whose result contradicts the database"),
		}, shardFlags()),
		OnUsageError: cliutil.OnUsageError,
		Action: toOutput(func(c *cli.Context) error {
			format := c.String("format")
			if format != "table" && format != "csv" && format != "json" {
				return cliutil.Usagef("--format %q: want table, csv or json", format)
			}
			db, err := statsEGDB(c)
			if err != nil {
				return err
			}
			if db != nil {
				defer db.Close()
			}
			if dir := c.String("report"); dir != "" {
				if err := cliutil.ReportNotAnInput(dir, c.Args().Slice()...); err != nil {
					return cliutil.Usagef("--report: %v", err)
				}
			}
			so, err := shardOf(c)
			if err != nil {
				return err
			}
			opt := archive.StatsOptions{Jobs: c.Int("jobs"), SkipBad: c.Bool("skip-bad"), EGDB: db}
			report := errorPrinter(c.App.ErrWriter, "")
			opt.Problem = func(p archive.Problem) {
				if p.Level == "error" {
					report(problemError(p))
					if so != nil {
						so.problem(p)
					}
				}
			}
			var st *archive.Stats
			if m := merging(c); m != nil {
				if st, err = m.Stats(c.Context, opt.Problem); archive.IsMergeError(err) {
					return err
				}
			} else {
				shard, rerr := replayRun(c, so, func(rp *pdn.Replayer, job archive.Job) error {
					opt.Replay, opt.Infer = rp, true
					st, err = collectStats(c, job, opt)
					return err
				}, func(end *archive.ShardEnd) { end.Stats = st })
				if shard || rerr != nil {
					return rerr
				}
			}
			r := st.Report(c.Int("top"))
			if _, inputs := archive.InputErrors(err); (err == nil || inputs) && r.Games > 0 {
				if !c.Bool("verbose") && format != "json" && r.EGDB != nil {
					r.EGDB.Games = nil // (listed with --verbose)
				}
				if err := renderStats(c.App.Writer, format, r); err != nil {
					return err
				}
			}
			return outcome(c, err, r.Games+r.Skipped, r.Errors+r.Skipped)
		}),
	}
}

// statRows flattens a report into (section, value, count) rows.
func statRows(r archive.StatsReport) [][]string {
	rows := [][]string{
		{"games", "", strconv.Itoa(r.Games)},
		{"games with errors", "", strconv.Itoa(r.Errors)},
	}
	if r.Replay {
		rows = append(rows, []string{"games replayed", "to the end", strconv.Itoa(r.Replayed)})
	} else {
		rows = append(rows, []string{"games replayed", "no (--syntax-only)", "0"})
	}
	if r.Skipped > 0 {
		rows = append(rows, []string{"games left out", "with errors (--skip-bad)", strconv.Itoa(r.Skipped)})
	}
	rows = append(rows, [][]string{
		{"plies", "min", strconv.Itoa(r.MinPlies)},
		{"plies", "median", strconv.Itoa(r.MedianPlies)},
		{"plies", "max", strconv.Itoa(r.MaxPlies)},
	}...)
	for _, sec := range []struct {
		name string
		cs   []archive.Count
	}{{"variant", r.Variants}, {"result", r.Results}, {"first move", r.FirstMoves}, {"player", r.Players}, {"event", r.Events}} {
		for _, c := range sec.cs {
			rows = append(rows, []string{sec.name, c.Value, strconv.Itoa(c.N)})
		}
	}
	if e := r.EGDB; e != nil {
		rows = append(rows, []string{"egdb", "games checked (" + e.Variant + ")", strconv.Itoa(e.Checked)},
			[]string{"egdb", "results contradicting it", strconv.Itoa(e.Contradictions)})
		for _, g := range e.Games {
			rows = append(rows, []string{"egdb contradiction", fmt.Sprintf("%s game %d, ply %d, %s: %s, result %s (not %s)",
				g.File, g.Game, g.Ply, g.FEN, g.Value, g.Result, g.Expected), "1"})
		}
	}
	return rows
}

func renderStats(w io.Writer, format string, r archive.StatsReport) error {
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
		UsageText: "pdn split (--every N | --by-tag NAME) --output PREFIX [--format pdn|json] [--force] [--skip-bad] [FILE...]",
		Description: "Writes the games into files named PREFIX0001.pdn, PREFIX0002.pdn, ... (--every) or\n" +
			"PREFIX<value>.pdn (--by-tag: characters other than letters, digits, '.', '-' and '_' become\n" +
			"'_', a missing tag is \"none\", and values that would share a name get -2, -3, ...). The\n" +
			"folder of PREFIX is created if needed. stdout lists the files (with --by-tag, each with its\n" +
			"value after a tab). Each file is written under a temporary name and renamed when complete,\n" +
			"so an interrupted or failed split leaves complete files only, and says how many games they\n" +
			"hold. A file name that exists (an earlier split's) is an error unless --force; an input is\n" +
			"never written over. Files are made with mode 0644.",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.IntFlag{Name: "every", DefaultText: "none", Usage: "put `N` games in each file"},
			&cli.StringFlag{Name: "by-tag", Usage: "put the games with the same value of the tag `NAME` in one file"},
			&cli.StringFlag{Name: "output", Aliases: cliutil.OutputAliases, Usage: "file name `PREFIX`, which may start with a folder (required)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"to"}, Value: "pdn", Usage: "output `FORMAT`: pdn or json"},
			boolFlag("force", "replace the files of the same names (an earlier split's); never an input"),
			skipBadFlag(),
			jobsFlag("`N` goroutines reading a large file in pieces"),
		}),
		OnUsageError: cliutil.OnUsageError,
		Action: func(c *cli.Context) error {
			opt := archive.SplitOptions{Every: c.Int("every"), ByTag: c.String("by-tag"), Prefix: c.String("out"),
				SkipBad: c.Bool("skip-bad"), OnError: errorPrinter(c.App.ErrWriter, ""), Force: c.Bool("force"),
				Check: func(name string) error { return cliutil.NotAnInput(name, c.Args().Slice()...) }}
			if (opt.Every > 0) == (opt.ByTag != "") || opt.Every < 0 {
				return cliutil.Usagef("split: give either --every N (N > 0) or --by-tag NAME")
			}
			if opt.Prefix == "" {
				return cliutil.Usagef("split: --output PREFIX is required")
			}
			switch c.String("to") {
			case "pdn":
			case "json":
				opt.JSON = true
			default:
				return cliutil.Usagef("--format %q: want pdn or json", c.String("to"))
			}
			job, done, err := readJob(c, noInfer)
			if err != nil {
				return err
			}
			res, err := archive.Split(c.Context, job, opt)
			done()
			var ee *archive.ExistsError
			if errors.As(err, &ee) {
				err = fmt.Errorf("%w (--force replaces it)", err)
			}
			if !c.Bool("quiet") {
				fmt.Fprintf(c.App.ErrWriter, "pdn: wrote %d games into %d files\n", res.Games, len(res.Files))
			}
			for _, f := range res.Files {
				if opt.ByTag != "" {
					fmt.Fprintf(c.App.Writer, "%s\t%s\n", f.Name, f.Value)
				} else {
					fmt.Fprintln(c.App.Writer, f.Name)
				}
			}
			return outcome(c, err, res.Read, res.Errors)
		},
	}
}
