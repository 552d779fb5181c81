package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/annotate"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/report"
	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/shard"
)

func annotateCommand() *cli.Command {
	return &cli.Command{
		Name:  "annotate",
		Usage: "analyse every position of every game with a searcher and mark the errors",
		UsageText: "pdn annotate [--player SPEC | --engine SPEC] [--nodes N | --depth D | --movetime T] [--egdb DIR]\n" +
			"   [--inaccuracy 50] [--mistake 100] [--blunder 300] [--format text|json] [-j N] [--skip-bad]\n" +
			"   [-o OUT.pdn [--journal FILE] [--resume]] [--shard K/N -o FILE] [FILE...]",
		Description: "Replays every game (the variant as validate finds it) and searches every position of its main\n" +
			"line with rafle's search (--player, a level or a spec as selfplay takes them; default hard) or\n" +
			"an external Hub engine (--engine, as selfplay takes it). --nodes or --depth make the\n" +
			"analysis the same on every run and machine, with any -j and in shards; --movetime does not.\n" +
			"Each move's loss is the expected score it lost against the best move, the expected score of a\n" +
			"score s (hundredths of a man) being 1/(1+exp(-s/100)); the thresholds are drops in hundredths\n" +
			"of a man in a balanced position (lidraughts' 50, 100, 300), so that moves in lost or won\n" +
			"positions cost little. --egdb gives exact values where the database holds the position, with\n" +
			"the notes \"winning position thrown away\" and \"the loss became forced\".\n" +
			"Writes the games (to --output, else stdout) with, after each move, the NAG $6 (?!), $2 (?) or\n" +
			"$4 (??) of an error and a comment \"[%eval score/depth]\" (the position after the move, in men\n" +
			"from White's side, #N a win in N plies), and the best line as a variation after an error; the\n" +
			"games' own comments and variations are kept. Then the errors per player and the worst moves\n" +
			"(to stdout with --output, else stderr), or --format json: every game's summary, the players,\n" +
			"the totals and the worst moves. A game read or replayed with an error is named on stderr as\n" +
			"validate names it, analysed as far as it replays and written (exit status 1), or left out\n" +
			"with --skip-bad. With --output FILE each analysed game goes to a journal (FILE.journal, or\n" +
			"--journal): after Ctrl-C, the same command with --resume analyses only the games left; the\n" +
			"output file appears when complete. --shard K/N -o FILE analyses every N-th game into\n" +
			"FILE.shard-K-of-N.jsonl (a journal, resumable); pdn merge joins the N files into the output of\n" +
			"one run. Games are analysed -j at a time and written in input order.",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.StringFlag{Name: "player", Usage: "analyse with rafle's search: a level (" + strings.Join(search.Levels(), ", ") +
				") or a `SPEC` as selfplay --players takes one (depth=, nodes=, weights=, hash=...; default hard)"},
			&cli.StringFlag{Name: "engine", Usage: "analyse with an external engine: `SPEC` as selfplay --engine takes it (docs/engines.md), with a limit per move"},
			&cli.Int64Flag{Name: "nodes", Usage: "search `N` nodes per position (replaces the limits of --player or --engine)"},
			&cli.IntFlag{Name: "depth", Usage: "search `D` plies per position (replaces the limits of --player or --engine)"},
			&cli.DurationFlag{Name: "movetime", Usage: "search each position for `T` (replaces the limits; not reproducible)"},
			&cli.DurationFlag{Name: "engine-start", Value: 10 * time.Second, Usage: "how long --engine may take to start and answer the handshake"},
			&cli.StringFlag{Name: "egdb", Usage: "exact values from the endgame database in `DIR` (of --variant, or of the variant DIR is named after)"},
			&cli.IntFlag{Name: "inaccuracy", Value: annotate.DefaultThresholds.Inaccuracy, Usage: "a drop of `N` hundredths of a man (in a balanced position) is an inaccuracy ($6, ?!)"},
			&cli.IntFlag{Name: "mistake", Value: annotate.DefaultThresholds.Mistake, Usage: "a drop of `N` hundredths of a man is a mistake ($2, ?)"},
			&cli.IntFlag{Name: "blunder", Value: annotate.DefaultThresholds.Blunder, Usage: "a drop of `N` hundredths of a man is a blunder ($4, ??)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "summary `FORMAT`: text (tables) or json"},
			boolFlag("json", "the same as --format json"),
			&cli.IntFlag{Name: "top", Value: 10, Usage: "list the `N` worst moves of the archive"},
			&cli.StringFlag{Name: "report", Usage: "also write a report to `DIR`: index.html with the players' errors and the --top worst moves, each in the game viewer at its position"},
			&cli.StringFlag{Name: "journal", Usage: "journal of the games analysed (default with --output FILE: FILE.journal, removed when the output is complete)"},
			boolFlag("resume", "finish the analysis recorded in the journal"),
			variantFlag(),
			skipBadFlag(),
			jobsFlag("`N` games analysed at once (each with its own searcher or engine process)"),
			&cli.StringFlag{Name: "shard", Usage: "analyse shard `K/N`: the games whose number over all the inputs (from 0) is K modulo N, " +
				"into --output's shard file, for pdn merge (default, with --output: from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shards)"},
			shardsFlag(),
			&cli.StringFlag{Name: "output", Aliases: cliutil.OutputAliases, Usage: "write the games to `FILE` (a new file) instead of stdout; with a shard, its file FILE.shard-K-of-N.jsonl"},
		}),
		OnUsageError: cliutil.OnUsageError,
		Action:       annotateAction,
	}
}

