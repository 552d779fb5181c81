package board

import (
	"context"
	"sync/atomic"
	"unsafe"
)

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
	ok := k.v.replay.playQuiet(&p, from, to)
	return p, ok
}

// playQuietWide is Variant.PlayQuiet on a board of more than 64 bits, apart from it:
// PlayQuiet's frame then holds no Position.
func (v *Variant) playQuietWide(p *Position, from, to Index) bool {
	q, ok := v.k.playQuietOf(*p, from, to)
	if ok {
		*p = q
	}
	return ok
}

// geometry is the type parameter of the hot code of perft (perftKernel) and of the
// replay (replayKernel), an array type whose length is the board's up-right step, the
// up-left step being one more (see bitboard), plus fixedRules where the instance also
// knows the rules (see fixed): the compiler makes an instance of that code for each,
// with steps (and rules) it knows. anySteps, of length 0, reads them from the Variant
// instead. A geometry is added here, in the constraint and in geometries. The code reads
// the length as unsafe.Sizeof (the arrays are of bytes): the compiler folds Sizeof when
// it makes an instance, len only later, which left perft2 a boolean to test
// (docs/benchmarks.md, measured choices).
type geometry interface {
	anySteps | steps4 | steps5 | other5 | steps6
}

type (
	anySteps [0]byte              // any board: the steps are the Variant's
	steps4   [4]byte              // 8x8 boards (steps 5 and 4)
	steps5   [5 + fixedRules]byte // 10x10 boards (steps 6 and 5) under the rules of Variant.plainFlying
	other5   [5]byte              // the other 10x10 boards (steps 6 and 5)
	steps6   [6]byte              // 10x10 boards with orthogonal captures, 12x12 boards (steps 7 and 6)
)

// fixedRules, added to the length of a geometry, marks the one whose instance reads the
// rules of Variant.plainFlying as constants (see fixed). It is above every step.
const fixedRules = 16

// upRightStep returns the up-right step of G's boards, 0 for anySteps (a constant in each
// instance; perftKernel.steps and within write it out, as a generic call costs the kernel
// a check of a dictionary).
func upRightStep[G geometry]() uint {
	var g G
	return uint(unsafe.Sizeof(g) % fixedRules)
}

// fixed reports whether G's instance is the one of the rules of Variant.plainFlying
// (steps5), which perft's kernel reads as fixed[G]() || v.manUp[us],
// !fixed[G]() && v.MenCannotCaptureKings and so on: constants in that instance, whose
// tests of them the compiler leaves out (fewer instructions: docs/benchmarks.md,
// measured choices), the Variant's fields in the others. Only the functions of
// international's hot path read them so: elsewhere, the same reads moved the compiler's
// inlining and register choices in the other instances, which then ran more
// instructions.
func fixed[G geometry]() bool {
	var g G
	return unsafe.Sizeof(g) >= fixedRules
}

// geometryCode is the code of a geometry: its instances of the kernels.
type geometryCode struct {
	step  uint // its up-right step (upRightStep), 0 for anySteps
	fixed bool // fixed: its instance reads the rules of Variant.plainFlying as constants
	// replay returns replayKernel's instance for v (Variant.replay).
	replay func(v *Variant) replayer
	// perfter and widePerfter are newPerfterOf's instance and its wide twin's.
	perfter     func(v *Variant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) perftCounter
	widePerfter func(v *wideVariant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) widePerftCounter
}

// codeOf returns the code of the geometry G.
func codeOf[G geometry]() geometryCode {
	return geometryCode{
		step:        upRightStep[G](),
		fixed:       fixed[G](),
		replay:      func(v *Variant) replayer { return replayKernel[G]{v} },
		perfter:     newPerfterOf[G],
		widePerfter: wideNewPerfterOf[G],
	}
}

// geometries holds the code of each geometry (see geometryOf): the one place that maps a
// geometry to its kernels.
var geometries = [...]geometryCode{codeOf[anySteps](), codeOf[steps4](), codeOf[steps5](), codeOf[other5](), codeOf[steps6]()}

