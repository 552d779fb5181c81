// Command pdn validates, converts, filters, deduplicates, splits and
// summarises PDN game archives. It streams: any number of files (plain or
// .gz) or standard input, one game in memory at a time.
//
// validate replays every move with pkg/engine (unless --syntax-only);
// convert --to fen|csv, --notation, --captures and filter --fen replay
// the games they write.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
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

// stdinKey passes standard input to actions through the context.
type stdinKey struct{}

// run is the whole command, with its streams, so that tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliutil.Run(context.WithValue(ctx, stdinKey{}, stdin), newApp(stdout, stderr), args, stderr)
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
		&cli.StringFlag{Name: "to", Value: "pdn", Usage: "output `FORMAT`: pdn, json (one game per line), " +
			"csv or fen (one row per position of each game, replayed; the columns are in pdn convert --help)"},
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
		UsageText: "pdn validate [--syntax-only] [--variant NAME] [--json] [FILE...]\n" +
			"   pdn convert|filter|dedupe [--to pdn|json|csv|fen] [options] [FILE...]\n" +
			"   pdn stats [--format table|csv|json] [FILE...]\n" +
			"   pdn split (--every N | --by-tag NAME) --out PREFIX [FILE...]\n" +
			"   pdn book [FILE...] | --expand | --book FILE (--probe FEN | --moves MOVES)\n" +
			"   pdn COMMAND --help",
		Description: "Every command reads PDN or its own JSON lines, from files (.gz allowed) or standard input\n" +
			"(no FILE, or \"-\"), one game at a time. Reading is lenient unless --strict: each repair is a\n" +
			"warning on the game. Commands that replay moves take each game's variant from its GameType\n" +
			"tag, else --variant, else infer it from its whole file (and say so). A game read or replayed\n" +
			"with an error is named on stderr and makes the exit status 1; --skip-bad leaves such games\n" +
			"out. A file that cannot be read, holds binary data or no game is an error (an empty one only\n" +
			"a warning with --skip-bad); the other files are still read. Ctrl-C stops a command within a\n" +
			"second; it says how many games it read, and split leaves only complete files.\n" +
			"Exit status: 0 ok, 1 bad data or failure, 2 usage.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// A repeated flag (--tag, --result) takes each value whole: tag values have commas.
		DisableSliceFlagSeparator: true,
		OnUsageError:              cliutil.OnUsageError,
		Commands: []*cli.Command{
			validateCommand(), convertCommand(), statsCommand(), filterCommand(), dedupeCommand(), splitCommand(),
			bookCommand(),
		},
	}
}

// inputs turns the arguments into pdn.Inputs; none or "-" is stdin.
func inputs(c *cli.Context) []pdn.Input {
	names := c.Args().Slice()
	if len(names) == 0 {
		names = []string{"-"}
	}
	stdin, _ := c.Context.Value(stdinKey{}).(io.Reader)
	ins := make([]pdn.Input, len(names))
	for i, name := range names {
		name := name
		ins[i] = pdn.Input{Name: name}
		if name == "-" {
			ins[i].Open = func() (io.ReadCloser, error) { return io.NopCloser(stdin), nil }
			continue
		}
		if fi, err := os.Stat(name); err == nil {
			ins[i].Size = fi.Size()
		}
		ins[i].Open = func() (io.ReadCloser, error) { return os.Open(name) }
	}
	return ins
}

// Whether readJob infers the variant of the games without a GameType tag, input by input
// (unless --variant gives it), and whether it says so on stderr.
const (
	noInfer    = iota
	infer      // the command's report shows the variants
	inferNoted // the command says nothing else about variants: a line per input on stderr
)

