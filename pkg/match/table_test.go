package match

import (
	"context"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestTableStages plays one game stage by stage: the opening is in the record, the two
// players are seated by colour, a game at its ply limit is over, and each move asked
// of the side to move is recorded.
func TestTableStages(t *testing.T) {
	v := engine.MustLookup("english")
	root := v.Start()
	moves := v.Generate(nil, &root)
	cfg := &Config{Variant: v, Players: []Entrant{Random("a"), Random("b")}, MaxPlies: 3,
		Openings: []Opening{{Name: "one", Root: root, Moves: moves[:1]}}}
	tb, err := openGame(cfg, Game{Index: 0, A: 0, B: 1, First: 1}, seats{})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.release(engine.White, false)
	defer tb.release(engine.Black, false)
	if len(tb.rec.Moves) != 1 || tb.rec.OpeningPlies != 1 || tb.g.Ply() != 1 {
		t.Fatalf("opening: record %+v, ply %d", tb.rec, tb.g.Ply())
	}
	if err := tb.seat(); err != nil {
		t.Fatal(err)
	}
	// english: black moves first, and player 1 moves first in this game
	if tb.rec.Black != "b" || tb.rec.White != "a" {
		t.Errorf("seated black %q, white %q; want b, a", tb.rec.Black, tb.rec.White)
	}
	if forfeited, err := tb.start(context.Background()); forfeited || err != nil {
		t.Fatalf("start: %v, %v", forfeited, err)
	}
	for ply := range 3 {
		if over, err := tb.over(); over || err != nil {
			t.Fatalf("ply %d: over %v, %v", ply, over, err)
		}
		if forfeited, err := tb.move(context.Background()); forfeited || err != nil {
			t.Fatalf("ply %d: move: %v, %v", ply, forfeited, err)
		}
	}
	if over, err := tb.over(); !over || err != nil || tb.rec.Reason != ReasonMaxPlies || len(tb.rec.Moves) != 4 {
		t.Errorf("after 3 plies: over %v, %v, record %+v; want %s with 4 moves", over, err, tb.rec, ReasonMaxPlies)
	}
}