// annotateSettings are the flags that fix the analysis, for the journal's header.
var annotateSettings = []string{"player", "engine", "nodes", "depth", "movetime", "egdb", "inaccuracy", "mistake", "blunder",
	"variant", "strict", "encoding", "skip-bad"}

// analyser returns the factory of analysers of --player or --engine, with the limits of
// --nodes, --depth and --movetime.
func analyser(c *cli.Context, opt *annotate.Options) (annotate.Factory, func(), error) {
	lim := search.Limits{Nodes: c.Int64("nodes"), Depth: c.Int("depth"), MoveTime: c.Duration("movetime")}
	if lim.Nodes < 0 || lim.Depth < 0 || lim.MoveTime < 0 {
		return nil, nil, cliutil.Usagef("--nodes, --depth and --movetime must not be negative")
	}
	limited := lim != search.Limits{}
	if c.IsSet("engine") {
		if c.IsSet("player") {
			return nil, nil, cliutil.Usagef("--player and --engine: give one")
		}
		spec, err := match.ParseEngineSpec(c.String("engine"))
		if err != nil && limited {
			// a spec without a limit of its own takes --nodes, --depth or --movetime's
			// (st= only lets the spec parse: the limits are replaced below)
			if s, serr := match.ParseEngineSpec(c.String("engine") + ",depth=1"); serr == nil {
				spec, err = s, nil
			}
		}
		if err != nil {
			return nil, nil, cliutil.UsageError{Err: fmt.Errorf("--engine: %w", err)}
		}
		if limited {
			tc := spec.Control
			spec.Control = match.TimeControl{Depth: lim.Depth, Nodes: lim.Nodes, MoveTime: lim.MoveTime, Margin: tc.Margin, Timeout: tc.Timeout}
		}
		f, err := annotate.EngineAnalyser(spec, match.ExternalOptions{HandshakeTimeout: c.Duration("engine-start")})
		if err != nil {
			return nil, nil, cliutil.UsageError{Err: fmt.Errorf("--engine: %s", clean(err))}
		}
		return f, func() {}, nil
	}
	text := c.String("player")
	if text == "" {
		text = "hard"
	}
	ps, err := search.ParsePlayer(text)
	if err != nil {
		return nil, nil, cliutil.UsageError{Err: fmt.Errorf("--player: %w", err)}
	}
	if limited {
		ps.Limits.Nodes, ps.Limits.Depth, ps.Limits.MoveTime = lim.Nodes, lim.Depth, lim.MoveTime
	}
	if err := cliutil.CheckMemory("--player hash", int64(ps.HashMiB())*int64(c.Int("jobs"))); err != nil {
		return nil, nil, err
	}
	ps.EGDB = opt.EGDB
	return annotate.SearchAnalyser(ps), func() {}, nil
}

