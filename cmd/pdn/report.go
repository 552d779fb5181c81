package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/report"
)

// collectStats reads the job's games into a Stats, and with --report DIR writes the
// archive report there as well.
func collectStats(c *cli.Context, job pdn.Job) (*pdn.Stats, error) {
	dir := c.String("report")
	if dir == "" {
		return pdn.CollectStats(job)
	}
	st, a := pdn.NewStats(), report.NewArchive(strings.Join(c.Args().Slice(), ", "))
	err := job.Each(func(_ *pdn.Input, _ int, g *pdn.Game, gerr error) error {
		st.Add(g, gerr)
		a.Add(g, gerr)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, report.WriteArchive(dir, a)
}
