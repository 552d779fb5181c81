package engine_test

import (
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestRulesTurkish: each rule of docs/rules.md#turkish on a hand-built position, with the
// complete list of legal moves. Squares are algebraic, a1 bottom-left on White's side.
func TestRulesTurkish(t *testing.T) {
	v := engine.MustLookup("turkish")
	for _, tc := range []struct {
		rule, fen string
		want      []string
	}{
		{"the start: the men of the third row step forward", "",
			[]string{"a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"}},
		{"a white man steps forward or sideways, never back", "W:Wd4:Bh8", []string{"d4-c4", "d4-d5", "d4-e4"}},
		{"a black man steps down the board or sideways", "B:Wa1:Bd5", []string{"d5-c5", "d5-d4", "d5-e5"}},
		{"a man on the edge", "W:Wa4:Bh8", []string{"a4-a5", "a4-b4"}},
		// d3 is behind the man: not taken; c4 and d5 are, each one piece
		{"a man captures forward and sideways, never back", "W:Wd4:Bd5,c4,d3", []string{"d4xb4", "d4xd6"}},
		{"a king flies along the rows and columns", "W:WKd4:Bh8", []string{
			"d4-a4", "d4-b4", "d4-c4", "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7", "d4-d8",
			"d4-e4", "d4-f4", "d4-g4", "d4-h4"}},
		{"a king takes at a distance and lands on any free square behind", "W:WKa4:Bd4",
			[]string{"a4xe4", "a4xf4", "a4xg4", "a4xh4"}},
		// a4 over a5 to a6, then over b6 to c6: two pieces; over b4 alone: one
		{"the most pieces", "W:Wa4:Bb4,a5,b6", []string{"a4xc6"}},
		// a4xc4 (to e4), e6 (to e7), d7 (to c7), then down the c file across c4, whose man
		// was taken, over c2 to c1: four pieces, possible only because c4 is empty at once
		{"a king crosses the square of a piece it has taken", "W:WKa4:Bc4,e6,d7,c2", []string{"a4xc1"}},
		// up over d6 or down over d2: turning back over d2 after d6 (two pieces) is not allowed
		{"no 180-degree turn", "W:WKd4:Bd6,d2", []string{"d4xd1", "d4xd7", "d4xd8"}},
		// c6 over c7 to c8, crowned, then as a king along the 8th rank over e8 (not back
		// down the c file: that would turn 180 degrees)
		{"a man crowned in a capture goes on as a king", "W:Wc6:Bc7,e8,c4", []string{"c6xf8", "c6xg8", "c6xh8"}},
	} {
		fen := tc.fen
		if fen == "" {
			fen = v.FEN(v.Start())
		}
		if got := legal(t, v, fen); !slices.Equal(got, tc.want) {
			t.Errorf("turkish %s: legal moves of %q = %v, want %v", tc.rule, fen, got, tc.want)
		}
	}
	p := play(t, v, "W:Wc6:Bc7,e8,c4", "c6xc8xf8")
	if c, king, ok := p.At(mustIndex(t, v, 6)); /* f8 */ !ok || c != engine.White || !king {
		t.Errorf("turkish: after c6xc8xf8, f8 holds (%v, king %v, %v), want a white king", c, king, ok)
	}
	if p := play(t, v, "W:Wd7:Bh2", "d7-d8"); p.Material().Kings[engine.White] != 1 {
		t.Errorf("turkish: a man stepping onto the 8th rank was not crowned")
	}
}

// TestTurkishDraws: one piece each, man or king, is a draw after two more moves each unless
// the game ends first (docs/rules.md#turkish).
func TestTurkishDraws(t *testing.T) {
	v := engine.MustLookup("turkish")
	for _, tc := range []struct {
		fen   string
		moves []string // four quiet plies
	}{
		{"W:WKa1:BKh8", []string{"a1-a2", "h8-h7", "a2-a1", "h7-h8"}},
		{"W:WKa1:Bh7", []string{"a1-a2", "h7-g7", "a2-a1", "g7-f7"}},
		{"W:Wa2:Bh7", []string{"a2-a3", "h7-h6", "a3-a4", "h6-h5"}},
	} {
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		g := engine.NewGame(v, p)
		for i, text := range tc.moves {
			if o := g.Outcome(); o.Over {
				t.Fatalf("turkish %s: over after %d plies: %+v", tc.fen, i, o)
			}
			if _, err := g.PlayText(text); err != nil {
				t.Fatalf("turkish %s: %s: %v", tc.fen, text, err)
			}
		}
		if o := g.Outcome(); !o.Draw || o.Reason != "one-piece-each" {
			t.Errorf("turkish %s: after %v, outcome %+v, want the one-piece-each draw", tc.fen, tc.moves, o)
		}
	}
	// with one piece each, the side to move that can take the other's piece wins
	p, err := v.ParseFEN("W:WKa1:BKa5")
	if err != nil {
		t.Fatal(err)
	}
	g := engine.NewGame(v, p)
	if _, err := g.PlayText("a1xa6"); err != nil {
		t.Fatal(err)
	}
	if o := g.Outcome(); !o.Over || o.Draw || o.Winner != engine.White {
		t.Errorf("turkish: after a1xa6 taking the last black piece, outcome %+v, want a white win", o)
	}
	// more than one piece a side: no draw
	p, err = v.ParseFEN("W:WKa1,b2:BKh8")
	if err != nil {
		t.Fatal(err)
	}
	g = engine.NewGame(v, p)
	for _, text := range []string{"a1-a3", "h8-h7", "a3-a1", "h7-h8", "a1-a3"} {
		if _, err := g.PlayText(text); err != nil {
			t.Fatal(err)
		}
	}
	if o := g.Outcome(); o.Over {
		t.Errorf("turkish W:WKa1,b2:BKh8: outcome %+v after five plies, want the game on", o)
	}
}

// TestTurkishLandOnTaken: a capture may end on the square of a piece it took earlier in
// the same move (pieces are removed at once); the king that lands there stays a king and
// the hash stays right (Play once cleared the captured squares after moving the king,
// which turned it into a man).
func TestTurkishLandOnTaken(t *testing.T) {
	v := engine.MustLookup("turkish")
	p, err := v.ParseFEN("B:Wg7,d4,b3,c3,g3,c2,g2:BKh2")
	if err != nil {
		t.Fatal(err)
	}
	landed := 0
	for _, m := range v.Generate(nil, &p) {
		c := p.Play(m)
		if slices.Contains(slices.Collect(m.Captured()), m.To) {
			landed++
		}
		if col, king, ok := c.At(m.To); !ok || col != engine.Black || !king {
			t.Errorf("turkish %s: after %s, %s holds (%v, king %v, %v), want the black king",
				v.FEN(p), v.FormatMove(&p, m, true), v.SquareName(v.Square(m.To)), col, king, ok)
		}
		if c.Hash != c.ComputeHash() {
			t.Errorf("turkish %s: after %s, hash %x, recomputed %x", v.FEN(p), v.FormatMove(&p, m, true), c.Hash, c.ComputeHash())
		}
	}
	if landed == 0 {
		t.Errorf("turkish %s: no capture ends on a square it emptied: the test exercises nothing", v.FEN(p))
	}
}

// TestRulesArmenian: the rules by which armenian draughts differs from turkish
// (docs/rules.md#armenian), with the complete list of legal moves, and a turkish rule it
// shares, each on a hand-built position.
func TestRulesArmenian(t *testing.T) {
	v := engine.MustLookup("armenian")
	for _, tc := range []struct {
		rule, fen string
		want      []string
	}{
		{"the start: the men of the third row step forward, straight or diagonally", "", []string{
			"a3-a4", "a3-b4", "b3-a4", "b3-b4", "b3-c4", "c3-b4", "c3-c4", "c3-d4", "d3-c4", "d3-d4", "d3-e4",
			"e3-d4", "e3-e4", "e3-f4", "f3-e4", "f3-f4", "f3-g4", "g3-f4", "g3-g4", "g3-h4", "h3-g4", "h3-h4"}},
		{"a white man steps forward, diagonally forward or sideways, never back", "W:Wd4:Bh8",
			[]string{"d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"}},
		{"a black man steps down the board, diagonally down or sideways", "B:Wa1:Bd5",
			[]string{"d5-c4", "d5-c5", "d5-d4", "d5-e4", "d5-e5"}},
		// c5 and e5 are diagonally in front: not taken; d5 is
		{"a man captures forward and sideways only, never diagonally", "W:Wd4:Bc5,e5,d5", []string{"d4xd6"}},
		{"a king moves like a queen", "W:WKb2:Bh7,g8", []string{
			"b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-b4", "b2-b5", "b2-b6", "b2-b7", "b2-b8",
			"b2-c1", "b2-c2", "b2-c3", "b2-d2", "b2-d4", "b2-e2", "b2-e5", "b2-f2", "b2-f6", "b2-g2",
			"b2-g7", "b2-h2", "b2-h8"}},
		// d5 stands diagonally from the king: not taken
		{"a king captures along the rows and columns only", "W:WKc4:Bd5,c6", []string{"c4xc7", "c4xc8"}},
		{"no 180-degree turn", "W:WKd4:Bd6,d2", []string{"d4xd1", "d4xd7", "d4xd8"}},
	} {
		fen := tc.fen
		if fen == "" {
			fen = v.FEN(v.Start())
		}
		if got := legal(t, v, fen); !slices.Equal(got, tc.want) {
			t.Errorf("armenian %s: legal moves of %q = %v, want %v", tc.rule, fen, got, tc.want)
		}
	}
	if p := play(t, v, "W:Wd7:Bh2", "d7-e8"); p.Material().Kings[engine.White] != 1 {
		t.Errorf("armenian: a man stepping diagonally onto the 8th rank was not crowned")
	}
}
