package main

import (
	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// egdbFlag is the --egdb flag, with its usage.
func egdbFlag(usage string) cli.Flag {
	return &cli.StringFlag{Name: "egdb", Usage: usage}
}

// openEGDB opens the endgame database of v that --egdb names (nil without the flag). It
// must hold at least every slice of 2 pieces.
func openEGDB(c *cli.Context, v *engine.Variant) (*egdb.DB, error) {
	dir := c.String("egdb")
	if dir == "" {
		return nil, nil
	}
	return cliutil.OpenEGDB(dir, v)
}
