package core

import "github.com/rafle/rafle/pkg/internal/board"

// Tablebase is an endgame database as the search sees it: pkg/search wraps pkg/egdb's DB
// in one.
type Tablebase interface {
	// Probe returns the value of p for its side to move (1 a win, 0 a draw, -1 a loss)
	// and, for a win or a loss, the plies to the end of the game with best play (-1 when
	// the database does not hold them); ok is false when p is not in the database.
	Probe(p *board.Position) (value, plies int, ok bool)
}

// SetTablebase gives the searcher an endgame database that holds the positions of up to
// pieces pieces: below the root, such a position is scored from it instead of searched (a
// win in n plies from the root as MateScore-n, whatever the depth; a win without its
// distance as TBWin plus the position's evaluation, bounded by TBSpread; a draw as 0). A
// position that the database does not hold is searched. A nil tb or pieces 0 removes it.
func (s *Searcher) SetTablebase(tb Tablebase, pieces int) {
	if tb == nil {
		pieces = 0
	}
	s.k.setTablebase(tb, pieces)
}

func (s *searcher) setTablebase(tb Tablebase, pieces int) { s.tb, s.tbPieces = tb, pieces }

// probe returns the score at ply of p from the database, whether it is exact (a draw, or
// a win or loss with its distance), and false when p is not in the database.
func (s *searcher) probe(p *board.Position, ply int) (score int, exact, ok bool) {
	value, plies, ok := s.tb.Probe(p)
	if !ok {
		return 0, false, false
	}
	e := 0
	if value != 0 && plies < 0 {
		e = s.evaluate(p)
	}
	return tbScore(value, plies, ply, e), value == 0 || plies >= 0, true
}

// TBScore returns the score at ply of a position that the database values: value is 1, 0
// or -1 for the side to move, plies the distance to the end (-1 when unknown), e the
// position's evaluation (used only for a win or a loss without distance).
func TBScore(value, plies, ply, e int) int { return tbScore(value, plies, ply, e) }

// tbScore is TBScore.
func tbScore(value, plies, ply, e int) int {
	var score int
	switch {
	case value == 0:
		return 0
	case plies >= 0:
		score = MateScore - min(ply+plies, MaxWin-1)
	default:
		e = max(-(TBSpread - 1), min(TBSpread-1, e))
		if value > 0 {
			return TBWin + e
		}
		return -TBWin + e
	}
	if value < 0 {
		score = -score
	}
	return score
}
