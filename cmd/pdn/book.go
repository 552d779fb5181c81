package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/book"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

func bookCommand() *cli.Command {
	return &cli.Command{
		Name:  "book",
		Usage: "build an opening book from games or by engine search, or probe one",
		UsageText: "pdn book [--variant NAME] [--max-ply N] [--min-games N] [--format json|pdn] [--skip-bad] [-j N] [FILE...]\n" +
			"   pdn book --expand --variant NAME [--nodes N] [--depth D] [--max-ply N] [--seed S] [--format json|pdn]\n" +
			"   pdn book --book FILE (--probe FEN|NAME | --moves \"11-15 23-19\") [--eval DEPTH] [--format table|json]",
		Description: "Builds a book of every position of the games up to --max-ply plies, with the moves played\n" +
			"from it: games, and wins/draws/losses for the side to move (the first number of a result\n" +
			"belongs to the first mover). Transpositions share one position. The book's variant is\n" +
			"--variant, else the first game's, as validate finds it (its GameType tag, else inferred from\n" +
			"its file, and said on stderr); games of another variant are counted and left out. A game\n" +
			"that does not replay within --max-ply is named on stderr and left out, and makes the exit\n" +
			"status 1 unless --skip-bad. --min-games drops rarer moves and positions.\n" +
			"--expand builds a book by drop-out expansion with a fixed-depth search instead.\n" +
			"--book with --probe or --moves prints the book moves of a position (with --eval, the score\n" +
			"of a search of that depth after each move, in men for the mover).\n" +
			"The JSON book format is described in docs/books.md.",
		Flags: flags(readFlags(), []cli.Flag{
			&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, DefaultText: "the first game's",
				Usage: "`NAME` of the book's variant, and of the games without a GameType tag: " + strings.Join(engine.Names(), ", ") +
					", or a GameType value (required with --expand)"},
			boolFlag("skip-bad", "do not fail for games read or replayed with an error (they are left out of the book either way)"),
			&cli.IntFlag{Name: "max-ply", Value: book.DefaultMaxPly, Usage: "put the positions of the first `N` plies of each game in the book"},
			&cli.IntFlag{Name: "min-games", Value: 1, Usage: "drop moves and positions met in fewer than `N` games"},
			&cli.StringFlag{Name: "format", DefaultText: "json, or table with --book", Usage: "output `FORMAT`: json or pdn (a book); table or json (a probe)"},
			jobsFlag("`N` goroutines replaying games or searching"),
			boolFlag("expand", "build the book by drop-out expansion with the engine"),
			&cli.IntFlag{Name: "nodes", Value: 100, Usage: "--expand: expand `N` positions"},
			&cli.IntFlag{Name: "depth", Value: 4, Usage: fmt.Sprintf("--expand: search every move to `DEPTH` plies (at most %d)", book.MaxExpandDepth)},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "--expand: tie-break `SEED`"},
			&cli.StringFlag{Name: "book", Usage: "book `FILE` (JSON) to probe"},
			&cli.StringFlag{Name: "probe", Usage: "probe the position given as a `FEN`, or by name: " + strings.TrimPrefix(cliutil.PositionHelp(), "a FEN, or the name of a position: ")},
			&cli.StringFlag{Name: "moves", Usage: "probe the position these `MOVES` reach from the book's root"},
			&cli.IntFlag{Name: "eval", Usage: "score each probed move with a search to `DEPTH` plies (0: none)"},
		}),
		OnUsageError: cliutil.OnUsageError,
		Action:       bookAction,
	}
}

func bookAction(c *cli.Context) error {
	switch {
	case c.String("book") != "":
		return probeAction(c)
	case c.IsSet("probe") || c.IsSet("moves") || c.IsSet("eval"):
		return cliutil.Usagef("book: --probe, --moves and --eval need --book FILE")
	case c.Bool("expand"):
		return expandAction(c)
	}
	return buildAction(c)
}