func annotateAction(c *cli.Context) error {
	a, err := annotateFlags(c)
	if err != nil {
		return err
	}
	stop, err := a.analysers()
	if err != nil {
		return err
	}
	defer stop()
	if a.sh.Count > 0 {
		return a.toShard()
	}
	run, err := a.target()
	if err != nil {
		return err
	}
	return a.finish(run())
}

// annotation is one run of pdn annotate: what the flags ask, the run's options, and the
// sink of its records.
type annotation struct {
	c      *cli.Context
	asJSON bool
	sh     shard.Shard
	out    string // --output
	opt    annotate.RunOptions
	sink   *annotateSink
}

// annotateFlags reads and checks the flags of pdn annotate, in the order of their usage
// errors.
func annotateFlags(c *cli.Context) (*annotation, error) {
	asJSON, err := cliutil.JSONOutput(c)
	if err != nil {
		return nil, err
	}
	if f := c.String("format"); f != "text" && f != "json" {
		return nil, cliutil.Usagef("--format %q: want text or json", f)
	}
	th := annotate.Thresholds{Inaccuracy: c.Int("inaccuracy"), Mistake: c.Int("mistake"), Blunder: c.Int("blunder")}
	if err := th.Check(); err != nil {
		return nil, cliutil.Usagef("--inaccuracy, --mistake, --blunder: %s", clean(err))
	}
	if c.Int("top") < 0 {
		return nil, cliutil.Usagef("--top %d: must not be negative", c.Int("top"))
	}
	rp, err := replayer(c)
	if err != nil {
		return nil, err
	}
	sh, err := cliutil.ReadShard(c)
	if err != nil {
		return nil, err
	}
	if dir := c.String("report"); dir != "" {
		if sh.Count > 0 {
			return nil, cliutil.Usagef("--report: not with a shard (the report is of the whole archive)")
		}
		if err := cliutil.ReportNotAnInput(dir, c.Args().Slice()...); err != nil {
			return nil, cliutil.Usagef("--report: %v", err)
		}
	}
	out := c.String("output")
	switch {
	case sh.Count > 0 && out == "":
		return nil, cliutil.Usagef("--shard %s: give --output FILE for the shard's file (pdn merge joins the shards)", sh)
	case sh.Count == 0 && c.IsSet("shards"):
		return nil, cliutil.Usagef("--shards: give --output FILE for the shard's file")
	case asJSON && out == "":
		return nil, cliutil.Usagef("--format json: give --output FILE for the games (the summary goes to stdout)")
	case c.Bool("resume") && out == "" && c.String("journal") == "":
		return nil, cliutil.Usagef("--resume: give --output FILE (its journal is FILE.journal) or --journal FILE")
	}
	a := &annotation{c: c, asJSON: asJSON, sh: sh, out: out}
	a.opt = annotate.RunOptions{Workers: c.Int("jobs"), Replayer: *rp, SkipBad: c.Bool("skip-bad")}
	a.opt.Thresholds = th
	a.sink = &annotateSink{totals: annotate.NewTotals(c.Int("top")), report: errorPrinter(c.App.ErrWriter, ""), json: asJSON}
	if c.String("report") != "" {
		a.sink.games4report = map[string]string{}
	}
	return a, nil
}

// analysers opens the endgame database of --egdb and sets up the analysers of --player
// or --engine; stop closes them.
func (a *annotation) analysers() (stop func(), err error) {
	db, err := statsEGDB(a.c)
	if err != nil {
		return nil, err
	}
	closeDB := func() {}
	if db != nil {
		closeDB = func() { db.Close() }
		a.opt.EGDB = db
	}
	factory, stopAnalysers, err := analyser(a.c, &a.opt.Options)
	if err != nil {
		closeDB()
		return nil, err
	}
	a.opt.Analyser = factory
	return func() { stopAnalysers(); closeDB() }, nil
}

