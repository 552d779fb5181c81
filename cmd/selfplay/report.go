package main

import (
	"fmt"
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
			m, err := report.ReadMatch(c.Context, c.Args().Slice())
			if err != nil {
				return err
			}
			return writeReport(c, c.String("out"), m, c.String("event"))
		},
		OnUsageError: cliutil.OnUsageError,
	}
}

// reportDir creates the --report directory, where the match's journal is when no other
// is named (readConfig), and returns it; "" without --report.
func reportDir(c *cli.Context) (string, error) {
	dir := c.String("report")
	if dir == "" {
		return "", nil
	}
	return dir, os.MkdirAll(dir, 0o777)
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
