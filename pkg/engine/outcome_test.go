package engine_test

import (
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// gameFrom starts a game of variant name from fen (the start position when fen is empty).
func gameFrom(t testing.TB, name, fen string) (*engine.Variant, *engine.Game) {
	t.Helper()
	v := engine.MustLookup(name)
	p := v.Start()
	if fen != "" {
		var err error
		if p, err = v.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	return v, engine.NewGame(v, p)
}

// TestPositionOutcome: a position alone says whether the rules of play end the game, as
// Game.Outcome does for a game that starts there: the side to move without a move loses,
// wins in antidraughts, and has lost to a crowning in breakthrough.
func TestPositionOutcome(t *testing.T) {
	cases := []struct {
		variant, fen string
		want         string
	}{
		{"international", "W:W46:B", "in progress"},
		{"international", "W:W:B1", "black wins (no-legal-move)"},
		{"international", "W:W6:B1,45", "black wins (no-legal-move)"},
		{"antidraughts", "W:W:B1", "white wins (no-legal-move)"},
		{"antidraughts", "W:W6:B1,45", "white wins (no-legal-move)"},
		{"antidraughts", "B:W28:B23", "in progress"},
		{"breakthrough", "B:WK1:B45", "white wins (promotion)"},
		{"breakthrough", "W:W6:B1", "black wins (no-legal-move)"},
		{"breakthrough", "W:W6:B45", "in progress"},
	}
	for _, tc := range cases {
		v, g := gameFrom(t, tc.variant, tc.fen)
		p := g.Position()
		got := v.PositionOutcome(&p)
		if got.String() != tc.want {
			t.Errorf("%s %s: PositionOutcome %v, want %s", tc.variant, tc.fen, got, tc.want)
		}
		if o := g.Outcome(); o != got {
			t.Errorf("%s %s: PositionOutcome %v, Game.Outcome %v", tc.variant, tc.fen, got, o)
		}
	}
}

// TestPositionOutcomeNoDraw: draws need the game's history, which a position lacks.
func TestPositionOutcomeNoDraw(t *testing.T) {
	v, g := gameFrom(t, "international", "W:WK36:BK5")
	for range 2 {
		for _, m := range []string{"36-31", "5-10", "31-36", "10-5"} {
			if _, err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := g.Position()
	if o := g.Outcome(); !o.Draw {
		t.Fatalf("after a threefold repetition: %v, want a draw", o)
	}
	if o := v.PositionOutcome(&p); o.Over {
		t.Errorf("PositionOutcome %v, want the game going on", o)
	}
}
