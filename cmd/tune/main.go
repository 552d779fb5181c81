package main

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/tune"
)

func main() {
	cliutil.Main(run)
}

// run is the whole command, with its streams, so that tests can call it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	app.Reader = stdin
	return cliutil.Run(ctx, app, args, stderr)
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:  "tune",
		Usage: "fit the evaluation weights to game results (Texel's method)",
		UsageText: "tune [--variant V] [--skip-plies N] [--quiet-test capture|strict|resolve|none] [--loss logistic|squared]\n" +
			"       [--features a,b | --fix c,d] [--init default|zero|FILE] [--k K] [--l2 X]\n" +
			"       [--patterns [--pattern-l2 X] [--pattern-share window|row|board]] [--fit-scale] [--source TEXT]\n" +
			"       [--holdout 0.1] [--seed S] [--output FILE] [--require-improvement] [--format text|json]\n" +
			"       [--input-format auto|pdn|csv] [--report DIR] FILE...",
		Description: "Reads PDN games (the variant from the GameType tag or --variant) or CSV rows with the\n" +
			"columns game, ply, fen, result (a header row; other columns such as side and move are\n" +
			"ignored; results as in PDN, the first mover's score first). \"-\" reads stdin. Keeps the\n" +
			"quiet positions past --skip-plies, labelled with the game result for the side to move,\n" +
			"drops identical games, holds out a seeded share of the games, fits K and then the\n" +
			"weights, and prints the losses and the weights. The man weight stays 100 (the unit).\n" +
			"--output writes the weights (JSON) only when the fit succeeds; play them with\n" +
			"selfplay --players medium:weights=FILE,medium. A held-out loss that got worse is a\n" +
			"warning, and so are too little data (fewer than 25 training games per tuned feature), a\n" +
			"fit that did not converge and one that diverged (a weight beyond ten men); each is an\n" +
			"error with --require-improvement (then nothing is written). --patterns fits the pattern\n" +
			"weights too (8x8 and 10x10 boards: every configuration of 4x4 windows, middle game and\n" +
			"endgame; docs/evaluation.md), regularised by --pattern-l2, one table a window or shared by\n" +
			"the windows of a row (--pattern-share row) or of the board; the features are then\n" +
			"rounded to whole hundredths.",
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		Flags:           flags(),
		Action:          tuneAction,
		OnUsageError:    cliutil.OnUsageError,
	}
}

func flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, DefaultText: "the GameType tag", Usage: "variant: " + strings.Join(engine.Names(), ", ")},
		&cli.StringFlag{Name: "input-format", Value: "auto", Usage: "input `FORMAT`: auto (CSV when the name ends in .csv or the first line is a header starting with game), pdn or csv"},
		&cli.IntFlag{Name: "skip-plies", Value: 6, Usage: "skip the positions of the first `N` plies of each game"},
		&cli.StringFlag{Name: "quiet-test", Value: "capture", Usage: "quiet positions: capture (the side to move has no capture), strict (neither side has one), resolve (play captures out to a quiet position) or none"},
		&cli.BoolFlag{Name: "keep-duplicates", Usage: "keep every copy of identical games"},
		&cli.StringFlag{Name: "loss", Value: "logistic", Usage: "loss: logistic (cross-entropy) or squared (Texel)"},
		&cli.StringFlag{Name: "features", Usage: "comma-separated features to tune (default: all but man)"},
		&cli.StringFlag{Name: "fix", Usage: "comma-separated features to keep at their starting weights"},
		&cli.StringFlag{Name: "init", Value: "default", Usage: "starting weights: default (the engine's hand-set ones), zero (tuned features at 0) or a weights `FILE`"},
		&cli.BoolFlag{Name: "patterns", Usage: "fit the pattern weights too (from --init's, or from 0)"},
		&cli.BoolFlag{Name: "fit-scale", Usage: "fit K with the weights: tune the man weight too, then scale every weight so that man is 100 and K with them"},
		&cli.Float64Flag{Name: "pattern-l2", Value: tune.DefaultPatternL2, Usage: "L2 regularisation of the pattern weights: adds `X`·Σ(w/100)² over them to the loss"},
		&cli.StringFlag{Name: "pattern-share", Value: "window", Usage: "which pattern windows share a table of weights, `MODE`: window (none), row (the windows of a band of rows) or board (all)"},
		&cli.StringFlag{Name: "source", Usage: "say in the weights file where they come from (`TEXT`: the data and the command)"},
		&cli.Float64Flag{Name: "k", Usage: "logit of one man; 0 fits it with the starting weights"},
		&cli.Float64Flag{Name: "l2", Usage: "L2 regularisation: adds L2·Σ(w/100)² over the tuned weights to the loss"},
		&cli.Float64Flag{Name: "holdout", Value: 0.1, Usage: "share of the games held out of the fit"},
		&cli.Uint64Flag{Name: "seed", DefaultText: "random, printed on stderr", Usage: "seed of the held-out games"},
		&cli.IntFlag{Name: "iterations", Value: tune.DefaultIterations, Usage: "maximum L-BFGS iterations"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o", "out"}, Usage: "write the fitted weights to `FILE` (JSON; a device or FIFO is written in place)"},
		&cli.BoolFlag{Name: "require-improvement", Usage: "write no weights, and fail, when the held-out loss got worse or the fit is not to be trusted (too little data, not converged, diverged)"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT` of the summary: text or json (auto, pdn and csv, the input formats, are read as --input-format, which they once were)"},
		&cli.BoolFlag{Name: "json", Usage: "the same as --format json"},
		&cli.StringFlag{Name: "report", Usage: "write a report to `DIR`: index.html (loss per iteration, weights, calibration) and PNG plots"},
		&cli.BoolFlag{Name: "skip-bad", Usage: "fit without the games that cannot be read or replayed (default: fail, naming the first)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
	}
}
