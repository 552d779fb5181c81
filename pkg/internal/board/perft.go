package board

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// perftKernel is the code of perft's last two plies and of the leaf count, with the board's
// diagonal steps given by G (see geometry): the compiler makes an instance of it for each
// geometry, in which the shifts by a step are shifts by a constant, cheaper than those by
// a variable. The Variant's methods of the same names are its instance for any board.
type perftKernel[G geometry] struct{ v *Variant }

// steps returns the up-left and the up-right step (see bitboard): the one of G
// (upRightStep, written out: a call of a generic function costs the kernel a check of a
// dictionary), or the Variant's for anySteps.
func (k perftKernel[G]) steps() (a, b uint) {
	var g G
	b = uint(unsafe.Sizeof(g) % fixedRules)
	if b == 0 {
		b = k.v.step[upRight] & 31 // below 32 on any board of 80 bits: spares the shifts their check
	}
	return b + 1, b
}

// promotionOf is v.Promotion, a constant when fixed (fixed[G]() of the caller's steps G).
// It is not generic itself: a generic function called from the kernel costs it a check
// of a dictionary.
func promotionOf(fixed bool, v *Variant) Promotion {
	if fixed {
		return PromoteAtEnd
	}
	return v.Promotion
}

// menCountOf is v.menCount, a constant when fixed (see promotionOf).
func menCountOf(fixed bool, v *Variant) menRanks {
	if fixed {
		return ranksPieces
	}
	return v.menCount
}

// HasCapture reports whether the side to move in p has a capture.
func (v *Variant) HasCapture(p *Position) bool {
	if v.PromotionWins && p.Material().Kings[p.Side.Other()] > 0 {
		return false // the game is over (see Rules.PromotionWins)
	}
	return v.k.hasCaptureOf(*p)
}

// hasCaptureIn is HasCapture on the board's own representation.
func (v *Variant) hasCaptureIn(p *Position) bool {
	us := p.Side
	return perftKernel[anySteps]{v}.hasCapture(us, p.pieces[us.Other()], p.kings, v.board&^p.occupied(), p.pieces[us]&^p.kings, p.pieces[us]&p.kings)
}

// hasCapture is HasCapture with the position given as its boards (us to move, the other
// side's pieces targets, the kings of both sides allKings), the free squares and the
// mover's men and kings.
func (k perftKernel[G]) hasCapture(us Color, targets, allKings, empty, men, kings bitboard) bool {
	v := k.v
	if men != 0 {
		manTargets := targets
		if v.MenCannotCaptureKings {
			manTargets &^= allKings
		}
		a, b := k.steps()
		ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], a, b, manTargets, empty)
		if men&(ul|ur|dl|dr) != 0 {
			return true
		}
		if v.OrthogonalCaptures {
			for _, d := range v.manDirs[us] {
				back := opposite(d)
				if d >= left && men&v.sh(manTargets&v.sh(empty, back), back) != 0 {
					return true
				}
			}
		}
	}
	if kings == 0 {
		return false
	}
	if v.ShortKings {
		for _, d := range v.capDirs {
			back := opposite(d)
			if kings&v.sh(targets&v.sh(empty, back), back) != 0 {
				return true
			}
		}
		return false
	}
	if !v.OrthogonalCaptures {
		return k.kingsTake(kings, targets, empty)
	}
	for ; kings != 0; kings &= kings - 1 {
		i := kings.First()
		for _, d := range v.capDirs {
			if _, x := v.ray(i, d, empty); x&targets != 0 && v.sh(x, d)&empty != 0 {
				return true
			}
		}
	}
	return false
}

// countQuiet returns the number of non-capturing moves of p.
func (v *Variant) countQuiet(p *Position) int {
	us := p.Side
	if v.Orthogonal {
		return v.countQuietLines(us, v.board&^p.occupied(), p.pieces[us]&^p.kings, p.pieces[us]&p.kings)
	}
	return perftKernel[anySteps]{v}.countQuietOf(us, v.board&^p.occupied(), p.pieces[us]&^p.kings, p.pieces[us]&p.kings)
}

// countQuietOf counts the quiet moves of us's men and kings over the free squares.
func (k perftKernel[G]) countQuietOf(us Color, empty, men, kings bitboard) int {
	v := k.v
	a, b := k.steps()
	n := menQuiet(us, a, b, empty, men)
	if kings == 0 {
		return n
	}
	if v.ShortKings {
		for d := 0; d < 4; d++ {
			n += (v.sh(kings, d) & empty).Count()
		}
		return n
	}
	return n + k.kingsQuiet(kings, empty)
}

// countQuietLines is countQuietOf on an Orthogonal board: the men's steps forward and
// sideways, the kings' moves along the rows and columns.
func (v *Variant) countQuietLines(us Color, empty, men, kings bitboard) int {
	n := 0
	for _, d := range v.stepDirs[us] {
		n += (v.sh(men, d) & empty).Count()
	}
	for ; kings != 0; kings &= kings - 1 {
		i := kings.First()
		for _, d := range v.kingDirs {
			free, _ := v.ray(i, d, empty)
			n += free.Count()
		}
	}
	return n
}

// countMenQuiet counts the quiet moves of us's men over the free squares.
func (v *Variant) countMenQuiet(us Color, empty, men bitboard) int {
	return menQuiet(us, v.step[upLeft]&63, v.step[upRight]&63, empty, men)
}

// menQuiet is countMenQuiet on a board of up-left step a and up-right step b. It is small
// enough to be inlined into the leaf count (see jumpsAlong): keep it so.
func menQuiet(us Color, a, b uint, empty, men bitboard) int {
	if us == White {
		return ((men >> a) & empty).Count() + ((men >> b) & empty).Count()
	}
	return ((men << a) & empty).Count() + ((men << b) & empty).Count()
}

// Count returns the number of legal moves of p under the given duplicate convention,
// without generating the quiet ones.
func (v *Variant) Count(p *Position, dup Duplicates, scratch []Move) int {
	return v.k.countOf(*p, dup, scratch)
}

func (v *Variant) count(g *capGen, p *Position, dup Duplicates, scratch []Move) int {
	if v.Orthogonal || dup == Paths {
		return len(v.generate(g, scratch[:0], p, dup)) // (perft's kernel knows neither)
	}
	us := p.Side
	return perftKernel[anySteps]{v}.countBoards(g, us, p.pieces[us], p.pieces[us.Other()], p.kings, dup, scratch)
}

