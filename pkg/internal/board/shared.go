package board

// What the search (pkg/search/internal/core) needs of the representation, which it reads
// at full speed but may not name: the sets of squares, the positions' pieces, the moves
// generated in place, the draw state. They are package-level functions, not methods,
// so that none of them joins the API pkg/engine names through its type aliases. Each
// function of a Position, a Move or a Variant has a wide twin (WideApply, WideMoves, ...)
// generated with the hot code (widegen.conf), which the search's own generated wide
// instance calls; they are small enough to be inlined into it. A function that is
// inlined holds the body of the method it stands for rather than a call to it: an
// inlined call inside an inlined call leaves a NOP (an inline mark) in the caller
// (pkg/search ran more instructions so: docs/benchmarks.md, measured choices).

// Bitboard is the set of squares of a board of up to 64 bits (bit i is Index i), and Wide
// that of a larger board.
type (
	Bitboard = bitboard
	Wide     = wide
)

// WidePosition, WideMove and WideVariant are Position, Move and Variant on a board of
// more than 64 bits (wide.go).
type (
	WidePosition = widePosition
	WideMove     = wideMove
	WideVariant  = wideVariant
)

// DrawState is the state of the counted draw rules and of the king-move limit after some
// moves (the search keeps one per ply).
type DrawState = drawState

// NarrowIndices is the size of a table indexed by Index on a board of up to 64 bits;
// MaxIndex that on any board.
const (
	NarrowIndices = narrowIndices
	MaxIndex      = maxIndex
)

// Apply plays m on p in place.
func Apply(p *Position, m Move) { p.apply(m) }

// Moves appends the legal moves of p to dst, without the king-move limit (Restrict).
func Moves(v *Variant, dst []Move, p *Position) []Move {
	var g capGen
	return v.generate(&g, dst, p, Unique)
}

// Restrict removes from moves, generated in p, those the king-move limit forbids after d.
func Restrict(v *Variant, moves []Move, d *DrawState, p *Position) []Move {
	return v.restrict(moves, d.run, p)
}

// Held reports whether the king-move limit holds a king of the side to move in p after d.
func Held(v *Variant, d *DrawState, p *Position) bool { return v.held(d.run, p) }

// HasMoves reports whether the side to move in p has a legal move (the king-move limit
// aside).
func HasMoves(v *Variant, p *Position) bool { return v.hasMoves(p) }

// HasCapture reports whether the side to move in p has a capture.
func HasCapture(v *Variant, p *Position) bool { return v.hasCaptureIn(p) }

// HasQuiet reports whether the side to move in p has a quiet move: HasMoves for a
// position without a capture, without looking for the capture again. A man has one when
// a square in front of it is free, a king when a square next to it is.
func HasQuiet(v *Variant, p *Position) bool {
	if v.Orthogonal {
		return v.countQuiet(p) > 0
	}
	us := p.Side
	empty := v.board &^ p.occupied()
	if v.countMenQuiet(us, empty, p.men(us)) > 0 {
		return true
	}
	kings := p.kingsOf(us)
	if kings == 0 {
		return false
	}
	for d := 0; d < 4; d++ {
		if v.sh(kings, d)&empty != 0 {
			return true
		}
	}
	return false
}

// Crowned reports whether the side that just moved in p has won by crowning a man
// (Rules.PromotionWins): the side to move then has no move.
func Crowned(v *Variant, p *Position) bool {
	return v.PromotionWins && p.pieces[p.Side.Other()]&p.kings != 0
}

// AdvanceDraw turns d, the draw state of p, into that of c, where m leads from p. It
// works in place: Game keeps one state, the search one per ply.
func AdvanceDraw(d *DrawState, v *Variant, p *Position, m Move, c *Position) {
	capture, king := m.captures(), p.kings.Has(m.From)
	if v.KingMoveLimit > 0 {
		d.run = d.run.next(p.Side, m.From, m.To, king, capture)
	}
	if capture {
		d.noCapture, d.kingMoves = 0, 0
	} else {
		d.noCapture++
		if king {
			d.kingMoves++
		} else {
			d.kingMoves = 0
		}
	}
	if len(v.Draw.Endgames) > 0 {
		if capture || m.Promotes() {
			d.endings(&v.Rules, p.Side, c.material())
		} else {
			d.countEndings(&v.Rules, p.Side) // the material, and so each condition, is unchanged
		}
	}
}

// Drawn reports whether a counted draw rule of r holds after d (repetitions are checked
// apart).
func Drawn(d *DrawState, r *Rules) bool { return d.drawn(r) }

// Irreversible reports whether m (played in p) can never be undone: a capture or a man
// move.
func Irreversible(p *Position, m Move) bool { return m.captured != 0 || !p.kings.Has(m.From) }

// GameState returns the draw state of g's current position.
func GameState(g *Game) DrawState { return g.draw }

// ReversibleHashes appends to dst[:0] the hashes of g's positions since its last
// irreversible move (a capture or a man's move), the positions a later one may repeat.
// The draw state already counts the plies since that move: kingMoves, the king moves in
// a row without a capture.
func ReversibleHashes(g *Game, dst []uint64) []uint64 {
	dst = dst[:0]
	for _, p := range g.positions[len(g.positions)-1-g.draw.kingMoves:] {
		dst = append(dst, p.Hash)
	}
	return dst
}

// Captured returns the pieces m captures.
func Captured(m Move) bitboard { return m.captured }

// Kings returns the kings of both sides in p.
func Kings(p *Position) bitboard { return p.kings }

// Men returns c's men in p.
func Men(p *Position, c Color) bitboard { return p.pieces[c] &^ p.kings }

// KingsOf returns c's kings in p.
func KingsOf(p *Position, c Color) bitboard { return p.pieces[c] & p.kings }

// Occupied returns the squares of p that hold a piece.
func Occupied(p *Position) bitboard { return p.pieces[White] | p.pieces[Black] }

// Bit returns the set of index i alone.
func Bit(i Index) bitboard { return 1 << i }

// Board returns the squares of v's board.
func Board(v *Variant) bitboard { return v.board }

// Promo returns the row where c's men are crowned.
func Promo(v *Variant, c Color) bitboard { return v.promo[c] }

// Shift moves every square of b one step in direction d (0-3: the diagonals; 4-7 along the
// rows and columns: see KingDirs), dropping those that leave the board.
func Shift(v *Variant, b bitboard, d int) bitboard { return v.sh(b, d) & v.board }

// CountMenQuiet returns the number of quiet moves of c's men (men) onto the free squares
// empty.
func CountMenQuiet(v *Variant, c Color, empty, men bitboard) int {
	if v.Orthogonal {
		return v.countQuietLines(c, empty, men, 0) // forward and sideways
	}
	return menQuiet(c, v.step[upLeft]&63, v.step[upRight]&63, empty, men)
}

// KingDirs returns the directions kings move in, for Shift, as consecutive numbers: 0-3
// (the diagonals), 4-7 on an Orthogonal board (the rows and columns), 0-7 with
// DiagonalSteps.
func KingDirs(v *Variant) []int { return v.kingDirs }

// UpSteps returns the shifts of one step up-left and up-right on v's board: men of White
// move to lower indices, by these amounts.
func UpSteps(v *Variant) (left, right uint) { return v.step[upLeft] & 63, v.step[upRight] & 63 }

// Coords returns the file (from 0) and the rank (1: White's back row) of square s.
func Coords(v *Variant, s Square) (file, rank int) { return v.coords(s) }
