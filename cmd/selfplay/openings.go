package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/search"
)

// The defaults of selfplay openings: the search that scores a position, and the window
// that keeps it (hundredths of a man, the side to move's view).
const (
	genDepth  = 8
	genWindow = 25
	// the calibration games' player and length (docs/selfplay.md, Balance)
	genCalPlayer = "depth=5"
	genCalPlies  = 150
)

// openingsCommand is "selfplay openings": a balanced opening suite generated for a
// variant.
func openingsCommand() *cli.Command {
	return &cli.Command{
		Name:      "openings",
		Usage:     "generate a balanced opening suite for a variant",
		UsageText: "selfplay openings --variant V --plies K --count N [--depth D] [--window W] [--calibrate G [--calibrate-player SPEC] [--calibrate-plies P]] [--seed S] [--jobs N] [--quiet]",
		Description: "Explores every line of K plies from the variant's start position (one line per\n" +
			"position: transpositions removed), scores the positions, in an order drawn from the seed,\n" +
			"with a search of --depth plies (the default weights; the same score on every run), and\n" +
			"keeps a position when the game is not over, both sides have the same men and kings, its\n" +
			"score is within ±--window hundredths of a man, and it is no near-duplicate of one kept\n" +
			"before (the same side to move and at most two squares different). With --calibrate G,\n" +
			"it then plays G games of --calibrate-player against itself from the position (a draw\n" +
			"after --calibrate-plies plies; the random moves seeded from --seed: the same games on\n" +
			"every run) and keeps it only when the side to move scores exactly half of the points.\n" +
			"Stops at N openings.\n" +
			"Writes the suite to stdout, as selfplay --openings reads it: a header saying how it\n" +
			"was made, then one line per opening: id, moves, the score (and the calibration games'\n" +
			"results for the side to move). With fewer than N\n" +
			"found, it writes those and exits 1.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "variant", Aliases: []string{"v"}, Value: "english", Usage: "variant: " + strings.Join(engine.Names(), ", ")},
			&cli.IntFlag{Name: "plies", Value: 4, Usage: "plies from the start position"},
			&cli.IntFlag{Name: "count", Aliases: []string{"n"}, Value: 100, Usage: "openings wanted"},
			&cli.IntFlag{Name: "depth", Value: genDepth, Usage: "depth of the search that scores each position"},
			&cli.IntFlag{Name: "window", Value: genWindow, Usage: "keep positions scored within ±this many hundredths of a man"},
			&cli.IntFlag{Name: "calibrate", Usage: "games per position of a player against itself that must split evenly (0: none)"},
			&cli.StringFlag{Name: "calibrate-player", Value: genCalPlayer, Usage: "the player of the calibration games (depth= or nodes=; random= for more than one game)"},
			&cli.IntFlag{Name: "calibrate-plies", Value: genCalPlies, Usage: "a calibration game is a draw after this many plies past the opening (0: no limit)"},
			&cli.Int64Flag{Name: "seed", Value: 1, Usage: "seed of the order in which positions are scored, and of the calibration games"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, DefaultText: "all cores", Usage: "searches (and calibration games) run at once"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
		},
		Action:       generateOpenings,
		OnUsageError: cliutil.OnUsageError,
	}
}