func buildAction(c *cli.Context) error {
	opt := book.BuildOptions{MaxPly: c.Int("max-ply"), MinGames: c.Int("min-games"), Jobs: c.Int("jobs")}
	if err := checkBookFlags(c, "json", "pdn"); err != nil {
		return err
	}
	if c.IsSet("variant") {
		v, err := pdn.LookupVariant(c.String("variant"))
		if err != nil {
			return flagError("--variant", err)
		}
		opt.Variant = v
	}
	job, done, err := readJob(c, inferNoted)
	if err != nil {
		return err
	}
	// Unlike the streaming commands (see main), a book keeps what it reads: its positions
	// are most of the heap, and the GC target of 400% would let the heap grow to five times
	// them. At 100%, peak memory is about twice the positions (OCA, --max-ply 200: 460 ->
	// 266 MiB) for about the same CPU time.
	debug.SetGCPercent(100)
	stderr := c.App.ErrWriter
	opt.Skipped = errorPrinter(stderr, "book: skipped ")
	opt.Progress = job.Progress
	start := time.Now()
	b, st, err := book.Build(c.Context, job, opt)
	done()
	if b == nil {
		return outcome(c, err, st.Read, st.Bad)
	}
	fmt.Fprintf(stderr, "pdn: book: %d games read, %d used (%d without a result), %d skipped (do not replay), %d of another variant; "+
		"%d positions, %d after --min-games %d, %d moves; %d hash collisions; %.1fs\n",
		st.Read, st.Used, st.NoResult, st.Bad, st.OtherVariant, st.Positions, b.Len(), max(1, opt.MinGames), b.Moves(),
		st.Collisions, time.Since(start).Seconds())
	if err := writeBook(c, b); err != nil {
		return err
	}
	return outcome(c, err, st.Read, st.Bad)
}

func expandAction(c *cli.Context) error {
	if err := checkBookFlags(c, "json", "pdn"); err != nil {
		return err
	}
	if c.Args().Present() {
		return cliutil.Usagef("book --expand: unexpected argument %q", c.Args().First())
	}
	if !c.IsSet("variant") {
		return cliutil.Usagef("book --expand needs --variant")
	}
	v, err := pdn.LookupVariant(c.String("variant"))
	if err != nil {
		return flagError("--variant", err)
	}
	opt := book.ExpandOptions{Depth: c.Int("depth"), Nodes: c.Int("nodes"), MaxPly: c.Int("max-ply"),
		Seed: c.Int64("seed"), Jobs: c.Int("jobs")}
	if opt.Depth < 1 || opt.Nodes < 1 {
		return cliutil.Usagef("book --expand: --depth %d and --nodes %d must be at least 1", opt.Depth, opt.Nodes)
	}
	if opt.Depth > book.MaxExpandDepth {
		return cliutil.Usagef("book --expand: --depth %d: at most %d (each ply multiplies the time by 3 to 10: "+
			"english's start position takes 0.1 s at depth 8 and 90 s at depth 14, on one core)", opt.Depth, book.MaxExpandDepth)
	}
	if err := cliutil.CheckMemory("--nodes", book.ExpandMemoryMiB(opt)); err != nil {
		return err
	}
	cliutil.BoundHeap(int64(opt.Jobs) * book.DefaultExpandHashMB) // the searchers' tables and about 20 MiB more
	stderr := c.App.ErrWriter
	fmt.Fprintf(stderr, "pdn: book: expanding %s, depth %d, %d nodes, max ply %d, seed %d\n", v.Name, opt.Depth, opt.Nodes, opt.MaxPly, opt.Seed)
	if bar := cliutil.Progress(stderr, c.Bool("quiet"), int64(opt.Nodes), "expanding positions", progressbar.OptionShowCount()); bar != nil {
		opt.Progress = func(d, _ int64) { bar.Set64(d) }
		defer bar.Finish()
	}
	start := time.Now()
	b, err := book.Expand(c.Context, v, opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "pdn: book: %d positions expanded, %d moves; %.1fs\n", b.Len(), b.Moves(), time.Since(start).Seconds())
	return writeBook(c, b)
}