// countBoards is count with the position given as its boards: us to move, own and opp the
// pieces of us and of the other side, allKings the kings of both. Perft calls it at the
// second-to-last ply with a child's boards, without writing the child.
func (k perftKernel[G]) countBoards(g *capGen, us Color, own, opp, allKings bitboard, dup Duplicates, scratch []Move) int {
	v := k.v
	if v.crowned(opp, allKings) {
		return 0
	}
	empty := v.board &^ (own | opp)
	men, kings := own&^allKings, own&allKings
	if kings == 0 {
		targets := opp
		if v.MenCannotCaptureKings {
			targets &^= allKings
		}
		if v.menCount != ranksOther {
			a, b := k.steps()
			ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], a, b, targets, empty)
			// countMen's most frequent cases inline: no capture, or none that goes on
			// after its first jump (docs/benchmarks.md, measured choices)
			mul, mur, mdl, mdr := ul&men, ur&men, dl&men, dr&men
			if mul|mur|mdl|mdr == 0 {
				return menQuiet(us, a, b, empty, men)
			}
			if ends := k.menEnds(us, ul|ur|dl|dr); mul&(ends<<a<<a)|mur&(ends<<b<<b)|mdl&(ends>>b>>b)|mdr&(ends>>a>>a) == 0 {
				return mul.Count() + mur.Count() + mdl.Count() + mdr.Count()
			}
			return k.countMen(us, targets, empty, men, ul, ur, dl, dr, dup, scratch)
		}
		if n, ok := k.countSingleJumps(us, targets, allKings, empty, men); ok {
			if n > 0 {
				return n
			}
			a, b := k.steps()
			return menQuiet(us, a, b, empty, men)
		}
	} else if n, ok, searched := k.countQuietKings(us, opp, allKings, empty, men, kings); ok {
		return n
	} else if v.kingSearch {
		if searched == 0 {
			// Only the men capture: they are counted as when us has no kings, the kings
			// being in their way only (docs/benchmarks.md, measured choices).
			targets := opp
			if v.MenCannotCaptureKings {
				targets &^= allKings
			}
			a, b := k.steps()
			ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], a, b, targets, empty)
			return k.countMen(us, targets, empty, men, ul, ur, dl, dr, dup, scratch)
		}
		var c manSearch[G]
		k.searchInto(&c, us, opp, allKings, empty, own, searched, dup, scratch[:0], false)
		return c.n
	}
	return k.countGenerated(g, us, own, opp, allKings, dup, scratch)
}

// countGenerated is countBoards by generating the moves.
func (k perftKernel[G]) countGenerated(g *capGen, us Color, own, opp, allKings bitboard, dup Duplicates, scratch []Move) int {
	var p Position
	p.pieces[us], p.pieces[us.Other()], p.kings, p.Side = own, opp, allKings, us
	return len(k.v.generate(g, scratch[:0], &p, dup))
}

// countMen counts the moves of us's men when us has no kings and v.menCount is not
// ranksOther: targets are the pieces they may take, ul, ur, dl and dr the diagonal jumps
// over them (diagonalJumps).
func (k perftKernel[G]) countMen(us Color, targets, empty, men, ul, ur, dl, dr bitboard, dup Duplicates, scratch []Move) int {
	v := k.v
	a, b := k.steps()
	// Diagonal captures ranked by their number of pieces at most. A man that jumps from f
	// over m onto l can go on from l exactly in the directions in which a man on l could
	// jump before the move: the squares such a jump needs are not f, m or l, but for the
	// jump back over m, which is taken already (and which the board before the move
	// forbids too, f not being free). So the men that go on are those that land in jumps.
	jumps := ul | ur | dl | dr
	ul, ur, dl, dr = ul&men, ur&men, dl&men, dr&men
	if ul|ur|dl|dr == 0 {
		return menQuiet(us, a, b, empty, men)
	}
	ends := k.menEnds(us, jumps)
	gul, gur, gdl, gdr := ul&(ends<<a<<a), ur&(ends<<b<<b), dl&(ends>>b>>b), dr&(ends>>a>>a)
	if gul|gur|gdl|gdr == 0 {
		// every single jump is a move: there is no other
		return ul.Count() + ur.Count() + dl.Count() + dr.Count()
	}
	if menCountOf(fixed[G](), v) == ranksNone {
		// every single jump is a move too: the precedence ranks none above another
		n := (ul &^ gul).Count() + (ur &^ gur).Count() + (dl &^ gdl).Count() + (dr &^ gdr).Count()
		return n + k.countManCaptures(us, targets, empty, gul, gur, gdl, gdr, dup, scratch)
	}
	// A return per case, and countMostMen called from here, not from countManCaptures,
	// whose arguments go on the stack, past the registers (docs/benchmarks.md, measured choices)
	if menCountOf(fixed[G](), v) == ranksPieces && (fixed[G]() || v.manUp[us]) && (fixed[G]() || v.manDown[us]) && promotionOf(fixed[G](), v) != PromoteAndStop {
		if n, ok := k.countMostMen(targets, empty, gul, gur, gdl, gdr, dup); ok {
			return n
		}
	}
	return k.countManCaptures(us, targets, empty, gul, gur, gdl, gdr, dup, scratch)
}

// menEnds returns the squares from which us's men could jump on in a capture: the diagonal
// jumps (jumpsAlong) but on the squares where a man is crowned and the move ends (see
// countMen).
func (k perftKernel[G]) menEnds(us Color, jumps bitboard) bitboard {
	if promotionOf(fixed[G](), k.v) == PromoteAndStop {
		return jumps &^ k.v.promo[us]
	}
	return jumps
}

// countSingleJumps counts the captures of us's men (us has no kings; targets are the
// pieces they may take, allKings the kings of both sides) when none of them can go on after its first jump, which is most often the
// case: every capture is then one jump, a move of its own under either duplicate
// convention. ok is false when some jump might go on, or when a man might take a king and
// the precedence ranks that apart: the caller counts the captures otherwise.
func (k perftKernel[G]) countSingleJumps(us Color, targets, allKings, empty, men bitboard) (n int, ok bool) {
	v := k.v
	a, b := k.steps()
	ul, ur, dl, dr := jumpsAlong(v.manUp[us], v.manDown[us], a, b, targets, empty)
	jumps := ul | ur | dl | dr
	var orth [8]bitboard // the same along rows and columns (frisian)
	if v.OrthogonalCaptures {
		for _, d := range v.manDirs[us] {
			if back := opposite(d); d >= left {
				orth[d] = v.sh(targets&v.sh(empty, back), back)
				jumps |= orth[d]
			}
		}
	}
	if men&jumps == 0 {
		return 0, true
	}
	// A man that jumps from f over m onto l can go on from l exactly in the directions in
	// which a man on l could jump before the move: the squares such a jump needs are not f,
	// m or l, but for the jump back over m, which is taken already (and which the board
	// before the move forbids too, f not being free). So no capture goes on when no
	// landing square is in jumps.
	ul, ur, dl, dr = ul&men, ur&men, dl&men, dr&men
	n = ul.Count() + ur.Count() + dl.Count() + dr.Count()
	mids := ul>>a | ur>>b | dl<<b | dr<<a
	lands := ul>>(2*a) | ur>>(2*b) | dl<<(2*b) | dr<<(2*a)
	if v.OrthogonalCaptures {
		for d := left; d <= right; d++ {
			j := orth[d] & men
			n += j.Count()
			mids |= v.sh(j, d)
			lands |= v.sh(v.sh(j, d), d)
		}
	}
	if v.Promotion == PromoteAndStop {
		lands &^= v.promo[us] // crowned there, the move ends
	} else if v.Promotion == PromoteAndContinue && lands&v.promo[us] != 0 {
		return 0, false // crowned there, it may go on as a king
	}
	if lands&jumps != 0 || (v.kingJumpRanked && mids&allKings != 0) {
		return 0, false
	}
	return n, true
}

// manSearch is the search of men's captures of perft, when men capture diagonally, a man
// that reaches the far row is crowned at the end of the move or stops there, and the
// precedence ranks captures by their number of pieces at most (Variant.menCount): it
// counts the complete sequences the precedence allows, and lists them when asked.
type manSearch[G geometry] struct {
	targets, empty, promo bitboard
	up, down              bool     // men capture up the board, down the board
	stop                  bool     // a man that reaches the far row stops there (PromoteAndStop)
	most                  bool     // only the sequences that take the most pieces count
	unique                bool     // sequences that differ in order only count once
	list                  bool     // every sequence counted is written in moves
	opp                   bitboard // the pieces kings may take
	king                  bool     // the piece that captures is a king
	from                  Index
	best, n               int
	// moves holds from base on the sequences written: every one counted (list), or those
	// of four pieces or more (unique), the only ones that can come twice.
	moves []Move
	base  int
	// taken has the bit (takenBit) of each sequence written since base that might come
	// twice (see add): one whose bit is not in it repeats none of them.
	taken uint64
	k     perftKernel[G]

	// jumps: the squares from which the king searched can capture along each diagonal
	// (kingJumps)
	jumps [4]bitboard
}

