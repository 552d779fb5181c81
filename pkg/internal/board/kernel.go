package board

import "context"

// kernel is the part of a Variant that depends on the width of its board: move
// generation, perft, capture paths and the update of the draw state (the search has its
// own, in pkg/search/internal/core). NewVariant picks its implementation once:
// narrowKernel for a board of up to 64 bits, the generated wide instance (*wideVariant,
// wide.go) for a larger one. The public methods hand their work to it and never test the
// width themselves.
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
	playQuietOf(p Position, from, to Index) (Position, bool)
	playJumpOf(p Position, from, to Index) (Position, bool)
	movesFromToOf(dst []Move, p Position, from, to Index) []Move
	// advanceDrawOf turns d, the draw state of p, into that of c, where m leads from p.
	advanceDrawOf(d *drawState, p Position, m Move, c Position)
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

func (k narrowKernel) playQuietOf(p Position, from, to Index) (Position, bool) {
	ok := k.playQuiet(&p, from, to)
	return p, ok
}

// playQuiet is playQuietOf on *p in place (Variant.PlayQuiet): no copy of the position in
// and out.
func (k narrowKernel) playQuiet(p *Position, from, to Index) bool {
	v, us := k.v, p.Side
	if from < 64 && p.pieces[us]&^p.kings&bit(from) != 0 {
		// A man: quietMove's test with its steps from the table.
		t := bit(to) // (0 for an index past 63: no step)
		if v.steps[us][from]&t&^p.occupied() == 0 || k.hasCapture(p) {
			return false
		}
		// apply's work for a man's quiet move: no king, no capture (callgrind validate
		// -j 1 OCA: about 45 fewer instructions a move than apply).
		p.pieces[us] ^= bit(from) | t
		h := p.Hash ^ zobristSide ^ zobrist[us][0][from&63]
		if v.promo[us]&t != 0 {
			p.kings |= t
			h ^= zobrist[us][1][to&63]
		} else {
			h ^= zobrist[us][0][to&63]
		}
		p.Hash, p.Side = h, us.Other()
		return true
	}
	if t := bit(to); from < 64 && p.pieces[us]&p.kings&bit(from) != 0 && t != 0 {
		// A king: quietMove's test, and apply's work for a king's quiet move (callgrind
		// validate -j 1 OCA: about 300 fewer instructions a king's move).
		if occ := p.occupied(); occ&t != 0 || !v.kingReaches(from, to, occ) || k.hasCapture(p) {
			return false
		}
		p.pieces[us] ^= bit(from) | t
		p.kings ^= bit(from) | t
		p.Hash ^= zobristSide ^ zobrist[us][1][from&63] ^ zobrist[us][1][to&63]
		p.Side = us.Other()
		return true
	}
	m, ok := v.quietMove(p, from, to)
	if ok {
		p.apply(m) // (every index of a narrow board is below 64: play's test is not needed)
	}
	return ok
}

func (k narrowKernel) playJumpOf(p Position, from, to Index) (Position, bool) {
	ok := k.playJump(&p, from, to)
	return p, ok
}

