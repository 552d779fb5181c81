package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

func main() {
	cliutil.Main(run)
}

// run is the whole command, with its streams, so that tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliutil.Run(ctx, newApp(stdout, stderr), args, stderr)
}

func variantFlag() cli.Flag {
	return &cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "english",
		Usage: "variant: " + strings.Join(engine.Names(), ", ") + " (or an alias or PDN GameType)"}
}

func dirFlag() cli.Flag {
	return &cli.StringFlag{Name: "dir", Usage: "the database's directory", DefaultText: "the user's cache directory/rafle/egdb/VARIANT"}
}

func jobsFlag() cli.Flag {
	return &cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), DefaultText: "all CPUs",
		Usage: "threads (at most " + fmt.Sprint(cliutil.MaxJobsPerCPU) + " per CPU)"}
}

func cacheFlag() cli.Flag {
	return &cli.IntFlag{Name: "cache", Value: egdb.DefaultCacheMB, Usage: "MiB of decompressed blocks kept in memory"}
}

func quietFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"}
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "egdb",
		Usage: "build, probe and verify endgame databases",
		UsageText: "egdb build --variant V --pieces N [--dir DIR] [-j J] [--shard K/N]\n" +
			"   egdb probe --variant V --fen F [--json]\n" +
			"   egdb stats|verify|suite ...",
		Description: "An endgame database holds the value (win, draw or loss for the side to move) and the\n" +
			"distance to the end of the game in plies of every position of up to N pieces, under the move\n" +
			"rules alone: the draw rules that count moves or repetitions are left out, as in Kingsrow's,\n" +
			"Scan's and Moby Dam's databases. One file per slice (the material, seen from the side to\n" +
			"move), in --dir. See docs/egdb.md.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		OnUsageError:    cliutil.OnUsageError,
		Commands: []*cli.Command{
			buildCommand(),
			probeCommand(),
			statsCommand(),
			verifyCommand(),
			suiteCommand(),
		},
	}
}

// noArgs refuses positional arguments.
func noArgs(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	return nil
}

// variantDir reads --variant and --dir.
func variantDir(c *cli.Context) (*engine.Variant, string, error) {
	if err := noArgs(c); err != nil {
		return nil, "", err
	}
	v, err := engine.Lookup(c.String("variant"))
	if err != nil {
		return nil, "", cliutil.UsageError{Err: err}
	}
	if err := egdb.Supported(v); err != nil {
		return nil, "", err
	}
	dir := c.String("dir")
	if dir == "" {
		if dir, err = egdb.DefaultDir(v.Name); err != nil {
			return nil, "", err
		}
	}
	return v, dir, nil
}

// openDB opens the database of --variant in --dir with --cache.
func openDB(c *cli.Context) (*egdb.DB, error) {
	v, dir, err := variantDir(c)
	if err != nil {
		return nil, err
	}
	mb := c.Int("cache")
	if mb < 1 {
		return nil, cliutil.Usagef("--cache %d: must be at least 1", mb)
	}
	if err := cliutil.CheckMemory("--cache", int64(mb)); err != nil {
		return nil, err
	}
	return egdb.Open(dir, v, egdb.Options{CacheMB: mb})
}

func piecesFlag(required bool) cli.Flag {
	usage := "pieces: every slice of up to N pieces (2-" + fmt.Sprint(egdb.MaxPieces) + ")"
	if !required {
		usage = "only the slices of N pieces (default: all)"
	}
	return &cli.IntFlag{Name: "pieces", Aliases: []string{"n"}, Usage: usage}
}

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:      "build",
		Usage:     "build every missing slice of up to N pieces",
		UsageText: "egdb build --variant V --pieces N [--dir DIR] [-j J] [--distance-pieces D] [--men M [--shard K/N | --shards N]] [--quiet]",
		Description: "Slices are built in dependency order (captures and crownings lead to slices built before) and\n" +
			"written atomically; files already in DIR are kept, so a killed build resumes at the first\n" +
			"missing slice. --men M builds one stage: the slices of exactly N pieces of which M are men,\n" +
			"whose dependencies (fewer pieces, or fewer men) must be in DIR. The slices of a stage are\n" +
			"independent: --shard K/N (K from 0) builds shard K of them, one machine per shard\n" +
			"(docs/egdb.md, deploy/). Under Slurm or a Kubernetes Indexed Job the shard comes from the\n" +
			"environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX with --shards N).",
		Flags: []cli.Flag{variantFlag(), piecesFlag(true), dirFlag(), jobsFlag(),
			&cli.IntFlag{Name: "distance-pieces", DefaultText: "all", Usage: "keep the distance in plies only in slices of up to N pieces; larger ones hold win, draw or loss (smaller files)"},
			&cli.IntFlag{Name: "men", Value: -1, DefaultText: "every stage", Usage: "build only the stage of --pieces pieces of which M are men"},
			&cli.StringFlag{Name: "shard", Usage: "build shard K (from 0) of N of the stage's slices"},
			&cli.IntFlag{Name: "shards", Usage: "the number of shards, with JOB_COMPLETION_INDEX (Kubernetes)"},
			quietFlag()},
		OnUsageError: cliutil.OnUsageError,
		Action:       buildAction,
	}
}