// searchMen returns a manSearch of us's men, which take targets, that writes to moves.
func (k perftKernel[G]) searchMen(us Color, targets bitboard, dup Duplicates, moves []Move, list bool) manSearch[G] {
	v := k.v
	return manSearch[G]{
		targets: targets, promo: v.promo[us],
		up: v.manUp[us], down: v.manDown[us],
		stop: v.Promotion == PromoteAndStop, most: v.menCount == ranksPieces, unique: dup == Unique,
		list: list, moves: moves, base: len(moves), k: k,
	}
}

// countManCaptures returns the number of captures of us's men under v.menCount, which must
// not be ranksOther, found by a manSearch (where countMostMen cannot count them): targets
// are the pieces they may take, empty the free squares, ul, ur, dl and dr the men that
// jump along each diagonal. scratch is space for the long sequences of the unique
// convention.
func (k perftKernel[G]) countManCaptures(us Color, targets, empty, ul, ur, dl, dr bitboard, dup Duplicates, scratch []Move) int {
	c := k.searchMen(us, targets, dup, scratch[:0], false)
	c.run(empty, ul, ur, dl, dr)
	return c.n
}

// countMostMen counts the captures of the men ul, ur, dl and dr as countManCaptures, when
// the precedence ranks captures by their number of pieces, men capture up and down the
// board and are crowned at the end of a move only, but without a manSearch: each man's captures are counted by mostJumps, which keeps its state
// in registers and builds no move (fewer instructions: docs/benchmarks.md, measured choices). ok is false when the captures that count take four pieces or more
// and dup is Unique: some may then take the same pieces in another order, which only the
// manSearch, listing them, finds.
func (k perftKernel[G]) countMostMen(targets, empty, ul, ur, dl, dr bitboard, dup Duplicates) (n int, ok bool) {
	a, b := k.steps()
	// Sequences of two jumps, found for all the men at once. The men's first jumps land on
	// lul, lur, ldl and ldr, from which they go on (countMen). The second jump may not go
	// back, and neither it nor a third takes the piece of the first or lands on the man's
	// square, which only a sequence of four jumps can: so the diagonal jumps over the
	// board as it stands (jumpsAlong) are those of the second and the third jump. When no
	// second jump can go on, every capture that counts takes two pieces, and they are
	// counted by direction (a square may be reached from two directions). On 128-bit boards
	// the sets cost twice as much (docs/benchmarks.md, measured choices).
	if unsafe.Sizeof(ul) == 8 {
		jul, jur, jdl, jdr := jumpsAlong(true, true, a, b, targets, empty)
		lul, lur, ldl, ldr := ul>>a>>a, ur>>b>>b, dl<<b<<b, dr<<a<<a
		sul, sur, sdl, sdr := (lul|lur|ldl)&jul, (lul|lur|ldr)&jur, (lul|ldl|ldr)&jdl, (lur|ldl|ldr)&jdr
		if sul>>a>>a&(jul|jur|jdl)|sur>>b>>b&(jul|jur|jdr)|sdl<<b<<b&(jul|jdl|jdr)|sdr<<a<<a&(jur|jdl|jdr) == 0 {
			if (lul|lur)&(ldl|ldr)|lul&lur|ldl&ldr == 0 {
				// no square reached by two first jumps (most often): a popcount per
				// direction of the second jump
				return sul.Count() + sur.Count() + sdl.Count() + sdr.Count(), true
			}
			n = (lul & jul).Count() + (lur & jul).Count() + (ldl & jul).Count() +
				(lul & jur).Count() + (lur & jur).Count() + (ldr & jur).Count() +
				(lul & jdl).Count() + (ldl & jdl).Count() + (ldr & jdl).Count() +
				(lur & jdr).Count() + (ldl & jdr).Count() + (ldr & jdr).Count()
			return n, true
		}
	}
	most := 0
	for ; ul != 0; ul &= ul - 1 {
		from := ul & -ul
		m, c := k.mostJumps(from>>a>>a, from>>a, targets, empty|from)
		most, n = more(most, n, m+1, c)
	}
	for ; ur != 0; ur &= ur - 1 {
		from := ur & -ur
		m, c := k.mostJumps(from>>b>>b, from>>b, targets, empty|from)
		most, n = more(most, n, m+1, c)
	}
	for ; dl != 0; dl &= dl - 1 {
		from := dl & -dl
		m, c := k.mostJumps(from<<b<<b, from<<b, targets, empty|from)
		most, n = more(most, n, m+1, c)
	}
	for ; dr != 0; dr &= dr - 1 {
		from := dr & -dr
		m, c := k.mostJumps(from<<a<<a, from<<a, targets, empty|from)
		most, n = more(most, n, m+1, c)
	}
	return n, most < 4 || dup == Keep
}

// mostJumps returns the most pieces a man on s, which has taken those of captured and
// captures up and down the board, can take on over the free squares empty (0 when it can
// take none), and the number of sequences that take as many. Like manSearch.jump, it
// follows one way on in a loop and calls itself where a sequence branches.
func (k perftKernel[G]) mostJumps(s, captured, targets, empty bitboard) (most, n int) {
	a, b := k.steps()
	taken := 0 // since s
	for {
		t := targets &^ captured
		ul, ur := ((s>>a)&t)>>a&empty, ((s>>b)&t)>>b&empty
		dl, dr := ((s<<b)&t)<<b&empty, ((s<<a)&t)<<a&empty
		if ul|ur|dl|dr == 0 {
			break
		}
		taken++
		if ul != 0 {
			if ur|dl|dr == 0 {
				s, captured = ul, captured|ul<<a
				continue
			}
			m, c := k.mostJumps(ul, captured|ul<<a, targets, empty)
			most, n = more(most, n, taken+m, c)
		}
		if ur != 0 {
			if dl|dr == 0 {
				s, captured = ur, captured|ur<<b
				continue
			}
			m, c := k.mostJumps(ur, captured|ur<<b, targets, empty)
			most, n = more(most, n, taken+m, c)
		}
		if dl != 0 {
			if dr == 0 {
				s, captured = dl, captured|dl>>b
				continue
			}
			m, c := k.mostJumps(dl, captured|dl>>b, targets, empty)
			most, n = more(most, n, taken+m, c)
		}
		s, captured = dr, captured|dr>>a
	}
	return more(most, n, taken, 1)
}

// more returns the most pieces taken and the number of sequences that take as many, of
// those of most and n and the c that take m.
func more(most, n, m, c int) (int, int) {
	if m > most {
		return m, c
	}
	if m == most {
		n += c
	}
	return most, n
}

