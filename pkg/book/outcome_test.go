package book

import (
	"context"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// TestExpandValueGameOver: an expanded position without a legal move is valued by the
// variant's rules: lost in international, won in antidraughts (Rules.NoMoveWins), lost to
// the opponent's crowning in breakthrough (Rules.PromotionWins).
func TestExpandValueGameOver(t *testing.T) {
	cases := []struct {
		variant, fen string
		want         int
	}{
		{"international", "W:W:B1", -search.MateScore},
		{"antidraughts", "W:W:B1", search.MateScore},
		{"antidraughts", "W:W6:B1,45", search.MateScore},
		{"breakthrough", "B:WK1:B45", -search.MateScore},
	}
	for _, tc := range cases {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		b := New(v)
		b.Root = p
		x := &expander{b: b, opt: ExpandOptions{Depth: 1}, searchers: make(chan *search.Searcher, 1)}
		x.searchers <- search.New(v, nil, 1)
		if err := x.expand(context.Background(), p, 0); err != nil {
			t.Fatal(err)
		}
		x.values()
		if got := x.value[p.Hash]; got != tc.want {
			t.Errorf("%s %s: value %d, want %d", tc.variant, tc.fen, got, tc.want)
		}
	}
}
