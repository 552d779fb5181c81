// Command selfplay plays matches between computer players (levels or custom search specs),
// in game pairs with colours reversed, and reports Elo, LOS, pentanomial counts, an SPRT
// and, for three or more players, maximum-likelihood ratings.
package main

import (
	"context"
	"io"
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
	return cliutil.Run(ctx, newApp(stdout, stderr), args, stderr)
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "selfplay",
		Usage: "play matches between computer players and rate them",
		UsageText: "selfplay --variant V --players P1,P2[,...] --games N [--concurrency N] [--seed S]\n" +
			"       [--pdn FILE] [--resume] [--max-plies N] [--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05]\n" +
			"       [--openings FILE | --opening-set 2move|3move | --book FILE [--book-mode weighted|all] [--book-depth K]\n" +
			"        | --random-plies K] [--anchor NAME=ELO] [--json]",
		Description: "Every pairing of players plays the openings in pairs, the second game with colours\n" +
			"reversed. Players are levels (easy, medium, hard) or search specs such as\n" +
			"depth=6:weights=w.json (see engine.ParsePlayer). Games end by the variant's rules or\n" +
			"at --max-plies (a draw). Games are fixed by the seed and their number, so a match\n" +
			"interrupted (Ctrl-C, kill) is finished by running it again with --resume: each\n" +
			"finished game is in the journal (FILE.journal next to --pdn FILE, or --journal).",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags:           flags(),
		Action:          selfplay,
		OnUsageError:    cliutil.OnUsageError,
	}
}

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "english", Usage: "variant: " + strings.Join(engine.Names(), ", ")},
		&cli.StringFlag{Name: "players", Aliases: []string{"p"}, Required: true, Usage: "comma-separated player specs: easy, medium, hard, or options such as depth=6:nodes=20000"},
		&cli.IntFlag{Name: "games", Aliases: []string{"n"}, Value: 100, Usage: "games per pairing (rounded up to an even number)"},
		&cli.IntFlag{Name: "concurrency", Aliases: []string{"j"}, DefaultText: "all cores", Usage: "games played at once"},
		&cli.Int64Flag{Name: "seed", DefaultText: "random, printed on stderr", Usage: "seed of the opening order and the players"},
		&cli.StringFlag{Name: "pdn", Usage: "write every game to `FILE` (PDN 3.0)"},
		&cli.StringFlag{Name: "journal", Usage: "journal of finished games (default: the --pdn file name + .journal)"},
		&cli.BoolFlag{Name: "resume", Usage: "finish the match recorded in the journal (its seed unless --seed is given)"},
		&cli.IntFlag{Name: "max-plies", Usage: "draw a game (termination max-plies) after this many plies past the opening; 0: no limit"},
		&cli.StringFlag{Name: "sprt", Usage: "stop when the SPRT decides, e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05 (two players)"},
		&cli.StringFlag{Name: "openings", Usage: "start positions: `FILE` of FENs, PDN games, ballot lines (id<TAB>moves<TAB>name) or pydraughts ballot JSON"},
		&cli.StringFlag{Name: "opening-set", Usage: "shipped opening set: 2move or 3move (english; default 3move)"},
		&cli.StringFlag{Name: "book", Usage: "start from the lines of an opening book `FILE` (pdn book --format json)"},
		&cli.StringFlag{Name: "book-mode", Value: "weighted", Usage: "--book: weighted (random lines, weighted by games, from the seed) or all (every line)"},
		&cli.IntFlag{Name: "book-depth", Value: 8, Usage: "--book: plies of book moves per line (fewer where the book ends)"},
		&cli.IntFlag{Name: "random-plies", Value: 4, Usage: "for variants without a shipped set: openings of this many random plies, kept when a shallow search finds them balanced"},
		&cli.StringFlag{Name: "anchor", Usage: "rating anchor NAME=ELO for three or more players (default: the first player at 0)"},
		&cli.StringFlag{Name: "event", Value: "rafle selfplay", Usage: "PDN Event tag"},
		&cli.BoolFlag{Name: "json", Usage: "print the results as JSON"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
	}
}
