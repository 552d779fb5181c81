package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
)

func main() {
	cliutil.Main(run)
}

// run is the whole command, with its streams, so that tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliutil.Run(ctx, newApp(stdout, stderr), args, stderr)
}

const duplicatesHelp = "duplicate captures: keep (every capture order counted), unique (counted once) or " +
	"paths (every path, a flying king's every stop before it goes on straight ahead too); " +
	"default: the convention of the variant's published lists (english keep, international unique, " +
	"russian keep, brazilian keep, turkish paths; both keep and unique are published for russian and brazilian)"

// commonFlags are the flags of the counting commands.
func commonFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "english", Usage: "variant: " + strings.Join(engine.Names(), ", ") + " (or an alias or PDN GameType)"},
		&cli.StringFlag{Name: "fen", Usage: "start position: " + cliutil.PositionHelp() + "; default: the variant's initial position"},
		&cli.IntFlag{Name: "depth", Aliases: []string{"d"}, Usage: "depth in plies (1-" + fmt.Sprint(maxDepth) + "), required"},
		&cli.StringFlag{Name: "duplicates", Usage: duplicatesHelp},
		threadsFlag(),
		hashFlag(),
	}, cliutil.FormatFlags("one object per line")...)
}

func threadsFlag() cli.Flag {
	return &cli.IntFlag{Name: "jobs", Aliases: []string{"j", "threads", "t"}, Value: runtime.NumCPU(), DefaultText: "all CPUs",
		Usage: "threads counting (at most " + fmt.Sprint(cliutil.MaxJobsPerCPU) + " per CPU)"}
}

func hashFlag() cli.Flag {
	return &cli.IntFlag{Name: "hash", Value: 64, Usage: "transposition table size in MiB, one table for all the threads (0: none; at most the memory available)"}
}

// now is the clock of the timings (tests replace it).
var now = time.Now

// readOptions reads --threads and --hash, bounded by this machine's CPUs and memory, and
// makes the table: one for the whole command, cleared between counts (see fresh). The
// table is cleared once here, so that its memory is touched before any count is timed:
// setUp returns how long making it took.
func readOptions(c *cli.Context) (opt engine.PerftOptions, setUp float64, err error) {
	start := now()
	opt, err = makeOptions(c)
	if opt.Table != nil {
		fresh(opt) // the pages of a new table are mapped on first touch: touch them now
	}
	return opt, now().Sub(start).Seconds(), err
}

func makeOptions(c *cli.Context) (engine.PerftOptions, error) {
	opt := engine.PerftOptions{Threads: c.Int("threads"), HashMB: c.Int("hash")}
	if err := cliutil.CheckJobs("--jobs", opt.Threads); err != nil {
		return opt, err
	}
	if err := cliutil.CheckMemory("--hash", int64(opt.HashMB)); err != nil {
		return opt, err
	}
	cliutil.BoundHeap(int64(opt.HashMB)) // peak memory: the table and about 20 MiB more
	if opt.HashMB > 0 {
		opt.Table = engine.NewPerftTable(opt.HashMB)
	}
	return opt, nil
}

// fresh empties the table of opt, if any, for a count that must not find the counts of the
// ones before it (another depth, position or variant).
func fresh(opt engine.PerftOptions) {
	if opt.Table != nil {
		clearTable(opt.Table)
	}
}

// clearTable empties a table (tests replace it to see when it is called).
var clearTable = (*engine.PerftTable).Clear

const maxDepth = 64

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "perft",
		Usage: "count move-tree leaves and check them against the published counts",
		UsageText: "perft --variant V [--fen F|NAME] --depth N [--duplicates keep|unique|paths] [--jobs N] [--hash MB] [--format text|json]\n" +
			"   perft --split-depth D --shard K/N ... (the same flags)\n   perft divide|verify|diff|merge ...",
		Description: "Perft counts the positions reached after exactly N plies; draw rules are ignored, as by\n" +
			"every published count. Two capture sequences by one piece that take the same pieces and end on\n" +
			"the same square in a different order are one move for the rules; published lists differ in\n" +
			"whether they count them once (unique) or once per order (keep): see --duplicates.\n\n" + shardHelp,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags:           append(commonFlags(), shardFlags()...),
		Action:          perftAction,
		OnUsageError:    cliutil.OnUsageError,
		Commands: []*cli.Command{
			{
				Name:         "divide",
				Usage:        "count the leaves below each root move",
				UsageText:    "perft divide --variant V [--fen F|NAME] --depth N [--duplicates keep|unique|paths] [--format text|json]",
				Flags:        commonFlags(),
				Action:       divideAction,
				OnUsageError: cliutil.OnUsageError,
			},
			verifyCommand(),
			diffCommand(),
			mergeCommand(),
		},
	}
}

// config is what the counting commands read from their flags.
type config struct {
	variant *engine.Variant
	pos     engine.Position
	fen     string
	depth   int
	opt     engine.PerftOptions
	json    bool
	setup   float64 // seconds spent making the table
}

func readConfig(c *cli.Context) (config, error) {
	var cfg config
	if c.Args().Present() {
		return cfg, cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	v, err := engine.Lookup(c.String("variant"))
	if err != nil {
		return cfg, cliutil.UsageError{Err: err}
	}
	cfg.variant = v
	cfg.pos = v.Start()
	if f := c.String("fen"); f != "" {
		p, err := cliutil.ParsePosition("--fen", v, f)
		if err != nil {
			return cfg, err
		}
		cfg.pos = p
	}
	cfg.fen = v.FEN(cfg.pos)
	if !c.IsSet("depth") {
		return cfg, cliutil.Usagef("--depth is required")
	}
	cfg.depth = c.Int("depth")
	if cfg.depth < 1 || cfg.depth > maxDepth {
		return cfg, cliutil.Usagef("--depth %d: out of range (1-%d)", cfg.depth, maxDepth)
	}
	if cfg.opt, cfg.setup, err = readOptions(c); err != nil {
		return cfg, err
	}
	if cfg.opt.Duplicates, err = parseDuplicates(c.String("duplicates"), v); err != nil {
		return cfg, err
	}
	cfg.json, err = cliutil.JSONOutput(c)
	return cfg, err
}

func parseDuplicates(s string, v *engine.Variant) (engine.Duplicates, error) {
	switch s {
	case "":
		return v.PerftDuplicates, nil
	case "keep":
		return engine.Keep, nil
	case "unique":
		return engine.Unique, nil
	case "paths":
		return engine.Paths, nil
	}
	return 0, cliutil.Usagef("--duplicates %q: want keep, unique or paths", s)
}
