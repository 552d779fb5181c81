package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
)

// positionFilter returns the filter of filter --fen: a FEN, or the name of a position
// (corpus.NamedPosition), of --variant when it is given, else of each game's variant. A
// position that is neither is bad data (exit status 1).
func positionFilter(c *cli.Context, s string) (*archive.PositionFilter, error) {
	variants := engine.Variants()
	if name := c.String("variant"); name != "" {
		if v, err := engine.Lookup(name); err == nil {
			variants = []*engine.Variant{v}
		}
	}
	if fens := cliutil.NamedPositions(s, variants); fens != nil {
		return &archive.PositionFilter{FENs: fens}, nil
	}
	f, err := archive.NewPositionFilter(s)
	if err != nil && !strings.Contains(s, ":") {
		return nil, fmt.Errorf("--fen %q: neither a FEN (such as W:W31,32:B1,2) nor %s", s, strings.TrimPrefix(cliutil.PositionHelp(), "a FEN, or "))
	}
	if err != nil {
		return nil, fmt.Errorf("--fen: %s", clean(err))
	}
	return f, nil
}