func generateOpenings(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	v, err := engine.Lookup(c.String("variant"))
	if err != nil {
		return cliutil.UsageError{Err: err}
	}
	cfg := match.GenerateConfig{Variant: v, Plies: c.Int("plies"), Count: c.Int("count"), Depth: c.Int("depth"),
		Window: c.Int("window"), Seed: c.Int64("seed"), Jobs: runtime.NumCPU()}
	switch {
	case cfg.Plies < 1 || cfg.Plies > 12:
		return cliutil.Usagef("--plies %d: from 1 to 12", cfg.Plies)
	case cfg.Count < 1:
		return cliutil.Usagef("--count %d: at least 1", cfg.Count)
	case cfg.Depth < 1 || cfg.Depth > 30:
		return cliutil.Usagef("--depth %d: from 1 to 30", cfg.Depth)
	case cfg.Window < 0:
		return cliutil.Usagef("--window %d: must not be negative", cfg.Window)
	}
	if c.IsSet("jobs") {
		if cfg.Jobs = c.Int("jobs"); cliutil.CheckJobs("--jobs", cfg.Jobs) != nil {
			return cliutil.CheckJobs("--jobs", cfg.Jobs)
		}
	}
	if g := c.Int("calibrate"); g != 0 {
		ps, err := search.ParsePlayer(c.String("calibrate-player"))
		if err != nil {
			return cliutil.Usagef("--calibrate-player: %v", err)
		}
		cfg.Calibration = match.Calibration{Games: g, Player: ps, MaxPlies: c.Int("calibrate-plies")}
		if err := cfg.Calibration.Check(); err != nil {
			return cliutil.Usagef("--calibrate %d: %v", g, err)
		}
		if err := cliutil.CheckMemory("--calibrate-player hash=", int64(ps.HashMiB())*2*int64(cfg.Jobs)); err != nil {
			return err
		}
	}
	if bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(cfg.Count), "openings", progressbar.OptionShowCount()); bar != nil {
		cfg.Progress = func(_, kept int) { _ = bar.Set(kept) }
		defer bar.Close()
	}
	ops, st, err := match.GenerateOpenings(c.Context, cfg)
	if err != nil {
		return err
	}
	w := c.App.Writer
	cal := &cfg.Calibration
	calFlags, calFormat := "", ""
	if cal.Games > 0 {
		calFlags = fmt.Sprintf(" --calibrate %d --calibrate-player %s --calibrate-plies %d", cal.Games, cal.Player.Spec, cal.MaxPlies)
		calFormat = ", calibration <the side to move's games: +wins =draws -losses>"
	}
	fmt.Fprintf(w, "# rafle opening set, generated by: selfplay openings --variant %s --plies %d --count %d --depth %d --window %d%s --seed %d\n",
		v.Name, cfg.Plies, cfg.Count, cfg.Depth, cfg.Window, calFlags, cfg.Seed)
	fmt.Fprintf(w, "# %s: every line of %d plies from the start, one per position (%d positions%s); scored in an order\n", v.Name, cfg.Plies, st.Positions, map[bool]string{true: ", a sample at each ply", false: ""}[st.Sampled])
	fmt.Fprintf(w, "#   drawn from the seed by rafle's search to depth %d (default weights); kept: equal material, score within ±%d\n", cfg.Depth, cfg.Window)
	fmt.Fprintf(w, "#   hundredths of a man for the side to move, no near-duplicate of one kept (same side to move, at most two\n")
	if cal.Games > 0 {
		games := map[bool]string{true: "1 game", false: fmt.Sprintf("%d games", cal.Games)}[cal.Games == 1]
		limit := fmt.Sprintf("a draw after %d plies", cal.MaxPlies)
		if cal.MaxPlies == 0 {
			limit = "no limit of plies"
		}
		fmt.Fprintf(w, "#   squares different), and %s of %s against itself from the position (%s)\n", games, cal.Player.Spec, limit)
		fmt.Fprintf(w, "#   in which the side to move scores exactly half the points. Scored %d: %d kept, %d outside the window,\n", st.Scored, len(ops), st.OutWindow)
		fmt.Fprintf(w, "#   %d near-duplicates, %d whose calibration games did not split (of %d calibrated); %d left unscored\n", st.NearDups, st.Unsplit, st.Calibrated, st.Unbalanced)
	} else {
		fmt.Fprintf(w, "#   squares different). Scored %d: %d kept, %d outside the window, %d near-duplicates; %d left unscored\n", st.Scored, len(ops), st.OutWindow, st.NearDups, st.Unbalanced)
	}
	fmt.Fprintf(w, "#   (unequal material or over).\n")
	fmt.Fprintf(w, "# Format: <id>\\t<moves from the start>\\t<score at depth %d, side to move>%s\n", cfg.Depth, calFormat)
	for _, op := range ops {
		var ms []string
		p := op.Root
		for _, m := range op.Moves {
			ms = append(ms, v.FormatMove(&p, m, false))
			p = p.Play(m)
		}
		fmt.Fprintf(w, "%s\t%s\tscore %+d", op.Name, strings.Join(ms, " "), op.Score)
		if cal.Games > 0 {
			fmt.Fprintf(w, ", calibration +%d =%d -%d", op.Wins, op.Draws, op.Losses)
		}
		fmt.Fprintln(w)
	}
	if len(ops) < cfg.Count {
		return fmt.Errorf("openings: found %d of %d: widen --window, or more --plies", len(ops), cfg.Count)
	}
	return nil
}
