package core

import (
	"context"
	"time"

	"github.com/rafle/rafle/pkg/internal/board"
)

// Boards of more than 64 bits (canadian) are searched by a second instance of search.go
// and eval.go, generated from them: widegen copies them with board's Bitboard, Position,
// Move and Variant replaced by Wide, WidePosition, WideMove and WideVariant, and each
// function of board/shared.go by its wide twin (widegen.conf, wide_gen.go). The kernel of
// such a board converts at its edges.

//go:generate go run ../../../internal/widegen -config widegen.conf

// wideKernel is the kernel of a board of more than 64 bits.
type wideKernel board.WideVariant

func (k *wideKernel) featureVector(p board.Position, out []float64) []float64 {
	wp := board.Widen(&p)
	return wideFeatures((*board.WideVariant)(k), &wp, out)
}

func (k *wideKernel) evaluateOf(vec [numFeatures]float64, p board.Position) float64 {
	w, wp := (*board.WideVariant)(k), board.Widen(&p)
	return wideTablesFor(w).evaluate(w, &vec, &wp)
}

func (k *wideKernel) newSearcher(values map[string]float64, pats []int16, hashMB int) searchKernel {
	s := &wideSearcher{}
	s.init((*board.WideVariant)(k), values, pats, hashMB)
	return s
}

func (s *wideSearcher) evaluateOf(p board.Position) int {
	w := board.Widen(&p)
	return s.evaluate(&w)
}

func (s *wideSearcher) searchGame(ctx context.Context, start time.Time, g *board.Game, lim Limits) SearchResult {
	s.hist = board.ReversibleHashes(g, s.hist)
	root := g.Position()
	return s.run(ctx, start, board.Widen(&root), board.GameState(g), lim).narrow()
}

// narrow returns r as a SearchResult.
func (r wideSearchResult) narrow() SearchResult {
	out := SearchResult{Move: board.NarrowMove(r.Move), Score: r.Score, Depth: r.Depth, Nodes: r.Nodes,
		Elapsed: r.Elapsed, Random: r.Random}
	if r.PV != nil {
		out.PV = board.NarrowMoves(make([]board.Move, 0, len(r.PV)), r.PV)
	}
	return out
}

func (s *wideSearcher) setTablebase(tb Tablebase, pieces int) { s.tb, s.tbPieces = tb, pieces }

// probe is searcher.probe on a wide board: the database takes the narrow Position.
func (s *wideSearcher) probe(p *board.WidePosition, ply int) (score int, exact, ok bool) {
	n := board.Narrow(p)
	value, plies, ok := s.tb.Probe(&n)
	if !ok {
		return 0, false, false
	}
	e := 0
	if value != 0 && plies < 0 {
		e = s.evaluate(p)
	}
	return tbScore(value, plies, ply, e), value == 0 || plies >= 0, true
}

// widePatternEval is the pattern term of a wide board: there is none (pattern.go), so the
// searcher's is always nil.
type widePatternEval struct{}

// newWidePatternEval is newPatternEval on a wide board: it panics unless pats is empty.
func newWidePatternEval(_ *board.WideVariant, pats []int16) *widePatternEval {
	if len(pats) != 0 {
		panic("core: pattern weights do not fit the variant's board")
	}
	return nil
}

// score is 0: a wide board has no patterns.
func (*widePatternEval) score(*board.WidePosition) int { return 0 }