// run analyses the inputs, the games written to dst (unless nil), each record to the
// journal (unless ""), which a shard's run ends.
func (a *annotation) run(dst io.Writer, journal string, h annotate.Header, shardRun bool) error {
	c, s, opt := a.c, a.sink, a.opt
	if dst != nil {
		s.out = pdn.NewWriter(dst)
	}
	job, done, err := readJob(c, inferNoted)
	if err != nil {
		return err
	}
	defer done()
	var j *annotate.Journal
	var recs []*annotate.Record
	if journal != "" {
		if j, recs, err = annotate.OpenJournal(journal, h, c.Bool("resume")); err != nil {
			return err
		}
		defer j.Close()
		if len(recs) > 0 {
			fmt.Fprintf(c.App.ErrWriter, "pdn: %s: %d games analysed before, resumed\n", journal, len(recs))
		}
	}
	if a.sh.Count > 0 {
		opt.Select = a.sh.Has
	}
	if bar := annotateProgress(c, job, opt.Select); bar != nil {
		opt.Positions = func() { bar.Add(1) }
		s.progress = func(n int) { bar.Add(n) }
		defer bar.Finish()
	}
	opt.Emit = s.emit
	if j != nil {
		s.games, err = annotate.RunJournal(c.Context, job, opt, j, recs, shardRun)
	} else {
		s.games, err = annotate.Run(c.Context, job, opt)
	}
	if err == nil && s.out != nil {
		err = s.out.Flush()
	}
	return err
}

// toShard analyses a shard's games into its file, a journal that pdn merge joins.
func (a *annotation) toShard() error {
	path := a.sh.Path(a.out, true) // {shard} in FILE: the name as given
	if !strings.Contains(a.out, "{shard}") {
		path = a.sh.Path(strings.TrimSuffix(a.out, filepath.Ext(a.out))+".jsonl", true)
	}
	h, err := annotateHeader(a.c, a.sh)
	if err != nil {
		return err
	}
	if err := a.run(nil, path, h, true); err != nil {
		return interrupted(err, a.sink.read)
	}
	fmt.Fprintf(a.c.App.ErrWriter, "pdn: shard %s: %d of %d games, to %s (pdn merge joins the shards)\n", a.sh, a.sink.read, a.sink.games, path)
	return nil
}

// target prepares the output of a whole run, --output FILE (a new file, with its
// journal) or stdout (with --journal if given), and returns the run that writes it.
func (a *annotation) target() (func() error, error) {
	c := a.c
	if a.out == "" {
		var h annotate.Header
		if c.String("journal") != "" {
			var err error
			if h, err = annotateHeader(c, shard.Shard{}); err != nil {
				return nil, err
			}
		}
		return func() error { return a.run(c.App.Writer, c.String("journal"), h, false) }, nil
	}
	if err := cliutil.NotAnInput(a.out, c.Args().Slice()...); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(a.out); err == nil {
		return nil, cliutil.Usagef("--output %s: the file exists (pdn never writes over a file)", a.out)
	}
	journal := c.String("journal")
	if journal == "" {
		journal = a.out + ".journal"
	}
	h, err := annotateHeader(c, shard.Shard{})
	if err != nil {
		return nil, err
	}
	return func() error {
		err := createFile(a.out, func(w io.Writer) error { return a.run(w, journal, h, false) }, keepWithInputErrors)
		if err == nil && !c.IsSet("journal") {
			os.Remove(journal)
		}
		return err
	}, nil
}