// geometryOf returns the geometry whose kernels serve the boards of up-right step step
// (see bitboard) under rules that are Variant.plainFlying's or not: the one of that step
// whose instance reads those rules as constants (fixed) for them, the other otherwise;
// anySteps when none has that step.
func geometryOf(step uint, plainFlying bool) *geometryCode {
	for i := range geometries {
		if g := &geometries[i]; g.step == step && g.fixed == plainFlying {
			return g
		}
	}
	return &geometries[0]
}

// perfterOf is newPerfter's perfter for v's geometry (wide twin: widePerfterOf).
func perfterOf(v *Variant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) perftCounter {
	return v.geom.perfter(v, dup, tt, depth, stop)
}

// replayer is replayKernel's instance for a board's geometry, which NewVariant picks once
// (Variant.replay): the code that plays a game's moves in place on a board of up to 64
// bits.
type replayer interface {
	playQuiet(p *Position, from, to Index) bool
	playJump(p *Position, from, to Index) bool
	playPath(p *Position, path wantedPath) bool
	playPairs(p *Position, ms []SquarePair) int
}

// replayKernel is the code that plays a game's moves in place on a board of up to 64
// bits (Variant.PlayQuiet, PlayJump, PlayPath, PlaySquares, PlaySquarePairs), with the
// board's diagonal steps given by G, as perftKernel has them (see geometry): the shifts
// of its capture tests are by constants. As in perft, steps5 serves only the rules of
// Variant.plainFlying, which its instance of perftKernel reads as constants (see fixed);
// the other 10x10 boards take other5.
type replayKernel[G geometry] struct{ v *Variant }

// playQuiet is Variant.PlayQuiet on a board of up to 64 bits, in place: quietMove's test
// and apply's work for a quiet move, without a Move. A side of men alone capturing along the diagonals, the commonest
// case, is played here without a call (a call would make the compiler keep the values
// across it on the stack); the rest in playQuietKings.
func (k replayKernel[G]) playQuiet(p *Position, from, to Index) bool {
	v := k.v
	if from|to >= 64 {
		return false // (not a square of the board)
	}
	from, to = from&63, to&63 // (spares the tables' bounds checks)
	us := p.Side & 1
	own, opp, kings := p.pieces[us], p.pieces[us^1], p.kings
	if own&kings != 0 || v.OrthogonalCaptures {
		return k.playQuietKings(p, from, to)
	}
	// A man: a step forward to a free square, from the table, and no capture, one
	// expression per direction.
	s, t := bitOf(from), bitOf(to)
	occ := own | opp
	if own&s == 0 || v.steps[us][from]&t&^occ == 0 {
		return false
	}
	if v.MenCannotCaptureKings {
		opp &^= kings
	}
	a, b := perftKernel[G](k).steps()
	ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], a, b, opp, v.board&^occ)
	if own&(ul|ur|dl|dr) != 0 {
		return false
	}
	h := p.Hash ^ zobristSide ^ zobrist[us][0][from] ^ zobrist[us][0][to]
	if v.promo[us]&t != 0 {
		p.kings = kings | t
		h ^= zobrist[us][0][to] ^ zobrist[us][1][to]
	}
	p.pieces[us] = own ^ (s | t)
	p.Hash, p.Side = h, us^1
	return true
}

// playQuietKings is playQuiet where the side to move has kings, or captures along the
// rows and columns (from and to below 64).
func (k replayKernel[G]) playQuietKings(p *Position, from, to Index) bool {
	v := k.v
	us := p.Side & 1
	s, t := bitOf(from), bitOf(to)
	own, kings := p.pieces[us], p.kings
	occ := own | p.pieces[us^1]
	if own&s == 0 {
		return false
	}
	if kings&s == 0 {
		// A man: a step forward to a free square, from the table, and no capture.
		if v.steps[us][from]&t&^occ == 0 || k.kingsCapture(us, own, p.pieces[us^1], kings, occ) {
			return false
		}
		h := p.Hash ^ zobristSide ^ zobrist[us][0][from] ^ zobrist[us][0][to]
		if v.promo[us]&t != 0 {
			p.kings = kings | t
			h ^= zobrist[us][0][to] ^ zobrist[us][1][to]
		}
		p.pieces[us] = own ^ (s | t)
		p.Hash, p.Side = h, us^1
		return true
	}
	// A king: one step any way (short kings), or along a free line (flying kings).
	if occ&t != 0 || !v.kingStep(from, to, occ) || k.kingsCapture(us, own, p.pieces[us^1], kings, occ) {
		return false
	}
	p.pieces[us] = own ^ (s | t)
	p.kings = kings ^ (s | t)
	p.Hash ^= zobristSide ^ zobrist[us][1][from] ^ zobrist[us][1][to]
	p.Side = us ^ 1
	return true
}

