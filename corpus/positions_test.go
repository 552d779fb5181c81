package corpus

import (
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestNamedPosition: every name PositionNames lists is found by NamedPosition, whatever the
// case of its letters, and gives a position of the variant; "start" is the initial
// position; a name from another variant's suite is not found.
func TestNamedPosition(t *testing.T) {
	for _, v := range engine.Variants() {
		names := PositionNames(v)
		if names[0] != StartName {
			t.Errorf("%s: names %v; want start first", v.Name, names)
		}
		for _, name := range names {
			for _, spelled := range []string{name, strings.ToUpper(name), " " + name + " "} {
				fen, ok := NamedPosition(v, spelled)
				if !ok {
					t.Errorf("%s: NamedPosition(%q) not found", v.Name, spelled)
					continue
				}
				if _, err := v.ParseFEN(fen); err != nil {
					t.Errorf("%s: NamedPosition(%q) = %q: %v", v.Name, spelled, fen, err)
				}
			}
		}
		if fen, _ := NamedPosition(v, "start"); fen != v.FEN(v.Start()) {
			t.Errorf("%s: start is %q, want %q", v.Name, fen, v.FEN(v.Start()))
		}
	}
	if fen, ok := NamedPosition(engine.MustLookup("english"), "Woldouby"); ok {
		t.Errorf("english has a Woldouby: %q", fen)
	}
	want := "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38" // corpus/perft/international.tsv
	if fen, _ := NamedPosition(engine.MustLookup("international"), "Woldouby"); fen != want {
		t.Errorf("international Woldouby = %q, want %q", fen, want)
	}
}
