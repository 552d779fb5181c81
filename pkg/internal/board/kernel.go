package board

import (
	"context"
	"time"
)

// kernel is the part of a Variant that depends on the width of its board: move
// generation, perft, capture paths, the update of the draw state, the evaluation and the
// search. NewVariant picks its implementation once: narrowKernel for a board of up to 64
// bits, the generated wide instance (*wideVariant, wide.go) for a larger one. The public
// methods hand their work to it and never test the width themselves.
//
// Positions are passed by value: a pointer passed to an interface method escapes, and
// would move the caller's Position to the heap on every call.
type kernel interface {
	generateDup(dst []Move, p Position, dup Duplicates) []Move
	hasCaptureOf(p Position) bool
	countOf(p Position, dup Duplicates, scratch []Move) int
	hasMovesOf(p Position) bool
	divideOf(ctx context.Context, p Position, depth int, opt PerftOptions) ([]DivideEntry, error)
	pathsOf(p Position, m Move) [][]Square
	isPathOf(p Position, m Move, want wantedPath) bool
	quietMoveOf(p Position, from, to Index) (Move, bool)
	// advanceDrawOf turns d, the draw state of p, into that of c, where m leads from p.
	advanceDrawOf(d *drawState, p Position, m Move, c Position)
	featureVector(p Position, out []float64) []float64
	evaluateOf(w [numFeatures]float64, p Position) float64
	newSearcher(values map[string]float64, hashMB int) searchKernel
}

// searchKernel is the search state of a Searcher on a board of one width: *searcher, or
// its generated wide instance *wideSearcher.
type searchKernel interface {
	clear()
	evaluateOf(p Position) int
	searchGame(ctx context.Context, start time.Time, g *Game, lim Limits) SearchResult
}

// narrowKernel is the kernel of a board of up to 64 bits: the hot code itself, which
// works on Position and Move directly.
type narrowKernel struct{ v *Variant }

func (k narrowKernel) generateDup(dst []Move, p Position, dup Duplicates) []Move {
	var g capGen
	return k.v.generate(&g, dst, &p, dup)
}

func (k narrowKernel) hasCaptureOf(p Position) bool { return k.v.hasCaptureIn(&p) }

func (k narrowKernel) countOf(p Position, dup Duplicates, scratch []Move) int {
	var g capGen
	return k.v.count(&g, &p, dup, scratch)
}

func (k narrowKernel) hasMovesOf(p Position) bool { return k.v.hasMoves(&p) }

func (k narrowKernel) divideOf(ctx context.Context, p Position, depth int, opt PerftOptions) ([]DivideEntry, error) {
	return k.v.divide(ctx, p, depth, opt)
}

func (k narrowKernel) pathsOf(p Position, m Move) [][]Square { return k.v.paths(&p, m) }

func (k narrowKernel) isPathOf(p Position, m Move, want wantedPath) bool {
	return k.v.isPath(&p, m, want)
}

func (k narrowKernel) quietMoveOf(p Position, from, to Index) (Move, bool) {
	return k.v.quietMove(&p, from, to)
}

func (k narrowKernel) advanceDrawOf(d *drawState, p Position, m Move, c Position) {
	advanceDraw(d, k.v, &p, m, &c)
}

func (k narrowKernel) featureVector(p Position, out []float64) []float64 {
	return features(k.v, &p, out)
}

func (k narrowKernel) evaluateOf(w [numFeatures]float64, p Position) float64 {
	return tablesFor(k.v).evaluate(k.v, &w, &p)
}

func (k narrowKernel) newSearcher(values map[string]float64, hashMB int) searchKernel {
	s := &searcher{}
	s.init(k.v, values, hashMB)
	return s
}

// evaluateOf is Searcher.Evaluate.
func (s *searcher) evaluateOf(p Position) int { return s.evaluate(&p) }

// searchGame is Searcher.Search.
func (s *searcher) searchGame(ctx context.Context, start time.Time, g *Game, lim Limits) SearchResult {
	s.hist = gameHistory(g, s.hist)
	return s.run(ctx, start, g.Position(), g.draw, lim)
}
