package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// progressBar shows the build of a group of slices on a terminal, nothing elsewhere.
type progressBar struct {
	bar   *progressbar.ProgressBar
	total uint64
}

func newProgressBar(w io.Writer, quiet bool, p egdb.Progress) *progressBar {
	names := make([]string, len(p.Slices))
	for i, s := range p.Slices {
		names[i] = s.String()
	}
	desc := fmt.Sprintf("[%d/%d] %s", p.Group, p.Groups, strings.Join(names, " "))
	b := cliutil.Progress(w, quiet, int64(p.Positions), desc, progressbar.OptionShowCount(), progressbar.OptionSetItsString("positions"))
	if b == nil {
		return nil
	}
	return &progressBar{bar: b, total: p.Positions}
}

// set shows p: the forward pass as the first half, the retrograde one as the second.
func (b *progressBar) set(p egdb.Progress) {
	if b == nil || b.total == 0 {
		return
	}
	done := min(p.Solved, p.Positions) / 2
	if p.Phase == "retro" {
		done += p.Positions / 2
	}
	b.bar.Set64(int64(done))
}

func (b *progressBar) finish() {
	if b != nil {
		b.bar.Finish()
	}
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:      "stats",
		Usage:     "the figures of each slice",
		UsageText: "egdb stats --variant V [--pieces N] [--dir DIR] [--json]",
		Description: "Per slice (the side to move's men and kings, then the opponent's): positions, wins, draws\n" +
			"and losses for the side to move, and the longest win in plies with a position that has it.",
		Flags: []cli.Flag{variantFlag(), piecesFlag(false), dirFlag(),
			&cli.BoolFlag{Name: "json", Usage: "one JSON object per slice"}},
		OnUsageError: cliutil.OnUsageError,
		Action:       statsAction,
	}
}

func statsAction(c *cli.Context) error {
	c.Set("cache", "1")
	v, dir, err := variantDir(c)
	if err != nil {
		return err
	}
	db, err := egdb.Open(dir, v, egdb.Options{CacheMB: 1})
	if err != nil {
		return err
	}
	defer db.Close()
	n := c.Int("pieces")
	out := c.App.Writer
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', tabwriter.AlignRight)
	if !c.Bool("json") {
		fmt.Fprintf(tw, "slice\tpositions\twins\tdraws\tlosses\tlongest win\tbytes\t  example\t\n")
	}
	for _, s := range db.Slices() {
		if n != 0 && s.Pieces() != n {
			continue
		}
		st, err := db.Stats(s)
		if err != nil {
			return err
		}
		size, err := db.FileSize(s)
		if err != nil {
			return err
		}
		fen := ""
		if st.LongestWin >= 0 {
			p, err := db.Position(s, st.LongestIndex, engine.White)
			if err != nil {
				return err
			}
			fen = v.FEN(p)
		}
		if c.Bool("json") {
			b, err := json.Marshal(struct {
				Slice string `json:"slice"`
				egdb.SliceStats
				Bytes int64  `json:"bytes"`
				FEN   string `json:"longestFen,omitempty"`
			}{s.String(), st, size, fen})
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s\n", b)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t  %s\t\n", s, st.Positions, st.Wins, st.Draws, st.Losses, st.LongestWin, size, fen)
	}
	if c.Bool("json") {
		return nil
	}
	return tw.Flush()
}

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check every checksum and every value against its moves",
		UsageText: "egdb verify --variant V [--dir DIR] [-j J] [--quiet]",
		Description: "Reads every slice file of DIR, checks its checksum, and checks each position's value against\n" +
			"the values of its moves (a win in d plies has a move to a loss in d-1 and none shorter, a\n" +
			"loss has only moves to wins, the longest in d-1, a draw a move to a draw and none to a loss).\n" +
			"Exit status 1 at the first difference or damaged file.",
		Flags:        []cli.Flag{variantFlag(), dirFlag(), jobsFlag(), quietFlag()},
		OnUsageError: cliutil.OnUsageError,
		Action:       verifyAction,
	}
}

