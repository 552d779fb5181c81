package main

import (
	"errors"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/report"
)

// collectStats counts the job's games (archive.CollectStats), and with --report DIR writes the
// archive report there as well, from the same reading of the games.
func collectStats(c *cli.Context, job archive.Job, opt archive.StatsOptions) (*archive.Stats, error) {
	dir := c.String("report")
	if dir == "" {
		return archive.CollectStats(c.Context, job, opt)
	}
	a := report.NewArchive(strings.Join(c.Args().Slice(), ", "))
	opt.Game = a.Add
	st, err := archive.CollectStats(c.Context, job, opt)
	if _, inputs := archive.InputErrors(err); err != nil && !inputs {
		return st, err
	}
	if opt.EGDB != nil {
		a.EGDB = st.Report(0).EGDB
	}
	if werr := report.WriteArchive(dir, a); werr != nil {
		return st, errors.Join(werr, err)
	}
	return st, err
}
