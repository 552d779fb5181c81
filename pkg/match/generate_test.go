package match

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestGenerateOpenings: a suite of four-ply english openings is the same for the same seed
// and another for another seed; every opening is legal, balanced in material, scored
// within the window (checked again with the same search), and no two are transpositions or
// near-duplicates.
func TestGenerateOpenings(t *testing.T) {
	cfg := GenerateConfig{Variant: english, Plies: 4, Count: 12, Depth: 3, Window: 20, Seed: 7, Jobs: 2}
	a, st, err := GenerateOpenings(context.Background(), cfg)
	if err != nil || len(a) != 12 {
		t.Fatalf("%d openings, %v", len(a), err)
	}
	if st.Positions < 12 || st.Scored < 12 {
		t.Errorf("stats %+v", st)
	}
	cfg.Jobs = 1
	b, _, _ := GenerateOpenings(context.Background(), cfg)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed with another number of jobs gave another suite")
	}
	cfg.Seed = 8
	if c, _, _ := GenerateOpenings(context.Background(), cfg); reflect.DeepEqual(a, c) {
		t.Error("seeds 7 and 8 gave the same suite")
	}
	check := SearchBalanced(english, 3, 20)
	for i, op := range a {
		p := op.Position()
		if len(op.Moves) != 4 || !MaterialBalanced(&p) || op.Score < -20 || op.Score > 20 || op.Name != fmt.Sprintf("gen-%d", i+1) {
			t.Errorf("%s: %d moves, score %d", op.Name, len(op.Moves), op.Score)
		}
		if err := checkPlayable(english, &op.Opening); err != nil {
			t.Error(err)
		}
		g := replayOpening(t, &op.Opening)
		if !check(g) {
			t.Errorf("%s: not balanced by the same search", op.Name)
		}
		for _, o := range a[:i] {
			q := o.Position()
			if nearDuplicate(&p, &q) {
				t.Errorf("%s and %s are near-duplicates", op.Name, o.Name)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := GenerateOpenings(ctx, cfg); err == nil {
		t.Error("a cancelled generation returned no error")
	}
}

// replayOpening returns the game after op's moves.
func replayOpening(t *testing.T, op *Opening) *engine.Game {
	g := engine.NewGame(english, op.Root)
	for _, m := range op.Moves {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestNearDuplicate: one man elsewhere is a near-duplicate, two are not, nor is the same
// board with the other side to move.
func TestNearDuplicate(t *testing.T) {
	fen := func(s string) engine.Position {
		p, err := english.ParseFEN(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	start := fen("B:W21-32:B1-12")
	for _, tt := range []struct {
		fen  string
		want bool
	}{
		{"B:W21-32:B1-12", true},
		{"B:W20,22-32:B1-12", true},      // one man elsewhere
		{"B:W21-31:B1-12", true},         // one man fewer
		{"B:W20,22-32:B1-11,13", false},  // two men elsewhere
		{"W:W21-32:B1-12", false},        // the other side to move
		{"B:W21-31,K32:B1-12", true},     // a man made a king: one square
		{"B:W20,22-31,K32:B1-12", false}, // and one man elsewhere
	} {
		p := fen(tt.fen)
		if got := nearDuplicate(&start, &p); got != tt.want {
			t.Errorf("%s: near-duplicate %v, want %v", tt.fen, got, tt.want)
		}
	}
}
