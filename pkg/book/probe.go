package book

import (
	"context"
	"fmt"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// ProbeOptions configures Probe.
type ProbeOptions struct {
	// EvalDepth, when positive, adds to every book move the score of a search of this
	// depth from the position after it.
	EvalDepth int
	// HashMB is the search's transposition table size (0: 16 MiB).
	HashMB int
}

// ProbeMove is one book move of a probed position.
type ProbeMove struct {
	Move   string `json:"move"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// Score is the mover's score in percent over the games with a result (nil: none).
	Score *float64 `json:"score,omitempty"`
	// BookEval is the eval stored in the book (expanded books).
	BookEval *int `json:"bookEval,omitempty"`
	// Eval is the search score for the mover when ProbeOptions.EvalDepth is set.
	Eval *int `json:"eval,omitempty"`
}

// ProbeResult is the book's knowledge of one position.
type ProbeResult struct {
	FEN string `json:"fen"`
	// Found is false when the position is not in the book.
	Found bool `json:"found"`
	// Games is the number of games that played a move from the position.
	Games int         `json:"games"`
	Moves []ProbeMove `json:"moves"`
}

// Probe returns the book moves of p with their statistics, in the book's order.
func (b *Book) Probe(ctx context.Context, p engine.Position, opt ProbeOptions) (ProbeResult, error) {
	v := b.Variant
	res := ProbeResult{FEN: v.FEN(p), Moves: []ProbeMove{}}
	e := b.Lookup(&p)
	if e == nil {
		return res, nil
	}
	res.Found, res.Games = true, e.Games()
	var s *search.Searcher
	if opt.EvalDepth > 0 {
		hash := opt.HashMB
		if hash <= 0 {
			hash = 16
		}
		s = search.New(v, nil, hash)
	}
	for _, m := range e.Moves {
		pm := ProbeMove{Move: b.Text(e, m.Move), Games: m.Games, Wins: m.Wins, Draws: m.Draws, Losses: m.Losses,
			BookEval: m.Eval}
		if sc, ok := m.Score(); ok {
			pct := 100 * sc
			pm.Score = &pct
		}
		if s != nil {
			score := searchAfter(ctx, s, v, p, m.Move, opt.EvalDepth)
			if err := ctx.Err(); err != nil {
				return res, err
			}
			pm.Eval = &score
		}
		res.Moves = append(res.Moves, pm)
	}
	return res, nil
}

// searchAfter returns the score of m for the side that plays it in p: the negated
// score of a fresh depth-limited search of the position after m.
func searchAfter(ctx context.Context, s *search.Searcher, v *engine.Variant, p engine.Position, m engine.Move, depth int) int {
	s.Clear()
	r := s.Search(ctx, engine.NewGame(v, p.Play(m)), search.Limits{Depth: depth})
	return backUp(r.Score)
}

// backUp turns a child's score into its parent's, counting one more ply to a win or
// loss.
func backUp(child int) int {
	score := -child
	switch {
	case score > search.MateScore-search.MaxWin:
		score--
	case score < -(search.MateScore - search.MaxWin):
		score++
	}
	return score
}

// PlayLine plays moves (in any notation the variant accepts, separated by spaces) from
// root and returns the position reached.
func PlayLine(v *engine.Variant, root engine.Position, moves string) (engine.Position, error) {
	g := engine.NewGame(v, root)
	for i, text := range strings.Fields(moves) {
		if _, err := g.PlayText(text); err != nil {
			return g.Position(), fmt.Errorf("book: ply %d: %w", i+1, err)
		}
	}
	return g.Position(), nil
}
