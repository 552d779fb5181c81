package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/pdn"
)

func main() {
	// The commands stream: what stays live is one game (or one batch per worker), a few
	// MiB, while reading allocates about 18 bytes per byte of input. A GC target of 400%
	// keeps the heap at a few tens of MiB and reads the Open Checkers Archive about 45%
	// faster (0.15 s -> 0.10 s of CPU for validate --syntax-only, RSS 17 -> 28 MiB).
	debug.SetGCPercent(400)
	cliutil.Main(run)
}

// stdinKey passes standard input to actions through the context, stdoutKey standard
// output as given (before cliutil.Run wraps it).
type stdinKey struct{}
type stdoutKey struct{}

// run is the whole command, with its streams, so that tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx = context.WithValue(context.WithValue(ctx, stdinKey{}, stdin), stdoutKey{}, stdout)
	return cliutil.Run(ctx, newApp(stdout, stderr), args, stderr)
}

// readFlags are the input flags every subcommand has.
func readFlags() []cli.Flag {
	return []cli.Flag{
		boolFlag("strict", "read with the PDN 3.0 grammar: anything outside it is an error (default: lenient, each repair a warning)"),
		&cli.StringFlag{Name: "encoding", Value: "auto", Usage: "input `ENCODING`: auto, utf-8, latin-1 or cp1251"},
		boolFlag("quiet", "no progress bar (there is one only on a terminal, for inputs of 8 MB or more)", "q"),
	}
}

// boolFlag is a flag without a value (its help shows no "(default: false)").
func boolFlag(name, usage string, aliases ...string) *cli.BoolFlag {
	return &cli.BoolFlag{Name: name, Aliases: aliases, Usage: usage, DisableDefaultText: true}
}

// jobsFlag is -j, with usage saying what runs in parallel. Its value is checked by
// cliutil.CheckJobs: at least 1, and at most a small multiple of the CPUs.
func jobsFlag(usage string) cli.Flag {
	return &cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "all cores",
		Usage: usage, Action: func(_ *cli.Context, n int) error { return cliutil.CheckJobs("-j", n) }}
}

// readJobsUsage is the -j usage of the commands that read and write games.
const readJobsUsage = "`N` goroutines reading a large file in pieces, replaying and formatting games (the output is the same for every N)"

// outFlags are the flags of the commands that write games: convert, filter, dedupe.
func outFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Aliases: []string{"to"}, Value: "pdn", Usage: "output `FORMAT`: pdn, json (one game per line), " +
			"csv or fen (one row per position of each game, replayed; the columns are in pdn convert --help)"},
		boolFlag("positions", "--format json: also write where each game, tag and move is in the input (line, column, offset)"),
		&cli.StringFlag{Name: "notation", Usage: "rewrite the moves with square numbers or coordinates: `STYLE` numeric or algebraic (replays)"},
		&cli.StringFlag{Name: "captures", Usage: "rewrite captures as from-to (short; the full path when ambiguous) or with every landing square (full): `STYLE` short or full (replays)"},
		variantFlag(),
		boolFlag("drop-comments", "remove {comments}"),
		boolFlag("drop-variations", "remove (variations)"),
		boolFlag("drop-nags", "remove $n annotations and move strengths"),
		skipBadFlag(),
		boolFlag("star-only", "end every PDN game with '*' (PDN 3.0 writing grammar); the result stays in the Result tag"),
		jobsFlag(readJobsUsage),
	}
}

func flags(groups ...[]cli.Flag) []cli.Flag {
	var fs []cli.Flag
	for _, g := range groups {
		fs = append(fs, g...)
	}
	return fs
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "pdn",
		Usage: "check, convert and summarise PDN draughts archives",
		UsageText: "pdn validate [--syntax-only] [--variant NAME] [--format text|json] [FILE...]\n" +
			"   pdn convert|filter|dedupe [--format pdn|json|csv|fen] [-o FILE] [options] [FILE...]\n" +
			"   pdn stats [--format table|csv|json] [FILE...]\n" +
			"   pdn split (--every N | --by-tag NAME) --output PREFIX [FILE...]\n" +
			"   pdn book [FILE...] | --expand | --book FILE (--probe FEN | --moves MOVES)\n" +
			"   pdn annotate [--player SPEC | --engine SPEC] [--nodes N | --depth D] [-o OUT.pdn] [FILE...]\n" +
			"   pdn validate|stats|convert|filter|dedupe [options] --shard K/N --output FILE FILE...; pdn merge SHARD...\n" +
			"   pdn COMMAND --help",
		Description: "Every command reads PDN or its own JSON lines, from files (.gz allowed) or standard input\n" +
			"(no FILE, or \"-\"), one game at a time. Reading is lenient unless --strict: each repair is a\n" +
			"warning on the game. Commands that replay moves take each game's variant from its GameType\n" +
			"tag, else --variant, else infer it from its whole file (and say so). A game read or replayed\n" +
			"with an error is named on stderr and makes the exit status 1; --skip-bad leaves such games\n" +
			"out. A file that cannot be read, holds binary data, is not PDN (no tag pair, move or result)\n" +
			"or no game is an error (an empty one only a warning with --skip-bad); the other files are\n" +
			"still read. A last game cut by the end of its file is an error. FIFOs and <(...) are read\n" +
			"once (kept in a temporary file when the variant is inferred). Ctrl-C stops a command within a\n" +
			"second; it says how many games it read, and split leaves only complete files.\n" +
			"validate, stats, convert, filter and dedupe run in shards on several machines with --shard\n" +
			"K/N --output FILE, and pdn merge joins the shards into the output of one run (docs/cluster.md).\n" +
			"Exit status: 0 ok, 1 bad data or failure, 2 usage.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// A repeated flag (--tag, --result) takes each value whole: tag values have commas.
		DisableSliceFlagSeparator: true,
		OnUsageError:              cliutil.OnUsageError,
		Commands: []*cli.Command{
			validateCommand(), convertCommand(), statsCommand(), filterCommand(), dedupeCommand(), splitCommand(),
			bookCommand(), mergeCommand(), annotateCommand(),
		},
	}
}