// menCaptures appends the captures of us's men to dst, as Generate would list them but
// in another order, and returns the extended slice. us has no kings and v.menCount is not
// ranksOther; targets are the pieces the men may take, empty the free squares, ul, ur, dl
// and dr the diagonal jumps over them (jumpsAlong).
//
// As in countMen, only the men whose first jump goes on are searched; the others' single
// jumps are written here, when they count (searching every man ran more instructions:
// docs/benchmarks.md, measured choices).
func (k perftKernel[G]) menCaptures(us Color, targets, empty, men, ul, ur, dl, dr bitboard, dup Duplicates, dst []Move) []Move {
	v := k.v
	a, b := k.steps()
	jumps := ul | ur | dl | dr
	ul, ur, dl, dr = ul&men, ur&men, dl&men, dr&men
	ends := k.menEnds(us, jumps)
	gul, gur, gdl, gdr := ul&(ends<<a<<a), ur&(ends<<b<<b), dl&(ends>>b>>b), dr&(ends>>a>>a)
	if g := gul | gur | gdl | gdr; menCountOf(fixed[G](), v) == ranksNone || g == 0 {
		// every single jump is a move: the precedence ranks none above another, or there
		// is no other
		promo := v.promo[us]
		for f := ul &^ gul; f != 0; f &= f - 1 {
			from := f & -f
			to := from >> a >> a
			dst = append(dst, Move{From: from.First(), To: to.First(), flags: promotes(to&promo != 0), captured: from >> a})
		}
		for f := ur &^ gur; f != 0; f &= f - 1 {
			from := f & -f
			to := from >> b >> b
			dst = append(dst, Move{From: from.First(), To: to.First(), flags: promotes(to&promo != 0), captured: from >> b})
		}
		for f := dl &^ gdl; f != 0; f &= f - 1 {
			from := f & -f
			to := from << b << b
			dst = append(dst, Move{From: from.First(), To: to.First(), flags: promotes(to&promo != 0), captured: from << b})
		}
		for f := dr &^ gdr; f != 0; f &= f - 1 {
			from := f & -f
			to := from << a << a
			dst = append(dst, Move{From: from.First(), To: to.First(), flags: promotes(to&promo != 0), captured: from << a})
		}
		if g == 0 {
			// a return of its own, not the search's (docs/benchmarks.md, measured choices)
			return dst
		}
	}
	c := k.searchMen(us, targets, dup, dst, true)
	c.run(empty, gul, gur, gdl, gdr)
	return c.moves
}

// run searches the captures of the men ul, ur, dl and dr that jump along each diagonal
// over the free squares empty.
func (c *manSearch[G]) run(empty, ul, ur, dl, dr bitboard) {
	a, b := c.k.steps()
	for ; ul != 0; ul &= ul - 1 {
		from := ul & -ul
		c.start(from, empty, from>>a, from>>a>>a)
	}
	for ; ur != 0; ur &= ur - 1 {
		from := ur & -ur
		c.start(from, empty, from>>b, from>>b>>b)
	}
	for ; dl != 0; dl &= dl - 1 {
		from := dl & -dl
		c.start(from, empty, from<<b, from<<b<<b)
	}
	for ; dr != 0; dr &= dr - 1 {
		from := dr & -dr
		c.start(from, empty, from<<a, from<<a<<a)
	}
}

// start searches the sequences of the man on from that begin with the jump over mid onto
// land.
func (c *manSearch[G]) start(from, empty, mid, land bitboard) {
	c.from, c.king = from.First(), false
	c.empty = empty | from
	c.jump(land, mid, 1)
}

// jump searches the sequences that go on from s, the man having taken the k pieces of
// captured. The jump back needs no test: the piece it would take is in captured.
//
// It follows a sequence in a loop while it has one way on, and calls itself only where
// it branches: Go's calls save no register, so that each return of a call per jump
// reloaded the search's state from memory. On 128-bit boards the loop's state does not
// fit the registers, and a call per jump is cheaper (docs/benchmarks.md, measured choices).
func (c *manSearch[G]) jump(s, captured bitboard, k int) {
	if unsafe.Sizeof(s) > 8 {
		c.jumpEach(s, captured, k)
		return
	}
	a, b := c.k.steps()
	fx := fixed[G]() // (steps5: men capture up and down the board, and none stops on the far row)
	targets, empty, up, down := c.targets, c.empty, fx || c.up, fx || c.down
	for fx || !c.stop || s&c.promo == 0 {
		t := targets &^ captured
		var ul, ur, dl, dr bitboard // the square it lands on, jumping along each diagonal
		if up {
			ul, ur = ((s>>a)&t)>>a&empty, ((s>>b)&t)>>b&empty
		}
		if down {
			dl, dr = ((s<<b)&t)<<b&empty, ((s<<a)&t)<<a&empty
		}
		if ul|ur|dl|dr == 0 {
			break
		}
		// the ways on in order, all but the last searched by a call, the last by the loop
		k++
		if ul != 0 {
			if ur|dl|dr == 0 {
				s, captured = ul, captured|ul<<a
				continue
			}
			c.jump(ul, captured|ul<<a, k)
		}
		if ur != 0 {
			if dl|dr == 0 {
				s, captured = ur, captured|ur<<b
				continue
			}
			c.jump(ur, captured|ur<<b, k)
		}
		if dl != 0 {
			if dr == 0 {
				s, captured = dl, captured|dl>>b
				continue
			}
			c.jump(dl, captured|dl>>b, k)
		}
		s, captured = dr, captured|dr>>a
	}
	c.add(s, captured, k)
}

// jumpEach is jump with a call per jump.
func (c *manSearch[G]) jumpEach(s, captured bitboard, k int) {
	if !c.stop || s&c.promo == 0 {
		a, b := c.k.steps()
		targets, found := c.targets&^captured, false
		if c.up {
			if land := ((s >> a) & targets) >> a & c.empty; land != 0 {
				found = true
				c.jumpEach(land, captured|land<<a, k+1)
			}
			if land := ((s >> b) & targets) >> b & c.empty; land != 0 {
				found = true
				c.jumpEach(land, captured|land<<b, k+1)
			}
		}
		if c.down {
			if land := ((s << b) & targets) << b & c.empty; land != 0 {
				found = true
				c.jumpEach(land, captured|land>>b, k+1)
			}
			if land := ((s << a) & targets) << a & c.empty; land != 0 {
				found = true
				c.jumpEach(land, captured|land>>a, k+1)
			}
		}
		if found {
			return
		}
	}
	c.add(s, captured, k)
}

// counts reports whether a complete sequence of k pieces counts under the precedence (the
// most pieces when c.most), and when it takes more than those before, starts the count
// and the list over.
func (c *manSearch[G]) counts(k int) bool {
	if fixed[G]() || c.most {
		if k < c.best {
			return false
		}
		if k > c.best {
			c.best, c.n, c.moves, c.taken = k, 0, c.moves[:c.base], 0
		}
	}
	return true
}

// add counts the complete sequence that ends on s having taken the k pieces of captured,
// when the precedence allows it and it is not a repetition.
func (c *manSearch[G]) add(s, captured bitboard, k int) {
	if !c.counts(k) {
		return
	}
	long := c.unique && k >= repeatPieces // one that may repeat another
	if c.list || long {
		m := Move{From: c.from, To: s.First(), flags: promotes(!c.king && s&c.promo != 0), captured: captured}
		if long {
			bit := takenBit(captured)
			if c.taken&bit != 0 {
				for _, o := range c.moves[c.base:] {
					if o == m {
						return
					}
				}
			}
			c.taken |= bit
		}
		c.moves = append(c.moves, m)
	}
	c.n++
}

// takenBit returns a bit of 64 that depends on the pieces of captured only (see
// manSearch.taken): a repetition takes the same pieces. Searching the sequences written
// for one only when its bit is already set spares the search (with its mispredicted exit)
// in most positions (docs/benchmarks.md, measured choices).
func takenBit(captured bitboard) uint64 {
	return 1 << ((captured.First() + captured.last()) & 63)
}