// kingStep reports whether a king on from, a square of the board, reaches to, a free
// square below index 64, in one quiet move over the free squares (occ the occupied ones):
// kingReaches on the tables of a board of up to 64 bits.
func (v *Variant) kingStep(from, to Index, occ bitboard) bool {
	t := bitOf(to)
	if v.ShortKings {
		return (v.steps[White][from&63]|v.steps[Black][from&63])&t != 0
	}
	for d := range 4 {
		if r := v.rays[d][from&63]; r&t != 0 {
			// the squares from from to to, to included: all free
			return r&^v.rays[d][to&63]&occ == 0
		}
	}
	return false
}

// kingsCapture reports whether the side to move, us, has a capture (playQuietKings'
// test): own its pieces, opp the other side's, kings the kings of both, occ
// the occupied squares. Kings that move one step are tested as men are, with one
// expression per diagonal; the rest is perftKernel's test.
func (k replayKernel[G]) kingsCapture(us Color, own, opp, kings, occ bitboard) bool {
	v := k.v
	empty, men, ownKings := v.board&^occ, own&^kings, own&kings
	if v.OrthogonalCaptures || !v.ShortKings {
		return perftKernel[G](k).hasCapture(us, opp, kings, empty, men, ownKings)
	}
	a, b := perftKernel[G](k).steps()
	manTargets := opp
	if v.MenCannotCaptureKings {
		manTargets &^= kings
	}
	ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], a, b, manTargets, empty)
	x := men & (ul | ur | dl | dr)
	ul, ur, dl, dr = jumpsAlong(true, true, a, b, opp, empty)
	return (x | ownKings&(ul|ur|dl|dr)) != 0
}

// playPairs is Variant.PlaySquarePairs on a board of up to 64 bits, with the instance
// for the board's steps chosen once for all the moves: PlaySquares of each move
// (playQuiet, playJump) in turn, up to the first it does not play.
func (k replayKernel[G]) playPairs(p *Position, ms []SquarePair) int {
	v := k.v
	for i := range ms {
		m := &ms[i]
		if m.From < 1 || m.To < 1 || int(m.From) > v.squares || int(m.To) > v.squares {
			return i
		}
		f, t := v.idx[m.From], v.idx[m.To]
		if m.Capture {
			if !k.playJump(p, f, t) {
				return i
			}
		} else if !k.playQuiet(p, f, t) {
			return i
		}
	}
	return len(ms)
}

// playJump is Variant.PlayJump on a board of up to 64 bits, in place: playPath of
// from-to, where v.jumpAlone is set, which does the one jump without playPath's loop
// (fewer instructions for pdn validate: docs/benchmarks.md, measured choices).
func (k replayKernel[G]) playJump(p *Position, from, to Index) bool {
	v := k.v
	if !v.jumpAlone || from|to >= 64 {
		return false // (or not a square of the board)
	}
	from, to = from&63, to&63
	us, them := p.Side&1, p.Side&1^1
	s, t := bitOf(from), bitOf(to)
	own, opp, kings := p.pieces[us], p.pieces[them], p.kings
	if own&^kings&s == 0 || v.crowned(opp, kings) {
		return false
	}
	targets := opp
	if v.MenCannotCaptureKings {
		targets &^= kings
	}
	empty := v.board&^(own|opp) | s
	if t&empty == 0 {
		return false
	}
	// The jump onto to.
	a, b := perftKernel[G](k).steps()
	up := v.manUp[us]
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
	// The sequence ends on to.
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
			!up && (((t<<b)&targets)<<b&empty != 0 || ((t<<a)&targets)<<a&empty != 0) {
			return false
		}
	}
	taken := 0 // man or king
	if kings&mid != 0 {
		taken = 1
	}
	h := p.Hash ^ zobristSide ^ zobrist[us][0][from] ^ zobrist[them][taken][mid.First()&63] ^ zobrist[us][0][to]
	if promote {
		kings |= t
		h ^= zobrist[us][0][to] ^ zobrist[us][1][to]
	}
	p.pieces[us] = own ^ (s | t)
	p.pieces[them] = opp &^ mid
	p.kings = kings &^ mid
	p.Hash, p.Side = h, them
	return true
}

