package search

import (
	"context"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search/internal/core"
)

// Score bounds. A score above MateScore-MaxWin is a win in MateScore-score plies; below
// -(MateScore-MaxWin) a loss in MateScore+score plies. A win that the search finds by itself
// is within MaxPly plies; one that an endgame database knows (SetEGDB) may be longer, and
// one that it holds without its distance scores about TBWin. The static evaluation stays
// within EvalBound.
const (
	// MateScore is the score of a side to move that has already won (never reached: a win
	// in n plies scores MateScore-n).
	MateScore = core.MateScore
	// MaxDepth is the deepest nominal depth Search iterates to.
	MaxDepth = core.MaxDepth
	// MaxPly bounds the plies of the main search and the quiescence search together.
	MaxPly = core.MaxPly
	// MaxWin bounds the plies of a win or loss whose distance is known (an endgame
	// database's longer one counts as MaxWin-1 plies).
	MaxWin = core.MaxWin
	// EvalBound bounds the static evaluation.
	EvalBound = core.EvalBound
)

// Limits bounds one search. The zero value has no limit other than MaxDepth. Depth and
// Nodes give the same result on every run; MoveTime and the context do not.
type Limits struct {
	// Depth is the maximum nominal depth in plies (0: MaxDepth).
	Depth int
	// Nodes is the maximum number of nodes visited (0: no limit); the search never exceeds it.
	Nodes int64
	// MoveTime is the time allowed for the search (0: no limit). No new iteration starts
	// after half of it has gone.
	MoveTime time.Duration
	// NoQuiescence evaluates the leaves statically instead of following captures.
	NoQuiescence bool
	// FullWidth searches every move to the full depth (no late-move reductions). The
	// levels set it, so that their depth is the specification's (with the reductions a
	// fixed depth plays weaker: english at depth 4, -74 Elo in 200 games).
	FullWidth bool
	// Threads is the number of threads that search, sharing the transposition table (0 or
	// 1: one), at most the machine's CPUs whatever is asked. With more than one the search
	// depends on the threads' timing, and Nodes bounds the main thread's nodes only.
	Threads int
}

// Result is the outcome of a search.
type Result struct {
	// Move is the move chosen; the zero Move when the side to move has no legal move.
	Move engine.Move
	// Score is the score of Move for the side to move, in hundredths of a man (see MateScore).
	Score int
	// Depth is the last depth completed (0 when the root had a single legal move, or when
	// not even depth 1 completed within the limits).
	Depth int
	// Nodes is the number of nodes visited (main and quiescence search), by every thread.
	Nodes int64
	// PV is the principal variation, starting with Move.
	PV []engine.Move
	// Elapsed is the time the search took.
	Elapsed time.Duration
	// Random is set when a player chose Move at random instead of searching.
	Random bool
}

// Searcher searches positions of one variant with one set of weights. It keeps its
// transposition table, killers and history between searches; call Clear between games for
// reproducible games. A Searcher is not safe for concurrent use.
type Searcher struct {
	s  *core.Searcher
	tb *tablebase // the endgame database (SetEGDB), nil without one
}

// New returns a searcher for v using weights w (DefaultWeights(v) when nil) and a
// transposition table of about hashMB MiB (at least 1). It panics when w does not fit v
// (check with Weights.Check first).
func New(v *engine.Variant, w *Weights, hashMB int) *Searcher {
	if w == nil {
		w = DefaultWeights(v)
	}
	if err := w.Check(v); err != nil {
		panic(err)
	}
	var pats []int16
	if w.Patterns != nil {
		pats = w.Patterns.Values
	}
	return &Searcher{s: core.NewSearcher(bvariant(v), w.Values, pats, hashMB)}
}

// Variant returns the searcher's variant.
func (s *Searcher) Variant() *engine.Variant { return evariant(s.s.Variant()) }

// Clear empties the transposition table, the killers and the history.
func (s *Searcher) Clear() { s.s.Clear() }

// Evaluate returns the static evaluation of p for the side to move, rounded to an integer.
func (s *Searcher) Evaluate(p *engine.Position) int { return s.s.Evaluate(bposition(p)) }

// Search searches the current position of g within lim and returns the best move found. A
// depth-1 search always completes unless the node limit, the time or ctx stop it first; if
// nothing completed, Move is the first legal move in the searcher's order. When the game
// has a single legal move, Search returns it at once with Depth 0 and a static score. With
// an endgame database (SetEGDB) that holds the position, Search plays from it, without
// searching (Depth 0, Nodes 0) unless the database holds a win or loss without its distance.
func (s *Searcher) Search(ctx context.Context, g *engine.Game, lim Limits) Result {
	if s.tb != nil {
		if r, ok := s.fromEGDB(ctx, g, lim); ok {
			return r
		}
	}
	return result(s.s.Search(ctx, bgame(g), core.Limits(lim)))
}

// FeatureNames returns the names of v's evaluation features, in the order Features fills
// them. The caller may modify the returned slice.
func FeatureNames(v *engine.Variant) []string { return core.FeatureNames(bvariant(v)) }

// Features appends the raw feature vector of p to out[:0] and returns it, in the order of
// FeatureNames(v). Each feature is the side to move's count minus the opponent's (tempo is
// 1), so Evaluate(v, w, p) = Σ w.Values[FeatureNames(v)[i]] × Features(v, p, nil)[i] is
// the evaluation from the side to move's point of view.
func Features(v *engine.Variant, p *engine.Position, out []float64) []float64 {
	return core.Features(bvariant(v), bposition(p), out)
}

// Evaluate returns dot(w, Features(v, p)), plus the pattern term when w has patterns (an
// integer, rounded as the search rounds it): the evaluation of p from the side to move's
// point of view, in the units of the weights, before the search rounds it. It panics if w
// lacks a feature of v or its patterns do not fit v (a programming error: LoadWeights and
// DefaultWeights return complete sets).
func Evaluate(v *engine.Variant, w *Weights, p *engine.Position) float64 {
	e := core.Evaluate(bvariant(v), w.Values, bposition(p))
	if w.Patterns != nil {
		e += float64(core.PatternScore(bvariant(v), w.Patterns.Values, bposition(p)))
	}
	return e
}