// repeatPieces is the fewest pieces two capture sequences of one piece that take the same
// pieces and end on the same square take (the pieces taken staying on the board until the
// end of the move): only those are checked for repetitions. A man's take four, the shortest
// ring of jumps having four sides; a flying king's too: TestKingRepeats finds none of three
// pieces or fewer on the board of any variant whose kings manSearch searches, and one of
// four (the international king on 2 taking 7, 8, 17 and 18 in either order).
const repeatPieces = 4

// addLandings adds the sequences of a king that end on each of landings having taken the k
// pieces of captured, as add would one by one. They differ from one another by where they
// end, so that one may only repeat a sequence listed before that takes the same pieces:
// when there is none, they are all written without add's search for a repetition.
func (c *manSearch[G]) addLandings(landings, captured bitboard, k int) {
	if !c.counts(k) {
		return
	}
	if c.unique && k >= repeatPieces {
		bit := takenBit(captured)
		if c.taken&bit != 0 {
			for _, o := range c.moves[c.base:] {
				if o.captured == captured && o.From == c.from {
					for l := landings; l != 0; l &= l - 1 {
						c.add(l&-l, captured, k)
					}
					return
				}
			}
		}
		c.taken |= bit
	}
	for l := landings; l != 0; l &= l - 1 {
		c.moves = append(c.moves, Move{From: c.from, To: l.First(), captured: captured})
	}
	c.n += landings.Count()
}

// addCount counts n complete sequences of k pieces, as add would, when they are neither
// listed nor checked for repetitions.
func (c *manSearch[G]) addCount(n, k int) {
	if !c.counts(k) {
		return
	}
	c.n += n
}

// HasMoves reports whether the side to move in p has a legal move.
func (v *Variant) HasMoves(p *Position) bool {
	return v.k.hasMovesOf(*p)
}

// hasMoves is HasMoves on the board's own representation.
func (v *Variant) hasMoves(p *Position) bool {
	if v.crowned(p.pieces[p.Side.Other()], p.kings) {
		return false
	}
	return v.hasCaptureIn(p) || v.countQuiet(p) > 0
}

// PerftOptions are the settings of a perft run. The zero value counts unique moves on one
// thread without a hash table.
type PerftOptions struct {
	// Duplicates is the duplicate-capture convention.
	Duplicates Duplicates
	// Threads is the number of goroutines (0 or 1: one).
	Threads int
	// HashMB is the size of the transposition table in MiB, one table for all the threads
	// (0: none).
	HashMB int
	// Table, when not nil, is the transposition table, instead of a new one of HashMB.
	Table *PerftTable
}

// PerftTable is a transposition table that several perft runs share (see
// PerftOptions.Table), made once: each run finds the counts of the runs before it. The runs
// that share a table must have the same variant and the same duplicate convention.
type PerftTable struct{ t *perftTable }

// NewPerftTable returns a table of mb MiB (at least 1).
func NewPerftTable(mb int) *PerftTable { return &PerftTable{newPerftTable(max(mb, 1))} }

// Clear empties t, so that the next run starts as with a new table (and may be of another
// variant or duplicate convention), without allocating one: a command that counts several
// times keeps one table and its memory. No run may use t meanwhile.
func (t *PerftTable) Clear() { clear(t.t.slots) }

// table returns t's table, or nil when t is nil.
func (t *PerftTable) table() *perftTable {
	if t == nil {
		return nil
	}
	return t.t
}

// DivideEntry is one root move and the number of leaves below it.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// maxMoves is the capacity of the move buffers: a capacity, not a limit (generation
// appends past it), above the moves of any position that occurs in practice.
const maxMoves = 256

// perftCounter counts the leaves below a position (perft): the perfter of a variant's
// geometry.
type perftCounter interface {
	perft(p Position, depth int) uint64
}

// perfter is the state of one thread's perft, with G the steps of the board (see
// geometry).
type perfter[G geometry] struct {
	k    perftKernel[G]
	dup  Duplicates
	tt   *perftTable
	bufs [][]Move
	gen  capGen
	stop *atomic.Bool // set when the run is cancelled
}

func newPerfter(v *Variant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) perftCounter {
	if v.Orthogonal || dup == Paths {
		return newLinePerfter(v, dup, tt, depth, stop)
	}
	return perfterOf(v, dup, tt, depth, stop)
}

// newPerfterOf is newPerfter's instance for the geometry G (see geometries).
func newPerfterOf[G geometry](v *Variant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) perftCounter {
	pf := &perfter[G]{k: perftKernel[G]{v}, dup: dup, tt: tt, bufs: make([][]Move, depth+1), stop: stop}
	for i := range pf.bufs {
		pf.bufs[i] = make([]Move, 0, maxMoves)
	}
	return pf
}

// perft counts the leaves below p. p is passed by value: a pointer to a child position
// would make every child escape to the heap through the recursion.
func (pf *perfter[G]) perft(p Position, depth int) uint64 {
	if depth == 1 {
		us := p.Side
		return uint64(pf.k.countBoards(&pf.gen, us, p.pieces[us], p.pieces[us.Other()], p.kings, pf.dup, pf.bufs[0]))
	}
	if depth == 2 {
		return pf.perft2(&p)
	}
	if depth == 0 {
		return 1
	}
	if depth >= 5 && pf.stop.Load() {
		return 0 // cancelled: the count is thrown away
	}
	if pf.tt != nil && depth >= 3 {
		if n, ok := pf.tt.probe(p.Hash, depth); ok {
			return n
		}
	}
	moves := pf.k.generate(&pf.gen, pf.bufs[depth][:0], &p, pf.dup)
	var n uint64
	if pf.tt == nil || depth == 3 {
		// No table reads these children's hash (there is none, or they are at depth 2):
		// each is written from its boards, without it.
		us, them := p.Side, p.Side.Other()
		own, opp, kings := p.pieces[us], p.pieces[them], p.kings
		if depth == 3 {
			// the children's leaves two plies below, counted by perft2 straight away
			for _, m := range moves {
				var c Position
				c.pieces[us], c.pieces[them], c.kings = after(own, opp, kings, m)
				c.Side = them
				n += pf.perft2(&c)
			}
		} else {
			for _, m := range moves {
				var c Position
				c.pieces[us], c.pieces[them], c.kings = after(own, opp, kings, m)
				c.Side = them
				n += pf.perft(c, depth-1)
			}
		}
	} else {
		for _, m := range moves {
			c := p
			c.apply(m)
			n += pf.perft(c, depth-1)
		}
	}
	if pf.tt != nil && depth >= 3 && !pf.stop.Load() {
		pf.tt.store(p.Hash, depth, n)
	}
	return n
}

// linePerfter is perfter for an Orthogonal board, whose kernel (perftKernel) knows the
// diagonal boards only, and for the Paths convention, which the kernel does not count:
// every position's moves are generated, and the leaves are the moves one ply above them.
type linePerfter struct {
	v    *Variant
	dup  Duplicates
	tt   *perftTable
	bufs [][]Move
	gen  capGen
	stop *atomic.Bool // set when the run is cancelled
}

func newLinePerfter(v *Variant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) *linePerfter {
	pf := &linePerfter{v: v, dup: dup, tt: tt, bufs: make([][]Move, depth+1), stop: stop}
	for i := range pf.bufs {
		pf.bufs[i] = make([]Move, 0, maxMoves)
	}
	return pf
}

