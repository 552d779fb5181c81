package core

import (
	"context"
	"math/rand"
	"testing"
	"time"
	"unsafe"

	"github.com/rafle/rafle/pkg/internal/board"
)

// TestAspirationWidens: an iteration searched in an aspiration window around a wrong
// guess (far too low or far too high) fails, widens on the side that failed and ends on a
// score inside the last window searched (an exact score, not a bound), close to what the
// full window gives (the reductions and the table make them differ a little), on positions
// of random games of english and russian.
func TestAspirationWidens(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, name := range []string{"english", "russian"} {
		v := board.MustLookup(name)
		for i, p := range randomGamePositions(v, rng, 40) {
			if i%4 != 0 || len(v.Generate(nil, &p)) < 2 {
				continue
			}
			full := newTestSearcher(v, p)
			want := full.search(&p, aspireDepth, 0, -infinity, infinity, 0)
			if want >= EvalBound || want <= -EvalBound {
				continue
			}
			for _, guess := range []int{want - 500, want + 500} {
				s := newTestSearcher(v, p)
				got := s.iterate(&p, aspireDepth, guess)
				w := s.window
				if !(w[0] < got && got < w[1]) {
					t.Errorf("%s position %d: guess %d: score %d outside the last window %v", name, i, guess, got, w)
				}
				if (w[0] < guess-aspireDelta) == (w[1] > guess+aspireDelta) {
					t.Errorf("%s position %d: guess %d: the last window %v did not widen on one side", name, i, guess, w)
				}
				if abs(got-want) > 100 {
					t.Errorf("%s position %d: guess %d: score %d, the full window %d", name, i, guess, got, want)
				}
			}
		}
	}
}

// newTestSearcher returns a searcher of v with default weights ready to search p.
func newTestSearcher(v *board.Variant, p board.Position) *searcher {
	s := &searcher{}
	s.init(v, defaultTestWeights(v), nil, 1)
	s.ctx, s.done = context.Background(), context.Background().Done()
	s.hist = []uint64{p.Hash}
	return s
}

// defaultTestWeights gives every feature of v the weight 1, and the men and kings their
// usual values, so that scores vary.
func defaultTestWeights(v *board.Variant) map[string]float64 {
	w := map[string]float64{}
	for _, f := range FeatureNames(v) {
		w[f] = 1
	}
	w["man"], w["king"] = 100, 300
	return w
}

// TestReduction: a late quiet move is reduced, one ply on the principal variation and two
// off it; a capture, a promotion, an early move or a move of a shallow node is not.
func TestReduction(t *testing.T) {
	v := board.MustLookup("english")
	p := v.Start()
	quiet := v.Generate(nil, &p)[0]
	for _, c := range []struct {
		name     string
		m        board.Move
		depth, i int
		pv       bool
		want     int
	}{
		{"late quiet move off the PV", quiet, 6, 8, false, 2},
		{"quiet move off the PV", quiet, 6, 2, false, 1},
		{"late quiet move on the PV", quiet, 6, 8, true, 1},
		{"second move on the PV", quiet, 6, 1, true, 0},
		{"first move", quiet, 6, 0, false, 0},
		{"depth 2", quiet, 2, 8, false, 0},
	} {
		if got := reduction(c.m, c.depth, c.i, c.pv); got != c.want {
			t.Errorf("%s: reduced by %d, want %d", c.name, got, c.want)
		}
	}
	// captures and promotions from random games
	rng := rand.New(rand.NewSource(5))
	var captures, promotions int
	for _, p := range randomGamePositions(v, rng, 300) {
		for _, m := range v.Generate(nil, &p) {
			if board.Captured(m) == 0 && !m.Promotes() {
				continue
			}
			if board.Captured(m) != 0 {
				captures++
			} else {
				promotions++
			}
			if r := reduction(m, 8, 10, false); r != 0 {
				t.Errorf("capture or promotion %v reduced by %d", m, r)
			}
		}
	}
	if captures == 0 || promotions == 0 {
		t.Fatalf("%d captures, %d promotions: the positions do not test both", captures, promotions)
	}
}

// TestFullWidthIsMinimax: with Limits.FullWidth (the levels) the search scores a position
// exactly as a plain negamax to the same depth (leaves evaluated statically, a single reply
// not counted against the depth), on positions of random english and russian games: no
// reduction or cut changes a level's result.
func TestFullWidthIsMinimax(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for _, name := range []string{"english", "russian"} {
		v := board.MustLookup(name)
		for i, p := range randomGamePositions(v, rng, 60) {
			if i%3 != 0 || len(v.Generate(nil, &p)) < 2 {
				continue
			}
			s := newTestSearcher(v, p)
			res := s.run(context.Background(), time.Now(), p, board.DrawState{}, Limits{Depth: 4, NoQuiescence: true, FullWidth: true})
			if want := negamax(s, v, p, 4, 0); res.Score != want {
				t.Errorf("%s position %d (%s): full-width depth 4 scores %d, negamax %d", name, i, v.FEN(p), res.Score, want)
			}
		}
	}
}

// negamax is the reference of TestFullWidthIsMinimax.
func negamax(s *searcher, v *board.Variant, p board.Position, depth, ply int) int {
	moves := v.Generate(nil, &p)
	if len(moves) == 0 {
		return noMoveScore(&v.Rules, ply)
	}
	if depth <= 0 {
		return s.evaluate(&p)
	}
	child := depth - 1
	if len(moves) == 1 {
		child = depth
	}
	best := -infinity
	for _, m := range moves {
		best = max(best, -negamax(s, v, p.Play(m), child, ply+1))
	}
	return best
}

// TestTTEntryWords: a table entry of either width is a whole number of 64-bit words, as
// ttLoad and ttStore read and write it.
func TestTTEntryWords(t *testing.T) {
	if n := unsafe.Sizeof(ttEntry{}); n%8 != 0 || n/8 != ttWords {
		t.Errorf("ttEntry is %d bytes", n)
	}
	if n := unsafe.Sizeof(wideTTEntry{}); n%8 != 0 || n/8 != wideTTWords {
		t.Errorf("wideTTEntry is %d bytes", n)
	}
}