func verifyAction(c *cli.Context) error {
	v, dir, err := variantDir(c)
	if err != nil {
		return err
	}
	jobs := c.Int("jobs")
	if err := cliutil.CheckJobs("-j", jobs); err != nil {
		return err
	}
	db, err := egdb.Open(dir, v, egdb.Options{CacheMB: 1})
	if err != nil {
		return err
	}
	defer db.Close()
	ss := db.Slices()
	if len(ss) == 0 {
		return fmt.Errorf("egdb: %s: no slice files of %s", dir, v.Name)
	}
	var total uint64
	for _, s := range ss {
		total += db.Size(s)
	}
	bar := cliutil.Progress(c.App.ErrWriter, c.Bool("quiet"), int64(total), "verify", progressbar.OptionShowCount(), progressbar.OptionSetItsString("positions"))
	var before uint64
	var last egdb.Slice
	err = db.Verify(c.Context, egdb.VerifyOptions{Jobs: jobs, Progress: func(s egdb.Slice, done, n uint64) {
		if s != last {
			last = s
		}
		if bar != nil {
			bar.Set64(int64(before + done))
		}
		if done == n {
			before += n
		}
	}})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.App.Writer, "%s: %d slices, %d positions: every checksum and value verified (%s)\n", v.Name, len(ss), total, dir)
	return err
}

func suiteCommand() *cli.Command {
	return &cli.Command{
		Name:      "suite",
		Usage:     "a test suite of won positions with their winning moves, hardest first",
		UsageText: "egdb suite --variant V --pieces N [--count K] [--seed S] [--format json|epd] [--dir DIR]",
		Description: "Draws positions of exactly N pieces at random (--seed), keeps the wins, and prints the\n" +
			"--count hardest (the longest wins first, then those with fewest winning moves): each with\n" +
			"its value, distance, best moves (the shortest wins) and every winning move. --format json:\n" +
			"one JSON object a line; epd: 'FEN bm MOVES; wm MOVES; dtw PLIES; id \"...\";' lines.",
		Flags: []cli.Flag{variantFlag(), piecesFlag(true), dirFlag(), cacheFlag(),
			&cli.IntFlag{Name: "count", Value: 100, Usage: "positions in the suite"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random draw"},
			&cli.StringFlag{Name: "format", Value: "json", Usage: "json or epd"}},
		OnUsageError: cliutil.OnUsageError,
		Action:       suiteAction,
	}
}

func suiteAction(c *cli.Context) error {
	n, count := c.Int("pieces"), c.Int("count")
	switch {
	case !c.IsSet("pieces"):
		return cliutil.Usagef("--pieces is required")
	case n < 2 || n > egdb.MaxPieces:
		return cliutil.Usagef("--pieces %d: out of range (2-%d)", n, egdb.MaxPieces)
	case count < 1 || count > 1_000_000:
		return cliutil.Usagef("--count %d: out of range (1-1000000)", count)
	}
	format := c.String("format")
	if format != "json" && format != "epd" {
		return cliutil.Usagef("--format %q: want json or epd", format)
	}
	db, err := openDB(c)
	if err != nil {
		return err
	}
	defer db.Close()
	entries, draws, err := egdb.Suite(c.Context, db, n, count, c.Uint64("seed"))
	if err != nil {
		return err
	}
	out := c.App.Writer
	for _, e := range entries {
		if format == "json" {
			b, err := json.Marshal(e)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "%s\n", b)
			continue
		}
		fmt.Fprintf(out, "%s bm %s; wm %s; dtw %d; id %q;\n", e.FEN, strings.Join(e.Best, " "), strings.Join(e.Winning, " "), e.Plies, e.ID)
	}
	if len(entries) < count {
		fmt.Fprintf(c.App.ErrWriter, "egdb: only %d won positions among %d drawn at random\n", len(entries), draws)
	}
	return nil
}
