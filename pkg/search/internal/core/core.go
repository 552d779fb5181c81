package core

import (
	"context"
	"time"

	"github.com/rafle/rafle/pkg/internal/board"
)

// kernel is the part of the search and the evaluation that depends on the width of a
// variant's board: narrowKernel for a board of up to 64 bits, *wideKernel (wide.go) for
// a larger one. Positions are passed by value, as in board's kernel: a pointer passed to
// an interface method escapes.
type kernel interface {
	featureVector(p board.Position, out []float64) []float64
	evaluateOf(w [numFeatures]float64, p board.Position) float64
	newSearcher(values map[string]float64, pats []int16, hashMB int) searchKernel
}

// searchKernel is the search state of a Searcher on a board of one width: *searcher, or
// its generated wide instance *wideSearcher.
type searchKernel interface {
	clear()
	evaluateOf(p board.Position) int
	searchGame(ctx context.Context, start time.Time, g *board.Game, lim Limits) SearchResult
	setTablebase(tb Tablebase, pieces int)
}

// kernelOf returns the kernel of v's board.
func kernelOf(v *board.Variant) kernel {
	if w, ok := board.WideVariantOf(v); ok {
		return (*wideKernel)(w)
	}
	return (*narrowKernel)(v)
}

// Searcher searches positions of one variant with one set of weights. It keeps its
// transposition table, killers and history between searches; call Clear between games for
// reproducible games. A Searcher is not safe for concurrent use.
type Searcher struct {
	v *board.Variant
	k searchKernel // the search on the variant's board: *searcher, or *wideSearcher
}

// NewSearcher returns a searcher for v using the weights values (by feature name, a value
// for each of FeatureNames(v)), the pattern weights pats (nil for none: see pattern.go for
// their layout) and a transposition table of about hashMB MiB (at least 1). It panics when
// values lack a feature of v or pats do not fit v's board.
func NewSearcher(v *board.Variant, values map[string]float64, pats []int16, hashMB int) *Searcher {
	return &Searcher{v: v, k: kernelOf(v).newSearcher(values, pats, hashMB)}
}

// Variant returns the searcher's variant.
func (s *Searcher) Variant() *board.Variant { return s.v }

// Clear empties the transposition table, the killers and the history.
func (s *Searcher) Clear() { s.k.clear() }

// Evaluate returns the static evaluation of p for the side to move, rounded to an integer.
func (s *Searcher) Evaluate(p *board.Position) int { return s.k.evaluateOf(*p) }

// Search searches the current position of g within lim and returns the best move found. A
// depth-1 search always completes unless the node limit, the time or ctx stop it first; if
// nothing completed, Move is the first legal move in the searcher's order. When the game
// has a single legal move, Search returns it at once with Depth 0 and a static score.
func (s *Searcher) Search(ctx context.Context, g *board.Game, lim Limits) SearchResult {
	return s.k.searchGame(ctx, time.Now(), g, lim)
}

// narrowKernel is the kernel of a board of up to 64 bits: the hot code itself.
type narrowKernel board.Variant

func (k *narrowKernel) featureVector(p board.Position, out []float64) []float64 {
	return features((*board.Variant)(k), &p, out)
}

func (k *narrowKernel) evaluateOf(w [numFeatures]float64, p board.Position) float64 {
	v := (*board.Variant)(k)
	return tablesFor(v).evaluate(v, &w, &p)
}

func (k *narrowKernel) newSearcher(values map[string]float64, pats []int16, hashMB int) searchKernel {
	s := &searcher{}
	s.init((*board.Variant)(k), values, pats, hashMB)
	return s
}

// evaluateOf is Searcher.Evaluate.
func (s *searcher) evaluateOf(p board.Position) int { return s.evaluate(&p) }

// searchGame is Searcher.Search.
func (s *searcher) searchGame(ctx context.Context, start time.Time, g *board.Game, lim Limits) SearchResult {
	s.hist = board.ReversibleHashes(g, s.hist)
	return s.run(ctx, start, g.Position(), board.GameState(g), lim)
}