// playPath is Variant.PlayPath on a board of up to 64 bits, in place: a man's capture
// given jump by jump, where v.jumpAlone is set. Men that capture one way only (up or down
// the board) along the diagonals, with free choice among captures: every jump of a man
// goes two rows on the same way, so a sequence that ends two rows from where it began is
// one jump, and the jump to to is the only move from-to if the man cannot go on from to;
// a path of several jumps gives the pieces taken. It plays the jumps one by one, with the
// shifts of capGen.manCaptures, and changes p only when it reports true. The path comes
// in an array (as IsPath's): a slice passed to an interface method escapes, and would
// cost the caller an allocation.
func (k replayKernel[G]) playPath(p *Position, want wantedPath) bool {
	v := k.v
	path := want.idx[:min(want.n, maxWantedPath)]
	if !v.jumpAlone || len(path) < 2 || path[0] >= 64 {
		return false
	}
	from := path[0] & 63
	us, them := p.Side&1, p.Side&1^1
	s := bitOf(from)
	own, opp, kings := p.pieces[us], p.pieces[them], p.kings
	if own&^kings&s == 0 || v.crowned(opp, kings) {
		return false
	}
	targets := opp
	if v.MenCannotCaptureKings {
		targets &^= kings
	}
	empty := v.board&^(own|opp) | s
	a, b := perftKernel[G](k).steps()
	up := v.manUp[us]
	h := p.Hash ^ zobristSide ^ zobrist[us][0][from]
	var taken bitboard // the pieces taken so far
	last := len(path) - 1
	for i := 1; i <= last; i++ {
		if path[i] >= 64 {
			return false
		}
		t := bitOf(path[i])
		if t&empty == 0 {
			return false
		}
		// The jump from s onto t.
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
		if kings&mid != 0 {
			h ^= zobrist[them][1][mid.First()&63]
		} else {
			h ^= zobrist[them][0][mid.First()&63]
		}
		taken |= mid
		targets &^= mid
		if v.RemoveAtOnce {
			empty |= mid
		}
		s = t // (a man on the row where it is crowned has no row ahead: its last jump)
	}
	// The sequence ends on s (as capGen.manJump): crowned there and stopped, or no
	// capture of a man from s (the pieces it may capture are still ahead of it: those
	// taken are behind).
	to := path[last] & 63
	promote := s&v.promo[us] != 0
	switch {
	case promote && v.Promotion == PromoteAndStop:
	case promote && v.Promotion != PromoteAtEnd:
		return false // crowned and goes on as a king
	default:
		if up && (((s>>a)&targets)>>a&empty != 0 || ((s>>b)&targets)>>b&empty != 0) ||
			!up && (((s<<b)&targets)<<b&empty != 0 || ((s<<a)&targets)<<a&empty != 0) {
			return false
		}
	}
	// apply's work for a man's capture: the man from-to (crowned or not), the pieces
	// taken.
	if promote {
		kings |= s
		h ^= zobrist[us][1][to]
	} else {
		h ^= zobrist[us][0][to]
	}
	p.pieces[us] = own ^ (bitOf(from) | s)
	p.pieces[them] = opp &^ taken
	p.kings = kings &^ taken
	p.Hash, p.Side = h, them
	return true
}

func (k narrowKernel) movesFromToOf(dst []Move, p Position, from, to Index) []Move {
	return k.v.movesFromTo(dst, &p, from, to)
}

func (k narrowKernel) advanceDrawOf(d *drawState, p Position, m Move, c Position) {
	AdvanceDraw(d, k.v, &p, m, &c)
}
