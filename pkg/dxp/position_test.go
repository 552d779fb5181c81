package dxp

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

func TestFormatPositionStart(t *testing.T) {
	v := engine.MustLookup("international")
	start := v.Start()
	if got := FormatPosition(&start); got != startSquares {
		t.Errorf("FormatPosition(start) = %q, want %q", got, startSquares)
	}
	// a position with kings and Black to move, written out by hand: white king on 1,
	// white man on 50, black king on 46, black man on 5
	p, err := v.ParseFEN("B:WK1,50:BK46,5")
	if err != nil {
		t.Fatal(err)
	}
	want := "Z" + "W" + "eee" + "z" + strings.Repeat("e", 40) + "Z" + "eee" + "w"
	if got := FormatPosition(&p); got != want {
		t.Errorf("FormatPosition(%s) = %q, want %q", v.FEN(p), got, want)
	}
}

// randomPositions returns the positions of a few random games (kings included).
func randomPositions(v *engine.Variant, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 5))
	var out []engine.Position
	for range 20 {
		g := engine.NewGame(v, v.Start())
		for !g.Outcome().Over {
			legal := g.Legal()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				panic(err)
			}
		}
		out = append(out, g.Positions()...)
	}
	return out
}

func TestPositionRoundTrip(t *testing.T) {
	v := engine.MustLookup("international")
	kings := 0
	for _, p := range randomPositions(v, 1) {
		s := FormatPosition(&p)
		got, err := ParsePosition(v, s)
		if err != nil {
			t.Fatalf("ParsePosition(%q) of %s: %v", s, v.FEN(p), err)
		}
		if !got.Equal(&p) || got.Side != p.Side || got.Hash != p.Hash {
			t.Fatalf("ParsePosition(FormatPosition(%s)) = %s", v.FEN(p), v.FEN(got))
		}
		kings += strings.Count(s[1:], "W") + strings.Count(s[1:], "Z")
	}
	if kings == 0 {
		t.Error("no king in the positions tested")
	}
}

func TestParsePositionErrors(t *testing.T) {
	v := engine.MustLookup("international")
	for _, tc := range []struct{ s, want string }{
		{startSquares[:50], "is not W or Z and 50 of"},
		{"X" + startSquares[1:], "is not W or Z and 50 of"},
		{strings.Replace(startSquares, "e", "b", 1), "is not W or Z and 50 of"},
		{"W" + "w" + startSquares[2:], "a white man on its own crowning row"},
	} {
		if _, err := ParsePosition(v, tc.s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParsePosition(%q) error %v, want %q", tc.s, err, tc.want)
		}
	}
	if _, err := ParsePosition(engine.MustLookup("english"), startSquares); err == nil {
		t.Error("ParsePosition on english's board: no error")
	}
}

func TestMoveOf(t *testing.T) {
	v := engine.MustLookup("international")
	start := v.Start()
	// Black's king on 47 can take 42, 43 and 40 (47x38x49x35: it lands on 38 after 42, on
	// 49 after 43, on 35 after 40) or 42, 39 and 40 (47x33x44x35): the same start and end,
	// and different captured pieces. Found by a search over random games.
	two, err := v.ParseFEN("B:W13,32,39,40,42,43:B1,2,6,10,11,14,20,24,30,K47")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    engine.Position
		m    Move
		want string // the move in PDN, or the error
	}{
		{"quiet", start, Move{From: 32, To: 28}, "32-28"},
		{"quiet with a time", start, Move{Seconds: 9999, From: 35, To: 30}, "35-30"},
		{"backwards", start, Move{From: 32, To: 37}, "illegal move"},
		{"no piece", start, Move{From: 28, To: 23}, "illegal move"},
		{"other side's man", start, Move{From: 19, To: 23}, "illegal move"},
		{"a capture with the wrong pieces", two, Move{From: 47, To: 35, Captured: []engine.Square{42, 43, 39}}, "illegal move"},
		{"a capture twice", two, Move{From: 47, To: 35, Captured: []engine.Square{42, 42, 40}}, "captured twice"},
		{"one capture", two, Move{From: 47, To: 35, Captured: []engine.Square{40, 43, 42}}, "47x38x49x35"},
		{"the other", two, Move{From: 47, To: 35, Captured: []engine.Square{39, 40, 42}}, "47x33x44x35"},
		{"captures left out", two, Move{From: 47, To: 35}, "ambiguous move"},
		{"quiet when a capture is due", two, Move{From: 30, To: 34}, "illegal move"},
	} {
		got, err := MoveOf(v, &tc.p, tc.m)
		if err != nil {
			if !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrIllegalMove) {
				t.Errorf("%s: MoveOf(%q) error %v, want %q wrapping ErrIllegalMove", tc.name, Format(tc.m), err, tc.want)
			}
			continue
		}
		if s := v.FormatMove(&tc.p, got, true); s != tc.want {
			t.Errorf("%s: MoveOf(%q) = %s, want %s", tc.name, Format(tc.m), s, tc.want)
		}
	}
	_, err = MoveOf(v, &two, Move{From: 47, To: 35})
	if !errors.Is(err, engine.ErrAmbiguousMove) {
		t.Errorf("ambiguous MoveOf error %v does not wrap engine.ErrAmbiguousMove", err)
	}
	// a capture written without its pieces, when one capture fits
	p, err := v.ParseFEN("W:W32:B27,1")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := MoveOf(v, &p, Move{From: 32, To: 21}); err != nil || got.CaptureCount() != 1 {
		t.Errorf("MoveOf(32x21 without its piece) = %v, %v; want the capture of 27", got, err)
	}
}

func TestNewMove(t *testing.T) {
	v := engine.MustLookup("international")
	two, err := v.ParseFEN("B:W13,32,39,40,42,43:B1,2,6,10,11,14,20,24,30,K47")
	if err != nil {
		t.Fatal(err)
	}
	m, err := v.ParseMove(&two, "47x38x49x35")
	if err != nil {
		t.Fatal(err)
	}
	for elapsed, want := range map[time.Duration]string{
		1400 * time.Millisecond: "M0001473503404243", // captured in increasing order
		1500 * time.Millisecond: "M0002473503404243",
		-time.Second:            "M0000473503404243",
		10 * time.Hour:          "M9999473503404243",
	} {
		if got := Format(NewMove(v, &two, m, elapsed)); string(got) != want {
			t.Errorf("NewMove(47x38x49x35, %v) = %q, want %q", elapsed, got, want)
		}
	}
	// every legal move of random games comes back from its MOVE
	for _, p := range randomPositions(v, 2) {
		for _, m := range v.Generate(nil, &p) {
			dm := NewMove(v, &p, m, 0)
			back, err := Parse(Format(dm))
			if err != nil {
				t.Fatalf("Parse(Format(NewMove(%s))): %v", v.FormatMove(&p, m, true), err)
			}
			got, err := MoveOf(v, &p, back.(Move))
			if err != nil || got != m {
				t.Fatalf("MoveOf(NewMove(%s)) = %v, %v in %s", v.FormatMove(&p, m, true), got, err, v.FEN(p))
			}
		}
	}
}