// readJob reads the input flags and arguments into a job, with a progress bar when stderr
// is a terminal and the input is large. With infer, it first reads every input once to
// infer the variant of its games without a GameType tag (standard input is kept in a
// temporary file to be read twice). done ends the progress bar and removes that file.
func readJob(c *cli.Context, mode int) (job pdn.Job, done func(), err error) {
	enc, err := pdn.ParseEncoding(c.String("encoding"))
	if err != nil {
		return pdn.Job{}, nil, flagError("--encoding", err)
	}
	job = pdn.Job{Inputs: inputs(c), Reader: pdn.ReaderOptions{Strict: c.Bool("strict"), Encoding: enc}, Jobs: c.Int("jobs")}
	var cleanup []func()
	done = func() {
		for _, f := range cleanup {
			f()
		}
	}
	if mode != noInfer && !c.IsSet("variant") {
		for i := range job.Inputs {
			if in := &job.Inputs[i]; in.Name == "-" {
				path, err := spool(c.Context, in)
				if path != "" {
					cleanup = append(cleanup, func() { os.Remove(path) })
				}
				if err != nil {
					done()
					return job, nil, interrupted(err, 0)
				}
			}
		}
		if err := job.InferVariants(c.Context); err != nil {
			done()
			return job, nil, interrupted(err, 0)
		}
		if mode == inferNoted {
			for _, in := range job.Inputs {
				if inf := in.Inferred; inf != nil && inf.Variant != nil {
					fmt.Fprintf(c.App.ErrWriter, "pdn: %s: %d %s without a GameType tag: %v\n", in.Name, inf.Games, plural(inf.Games, "game", "games"), inf)
				}
			}
		}
	}
	var total int64
	for _, in := range job.Inputs {
		total += in.Size
	}
	if total >= 8<<20 {
		if bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), total, "reading", progressbar.OptionShowBytes(true)); bar != nil {
			job.Progress = func(d, _ int64) { bar.Set64(d) }
			cleanup = append([]func(){func() { bar.Finish() }}, cleanup...)
		}
	}
	return job, done, nil
}

// spool copies what in opens (standard input) into a temporary file, which in then opens,
// so that it can be read twice. It returns the file's path ("" if none was made).
func spool(ctx context.Context, in *pdn.Input) (string, error) {
	src, err := in.Open()
	if err != nil {
		return "", err
	}
	defer src.Close()
	f, err := os.CreateTemp("", "pdn-stdin-*.pdn")
	if err != nil {
		return "", err
	}
	path := f.Name()
	n, err := io.Copy(f, ctxReader{ctx, src})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	in.Size = n
	in.Open = func() (io.ReadCloser, error) { return os.Open(path) }
	return path, err
}

// ctxReader reads r until ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// plural returns one for n == 1 and many otherwise.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// gameWriter returns the writer for --to.
func gameWriter(c *cli.Context) (pdn.GameWriter, error) {
	switch to := c.String("to"); to {
	case "pdn":
		w := pdn.NewWriter(c.App.Writer)
		w.StarOnly = c.Bool("star-only")
		return w, nil
	case "json":
		return pdn.NewJSONWriter(c.App.Writer), nil
	case "csv", "fen":
		pw := pdn.NewPositionWriter(c.App.Writer, to)
		pw.Notation, pw.Captures = c.String("notation"), c.String("captures")
		return pw, nil
	default:
		return nil, cliutil.Usagef("--to %q: want pdn, json, csv or fen", to)
	}
}

// replayCopy returns the replay stage that --to csv|fen, --notation,
// --captures and --fen need, or nil.
func replayCopy(c *cli.Context, reach *pdn.PositionFilter) (*pdn.ReplayCopy, error) {
	notation, captures := c.String("notation"), c.String("captures")
	if err := pdn.CheckNotation(notation, captures); err != nil {
		return nil, cliutil.Usagef("--%s", clean(err))
	}
	rp, err := replayer(c) // checks --variant even when nothing is replayed
	if err != nil {
		return nil, err
	}
	to := c.String("to")
	if reach == nil && notation == "" && captures == "" && to != "csv" && to != "fen" {
		return nil, nil
	}
	return &pdn.ReplayCopy{Replayer: *rp, Notation: notation, Captures: captures, Reach: reach}, nil
}

// maxShown is how many game errors a command prints before it only counts.
const maxShown = 10

// copyGames is the common action of convert, filter and dedupe.
func copyGames(c *cli.Context, opt pdn.CopyOptions) (pdn.CopyResult, error) {
	w, err := gameWriter(c)
	if err != nil {
		return pdn.CopyResult{}, err
	}
	opt.Transform = pdn.Transform{DropComments: c.Bool("drop-comments"), DropVariations: c.Bool("drop-variations"),
		DropNAGs: c.Bool("drop-nags")}
	opt.SkipBad = c.Bool("skip-bad")
	var reach *pdn.PositionFilter
	if opt.Replay != nil {
		reach = opt.Replay.Reach
	}
	if opt.Replay, err = replayCopy(c, reach); err != nil {
		return pdn.CopyResult{}, err
	}
	mode := noInfer
	if opt.Replay != nil {
		mode = inferNoted
	}
	job, done, err := readJob(c, mode)
	if err != nil {
		return pdn.CopyResult{}, err
	}
	opt.OnError = errorPrinter(c.App.ErrWriter, "")
	res, err := pdn.Copy(c.Context, job, w, opt)
	done()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return res, outcome(c, err, res.Read, res.Errors+res.ReplayErrors)
}

