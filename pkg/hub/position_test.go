package hub

import (
	"errors"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

func TestFormatPositionStart(t *testing.T) {
	tests := []struct {
		variant string
		want    string
	}{
		// protocol.txt's example: "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
		{"international", "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"},
		{"frisian", "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"},
		// english: Black (squares 1-12) moves first; the letters are colours
		{"english", "B" + strings.Repeat("b", 12) + strings.Repeat("e", 8) + strings.Repeat("w", 12)},
		// canadian: 12x12, 30 men a side, squares 1-72
		{"canadian", "W" + strings.Repeat("b", 30) + strings.Repeat("e", 12) + strings.Repeat("w", 30)},
	}
	for _, tc := range tests {
		v := engine.MustLookup(tc.variant)
		p := v.Start()
		if got := FormatPosition(v, &p); got != tc.want {
			t.Errorf("FormatPosition(%s start) = %q, want %q", tc.variant, got, tc.want)
		}
		back, err := ParsePosition(v, tc.want)
		if err != nil || !back.Equal(&p) || back.Hash != p.Hash {
			t.Errorf("ParsePosition(%s, %q) = %s, %v; want the start %s", tc.variant, tc.want, v.FEN(back), err, v.FEN(p))
		}
	}
}

func TestPositionFENRoundTrip(t *testing.T) {
	tests := []struct {
		variant, fen string
		// squares whose character is checked by hand: square number -> character
		marks map[int]byte
	}{
		// protocol.txt's second example, "pos pos=BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee"
		{"international", "B:WK4,K5,25,35,36:BK38,K48", map[int]byte{4: 'W', 5: 'W', 25: 'w', 38: 'B', 48: 'B', 1: 'e', 50: 'e'}},
		{"english", "W:W18,K3:B14,K29", map[int]byte{18: 'w', 3: 'W', 14: 'b', 29: 'B', 32: 'e'}},
		{"canadian", "B:W50,K12,K72:B1,K66,60", map[int]byte{50: 'w', 12: 'W', 72: 'W', 1: 'b', 66: 'B', 60: 'b', 65: 'e'}},
		{"russian", "W:Wa1,Kh8:Bb8,Kg1", nil},
	}
	for _, tc := range tests {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatalf("%s: ParseFEN(%q): %v", tc.variant, tc.fen, err)
		}
		s := FormatPosition(v, &p)
		if len(s) != 1+v.Squares() || s[0] != tc.fen[0] {
			t.Errorf("FormatPosition(%s, %q) = %q: want %d characters starting with %c", tc.variant, tc.fen, s, 1+v.Squares(), tc.fen[0])
		}
		for sq, c := range tc.marks {
			if s[sq] != c {
				t.Errorf("FormatPosition(%s, %q) = %q: square %d is %c, want %c", tc.variant, tc.fen, s, sq, s[sq], c)
			}
		}
		back, err := ParsePosition(v, s)
		if err != nil {
			t.Errorf("ParsePosition(%s, %q): %v", tc.variant, s, err)
			continue
		}
		if got := v.FEN(back); got != v.FEN(p) || back.Hash != p.Hash {
			t.Errorf("ParsePosition(%s, %q) = %s, want %s", tc.variant, s, got, v.FEN(p))
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	v := engine.MustLookup("international")
	start := "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
	tests := []struct{ s, want string }{
		{start[:50], "50 characters, want 51"},
		{start + "e", "52 characters, want 51"},
		{"X" + start[1:], `side to move 'X'`},
		{start[:10] + "k" + start[11:], `square 10: 'k'`},
		{"W" + "w" + start[2:], "square 1: a white man on its own crowning row"},
	}
	for _, tc := range tests {
		_, err := ParsePosition(v, tc.s)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%q) = %v, want an error containing %q", tc.s, err, tc.want)
		}
	}
	// Scan 2.0 writes the side in lower case
	if p, err := ParsePosition(v, "b"+start[1:]); err != nil || p.Side != engine.Black {
		t.Errorf("ParsePosition(\"b...\") = %v side %v; want black to move", err, p.Side)
	}
}

