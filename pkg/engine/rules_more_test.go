package engine_test

import (
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// Rules of the variants beyond RULES.md (pool, czech, spanish, italian, thai), one case per
// rule point of reference/PERFT.md they differ in. Spanish and italian use the mirrored
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
	if p := play(t, engine.MustLookup("pool"), "W:W11:B6,7", "11x9"); p.Kings != 0 {
		t.Errorf("pool: a man that passed the crown row was crowned")
	}
	if p := play(t, engine.MustLookup("italian"), "W:W7:B2", "7-3"); p.Kings == 0 {
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