// interrupted words the error of a command that stopped because its context was
// cancelled (Ctrl-C, SIGTERM): it says how many games it had read. Other errors come back
// unchanged.
func interrupted(err error, games int) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("interrupted after %d games: %w", games, err)
	}
	return err
}

// errorPrinter returns a function that prints the first maxShown errors it gets on w, one
// line each: "pdn: ", what, and the error without its own "pdn: ".
func errorPrinter(w io.Writer, what string) func(error) {
	shown := 0
	return func(err error) {
		if shown++; shown <= maxShown {
			fmt.Fprintf(w, "pdn: %s%s\n", what, clean(err))
		}
	}
}

// skipBadFlag is --skip-bad: leave out the games read or replayed with an error, and exit
// 0 for them.
func skipBadFlag() cli.Flag {
	return boolFlag("skip-bad", "leave out the games read or replayed with an error, and do not fail for them "+
		"(without: they are used as far as they could be read, named on stderr, and the exit status is 1)")
}

// outcome is the end of a command that read games, from the error of its run (nil, the
// context's, inputs that could not be read, another) and the count of games read and of
// those with errors:
//   - interrupted: it says how many games it read;
//   - inputs that could not be read: each is named on stderr (an input without games is
//     a warning with --skip-bad);
//   - games with errors (named on stderr as they came): with --skip-bad it says how many
//     it left out and succeeds; without, it fails.
func outcome(c *cli.Context, err error, games, bad int) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return interrupted(err, games)
	}
	list, inputs := pdn.InputErrors(err)
	if err != nil && !inputs {
		return err
	}
	skip := c.Bool("skip-bad")
	var failed []error
	for _, ie := range list {
		if skip && errors.Is(ie, pdn.ErrNoGames) {
			fmt.Fprintf(c.App.ErrWriter, "pdn: warning: %s\n", strings.TrimPrefix(ie.Error(), "pdn: "))
			continue
		}
		failed = append(failed, ie)
	}
	var berr error
	switch {
	case bad == 0:
	case skip:
		fmt.Fprintf(c.App.ErrWriter, "pdn: left out %d %s with errors (--skip-bad)\n", bad, plural(bad, "game", "games"))
	case hasFlag(c, "skip-bad"):
		berr = fmt.Errorf("%d of %d games have errors (--skip-bad leaves them out)", bad, games)
	default:
		berr = fmt.Errorf("%d of %d games have errors", bad, games)
	}
	if len(failed) == 0 {
		return berr
	}
	if len(failed) == 1 && berr == nil {
		return failed[0]
	}
	for _, e := range failed {
		fmt.Fprintf(c.App.ErrWriter, "pdn: %s\n", strings.TrimPrefix(e.Error(), "pdn: "))
	}
	if berr != nil {
		fmt.Fprintf(c.App.ErrWriter, "pdn: %v\n", berr)
	}
	return fmt.Errorf("%d of %d inputs could not be read", len(failed), c.NArg()+btoi(c.NArg() == 0))
}

// hasFlag reports whether the command has the flag called name.
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// problemError words a validation problem as an error with its file, game and position.
func problemError(p pdn.Problem) error {
	where := fmt.Sprintf("%s: game %d", p.File, p.Game)
	if p.Line > 0 {
		where += fmt.Sprintf(": line %d, column %d", p.Line, p.Column)
	}
	return fmt.Errorf("%s: %s", where, p.Message)
}

// clean returns the text of err without the package names that wrapping repeats in it
// ("pdn: ", "engine: ", "book: "): a command prints its own "pdn: " once.
func clean(err error) string {
	s := err.Error()
	for _, p := range []string{"pdn: ", "engine: ", "book: "} {
		s = strings.ReplaceAll(s, ": "+p, ": ")
	}
	for again := true; again; {
		again = false
		for _, p := range []string{"pdn: ", "engine: ", "book: "} {
			if t, ok := strings.CutPrefix(s, p); ok {
				s, again = t, true
			}
		}
	}
	return s
}

// flagError is the usage error for a bad value of the flag: "FLAG: what is wrong".
func flagError(flag string, err error) error {
	return cliutil.Usagef("%s: %s", flag, clean(err))
}