// playJump is playJumpOf on *p in place (Variant.PlayJump), which it changes only when it
// reports true.
func (k narrowKernel) playJump(p *Position, from, to Index) bool {
	v, us, them := k.v, p.Side, p.Side.Other()
	up, down := v.manUp[us], v.manDown[us]
	// Men that capture one way only (up or down the board) along the diagonals, with free
	// choice among captures: every jump of a man goes two rows on the same way, so a
	// sequence that ends two rows from where it began is one jump, and the jump to to is
	// the only move from-to if the man cannot go on from to.
	if v.Precedence != nil || v.OrthogonalCaptures || up == down || v.crowned(p.pieces[them], p.kings) ||
		from >= 64 || to >= 64 || p.pieces[us]&^p.kings&bit(from) == 0 {
		return false
	}
	s, t := bit(from), bit(to)
	targets := p.pieces[them]
	if v.MenCannotCaptureKings {
		targets &^= p.kings
	}
	empty := v.board&^p.occupied() | s
	if t&empty == 0 {
		return false
	}
	// The jump onto to, with the shifts of capGen.manCaptures.
	a, b := v.step[upLeft]&63, v.step[upRight]&63
	var mid bitboard
	if up {
		if ((s>>a)&targets)>>a == t {
			mid = s >> a
		} else if ((s>>b)&targets)>>b == t {
			mid = s >> b
		}
	} else {
		if ((s<<b)&targets)<<b == t {
			mid = s << b
		} else if ((s<<a)&targets)<<a == t {
			mid = s << a
		}
	}
	if mid == 0 {
		return false
	}
	// The sequence ends on to (as capGen.manJump): crowned there and stopped, or no
	// capture of a man from to (the pieces it may capture are still ahead of it: the one
	// just taken is behind).
	promote := t&v.promo[us] != 0
	switch {
	case promote && v.Promotion == PromoteAndStop:
	case promote && v.Promotion != PromoteAtEnd:
		return false // crowned and goes on as a king
	default:
		targets &^= mid
		if v.RemoveAtOnce {
			empty |= mid
		}
		if up && (((t>>a)&targets)>>a&empty != 0 || ((t>>b)&targets)>>b&empty != 0) ||
			down && (((t<<b)&targets)<<b&empty != 0 || ((t<<a)&targets)<<a&empty != 0) {
			return false
		}
	}
	// apply's work for a man's jump: the man from-to (crowned or not), the piece on mid
	// taken.
	taken := 0 // man or king
	if p.kings&mid != 0 {
		taken = 1
	}
	h := p.Hash ^ zobristSide ^ zobrist[us][0][from&63] ^ zobrist[them][taken][mid.First()&63]
	if promote {
		p.kings |= t
		h ^= zobrist[us][1][to&63]
	} else {
		h ^= zobrist[us][0][to&63]
	}
	p.pieces[us] ^= s | t
	p.pieces[them] &^= mid
	p.kings &^= mid
	p.Hash, p.Side = h, them
	return true
}

// hasCapture is hasCaptureIn with perft's instance for the board's steps (see geometry).
// Men alone that capture along the diagonals are tested here, as perft's instance tests
// them, without its call (callgrind validate -j 1 OCA: about 60 fewer instructions a
// quiet move).
func (k narrowKernel) hasCapture(p *Position) bool {
	v, us := k.v, p.Side
	targets, empty, men, kings := p.pieces[us.Other()], v.board&^p.occupied(), p.pieces[us]&^p.kings, p.pieces[us]&p.kings
	if kings == 0 && !v.OrthogonalCaptures {
		if v.MenCannotCaptureKings {
			targets &^= p.kings
		}
		b := v.step[upRight] & 31 // (anySteps' steps)
		ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], b+1, b, targets, empty)
		return men&(ul|ur|dl|dr) != 0
	}
	switch v.fixedSteps {
	case 4:
		return perftKernel[steps4]{v}.hasCapture(us, targets, p.kings, empty, men, kings)
	case 5:
		if !v.plainFlying {
			return perftKernel[other5]{v}.hasCapture(us, targets, p.kings, empty, men, kings)
		}
		return perftKernel[steps5]{v}.hasCapture(us, targets, p.kings, empty, men, kings)
	case 6:
		return perftKernel[steps6]{v}.hasCapture(us, targets, p.kings, empty, men, kings)
	}
	return perftKernel[anySteps]{v}.hasCapture(us, targets, p.kings, empty, men, kings)
}

func (k narrowKernel) movesFromToOf(dst []Move, p Position, from, to Index) []Move {
	return k.v.movesFromTo(dst, &p, from, to)
}

func (k narrowKernel) advanceDrawOf(d *drawState, p Position, m Move, c Position) {
	AdvanceDraw(d, k.v, &p, m, &c)
}
