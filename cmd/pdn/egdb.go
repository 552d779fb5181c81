package main

import (
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// statsEGDB opens the endgame database of stats --egdb (nil without the flag): of --variant,
// or of the variant its folder is named after (egdb's default folders are).
func statsEGDB(c *cli.Context) (*egdb.DB, error) {
	dir := c.String("egdb")
	if dir == "" {
		if c.Bool("verbose") {
			return nil, cliutil.Usagef("--verbose lists the games that contradict --egdb: give --egdb DIR")
		}
		return nil, nil
	}
	if c.Bool("syntax-only") {
		return nil, cliutil.Usagef("--egdb needs the games replayed: not with --syntax-only")
	}
	name := c.String("variant")
	if name == "" {
		name = filepath.Base(filepath.Clean(dir))
	}
	v, err := engine.Lookup(name)
	if err != nil {
		if c.String("variant") == "" {
			return nil, cliutil.Usagef("--egdb %s: give --variant (the folder's name %q is not a variant)", dir, name)
		}
		return nil, cliutil.UsageError{Err: err}
	}
	return cliutil.OpenEGDB(dir, v)
}
