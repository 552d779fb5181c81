package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/report"
)

// reportJournal is the journal's name in the --report directory when neither --pdn nor
// --journal names one: the report is made from the journal.
const reportJournal = "match.journal"

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write the report of a match from its journals or PDN files",
		UsageText: "selfplay report [--output DIR] [--event NAME] JOURNAL|PDN...",
		Description: "Writes DIR/index.html, a page that needs no network, with the results, the Elo and\n" +
			"SPRT curves, the openings, the terminations, the game lengths, the time and depth of\n" +
			"external engines, and a board to step through every game; and a PNG file of each plot\n" +
			"beside it. Several files of one match (parts of it) are merged; a game in two files is\n" +
			"counted once. A journal holds the match's settings; a PDN file lacks the seed and the SPRT.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o", "out"}, Value: "report", Usage: "write the report to `DIR`"},
			&cli.StringFlag{Name: "event", Value: "rafle selfplay", Usage: "PDN Event tag of the games shown"},
		},
		Action: func(c *cli.Context) error {
			if !c.Args().Present() {
				return cliutil.Usagef("give the journals or PDN files of a match")
			}
			if err := cliutil.NotAnInput(filepath.Join(c.String("out"), "index.html"), c.Args().Slice()...); err != nil {
				return cliutil.UsageError{Err: fmt.Errorf("--out: %w", err)}
			}
			release, err := reserve(c.String("out"))
			if err != nil {
				return err
			}
			m, err := report.ReadMatch(c.Context, c.Args().Slice())
			if err == nil {
				err = writeReport(c, c.String("out"), m, c.String("event"))
			}
			release(err != nil)
			return err
		},
		OnUsageError: cliutil.OnUsageError,
	}
}

// reportDir creates the --report directory, where the match's journal is when no other
// is named (readConfig), and reserves it for this run (report.Reserve: a second match
// writing its report there is refused at its start, not at its end). It returns the
// directory ("" without --report) and release, which gives it up and, when undo is set,
// removes it if this run made it and it is empty.
func reportDir(c *cli.Context) (dir string, release func(undo bool), err error) {
	dir = c.String("report")
	if dir == "" {
		return "", func(bool) {}, nil
	}
	release, err = reserve(dir)
	return dir, release, err
}

// reserve creates and reserves the report folder dir (report.Reserve); release gives it up
// and, when undo is set, removes it if reserve made it and it is empty.
func reserve(dir string) (release func(undo bool), err error) {
	_, err = os.Stat(dir)
	made := errors.Is(err, fs.ErrNotExist)
	free, err := report.Reserve(dir)
	if err != nil {
		return nil, err
	}
	return func(undo bool) {
		free()
		if undo && made {
			os.Remove(dir) // only when empty
		}
	}, nil
}

// matchReport writes the report of the match just played, from its journal, with the
// result the match counted.
func matchReport(c *cli.Context, dir string, cfg *match.Config, res *match.Result) error {
	m, err := report.ReadMatch(c.Context, []string{cfg.JournalPath})
	if err != nil {
		return err
	}
	m.Result = res
	return writeReport(c, dir, m, cfg.Event)
}

func writeReport(c *cli.Context, dir string, m *report.Match, event string) error {
	if err := report.WriteMatch(c.Context, dir, m, event); err != nil {
		return err
	}
	for _, n := range m.Notes {
		fmt.Fprintf(c.App.ErrWriter, "selfplay: report: %s\n", n)
	}
	fmt.Fprintf(c.App.ErrWriter, "selfplay: report written to %s\n", filepath.Join(dir, "index.html"))
	return nil
}
