package engine_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// legalText returns g's legal moves in its notation, sorted.
func legalText(g *engine.Game) []string {
	p := g.Position()
	var out []string
	for _, m := range g.Legal() {
		out = append(out, g.Variant().FormatMove(&p, m, false))
	}
	slices.Sort(out)
	return out
}

// TestFrisianKingMoveLimit: a frisian player who still has men may not move the same king
// more than three times in a row without capturing (Official Rules 2011, section C).
func TestFrisianKingMoveLimit(t *testing.T) {
	v := engine.MustLookup("frisian")
	// the king shuttles c7-d6 (17, 22), out of the black men's lines
	p, err := v.ParseFEN("W:W46,K22:B5")
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(v, p)
	playAll(t, g, "22-17", "5-10", "17-22", "10-15", "22-17", "15-20")
	if got, want := legalText(g), []string{"46-41"}; !slices.Equal(got, want) {
		t.Fatalf("after three king moves: legal %v, want %v", got, want)
	}
	_, err = g.PlayText("17-22")
	if !errors.Is(err, engine.ErrIllegalMove) || !strings.Contains(err.Error(), "king on 17") {
		t.Fatalf("a fourth move with the king: %v, want an illegal move naming the king on 17", err)
	}
	pos := g.Position()
	held, _ := v.ParseMove(&pos, "17-22")
	if err := g.Play(held); !errors.Is(err, engine.ErrIllegalMove) {
		t.Fatalf("Game.Play of the held king's move: %v, want ErrIllegalMove", err)
	}
	if o := g.Outcome(); o.Over {
		t.Fatalf("outcome %v with a man to move", o)
	}
	// the searcher sees the limit too: the man's move is the only one
	s := search.New(v, nil, 1)
	if res := s.Search(context.Background(), g, search.Limits{Depth: 4}); v.FormatMove(new(g.Position()), res.Move, false) != "46-41" {
		t.Errorf("search chose %s, want 46-41", v.FormatMove(new(g.Position()), res.Move, false))
	}
	// another piece moved: the king is free again, for three more moves
	playAll(t, g, "46-41", "20-25", "17-22", "25-30", "22-17", "30-35", "17-22")
	if got := legalText(g); slices.ContainsFunc(got, func(m string) bool { return strings.HasPrefix(m, "22-") }) {
		t.Errorf("king not held again after three more moves: legal %v", got)
	}

	// without men the limit does not apply
	p, _ = v.ParseFEN("W:WK22:B5")
	g = engine.NewGame(v, p)
	playAll(t, g, "22-17", "5-10", "17-22", "10-15", "22-17", "15-20", "17-22")

	// the held king is the only piece that could move: no legal move, a loss
	p, _ = v.ParseFEN("W:W6,K22:B1,5")
	g = engine.NewGame(v, p)
	playAll(t, g, "22-17", "5-10", "17-22", "10-15", "22-17", "15-20")
	if o := g.Outcome(); !o.Over || o.Winner != engine.Black || o.Reason != "no-legal-move" {
		t.Errorf("held king and a blocked man: %v, want black wins (no-legal-move)", o)
	}

	// other variants have no limit
	v = engine.MustLookup("international")
	p, _ = v.ParseFEN("W:W46,K22:B5")
	g = engine.NewGame(v, p)
	playAll(t, g, "22-17", "5-10", "17-22", "10-15", "22-17", "15-20", "17-22")
}
