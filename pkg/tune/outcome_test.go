package tune

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
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
		leaf, score, ok := resolve(v, search.HandWeights(v), p, 0)
		if !ok || score != tc.want || v.FEN(leaf) != tc.leaf {
			t.Errorf("%s %s: resolve = %s, %g, %v; want %s, %g", tc.variant, tc.fen, v.FEN(leaf), score, ok, tc.leaf, tc.want)
		}
	}
}

// TestReadPDNResultNotations: a game of a lidraughts variant labels its positions the same
// whether its result is written as lidraughts writes it (2-0) or chess-style (1-0).
func TestReadPDNResultNotations(t *testing.T) {
	const game = `[GameType "98"]
[Result "2-0"]

1. 32-28 19-23 2. 28x19 14x23 3. 33-28 2-0
`
	var labels [2][]float32
	for i, text := range []string{game, strings.ReplaceAll(game, "2-0", "1-0")} {
		d := NewDataset(nil)
		if err := d.ReadPDN(context.Background(), strings.NewReader(text), "test", Filter{Quiet: QuietNone}); err != nil {
			t.Fatal(err)
		}
		if d.Len() != 6 || d.Variant != engine.MustLookup("antidraughts") {
			t.Fatalf("%d positions of %v; want 6 of antidraughts (stats %+v)", d.Len(), d.Variant, d.Stats)
		}
		labels[i] = d.Y
	}
	// White moves first and won: 1 where White is to move (plies 0, 2, 4), 0 elsewhere
	want := []float32{1, 0, 1, 0, 1, 0}
	if !slices.Equal(labels[0], want) || !slices.Equal(labels[1], want) {
		t.Errorf("labels %v (2-0) and %v (1-0), want %v", labels[0], labels[1], want)
	}
}
