package tune

import (
	"fmt"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// Share says which pattern windows share one table of weights in a fit
// (Config.PatternShare). A window moved by an even number of files or rows holds the same
// dark squares in the same order, so one table can serve several windows; the fitted table
// is then written to each of them (the weights file and the evaluation do not change).
type Share int

// The ways of sharing.
const (
	// ShareWindow fits a table for every window (9 on 8x8, 16 on 10x10).
	ShareWindow Share = iota
	// ShareRow fits a table for every band of rows: the windows at the same rows share it
	// (3 tables on 8x8, 4 on 10x10). What a formation is worth then depends on how far it
	// stands from the back rank, not on its file.
	ShareRow
	// ShareBoard fits one table for every window.
	ShareBoard
)

// ParseShare reads "window", "row" or "board".
func ParseShare(s string) (Share, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "window", "none", "":
		return ShareWindow, nil
	case "row", "rows":
		return ShareRow, nil
	case "board", "all":
		return ShareBoard, nil
	}
	return 0, fmt.Errorf("tune: pattern share %q: want window, row or board", s)
}

// String returns "window", "row" or "board".
func (s Share) String() string {
	switch s {
	case ShareRow:
		return "row"
	case ShareBoard:
		return "board"
	}
	return "window"
}

// groups returns the table of each of v's windows and the number of tables. The windows
// are numbered by rows of windows from the top, then by files (core.buildPatterns).
func (s Share) groups(v *engine.Variant) ([]int, int, error) {
	n := search.PatternWindows(v)
	perRow := v.Width/2 - 1
	if n == 0 || perRow <= 0 || n%perRow != 0 {
		return nil, 0, fmt.Errorf("tune: %s's board has no patterns", v.Name)
	}
	g := make([]int, n)
	switch s {
	case ShareWindow:
		for w := range g {
			g[w] = w
		}
		return g, n, nil
	case ShareRow:
		for w := range g {
			g[w] = w / perRow
		}
		return g, n / perRow, nil
	case ShareBoard:
		return g, 1, nil
	}
	return nil, 0, fmt.Errorf("tune: pattern share %d unknown", int(s))
}
