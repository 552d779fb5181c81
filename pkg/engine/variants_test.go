package engine_test

import (
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestLookupGameType: a GameType string names a variant by its number, and its board
// size, when given, must be the variant's (PDN 3.0 §7: Type,StartColour,Width,Height,...).
func TestLookupGameType(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: the variant, or a part of the error
	}{
		{"20", "international"},
		{" 20,W,10,10,N2,0 ", "international"},
		{"20,W,10,10,N1,0", "international"}, // wiegerw succeed/kurnik.pdn: notation not checked
		{"20,W,0,0,N,0", "international"},    // lynx-r shashkispark exports: 0x0, no size given
		{"21,B,8,8,N1,0", "english"},
		{"20,W", "international"},      // no size
		{"20,W,8,8,N2,0", "board 8x8"}, // the size of another game
		{"21,B,10,10,N1,0", "board 10x10"},
		{"20,W,10,8,N2,0", "board 10x8"},
		{"20,W,ten,10,N2,0", `board size "ten"`},
		{"20,W,10", `board size`},
		{"99", "unknown GameType 99"},
	} {
		v, err := engine.Lookup(tc.in)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = v.Name
		}
		if wantErr := !isName(tc.want); !strings.Contains(got, tc.want) || (err != nil) != wantErr {
			t.Errorf("Lookup(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func isName(s string) bool {
	for _, n := range engine.Names() {
		if n == s {
			return true
		}
	}
	return false
}

// TestGameTypeName checks the names of GameType numbers: the PDN 3.0
// table's, a registered variant's for numbers the table lacks, and none for
// an unknown number.
func TestGameTypeName(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{20, "international"}, {23, "american pool"}, {30, "turkish"}, {97, "frysk"}, {98, "antidraughts"}, {99, ""}} {
		if got := engine.GameTypeName(tc.n); got != tc.want {
			t.Errorf("GameTypeName(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	for _, v := range engine.Variants() {
		if v.GameType != 0 && v.GameType != 23 && engine.GameTypeName(v.GameType) != v.Name {
			t.Errorf("GameTypeName(%d) = %q, want the registered name %q", v.GameType, engine.GameTypeName(v.GameType), v.Name)
		}
	}
}