// perft counts the leaves below p (see perfter.perft).
func (pf *linePerfter) perft(p Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if depth >= 5 && pf.stop.Load() {
		return 0 // cancelled: the count is thrown away
	}
	if pf.tt != nil && depth >= 3 {
		if n, ok := pf.tt.probe(p.Hash, depth); ok {
			return n
		}
	}
	if depth == 1 && pf.v.Orthogonal && !pf.v.hasCaptureIn(&p) {
		// the last ply without a capture: its quiet moves counted from the sets of squares
		return uint64(pf.v.countQuiet(&p))
	}
	moves := pf.v.generate(&pf.gen, pf.bufs[depth][:0], &p, pf.dup)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := p
		c.apply(m)
		n += pf.perft(c, depth-1)
	}
	if pf.tt != nil && depth >= 3 && !pf.stop.Load() {
		pf.tt.store(p.Hash, depth, n)
	}
	return n
}

// after returns the boards after m: the mover's pieces (own before the move), the other
// side's (opp before) and the kings of both. It is small enough to be inlined into
// perft's loops: keep it so.
func after(own, opp, kings bitboard, m Move) (bitboard, bitboard, bitboard) {
	from, to := bitOf(m.From), bitOf(m.To)
	kings &^= m.captured
	if kings&from != 0 || m.Promotes() {
		kings = kings&^from | to
	}
	return own&^from | to, opp &^ m.captured, kings
}

// perft2 counts the leaves two plies below p. Each move's boards go straight to the leaf
// count, the child is never written, and quiet moves are taken from the bitboards, as
// generateQuiet finds them, without being listed.
func (pf *perfter[G]) perft2(p *Position) uint64 {
	k := pf.k
	v := k.v
	us, them := p.Side, p.Side.Other()
	own, opp, kings := p.pieces[us], p.pieces[them], p.kings
	if !fixed[G]() && v.crowned(opp, kings) {
		return 0
	}
	var n uint64
	empty := v.board &^ (own | opp)
	if own&kings == 0 && menCountOf(fixed[G](), v) != ranksOther {
		if n, ok := pf.menCaptures2(us, own, opp, kings, empty); ok {
			return n
		}
	} else if moves := k.captures(&pf.gen, p, empty, pf.dup, pf.bufs[2][:0]); len(moves) > 0 {
		for _, m := range moves {
			mover, other, kk := after(own, opp, kings, m)
			n += uint64(k.countBoards(&pf.gen, them, other, mover, kk, pf.dup, pf.bufs[0]))
		}
		return n
	}
	if !fixed[G]() && !v.plainLeaves || opp&kings != 0 {
		return pf.quiet2(p, empty)
	}
	// The other side has men only, and each child's leaves are counted here: those of the
	// men's moves after which it has no capture at once (menLeaves2), the others' by leaves.
	a, b := k.steps()
	ta, tb, n := pf.menLeaves2(us, own, opp, kings, empty)
	promo := v.promo[us]
	if us == White {
		for ; ta != 0; ta &= ta - 1 {
			to := ta & -ta
			n += pf.leaves(them, opp, own, kings|to&promo, empty, to<<a, to)
		}
		for ; tb != 0; tb &= tb - 1 {
			to := tb & -tb
			n += pf.leaves(them, opp, own, kings|to&promo, empty, to<<b, to)
		}
	} else {
		for ; tb != 0; tb &= tb - 1 {
			to := tb & -tb
			n += pf.leaves(them, opp, own, kings|to&promo, empty, to>>b, to)
		}
		for ; ta != 0; ta &= ta - 1 {
			to := ta & -ta
			n += pf.leaves(them, opp, own, kings|to&promo, empty, to>>a, to)
		}
	}
	for kk := own & kings; kk != 0; kk &= kk - 1 {
		from := kk & -kk
		for d := 0; d < 4; d++ {
			for to := v.sh(from, d) & empty; to != 0; to = v.sh(to, d) & empty {
				n += pf.leaves(them, opp, own, kings^from^to, empty, from, to)
				if !fixed[G]() && v.ShortKings {
					break
				}
			}
		}
	}
	return n
}

// menLeaves2 counts the leaves two plies below a position without captures, us to move
// with the pieces own, the other side (them) with the men opp and no king, kings the
// kings of both sides and the free squares empty, through the quiet moves of us's men
// after which them has no capture: n is the sum of them's moves after each. ta and tb
// are the squares the other men's moves step to, by steps a and b, whose leaves the
// caller counts (leaves): the moves after which them may capture, and those that crown.
//
// When them has no capture before the move, one after it jumps over the man that moved,
// or lands on the square it left; the other squares are as before. Then them's moves
// after the move are its men's steps before it, one more for each that can step onto the
// square left and one fewer for each that could step onto the one reached: counted for
// all such moves at once, without a branch per move on whether them can capture.
func (pf *perfter[G]) menLeaves2(us Color, own, opp, kings, empty bitboard) (ta, tb bitboard, n uint64) {
	k := pf.k
	v := k.v
	them := us.Other()
	a, b := k.steps()
	men := own &^ kings
	if us == White {
		ta, tb = men>>a&empty, men>>b&empty
	} else {
		ta, tb = men<<a&empty, men<<b&empty
	}
	targets := own
	if !fixed[G]() && v.MenCannotCaptureKings {
		targets &^= kings
	}
	up, down := fixed[G]() || v.manUp[them], fixed[G]() || v.manDown[them]
	if ul, ur, dl, dr := jumpsAlong(up, down, a, b, targets, empty); opp&(ul|ur|dl|dr) != 0 {
		return ta, tb, 0
	}
	// over: the squares a man of them would jump over onto a free square; onto: those it
	// would land on jumping over one of targets
	var over, onto bitboard
	if up {
		over |= opp>>a&(empty<<a) | opp>>b&(empty<<b)
		onto |= (opp>>a&targets)>>a | (opp>>b&targets)>>b
	}
	if down {
		over |= opp<<a&(empty>>a) | opp<<b&(empty>>b)
		onto |= (opp<<a&targets)<<a | (opp<<b&targets)<<b
	}
	// The moves after which them may capture: over the man that moved (by a man of them
	// beside it, or right in front of it onto the square it left: men capture forward in
	// every variant), onto the square it left over another piece, and those that crown.
	// The others are counted at once: a man of them steps onto the square a move left
	// from behind it only along the other diagonal (along its own, it would stand on the
	// square reached), and onto the square it reaches only from beside it (from in front
	// of it, it would capture).
	var qa, qb, sa, sb, fa, fb bitboard // those moves by the square they reach and leave; them's steps
	slow := over | v.promo[us]
	if us == White {
		qa, qb = ta&^(slow|opp<<a|onto>>a), tb&^(slow|opp<<b|onto>>b)
		sa, sb, fa, fb = opp<<a, opp<<b, qa<<a, qb<<b
	} else {
		qa, qb = ta&^(slow|opp>>a|onto<<a), tb&^(slow|opp>>b|onto<<b)
		sa, sb, fa, fb = opp>>a, opp>>b, qa>>a, qb>>b
	}
	q := (qa.Count()+qb.Count())*menQuiet(them, a, b, empty, opp) +
		(sb & fa).Count() + (sa & fb).Count() - (sb & qa).Count() - (sa & qb).Count()
	return ta &^ qa, tb &^ qb, uint64(q)
}