func buildAction(c *cli.Context) error {
	v, dir, err := variantDir(c)
	if err != nil {
		return err
	}
	n := c.Int("pieces")
	if !c.IsSet("pieces") {
		return cliutil.Usagef("--pieces is required")
	}
	if n < 2 || n > egdb.MaxPieces {
		return cliutil.Usagef("--pieces %d: out of range (2-%d)", n, egdb.MaxPieces)
	}
	jobs := c.Int("jobs")
	if err := cliutil.CheckJobs("-j", jobs); err != nil {
		return err
	}
	sh, err := cliutil.ReadShard(c)
	if err != nil {
		return err
	}
	men := c.Int("men")
	switch {
	case c.IsSet("men") && (men < 0 || men > n):
		return cliutil.Usagef("--men %d: out of range (0-%d)", men, n)
	case sh.Count > 0 && !c.IsSet("men"):
		return cliutil.Usagef("a shard is part of a stage: give --men M (the slices of one number of pieces depend on each other through crownings)")
	}
	out, errw := c.App.Writer, c.App.ErrWriter
	if note := egdb.Coverage(v); note != "" {
		fmt.Fprintf(errw, "egdb: %s: %s\n", v.Name, note)
	}
	var bar *progressBar
	if d := c.Int("distance-pieces"); d < 0 {
		return cliutil.Usagef("--distance-pieces %d: must not be negative", d)
	}
	opt := egdb.BuildOptions{Dir: dir, Pieces: n, Jobs: jobs, DistancePieces: c.Int("distance-pieces"), Stage: c.IsSet("men"), Men: men, Shard: sh.Index, Shards: sh.Count,
		Progress: func(p egdb.Progress) {
			if p.Done {
				bar.finish()
				bar = nil
				return
			}
			if bar == nil {
				bar = newProgressBar(errw, c.Bool("quiet"), p)
			}
			bar.set(p)
		}}
	start := time.Now()
	reports, err := egdb.Build(c.Context, v, opt)
	bar.finish()
	var built, skipped int
	var positions uint64
	var bytes int64
	for _, r := range reports {
		if r.Skipped {
			skipped++
			continue
		}
		built++
		positions += r.Positions
		bytes += r.Bytes
		st := r.Stats
		fmt.Fprintf(out, "%s: %d positions: %d wins, %d draws, %d losses, longest win %d plies; %d bytes\n",
			r.Slice, st.Positions, st.Wins, st.Draws, st.Losses, st.LongestWin, r.Bytes)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %d slices built (%d positions, %d bytes) and %d there already, in %s, in %s\n",
		v.Name, built, positions, bytes, skipped, time.Since(start).Round(time.Millisecond), dir)
	return nil
}

func probeCommand() *cli.Command {
	return &cli.Command{
		Name:      "probe",
		Usage:     "the value of a position and of each of its moves",
		UsageText: "egdb probe --variant V --fen F [--dir DIR] [--json]",
		Description: "Prints the value of the position for the side to move (win or loss in so many plies, draw,\n" +
			"or not in the database) and every legal move with the value it leads to, best first.",
		Flags: []cli.Flag{variantFlag(), &cli.StringFlag{Name: "fen", Usage: "the position (PDN FEN), required"},
			dirFlag(), cacheFlag(), &cli.BoolFlag{Name: "json", Usage: "one JSON object"}},
		OnUsageError: cliutil.OnUsageError,
		Action:       probeAction,
	}
}

// moveJSON is a move of probe's and suite's JSON.
type moveJSON struct {
	Move  string `json:"move"`
	Value string `json:"value"`
	Plies *int   `json:"plies,omitempty"`
}

func plies(r egdb.Result) *int {
	if r.Plies < 0 {
		return nil
	}
	n := r.Plies
	return &n
}

func resultText(r egdb.Result) string {
	if r.Value == egdb.Unknown {
		return "not in the database"
	}
	return r.String()
}

func probeAction(c *cli.Context) error {
	if !c.IsSet("fen") {
		return cliutil.Usagef("--fen is required")
	}
	db, err := openDB(c)
	if err != nil {
		return err
	}
	defer db.Close()
	v := db.Variant()
	p, err := v.ParseFEN(c.String("fen"))
	if err != nil {
		return err
	}
	r, err := db.Probe(&p)
	if err != nil {
		return err
	}
	moves, err := db.Moves(&p)
	if err != nil {
		return err
	}
	out := c.App.Writer
	if c.Bool("json") {
		obj := struct {
			FEN   string     `json:"fen"`
			Value string     `json:"value"`
			Plies *int       `json:"plies,omitempty"`
			Moves []moveJSON `json:"moves"`
		}{FEN: v.FEN(p), Value: r.Value.String(), Plies: plies(r), Moves: []moveJSON{}}
		for _, m := range moves {
			obj.Moves = append(obj.Moves, moveJSON{v.FormatMove(&p, m.Move, false), m.Result.Value.String(), plies(m.Result)})
		}
		b, err := json.Marshal(obj)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(out, "%s\n", b)
		return err
	}
	fmt.Fprintf(out, "%s\n%s to move: %s\n", v.FEN(p), p.Side, resultText(r))
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	for _, m := range moves {
		fmt.Fprintf(tw, "  %s\t%s\n", v.FormatMove(&p, m.Move, false), resultText(m.Result))
	}
	return tw.Flush()
}
