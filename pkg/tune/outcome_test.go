package tune

import (
	"math"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestResolveGameOver: resolve scores a position that ends the game by the variant's rules
// (Rules.NoMoveWins, Rules.PromotionWins), not as a loss for whoever has no move.
func TestResolveGameOver(t *testing.T) {
	cases := []struct {
		variant, fen string
		want         float64 // the score for the side to move
		leaf         string  // the resolved position
	}{
		// no piece left, or blocked: lost in international, won in antidraughts
		{"international", "W:W:B1", math.Inf(-1), "W:W:B1"},
		{"antidraughts", "W:W:B1", math.Inf(1), "W:W:B1"},
		{"antidraughts", "W:W6:B1,45", math.Inf(1), "W:W6:B1,45"},
		// antidraughts: the king takes 29 and lands where black must take it; white is then
		// left without a piece and wins. Scored as a loss, the line was avoided and the quiet
		// position B:WK23:B2,5,15 (white's king still on) chosen instead.
		{"antidraughts", "W:WK34:B2,5,15,29", math.Inf(1), "W:W:B5,11,15"},
		// breakthrough: 12x1 crowns, which wins: black to move has lost
		{"breakthrough", "W:W12:B7,45", math.Inf(1), "B:WK1:B45"},
	}
	for _, tc := range cases {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		leaf, score, ok := resolve(v, engine.DefaultWeights(v), p, 0)
		if !ok || score != tc.want || v.FEN(leaf) != tc.leaf {
			t.Errorf("%s %s: resolve = %s, %g, %v; want %s, %g", tc.variant, tc.fen, v.FEN(leaf), score, ok, tc.leaf, tc.want)
		}
	}
}