// menCaptures2 returns the number of leaves two plies below a position of us, who has the
// men own and no king, and the other side the pieces opp (kings are the kings of both
// sides, empty the free squares), when us has a capture (ok; otherwise 0 and false), and
// v.menCount is not ranksOther: each capture's boards go to the leaf count. A single jump
// that cannot go on is counted straight from the bitboards, as menCaptures finds it,
// without being listed; the other captures are listed by a manSearch.
func (pf *perfter[G]) menCaptures2(us Color, own, opp, kings, empty bitboard) (n uint64, ok bool) {
	k, g, dup, scratch := pf.k, &pf.gen, pf.dup, pf.bufs[0]
	v := k.v
	them := us.Other()
	targets := opp
	if !fixed[G]() && v.MenCannotCaptureKings {
		targets &^= kings
	}
	a, b := k.steps()
	ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us], a, b, targets, empty)
	jumps := ul | ur | dl | dr
	if own&jumps == 0 {
		return 0, false
	}
	ul, ur, dl, dr = ul&own, ur&own, dl&own, dr&own
	ends := k.menEnds(us, jumps)
	gul, gur, gdl, gdr := ul&(ends<<a<<a), ur&(ends<<b<<b), dl&(ends>>b>>b), dr&(ends>>a>>a)
	if gs := gul | gur | gdl | gdr; menCountOf(fixed[G](), v) == ranksNone || gs == 0 {
		// every single jump is a move (see menCaptures)
		promo := v.promo[us]
		for f := ul &^ gul; f != 0; f &= f - 1 {
			from := f & -f
			mid, to := from>>a, from>>a>>a
			n += uint64(k.countBoards(g, them, opp^mid, own^from^to, kings&^mid|to&promo, dup, scratch))
		}
		for f := ur &^ gur; f != 0; f &= f - 1 {
			from := f & -f
			mid, to := from>>b, from>>b>>b
			n += uint64(k.countBoards(g, them, opp^mid, own^from^to, kings&^mid|to&promo, dup, scratch))
		}
		for f := dl &^ gdl; f != 0; f &= f - 1 {
			from := f & -f
			mid, to := from<<b, from<<b<<b
			n += uint64(k.countBoards(g, them, opp^mid, own^from^to, kings&^mid|to&promo, dup, scratch))
		}
		for f := dr &^ gdr; f != 0; f &= f - 1 {
			from := f & -f
			mid, to := from<<a, from<<a<<a
			n += uint64(k.countBoards(g, them, opp^mid, own^from^to, kings&^mid|to&promo, dup, scratch))
		}
		if gs == 0 {
			return n, true
		}
	}
	c := k.searchMen(us, targets, dup, pf.bufs[2][:0], true)
	c.run(empty, gul, gur, gdl, gdr)
	for _, m := range c.moves {
		mover, other, kk := after(own, opp, kings, m)
		n += uint64(k.countBoards(g, them, other, mover, kk, dup, scratch))
	}
	return n, true
}

// generate is Variant.generate, but for the captures of a side that has men only, which
// captures finds without the general capture search where it can.
func (k perftKernel[G]) generate(g *capGen, dst []Move, p *Position, dup Duplicates) []Move {
	v := k.v
	if !fixed[G]() && v.crowned(p.pieces[p.Side.Other()], p.kings) {
		return dst
	}
	n := len(dst)
	empty := v.board &^ p.occupied()
	if dst = k.captures(g, p, empty, dup, dst); len(dst) > n {
		return dst
	}
	return k.quiet(dst, p, empty)
}

// quiet appends the quiet moves of p, whose free squares are empty, to dst as
// Variant.generateQuiet does, in another order, and returns the extended slice: with
// shifts by the kernel's steps (docs/benchmarks.md, measured choices).
func (k perftKernel[G]) quiet(dst []Move, p *Position, empty bitboard) []Move {
	v := k.v
	a, b := k.steps()
	us := p.Side
	own, promo := p.pieces[us], v.promo[us]
	men := own &^ p.kings
	if us == White { // up the board, towards the lower indices
		for t := men >> a & empty; t != 0; t &= t - 1 {
			to := t & -t
			dst = append(dst, Move{From: (to << a).First(), To: to.First(), flags: promotes(to&promo != 0)})
		}
		for t := men >> b & empty; t != 0; t &= t - 1 {
			to := t & -t
			dst = append(dst, Move{From: (to << b).First(), To: to.First(), flags: promotes(to&promo != 0)})
		}
	} else {
		for t := men << b & empty; t != 0; t &= t - 1 {
			to := t & -t
			dst = append(dst, Move{From: (to >> b).First(), To: to.First(), flags: promotes(to&promo != 0)})
		}
		for t := men << a & empty; t != 0; t &= t - 1 {
			to := t & -t
			dst = append(dst, Move{From: (to >> a).First(), To: to.First(), flags: promotes(to&promo != 0)})
		}
	}
	for kk := own & p.kings; kk != 0; kk &= kk - 1 {
		from := kk & -kk
		i := from.First()
		for s := from >> a & empty; s != 0; s = s >> a & empty {
			dst = append(dst, Move{From: i, To: s.First()})
			if !fixed[G]() && v.ShortKings {
				break
			}
		}
		for s := from >> b & empty; s != 0; s = s >> b & empty {
			dst = append(dst, Move{From: i, To: s.First()})
			if !fixed[G]() && v.ShortKings {
				break
			}
		}
		for s := from << b & empty; s != 0; s = s << b & empty {
			dst = append(dst, Move{From: i, To: s.First()})
			if !fixed[G]() && v.ShortKings {
				break
			}
		}
		for s := from << a & empty; s != 0; s = s << a & empty {
			dst = append(dst, Move{From: i, To: s.First()})
			if !fixed[G]() && v.ShortKings {
				break
			}
		}
	}
	return dst
}

// captures appends the captures of p, whose free squares are empty, to dst as generate
// does and returns the extended slice. The captures of men, when the side to move has no
// king, are found by menCaptures where v.menCount allows it.
func (k perftKernel[G]) captures(g *capGen, p *Position, empty bitboard, dup Duplicates, dst []Move) []Move {
	v := k.v
	us := p.Side
	own, opp, kings := p.pieces[us], p.pieces[us.Other()], p.kings
	if own&kings == 0 && menCountOf(fixed[G](), v) != ranksOther {
		targets := opp
		if !fixed[G]() && v.MenCannotCaptureKings {
			targets &^= kings
		}
		a, b := k.steps()
		ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us], a, b, targets, empty)
		if own&(ul|ur|dl|dr) == 0 {
			return dst
		}
		return k.menCaptures(us, targets, empty, own, ul, ur, dl, dr, dup, dst)
	}
	if fixed[G]() || v.kingSearch {
		if k.kingsTake(own&kings, opp, empty) {
			var c manSearch[G]
			k.searchInto(&c, us, opp, kings, empty, own, own&kings, dup, dst, true)
			return c.moves
		}
		// Only the men may capture: they are listed as when us has no kings, the kings
		// being in their way only (docs/benchmarks.md, measured choices).
		targets := opp
		if !fixed[G]() && v.MenCannotCaptureKings {
			targets &^= kings
		}
		a, b := k.steps()
		men := own &^ kings
		ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us], a, b, targets, empty)
		if men&(ul|ur|dl|dr) == 0 {
			return dst
		}
		return k.menCaptures(us, targets, empty, men, ul, ur, dl, dr, dup, dst)
	}
	if !k.hasCapture(us, opp, kings, empty, own&^kings, own&kings) {
		return dst
	}
	n := len(dst)
	dst = v.generateCaptures(g, dst, p)
	if dup == Unique {
		dst = dedupe(dst, n)
	}
	return dst
}