// toFlag returns the format --format names.
func toFlag(c *cli.Context) (archive.Format, error) {
	to, err := archive.ParseFormat(c.String("to"))
	if err != nil {
		return 0, cliutil.Usagef("--format %q: want pdn, json, csv or fen", c.String("to"))
	}
	return to, nil
}

// notationFlags returns the styles --notation and --captures name.
func notationFlags(c *cli.Context) (archive.Notation, archive.Captures, error) {
	notation, err := archive.ParseNotation(c.String("notation"))
	if err != nil {
		return 0, 0, cliutil.Usagef("--%s", clean(err))
	}
	captures, err := archive.ParseCaptures(c.String("captures"))
	if err != nil {
		return 0, 0, cliutil.Usagef("--%s", clean(err))
	}
	return notation, captures, nil
}

// gameWriter returns the writer for --format, writing to out.
func gameWriter(c *cli.Context, out io.Writer) (pdn.GameWriter, error) {
	if c.Bool("positions") && c.String("to") != "json" {
		return nil, cliutil.Usagef("--positions: only with --format json")
	}
	to, err := toFlag(c)
	if err != nil {
		return nil, err
	}
	switch to {
	case archive.FormatPDN:
		w := pdn.NewWriter(out)
		w.StarOnly = c.Bool("star-only")
		return w, nil
	case archive.FormatJSON:
		w := pdn.NewJSONWriter(out)
		w.Positions = c.Bool("positions")
		return w, nil
	}
	pw := archive.NewPositionWriter(out, to)
	if pw.Notation, pw.Captures, err = notationFlags(c); err != nil {
		return nil, err
	}
	return pw, nil
}

// replayCopy returns the replay stage that --to csv|fen, --notation,
// --captures and --fen need, or nil.
func replayCopy(c *cli.Context, reach *archive.PositionFilter) (*archive.ReplayCopy, error) {
	notation, captures, err := notationFlags(c)
	if err != nil {
		return nil, err
	}
	rp, err := replayer(c) // checks --variant even when nothing is replayed
	if err != nil {
		return nil, err
	}
	to, err := toFlag(c)
	if err != nil {
		return nil, err
	}
	positions := to == archive.FormatCSV || to == archive.FormatFEN
	if reach == nil && notation == archive.NotationKeep && captures == archive.CapturesKeep && !positions {
		return nil, nil
	}
	return &archive.ReplayCopy{Replayer: *rp, Notation: notation, Captures: captures, Reach: reach}, nil
}

// maxShown is how many game errors a command prints before it only counts.
const maxShown = 10

// copyGames is the common action of convert, filter and dedupe: one run, a shard of it
// (shardOf) or the merge of its shards (merging).
func copyGames(c *cli.Context, opt archive.CopyOptions) (archive.CopyResult, error) {
	so, err := shardOf(c)
	if err != nil {
		return archive.CopyResult{}, err
	}
	out := c.App.Writer
	if so != nil {
		out = &so.out
	}
	w, err := gameWriter(c, out)
	if err != nil {
		return archive.CopyResult{}, err
	}
	opt.Transform = archive.Transform{DropComments: c.Bool("drop-comments"), DropVariations: c.Bool("drop-variations"),
		DropNAGs: c.Bool("drop-nags")}
	opt.SkipBad = c.Bool("skip-bad")
	var reach *archive.PositionFilter
	if opt.Replay != nil {
		reach = opt.Replay.Reach
	}
	if opt.Replay, err = replayCopy(c, reach); err != nil {
		return archive.CopyResult{}, err
	}
	opt.OnError = errorPrinter(c.App.ErrWriter, "")
	if m := merging(c); m != nil {
		sep := ""
		if c.String("to") == "pdn" {
			sep = "\n" // pdn.Writer's blank line between games
		}
		for _, note := range m.End().Notes {
			fmt.Fprintln(c.App.ErrWriter, note)
		}
		res, err := m.Copy(c.Context, c.App.Writer, sep, opt.Dedupe != nil, opt.OnError)
		if archive.IsMergeError(err) {
			return res, err
		}
		return res, outcome(c, err, res.Read, res.Errors+res.ReplayErrors)
	}
	mode := noInfer
	if opt.Replay != nil {
		mode = inferNoted
	}
	job, done, err := readJob(c, mode)
	if err != nil {
		return archive.CopyResult{}, err
	}
	if so != nil {
		if mode == inferNoted {
			so.end.Notes = inferenceNotes(job)
		}
		job.Select = so.selector()
		if err := so.copyOptions(&opt, w, c.String("to")); err != nil {
			done()
			return archive.CopyResult{}, err
		}
		if err := so.begin(); err != nil {
			done()
			return archive.CopyResult{}, err
		}
	}
	res, err := archive.Copy(c.Context, job, w, opt)
	done()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if so != nil {
		so.end.Copy = &res
		return res, so.finish(c, err)
	}
	return res, outcome(c, err, res.Read, res.Errors+res.ReplayErrors)
}

// skipBadFlag is --skip-bad: leave out the games read or replayed with an error, and exit
// 0 for them.
func skipBadFlag() cli.Flag {
	return boolFlag("skip-bad", "leave out the games read or replayed with an error, and do not fail for them "+
		"(without: they are used as far as they could be read, named on stderr, and the exit status is 1)")
}
