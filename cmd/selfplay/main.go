package main

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
)

func main() {
	cliutil.Main(run)
}

// run is the whole command, with its streams, so that tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cliutil.Run(context.WithValue(ctx, stdinKey{}, stdin), newApp(stdout, stderr), args, stderr)
}

// stdinKey passes standard input to the engine command through the context.
type stdinKey struct{}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "selfplay",
		Usage: "play matches between computer players and rate them",
		UsageText: "selfplay --variant V --players P1,P2[,...] --games N [--tournament roundrobin|gauntlet|swiss|knockout [--rounds R]] [--jobs N] [--seed S]\n" +
			"       [--engine name=NAME,cmd=PATH,tc=... ...] [--engine-log DIR] [--adjudicate draw=M:S,resign=M:S]\n" +
			"       [--output FILE] [--resume] [--max-plies N] [--egdb DIR] [--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05]\n" +
			"       [--openings FILE | --opening-set SET | --book FILE [--book-mode weighted|all] [--book-depth K]\n" +
			"        | --random-plies K] [--anchor NAME=ELO] [--format text|json] [--report DIR]\n" +
			"   selfplay report [--output DIR] JOURNAL|PDN...",
		Description: "Every pairing of players (every two players; with --tournament gauntlet the first\n" +
			"player and each other; with swiss or knockout those each round pairs from the results,\n" +
			"docs/selfplay.md) plays the openings in pairs, the second game with colours\n" +
			"reversed. A player is a level (easy, medium, hard, max), a search spec of options joined\n" +
			"by colons, such as hard:weights=w.json or depth=6:nodes=20000 (depth=N, nodes=N,\n" +
			"movetime=DURATION, weights=FILE, eval=pattern|hand, random=P, hash=MB, quiescence=false,\n" +
			"threads=N: threads sharing the table, at most the CPUs; not reproducible above 1),\n" +
			"or the name of an external engine given with --engine (Hub or DXP; docs/engines.md).\n" +
			"hash=MB is the player's whole transposition table (default 16; easy 1, medium 4);\n" +
			"each game played at once has its own, so the tables take the players' hash= times\n" +
			"--jobs, and peak memory is that and about 20 MiB more. rafle is the referee: it checks every move,\n" +
			"keeps the clocks, and ends games by the variant's rules, at --max-plies (a draw), by\n" +
			"--adjudicate, or with --egdb as soon as the endgame database holds the position (its\n" +
			"value is the result, the move-count draw rules left out); an engine that plays an\n" +
			"illegal move, loses on time, crashes, hangs or breaks its protocol loses that game and\n" +
			"is restarted. Games are fixed by the seed and their number, so a match interrupted\n" +
			"(Ctrl-C, kill) is finished by running it again with --resume: each finished game is in\n" +
			"the journal (FILE.journal next to --output FILE, or --journal). 'selfplay engine' plays\n" +
			"rafle as a Hub engine or a DXP follower.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// --engine values hold commas: one flag, one engine
		DisableSliceFlagSeparator: true,
		Flags:                     slices.Concat(flags(), engineFlags(), shardFlags()),
		Action:                    selfplay,
		Commands:                  []*cli.Command{engineCommand(), mergeCommand(), reportCommand(), checkCommand(), openingsCommand(), suiteCommand()},
		OnUsageError:              cliutil.OnUsageError,
	}
}

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "english", Usage: "variant: " + strings.Join(engine.Names(), ", ")},
		&cli.StringFlag{Name: "players", Aliases: []string{"p"}, Usage: "comma-separated players: easy, medium, hard, max, search specs such as depth=6:nodes=20000, or --engine names (required)"},
		&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 100, Usage: "games per pairing (rounded up to an even number)"},
		&cli.StringFlag{Name: "tournament", Value: "roundrobin", Usage: "pairings: roundrobin (every player meets every other), gauntlet (the first player meets every other), swiss (rounds paired by score, Dutch system) or knockout (a bracket seeded in --players order); --games per pairing"},
		&cli.IntFlag{Name: "rounds", DefaultText: "ceil(log2 players)", Usage: "--tournament swiss: the number of rounds"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j", "concurrency"}, DefaultText: "all cores", Usage: "games played at once"},
		&cli.Int64Flag{Name: "seed", DefaultText: "random, printed on stderr", Usage: "seed of the opening order and the players"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o", "pdn"}, Usage: "write every game to `FILE` (PDN 3.0): a new file, or with --resume the match's own"},
		&cli.StringFlag{Name: "journal", Usage: "journal of finished games (default: the --output file name + .journal)"},
		&cli.BoolFlag{Name: "resume", Usage: "finish the match recorded in the journal (its seed unless --seed is given)"},
		&cli.IntFlag{Name: "max-plies", Usage: "draw a game (termination max-plies) after this many plies past the opening; 0: no limit"},
		&cli.StringFlag{Name: "sprt", Usage: "stop when the SPRT decides, e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05 (two players)"},
		egdbFlag("end a game (termination egdb, the database's value as the result) as soon as the endgame database in `DIR` (egdb build) holds its position, and give it to rafle's players"),
		&cli.StringFlag{Name: "openings", Usage: "start positions: `FILE` of FENs, PDN games, ballot lines (id<TAB>moves<TAB>name) or pydraughts ballot JSON"},
		&cli.StringFlag{Name: "opening-set", Usage: "shipped opening set (corpus/openings): english and international 2move or 3move (default 3move); russian and brazilian idf (default) or 150; the other variants gen (generated: selfplay openings)"},
		&cli.StringFlag{Name: "book", Usage: "start from the lines of an opening book `FILE` (pdn book --format json)"},
		&cli.StringFlag{Name: "book-mode", Value: "weighted", Usage: "--book: weighted (random lines, weighted by games, from the seed) or all (every line)"},
		&cli.IntFlag{Name: "book-depth", Value: 8, Usage: "--book: plies of book moves per line (fewer where the book ends)"},
		&cli.IntFlag{Name: "random-plies", Value: 4, Usage: "openings of this many random plies, kept when a shallow search finds them balanced (the default without a shipped set; given, instead of it)"},
		&cli.StringFlag{Name: "anchor", Usage: "rating anchor NAME=ELO for three or more players (default: the first player at 0)"},
		&cli.StringFlag{Name: "event", Value: "rafle selfplay", Usage: "PDN Event tag"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text (tables) or json"},
		&cli.BoolFlag{Name: "json", Usage: "the same as --format json"},
		&cli.StringFlag{Name: "report", Usage: "write the match's report to `DIR` (index.html and PNG plots; the journal is kept there unless --output or --journal names one)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
	}
}