// finish prints the summary of a whole run that ended with rerr (to stdout with
// --output, else stderr), writes the --report, and returns the exit status's error.
func (a *annotation) finish(rerr error) error {
	c, s := a.c, a.sink
	if _, inputs := archive.InputErrors(rerr); rerr != nil && !inputs {
		return interrupted(rerr, s.read)
	}
	summary := c.App.Writer
	if a.out == "" {
		summary = c.App.ErrWriter
	}
	if err := s.render(summary, a.asJSON); err != nil {
		return err
	}
	if dir := c.String("report"); dir != "" {
		if err := s.writeReport(dir, strings.Join(c.Args().Slice(), ", "), annotateReportSettings(c)); err != nil {
			return err
		}
	}
	return outcome(c, rerr, s.read, s.bad)
}

// annotateReportSettings are the settings the report shows.
func annotateReportSettings(c *cli.Context) [][2]string {
	var ss [][2]string
	for _, name := range annotateSettings {
		if v := c.String(name); v != "" && v != "false" && v != "0" && v != "0s" {
			ss = append(ss, [2]string{"--" + name, v})
		}
	}
	return ss
}

// momentKey names the game of a moment.
func momentKey(file string, game int) string { return file + "\x00" + strconv.Itoa(game) }

// keepForReport keeps the annotated PDN of r's game while one of its moves may be among
// the worst of the archive.
func (s *annotateSink) keepForReport(r *annotate.Record) {
	g := r.Summary
	if g.WhiteSide.Worst == nil && g.BlackSide.Worst == nil && len(g.Moments) == 0 {
		return
	}
	s.games4report[momentKey(g.File, g.Game)] = r.PDN
	if len(s.games4report) <= 4*len(s.totals.Worst())+16 {
		return
	}
	keep := map[string]bool{}
	for _, m := range s.totals.Worst() {
		keep[momentKey(m.File, m.Game)] = true
	}
	for k := range s.games4report {
		if !keep[k] {
			delete(s.games4report, k)
		}
	}
}

// writeReport writes the HTML report: the players' table and the worst moves of the
// variant of the worst one, each with its game replayed from the annotated PDN.
func (s *annotateSink) writeReport(dir, title string, settings [][2]string) error {
	a := &report.Annotation{Title: title, Settings: settings}
	a.Players = append(a.Players, []string{"player", "games", "moves", "inaccuracies", "mistakes", "blunders", "average loss"})
	row := func(name string, games int, sd *annotate.Side) {
		a.Players = append(a.Players, []string{name, strconv.Itoa(games), strconv.Itoa(sd.Moves), strconv.Itoa(sd.Inaccuracies),
			strconv.Itoa(sd.Mistakes), strconv.Itoa(sd.Blunders), strconv.FormatFloat(sd.AverageLoss(), 'f', 4, 64)})
	}
	for _, p := range s.totals.Players() {
		row(p.Name, p.Games, &p.Side)
	}
	row("all", s.totals.Games, &s.totals.All)
	worst := s.totals.Worst()
	left := 0
	for _, m := range worst {
		v, err := pdn.LookupVariant(m.Variant)
		if err != nil {
			return err
		}
		if a.Variant == nil {
			a.Variant = v
		}
		if v != a.Variant {
			left++
			continue
		}
		g, err := pdn.NewReader(strings.NewReader(s.games4report[momentKey(m.File, m.Game)])).Next()
		if err != nil {
			return fmt.Errorf("report: %s game %d: %w", m.File, m.Game, err)
		}
		rp, err := pdn.Replay(g, v)
		if rp == nil || len(rp.Plies) <= m.Ply {
			return fmt.Errorf("report: %s game %d: the annotated game does not replay to ply %d: %v", m.File, m.Game, m.Ply, err)
		}
		am := report.AnnotatedMoment{File: m.File, Game: m.Game, White: m.White, Black: m.Black, Ply: m.Ply,
			Best: m.Best, Loss: m.Loss, Start: rp.Start, PDN: strings.TrimSpace(s.games4report[momentKey(m.File, m.Game)])}
		for _, p := range rp.Plies {
			am.Moves = append(am.Moves, p.Move)
		}
		num := strconv.Itoa(m.MoveNumber) + ". "
		if m.Side != firstMoverName(m.Variant) {
			num = strconv.Itoa(m.MoveNumber) + "... "
		}
		am.Label = strings.TrimSpace(num + m.Move + " " + m.Judgment.String() + " " + m.Note)
		a.Moments = append(a.Moments, am)
	}
	if left > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("%d of the worst moves are of other variants than %s: the report leaves them out (the summary lists them).", left, a.Variant.Name))
	}
	return report.WriteAnnotation(dir, a)
}