// TestProtocolExamples replays the move lists of protocol.txt: moves written by Scan must
// parse, and FormatMove must write them back the same.
func TestProtocolExamples(t *testing.T) {
	v := engine.MustLookup("international")
	tests := []struct{ pos, moves string }{
		{"Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
			// the PV of the info example ("4) the engine is searching")
			"32-28 17-22 28x17x22 12x21x17 33-28 7-12 39-33 19-23 28x19x23 14x23x19 44-39 9-14 50-44 4-9 " +
				"34-29 23x34x29 39x30x34 21-26 44-39 11-17 31-27 6-11 37-31 26x37x31 41x32x37 20-24 30x19x24 13x24x19"},
		{"BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee", "38-15 5-41 48-26"},
		// Scan 3.1's answers seen in a run: "done move=28x19x23 ponder=14x23x19"
		{"Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", "32-28 19-23 28x19x23 14x23x19"},
	}
	for _, tc := range tests {
		p, err := ParsePosition(v, tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame(v, p)
		for _, text := range strings.Fields(tc.moves) {
			p := g.Position()
			m, err := ParseMove(v, &p, text)
			if err != nil {
				t.Fatalf("after %d moves of %q: ParseMove(%q): %v", g.Ply(), tc.moves, text, err)
			}
			if got := FormatMove(v, &p, m); got != text {
				t.Errorf("FormatMove(%q) = %q", text, got)
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestFormatMove(t *testing.T) {
	tests := []struct {
		variant, fen, move, want string
	}{
		// a flying king's capture of two men, the captured squares in increasing order
		{"international", "W:WK46:B37,19", "46x5", "46x5x19x37"},
		// a man's capture on canadian's squares above 64 (the wide board)
		{"canadian", "W:W72:B65,53", "72x48", "72x48x53x65"},
		// russian writes algebraic squares and ':'; Hub writes numbers
		{"russian", "W:Wc3:Bd4", "c3:e5", "22x15x18"},
		{"english", "B:W18:B14", "14-23", "14x23x18"},
		{"english", "B:W18:B10", "10-15", "10-15"},
	}
	for _, tc := range tests {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := v.ParseMove(&p, tc.move)
		if err != nil {
			t.Fatalf("%s %s: %s: %v", tc.variant, tc.fen, tc.move, err)
		}
		if got := FormatMove(v, &p, m); got != tc.want {
			t.Errorf("FormatMove(%s, %s, %s) = %q, want %q", tc.variant, tc.fen, tc.move, got, tc.want)
		}
		if back, err := ParseMove(v, &p, tc.want); err != nil || back != m {
			t.Errorf("ParseMove(%s, %s, %q) = %v, %v; want %s", tc.variant, tc.fen, tc.want, back, err, tc.move)
		}
	}
}

func TestParseMove(t *testing.T) {
	// english, White to move: the man on c1 (30) takes b2 and b4 (25, 17) by a3 (21), or
	// d2 and d4 (26, 18) by e3 (23), ending on c5 (14) either way: "30x14" is ambiguous
	// without its captured squares.
	en := engine.MustLookup("english")
	diamond, err := en.ParseFEN("W:W30:B17,18,25,26")
	if err != nil {
		t.Fatal(err)
	}
	intl := engine.MustLookup("international")
	start := intl.Start()
	tests := []struct {
		v       *engine.Variant
		p       *engine.Position
		text    string
		want    string // the move in rafle's full notation, or "" for an error
		wantErr error
	}{
		{en, &diamond, "30x14x17x25", "30x21x14", nil},
		{en, &diamond, "30x14x25x17", "30x21x14", nil}, // "in any order"
		{en, &diamond, "30x14x18x26", "30x23x14", nil},
		{en, &diamond, "30x14x18", "30x23x14", nil}, // some captured squares are enough when they decide
		{en, &diamond, "30-14-26", "30x23x14", nil}, // the separator does not matter (Scan's from_hub)
		{en, &diamond, "30x14", "", engine.ErrAmbiguousMove},
		{en, &diamond, "30x14x17x26", "", ErrIllegalMove},
		{en, &diamond, "30-26", "", ErrIllegalMove},
		{intl, &start, "32-28", "32-28", nil},
		{intl, &start, " 32x28 ", "32-28", nil},
		{intl, &start, "32-23", "", ErrIllegalMove},
		{intl, &start, "18-23", "", ErrIllegalMove}, // Black's man, White to move
		{intl, &start, "32", "", engine.ErrInvalidMove},
		{intl, &start, "32-51", "", engine.ErrInvalidMove},
		{intl, &start, "32-0", "", engine.ErrInvalidMove},
		{intl, &start, "c3-d4", "", engine.ErrInvalidMove},
		{intl, &start, "32-+28", "", engine.ErrInvalidMove},
		{intl, &start, "", "", engine.ErrInvalidMove},
	}
	for _, tc := range tests {
		m, err := ParseMove(tc.v, tc.p, tc.text)
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("ParseMove(%s, %q) = %v, want %v", tc.v.FEN(*tc.p), tc.text, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseMove(%s, %q): %v", tc.v.FEN(*tc.p), tc.text, err)
			continue
		}
		if got := tc.v.FormatMove(tc.p, m, true); got != tc.want {
			t.Errorf("ParseMove(%s, %q) = %s, want %s", tc.v.FEN(*tc.p), tc.text, got, tc.want)
		}
	}
	_, err = ParseMove(en, &diamond, "30x14")
	if err == nil || !strings.Contains(err.Error(), "ambiguous") ||
		!strings.Contains(err.Error(), "30x14x17x25") || !strings.Contains(err.Error(), "30x14x18x26") {
		t.Errorf("ParseMove(30x14) = %v; want ambiguous with both candidates in Hub notation", err)
	}
}

func TestVariantNames(t *testing.T) {
	for _, tc := range []struct{ rafle, hub string }{
		{"international", "normal"}, {"frisian", "frisian"}, {"english", "english"}, {"canadian", "canadian"},
		{"killer", "killer"}, {"breakthrough", "bt"}, {"antidraughts", "losing"}, {"frysk", "frysk"},
	} {
		v := engine.MustLookup(tc.rafle)
		if got := VariantName(v); got != tc.hub {
			t.Errorf("VariantName(%s) = %q, want %q", tc.rafle, got, tc.hub)
		}
		if got, err := LookupVariant(tc.hub); err != nil || got != v {
			t.Errorf("LookupVariant(%q) = %v, %v; want %s", tc.hub, got, err, tc.rafle)
		}
	}
	if v, err := LookupVariant("Normal"); err != nil || v.Name != "international" {
		t.Errorf("LookupVariant(Normal) = %v, %v", v, err)
	}
	if _, err := LookupVariant("chess"); err == nil || !strings.Contains(err.Error(), "unknown variant") {
		t.Errorf("LookupVariant(chess) = %v, want unknown variant", err)
	}
}
