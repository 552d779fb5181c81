package cliutil

import (
	"fmt"
	"strings"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/pkg/engine"
)

// PositionHelp is the usage text of a flag that takes a position: a FEN or a name.
func PositionHelp() string {
	return "a FEN, or the name of a position: " + corpus.NamedPositions()
}

// ParsePosition reads the position given to the flag named flag ("--fen") in variant v: a
// PDN FEN, or the name of a position (corpus.NamedPosition: "start", "Woldouby", ...).
// A position that cannot be read is bad data, not a bad command line (exit status 1); when s
// is not even shaped as a FEN, the error lists v's named positions.
func ParsePosition(flag string, v *engine.Variant, s string) (engine.Position, error) {
	if fen, ok := corpus.NamedPosition(v, s); ok {
		return v.ParseFEN(fen)
	}
	p, err := v.ParseFEN(s)
	if err != nil && !strings.Contains(s, ":") {
		return p, fmt.Errorf("%s %q: neither a FEN (such as W:W31,32:B1,2) nor a position of %s (%s)",
			flag, s, v.Name, strings.Join(corpus.PositionNames(v), ", "))
	}
	if err != nil {
		return p, fmt.Errorf("%s: %w", flag, err)
	}
	return p, nil
}

// NamedPositions returns the FEN of the position called name in each of variants that
// has one (corpus.NamedPosition); nil when none has.
func NamedPositions(name string, variants []*engine.Variant) map[*engine.Variant]string {
	var fens map[*engine.Variant]string
	for _, v := range variants {
		if fen, ok := corpus.NamedPosition(v, name); ok {
			if fens == nil {
				fens = map[*engine.Variant]string{}
			}
			fens[v] = fen
		}
	}
	return fens
}