// keepWithInputErrors says, of a run's error, that its output is still written when the
// run failed only for inputs that could not be read (the games of the others are there).
func keepWithInputErrors(err error) bool {
	_, inputs := archive.InputErrors(err)
	return inputs
}

// annotateHeader is the journal's header: the settings, the inputs (hashed) and the shard.
func annotateHeader(c *cli.Context, sh shard.Shard) (annotate.Header, error) {
	h := annotate.Header{Format: annotate.JournalFormat}
	if sh.Count > 0 {
		h.Shard = sh.String()
	}
	for _, name := range annotateSettings {
		h.Settings = append(h.Settings, "--"+name+"="+c.String(name))
	}
	names := c.Args().Slice()
	if len(names) == 0 {
		return h, cliutil.Usagef("a journal or a shard needs the input files named (standard input cannot be checked to be the same again)")
	}
	for _, name := range names {
		if name == "-" || !cliutil.Reopenable(name) {
			return h, cliutil.Usagef("%s: a journal or a shard needs regular files (a stream cannot be checked to be the same again)", name)
		}
		in, err := identify(c.Context, name)
		if err != nil {
			return h, err
		}
		h.Inputs = append(h.Inputs, annotate.InputID{Name: in.Name, Size: in.Size, SHA256: in.SHA256})
	}
	return h, nil
}

// annotateProgress returns a bar over the positions to search, on a terminal: the inputs
// are read once first to count them, unless one is a stream (read once: the bar then has
// no total).
func annotateProgress(c *cli.Context, job archive.Job, sel func(int) bool) *progressbar.ProgressBar {
	bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), -1, "counting")
	if bar == nil {
		return nil
	}
	for _, in := range job.Inputs {
		if in.Name == "-" || !cliutil.Reopenable(in.Name) {
			bar.Describe("positions")
			return bar
		}
	}
	var total int64
	i := 0
	job.Each(c.Context, func(_ *archive.Input, _ int, g *pdn.Game, _ error) error {
		if sel == nil || sel(i) {
			total += int64(g.Plies()) + 1
		}
		i++
		return nil
	})
	bar.Finish()
	return cliutil.Progress(c.App.ErrWriter, false, total, "positions", progressbar.OptionShowCount())
}

// annotateSink takes the records of a run (or of merged shards) in game order: it writes
// the games, and counts (the journal is annotate.RunJournal's).
type annotateSink struct {
	out     *pdn.Writer
	totals  *annotate.Totals
	summary []*annotate.Game
	json    bool
	report  func(error)
	read    int // games handed on (a shard's own)
	bad     int
	games   int // games of the inputs
	// progress, if set, counts positions on the progress bar.
	progress func(int)
	// games4report holds the annotated PDN of the games of the worst moves (--report).
	games4report map[string]string
}

func (s *annotateSink) emit(r *annotate.Record, fresh bool) error {
	s.read++
	if s.progress != nil { // the positions of the game that were not searched
		n := r.Positions
		if fresh && r.Summary != nil {
			n -= r.Summary.Searches
		}
		s.progress(max(n, 0))
	}
	for _, e := range r.Errors {
		s.report(errors.New(e))
	}
	if r.Bad() {
		s.bad++
	}
	if !r.Skipped && s.out != nil {
		if err := s.out.WriteFormatted([]byte(r.PDN)); err != nil {
			return err
		}
	}
	if r.Summary != nil {
		s.totals.Add(r.Summary)
		if s.games4report != nil {
			s.keepForReport(r)
		}
		if s.json {
			s.summary = append(s.summary, r.Summary)
		}
	}
	return nil
}

