package engine_test

import (
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// Rules of the variants beyond the four main ones (pool, czech, spanish, italian, thai), one
// case per perft rule point (docs/rules.md#perft) they differ in. Spanish and italian use the mirrored
// numbering 1=a8 ... 32=h1 (d3=22, c4=18, e4=19, b5=13, f5=15, e2=27, f3=23, g4=20).
func TestRulesMoreVariants(t *testing.T) {
	for _, tc := range []struct {
		variant, rule, fen string
		want               []string
	}{
		// the king takes c3 and must go on from e5 over f4; the man's e3xg5 is not allowed
		{"czech", "a king must capture when one can", "W:WKa1,e3:Bc3,f4", []string{"a1xg3", "a1xh2"}},
		{"czech", "men capture forward only", "W:We3:Bd2,f4", []string{"e3xg5"}},
		{"pool", "men capture backward, free choice", "B:W18,16:B14,22", []string{"14x23", "22x15"}},
		{"pool", "a man passing the crown row stays a man", "W:W11:B6,7", []string{"11x9"}},
		{"spanish", "the most pieces, then the most kings", "W:W22:BK18,19", []string{"22x13"}},
		{"portuguese", "spanish's rules: the most pieces, then the most kings", "W:W22:BK18,19", []string{"22x13"}},
		{"portuguese", "men capture forward only", "W:W18:B22,14", []string{"18x11"}},
		{"italian", "a man may not capture a king", "W:W22:BK18,19", []string{"22x15"}},
		{"italian", "a king captures before a man", "W:W22,K27:B19,23", []string{"27x20"}},
		{"thai", "a king lands right behind the piece it takes", "W:WK29:B22", []string{"29x18"}},
		{"czech", "kings elsewhere land on any free square behind", "W:WKa1:Bc3", []string{"a1xd4", "a1xe5", "a1xf6", "a1xg7", "a1xh8"}},
	} {
		t.Run(tc.variant+"/"+tc.rule, func(t *testing.T) {
			v := engine.MustLookup(tc.variant)
			if got := legal(t, v, tc.fen); !slices.Equal(got, tc.want) {
				t.Errorf("%s: legal moves of %q = %v, want %v", tc.variant, tc.fen, got, tc.want)
			}
		})
	}
	kings := func(p engine.Position) int { m := p.Material(); return m.Kings[engine.White] + m.Kings[engine.Black] }
	if p := play(t, engine.MustLookup("pool"), "W:W11:B6,7", "11x9"); kings(p) != 0 {
		t.Errorf("pool: a man that passed the crown row was crowned")
	}
	if p := play(t, engine.MustLookup("italian"), "W:W7:B2", "7-3"); kings(p) == 0 {
		t.Errorf("italian: a man on the far row was not crowned")
	}
}

// TestThaiRemovesAtOnce: a thai king may go back across the square of a piece it has just
// taken, which is free at once; elsewhere the taken piece stays until the move ends.
func TestThaiRemovesAtOnce(t *testing.T) {
	// King c3 (22) with black on b2 (25) and d4 (18). Thai: over d4 to e5, then back over
	// b2 to a1; or over b2 to a1, then back over d4 to e5. Czech: d4 or b2 taken, the other
	// is out of reach behind the piece just taken.
	if got := legal(t, engine.MustLookup("thai"), "W:WK22:B25,18"); !slices.Equal(got, []string{"22x15", "22x29"}) {
		t.Errorf("thai: %v, want [22x15 22x29]", got)
	}
	if got := legal(t, engine.MustLookup("czech"), "W:WKc3:Bb2,d4"); !slices.Equal(got, []string{"c3xa1", "c3xe5", "c3xf6", "c3xg7", "c3xh8"}) {
		t.Errorf("czech: %v", got)
	}
}

// TestRulesFrisian: orthogonal captures over the next square of the same colour in a row or
// a column, and the value rule (two men are worth more than one king).
func TestRulesFrisian(t *testing.T) {
	v := engine.MustLookup("frisian")
	for _, tc := range []struct {
		rule, fen string
		want      []string
	}{
		{"a man captures along a row", "W:W33:B34", []string{"33x35"}},
		{"a man captures along a column", "W:W33:B23", []string{"33x13"}},
		{"a man captures backward along a column", "W:W23:B33", []string{"23x43"}},
		// 33 takes 34 and 25 (two men, value 128); 43 could take the king on 38 (127)
		{"two men are worth more than a king", "W:W33,43:B34,25,K38", []string{"33x15"}},
		// 33 may take the king on 38 (127, landing on 42) or the man on 34 (64)
		{"a king is worth more than a man", "W:W33:B34,K38", []string{"33x42"}},
	} {
		if got := legal(t, v, tc.fen); !slices.Equal(got, tc.want) {
			t.Errorf("frisian %s: legal moves of %q = %v, want %v", tc.rule, tc.fen, got, tc.want)
		}
	}
}

// TestRulesCanadian: international's rules on the 12x12 board (squares 1=b12 ... 67=a1
// ... 72=k1; a row of six from the top, files b,d,...,l on even rows and a,c,...,k on odd
// ones), many cases on the squares of index 64 and above that only the wide instance of
// the generator plays (square 61 and beyond).
func TestRulesCanadian(t *testing.T) {
	v := engine.MustLookup("canadian")
	if got, want := v.FEN(v.Start()), "W:W43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30"; got != want {
		t.Fatalf("start %s, want %s (docs/rules.md#numbering)", got, want)
	}
	for _, tc := range []struct {
		rule, fen string
		want      []string
	}{
		// a1 (67) over b2 (61) to c3 (56)
		{"a man on the bottom row captures", "W:W67:B61", []string{"67x56"}},
		// h6 (40) over g5 (46) to f4 (51)
		{"men capture backward", "W:W40:B46", []string{"40x51"}},
		// 40 over 46 and e3 (57) to d2 (62): two pieces, against one for a1 (67) over b2
		{"the most pieces", "W:W40,67:B46,57,61", []string{"40x62"}},
		// b10 (13) over c11 (8) to d12 (2), then over e11 (9) to f10 (15)
		{"a man passing the crown row goes on as a man", "W:W13:B8,9", []string{"13x15"}},
		// a1 (67) over d4 (50), then any free square of the long diagonal up to l12 (6)
		{"a flying king lands on any free square behind", "W:WK67:B50", []string{"67x12", "67x17", "67x23", "67x28", "67x34", "67x39", "67x45", "67x6"}},
		{"a black man steps towards row 1", "B:W72:B56", []string{"56-61", "56-62"}},
	} {
		if got := legal(t, v, tc.fen); !slices.Equal(got, tc.want) {
			t.Errorf("canadian %s: legal moves of %q = %v, want %v", tc.rule, tc.fen, got, tc.want)
		}
	}
	if p := play(t, v, "W:W13:B8,9", "13x15"); p.Material().Kings != [2]int{} {
		t.Errorf("canadian: a man that passed the crown row was crowned")
	}
	// a black man crowned on a1 (67), an index above 63
	p := play(t, v, "B:W7:B61", "61-67")
	if c, king, ok := p.At(mustIndex(t, v, 67)); !ok || c != engine.Black || !king {
		t.Errorf("canadian: 61-67 leaves %v %v %v on a1, want a black king", c, king, ok)
	}
	if got := v.FEN(p); got != "W:W7:BK67" {
		t.Errorf("canadian: FEN after 61-67 = %s", got)
	}
	if p.Hash != p.ComputeHash() {
		t.Errorf("canadian: incremental hash %x, recomputed %x", p.Hash, p.ComputeHash())
	}
	// the captured pieces of a move on both sides of index 64: 45 over 50 (index 53), then
	// over 61 (index 65) to 67 or over 62 (index 66) to 69
	p, err := v.ParseFEN("W:W45:B50,61,62")
	if err != nil {
		t.Fatal(err)
	}
	moves := v.Generate(nil, &p)
	want := map[engine.Square][]engine.Index{
		67: {mustIndex(t, v, 50), mustIndex(t, v, 61)},
		69: {mustIndex(t, v, 50), mustIndex(t, v, 62)},
	}
	if len(moves) != len(want) {
		t.Fatalf("canadian: %d moves from W:W45:B50,61,62, want %d", len(moves), len(want))
	}
	for _, m := range moves {
		w := want[v.Square(m.To)]
		if got := slices.Collect(m.Captured()); !slices.Equal(got, w) || m.CaptureCount() != len(w) {
			t.Errorf("canadian: %s captures %v (%d), want %v", v.FormatMove(&p, m, true), got, m.CaptureCount(), w)
		}
	}
}

func mustIndex(t *testing.T, v *engine.Variant, s engine.Square) engine.Index {
	t.Helper()
	i, ok := v.Index(s)
	if !ok {
		t.Fatalf("%s: no square %d", v.Name, s)
	}
	return i
}