func probeAction(c *cli.Context) error {
	if err := checkBookFlags(c, "table", "json"); err != nil {
		return err
	}
	if c.Args().Present() {
		return cliutil.Usagef("book --book: unexpected argument %q", c.Args().First())
	}
	if c.IsSet("probe") == c.IsSet("moves") {
		return cliutil.Usagef("book --book: give one of --probe FEN or --moves MOVES")
	}
	if c.Int("eval") < 0 {
		return cliutil.Usagef("--eval %d: must not be negative", c.Int("eval"))
	}
	f, err := cliutil.OpenInput(c.Context, c.String("book"))
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := book.ReadJSON(f, c.String("book"))
	if err != nil {
		return err
	}
	var p engine.Position
	if c.IsSet("probe") {
		// a position that is not one is bad data (exit status 1), as a bad book is
		if p, err = cliutil.ParsePosition("--probe", b.Variant, c.String("probe")); err != nil {
			return fmt.Errorf("%s (the book's variant is %s)", clean(err), b.Variant.Name)
		}
	} else if p, err = book.PlayLine(b.Variant, b.Root, c.String("moves")); err != nil {
		return fmt.Errorf("--moves %q: %s (%s, from the book's root)", c.String("moves"), clean(err), b.Variant.Name)
	}
	res, err := b.Probe(c.Context, p, book.ProbeOptions{EvalDepth: c.Int("eval")})
	if err != nil {
		return err
	}
	if c.String("format") == "json" {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return renderProbe(c.App.Writer, res, c.Int("eval"))
}

// checkBookFlags checks --format against the formats of the mode (the first is the default).
func checkBookFlags(c *cli.Context, formats ...string) error {
	if c.Int("max-ply") < 1 || c.Int("min-games") < 0 {
		return cliutil.Usagef("book: --max-ply must be at least 1, --min-games not negative")
	}
	f := c.String("format")
	if f == "" {
		return c.Set("format", formats[0])
	}
	for _, ok := range formats {
		if f == ok {
			return nil
		}
	}
	return cliutil.Usagef("--format %q: want %s", f, strings.Join(formats, " or "))
}

func writeBook(c *cli.Context, b *book.Book) error {
	if c.String("format") == "pdn" {
		w := pdn.NewWriter(c.App.Writer)
		if err := w.Write(b.PDN()); err != nil {
			return err
		}
		return w.Flush()
	}
	return b.WriteJSON(c.App.Writer)
}

func renderProbe(w io.Writer, res book.ProbeResult, evalDepth int) error {
	if !res.Found {
		fmt.Fprintf(w, "%s: not in the book\n", res.FEN)
		return nil
	}
	fmt.Fprintf(w, "%s: %d games\n", res.FEN, res.Games)
	t := tablewriter.NewTable(w)
	header := []any{"move", "games", "W/D/L", "score"}
	hasBookEval := false
	for _, m := range res.Moves {
		hasBookEval = hasBookEval || m.BookEval != nil
	}
	if hasBookEval {
		header = append(header, "book eval")
	}
	if evalDepth > 0 {
		header = append(header, fmt.Sprintf("eval (depth %d)", evalDepth))
	}
	t.Header(header...)
	for _, m := range res.Moves {
		score := "-"
		if m.Score != nil {
			score = fmt.Sprintf("%.1f%%", *m.Score)
		}
		row := []any{m.Move, strconv.Itoa(m.Games), fmt.Sprintf("%d/%d/%d", m.Wins, m.Draws, m.Losses), score}
		if hasBookEval {
			row = append(row, evalText(m.BookEval))
		}
		if evalDepth > 0 {
			row = append(row, evalText(m.Eval))
		}
		if err := t.Append(row...); err != nil {
			return err
		}
	}
	return t.Render()
}

func evalText(e *int) string {
	if e == nil {
		return "-"
	}
	return book.FormatEval(*e)
}