// annotateReport is the JSON summary.
type annotateReport struct {
	Games   []*annotate.Game   `json:"games"`
	Players []*annotate.Player `json:"players"`
	Total   *annotate.Totals   `json:"total"`
	Worst   []annotate.Moment  `json:"worst"`
}

// render prints the summary: JSON, or the players' table and the worst moves.
func (s *annotateSink) render(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		games := s.summary
		if games == nil {
			games = []*annotate.Game{}
		}
		return enc.Encode(annotateReport{Games: games, Players: s.totals.Players(), Total: s.totals, Worst: s.totals.Worst()})
	}
	if s.totals.Games == 0 {
		return nil
	}
	t := tablewriter.NewTable(w)
	t.Header("player", "games", "moves", "inaccuracies", "mistakes", "blunders", "average loss")
	row := func(name string, games int, sd *annotate.Side) error {
		return t.Append(name, strconv.Itoa(games), strconv.Itoa(sd.Moves), strconv.Itoa(sd.Inaccuracies),
			strconv.Itoa(sd.Mistakes), strconv.Itoa(sd.Blunders), strconv.FormatFloat(sd.AverageLoss(), 'f', 4, 64))
	}
	for _, p := range s.totals.Players() {
		if err := row(p.Name, p.Games, &p.Side); err != nil {
			return err
		}
	}
	if err := row("all", s.totals.Games, &s.totals.All); err != nil {
		return err
	}
	if err := t.Render(); err != nil {
		return err
	}
	worst := s.totals.Worst()
	if len(worst) == 0 {
		return nil
	}
	t = tablewriter.NewTable(w)
	t.Header("game", "move", "played", "best", "loss", "judgment", "position")
	for _, m := range worst {
		num := strconv.Itoa(m.MoveNumber) + "."
		if m.Side != firstMoverName(m.Variant) {
			num += ".."
		}
		j := m.Judgment.String()
		if m.Note != "" {
			j = strings.TrimSpace(j + " (" + m.Note + ")")
		}
		if err := t.Append(fmt.Sprintf("%s:%d", m.File, m.Game), num, m.Move, m.Best, strconv.FormatFloat(m.Loss, 'f', 3, 64), j, m.FEN); err != nil {
			return err
		}
	}
	return t.Render()
}

// firstMoverName is "white" or "black": who moves first in the variant called name.
func firstMoverName(name string) string {
	v, err := pdn.LookupVariant(name)
	if err == nil && v.FirstMover == engine.Black {
		return "black"
	}
	return "white"
}

// annotateMerge joins the shard files of pdn annotate into the output of one run: the games
// to out (or stdout), the summary as text to stdout with out (else stderr), the same
// messages and exit status.
func annotateMerge(c *cli.Context, names []string, out string) error {
	h, recs, err := annotate.ReadShards(names)
	if err != nil {
		return err
	}
	skipBad := slices.Contains(h.Settings, "--skip-bad=true")
	s := &annotateSink{totals: annotate.NewTotals(10), report: errorPrinter(c.App.ErrWriter, "")}
	write := func(w io.Writer) error {
		s.out = pdn.NewWriter(w)
		for _, r := range recs {
			if err := c.Context.Err(); err != nil {
				return err
			}
			if err := s.emit(r, false); err != nil {
				return err
			}
		}
		return s.out.Flush()
	}
	summary := c.App.Writer
	if out == "" {
		err = write(c.App.Writer)
		summary = c.App.ErrWriter
	} else {
		err = createFile(out, write, keepWithInputErrors)
	}
	if err != nil {
		return err
	}
	if err := s.render(summary, false); err != nil {
		return err
	}
	switch {
	case s.bad == 0:
	case skipBad:
		fmt.Fprintf(c.App.ErrWriter, "pdn: left out %d %s with errors (--skip-bad)\n", s.bad, plural(s.bad, "game", "games"))
	default:
		return fmt.Errorf("%d of %d games have errors (--skip-bad leaves them out)", s.bad, s.read)
	}
	return nil
}