// leaves returns the number of moves of them, who have the men opp and no king, after a
// quiet move from from to to by the other side, whose pieces were own on the free squares
// empty; kings are the kings after the move. A child in which none of them can capture
// has as many moves as its men have free squares in front of them.
func (pf *perfter[G]) leaves(them Color, opp, own, kings, empty, from, to bitboard) uint64 {
	k := pf.k
	mover, free := own^from^to, empty^from^to
	targets := mover
	if !fixed[G]() && k.v.MenCannotCaptureKings {
		targets &^= kings
	}
	a, b := k.steps()
	ul, ur, dl, dr := jumpsAlong(fixed[G]() || k.v.manUp[them], fixed[G]() || k.v.manDown[them], a, b, targets, free)
	if opp&(ul|ur|dl|dr) == 0 {
		return uint64(menQuiet(them, a, b, free, opp))
	}
	if menCountOf(fixed[G](), k.v) != ranksOther {
		// countBoards' inline test of whether a capture goes on, on 128-bit boards only.
		// On the others it made leaves' frame larger, and its other paths dearer
		// (docs/benchmarks.md, measured choices).
		if unsafe.Sizeof(opp) > 8 {
			mul, mur, mdl, mdr := ul&opp, ur&opp, dl&opp, dr&opp
			if ends := k.menEnds(them, ul|ur|dl|dr); mul&(ends<<a<<a)|mur&(ends<<b<<b)|mdl&(ends>>b>>b)|mdr&(ends>>a>>a) == 0 {
				return uint64(mul.Count() + mur.Count() + mdl.Count() + mdr.Count())
			}
		}
		return uint64(k.countMen(them, targets, free, opp, ul, ur, dl, dr, pf.dup, pf.bufs[0]))
	}
	if n, ok := k.countSingleJumps(them, targets, kings, free, opp); ok {
		return uint64(n)
	}
	return uint64(k.countGenerated(&pf.gen, them, opp, mover, kings, pf.dup, pf.bufs[0]))
}

// quiet2 is perft2 for a position p without captures, whose free squares are empty, in
// the general case: every child's leaves are counted by countBoards (or by moves2, from
// what each move changes, when the other side has flying kings).
func (pf *perfter[G]) quiet2(p *Position, empty bitboard) uint64 {
	k, g, dup, scratch := pf.k, &pf.gen, pf.dup, pf.bufs[0]
	v := k.v
	us, them := p.Side, p.Side.Other()
	own, opp, kings := p.pieces[us], p.pieces[them], p.kings
	if v.flyingDiagonal() && opp&kings != 0 {
		return pf.moves2(us, own, opp, kings, empty)
	}
	var n uint64
	for _, d := range v.fwd[us] {
		back := opposite(d)
		for t := v.sh(own&^kings, d) & empty; t != 0; t &= t - 1 {
			to := t & -t
			kk := kings | to&v.promo[us]
			n += uint64(k.countBoards(g, them, opp, own&^v.sh(to, back)|to, kk, dup, scratch))
		}
	}
	for kk := own & kings; kk != 0; kk &= kk - 1 {
		from := kk & -kk
		for d := 0; d < 4; d++ {
			for to := v.sh(from, d) & empty; to != 0; to = v.sh(to, d) & empty {
				n += uint64(k.countBoards(g, them, opp, own&^from|to, kings&^from|to, dup, scratch))
				if v.ShortKings {
					break
				}
			}
		}
	}
	return n
}

// Perft returns the number of leaf positions depth plies below p (perft(0) = 1). Draw
// rules are ignored, as by every published count. It stops early, returning ctx's error,
// when ctx is cancelled.
func (v *Variant) Perft(ctx context.Context, p Position, depth int, opt PerftOptions) (uint64, error) {
	if depth == 0 {
		return 1, nil
	}
	entries, err := v.Divide(ctx, p, depth, opt)
	var n uint64
	for _, e := range entries {
		n += e.Nodes
	}
	return n, err
}

// Divide returns, for each root move of p (in generation order; with Keep a move may appear
// once per capture order), the number of leaves depth-1 plies below it. depth must be at
// least 1.
func (v *Variant) Divide(ctx context.Context, p Position, depth int, opt PerftOptions) ([]DivideEntry, error) {
	return v.k.divideOf(ctx, p, depth, opt)
}

// divide is Divide on the board's own representation.
func (v *Variant) divide(ctx context.Context, p Position, depth int, opt PerftOptions) ([]DivideEntry, error) {
	if depth < 1 {
		return nil, nil
	}
	tt := opt.Table.table()
	if tt == nil && opt.HashMB > 0 {
		tt = newPerftTable(opt.HashMB)
	}
	var g capGen
	root := v.generate(&g, nil, &p, opt.Duplicates)
	entries := make([]DivideEntry, len(root))
	for i, m := range root {
		entries[i].Move = m
	}
	if depth == 1 {
		for i := range entries {
			entries[i].Nodes = 1
		}
		return entries, nil
	}
	// Jobs are the positions two plies down (one ply when depth is 2), so that threads
	// stay busy even when the root has few moves.
	type job struct {
		root  int
		pos   Position
		depth int
	}
	var jobs []job
	for i, m := range root {
		c := p
		c.apply(m)
		if depth == 2 {
			jobs = append(jobs, job{i, c, 1})
			continue
		}
		for _, m2 := range v.generate(&g, nil, &c, opt.Duplicates) {
			cc := c
			cc.apply(m2)
			jobs = append(jobs, job{i, cc, depth - 2})
		}
	}
	threads := opt.Threads
	if threads < 1 {
		threads = 1
	}
	if threads > runtime.GOMAXPROCS(0)*4 {
		threads = runtime.GOMAXPROCS(0) * 4
	}
	counts := make([]atomic.Uint64, len(root))
	var next atomic.Int64
	var stop atomic.Bool
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-finished:
		}
	}()
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pf := newPerfter(v, opt.Duplicates, tt, depth, &stop)
			for {
				if stop.Load() {
					return
				}
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					return
				}
				j := &jobs[i]
				counts[j.root].Add(pf.perft(j.pos, j.depth))
			}
		}()
	}
	wg.Wait()
	for i := range entries {
		entries[i].Nodes = counts[i].Load()
	}
	return entries, ctx.Err()
}

// perftTable is a shared transposition table for perft, in buckets of two slots: the first
// keeps the deepest entry, the second the latest. Each slot holds the key xor the data and
// the data, so that a slot torn by two threads writing at once is never taken for a hit
// (Hyatt and Mann's lockless hashing). Data is the count shifted left 8 bits and the depth;
// counts of 2^56 or more are not stored.
type perftTable struct {
	slots []perftSlot
	mask  uint64
}

type perftSlot struct {
	check, data atomic.Uint64
}

func newPerftTable(mb int) *perftTable {
	n := uint64(mb) << 20 / 32
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &perftTable{slots: make([]perftSlot, 2*size), mask: size - 1}
}

// depthKey makes the same position at different depths different keys.
func depthKey(depth int) uint64 { return uint64(depth) * 0x9E3779B97F4A7C15 }

func (t *perftTable) probe(hash uint64, depth int) (uint64, bool) {
	key := hash ^ depthKey(depth)
	b := 2 * (key & t.mask)
	for s := &t.slots[b]; ; s = &t.slots[b+1] {
		data := s.data.Load()
		if s.check.Load()^data == key && int(data&0xFF) == depth {
			return data >> 8, true
		}
		if s == &t.slots[b+1] {
			return 0, false
		}
	}
}

func (t *perftTable) store(hash uint64, depth int, n uint64) {
	if n >= 1<<56 {
		return
	}
	key := hash ^ depthKey(depth)
	b := 2 * (key & t.mask)
	s := &t.slots[b]
	if int(s.data.Load()&0xFF) > depth {
		s = &t.slots[b+1]
	}
	data := n<<8 | uint64(depth)
	s.check.Store(key ^ data)
	s.data.Store(data)
}
