package board

import "fmt"

// KingRun is the state of Rules.KingMoveLimit for both sides: where the king that made a
// side's last moves stands, and how many non-capturing moves in a row it has made. A
// Position does not hold it, since it depends on the moves before; Game, the searcher and
// the PDN replayer carry it along. The zero value is the state at the start of a game.
type KingRun struct {
	at [2]Index
	n  [2]uint8
}

// Next returns the state after m is played in p.
func (r KingRun) Next(p *Position, m Move) KingRun {
	_, king, _ := p.At(m.From)
	return r.next(p.Side, m.From, m.To, king, m.IsCapture())
}

// next is Next for a move of side us from from to to, by a king or not, capturing or not
// (the facts Next reads from the position, apart from the board's representation).
func (r KingRun) next(us Color, from, to Index, king, capture bool) KingRun {
	switch {
	case capture || !king:
		r.n[us] = 0 // a capture, even by the same king, or a man's move frees the king
	case r.n[us] > 0 && r.at[us] == from:
		if r.n[us] < 255 {
			r.n[us]++
		}
	default:
		r.n[us] = 1
	}
	r.at[us] = to
	return r
}

// held reports whether the king-move limit holds a king of the side to move in p after r.
func (v *Variant) held(r KingRun, p *Position) bool {
	us := p.Side
	return v.KingMoveLimit > 0 && int(r.n[us]) >= v.KingMoveLimit && p.hasMen(us)
}

// blocked reports whether v's king-move limit forbids m in p after r: a quiet move by the
// king that has made KingMoveLimit quiet moves in a row, while its side still has men.
func (v *Variant) blocked(r KingRun, p *Position, m Move) bool {
	return v.held(r, p) && m.From == r.at[p.Side] && !m.IsCapture()
}

// restrict removes from moves, generated in p, those the king-move limit forbids after r.
// It filters in place. Callers advance r only in variants with a limit, so elsewhere this
// costs one comparison.
func (v *Variant) restrict(moves []Move, r KingRun, p *Position) []Move {
	if r.n[p.Side] == 0 {
		return moves
	}
	return v.restrictHeld(moves, r, p)
}

//go:noinline (the slow path: keeps restrict small enough to inline)
func (v *Variant) restrictHeld(moves []Move, r KingRun, p *Position) []Move {
	if !v.held(r, p) {
		return moves
	}
	out, at := moves[:0], r.at[p.Side]
	for _, m := range moves {
		if m.From != at || m.IsCapture() {
			out = append(out, m)
		}
	}
	return out
}

// CheckKingRun returns nil when the king-move limit allows m, a legal move of p, after r;
// otherwise a MoveError wrapping ErrIllegalMove that says which king is held.
func (v *Variant) CheckKingRun(r KingRun, p *Position, m Move) error {
	if !v.blocked(r, p, m) {
		return nil
	}
	return &MoveError{Text: v.formatRaw(m), Err: ErrIllegalMove, Detail: fmt.Sprintf(
		"the king on %s has made %d moves in a row; it must capture or another piece must move",
		v.SquareName(v.sq[m.From]), r.n[p.Side])}
}
