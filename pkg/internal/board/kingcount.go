package board

import (
	"math/bits"
	"unsafe"
)

// The flying kings' part of the kernel (see perftKernel): their quiet moves and whether they can
// capture are found for all the kings at once, by filling the free squares along each
// diagonal with shifts by G's constant steps, instead of a ray lookup per king and
// direction.

// fillUp returns from with the squares its pieces reach by steps of s towards the lower
// indices over the free squares empty, up to reach steps away (7, 9 or 15): an occluded
// (Kogge-Stone) fill of three rounds, which reaches 7 steps away, then, for 9, a round of
// two steps more, or, for 15 (more than any diagonal of a board of 128 bits), one of eight.
// It is small enough to be inlined, and the steps and reach it is given then are
// constants: keep it so.
func fillUp(from, empty bitboard, s uint, reach int) bitboard {
	from |= empty & (from >> s)
	empty &= empty >> s
	two := empty // the squares free with the one a step back
	from |= empty & (from >> (2 * s))
	empty &= empty >> (2 * s)
	from |= empty & (from >> (4 * s))
	if reach > 9 {
		empty &= empty >> (4 * s)
		from |= empty & (from >> (8 * s))
	} else if reach > 7 {
		from |= two & (from >> (2 * s))
	}
	return from
}

// fillDown is fillUp towards the higher indices.
func fillDown(from, empty bitboard, s uint, reach int) bitboard {
	from |= empty & (from << s)
	empty &= empty << s
	two := empty
	from |= empty & (from << (2 * s))
	empty &= empty << (2 * s)
	from |= empty & (from << (4 * s))
	if reach > 9 {
		empty &= empty << (4 * s)
		from |= empty & (from << (8 * s))
	} else if reach > 7 {
		from |= two & (from << (2 * s))
	}
	return from
}

// within reports whether the kernel's boards have no diagonal of more than n squares, for
// n 8 or 10, which the kernel knows from G: no diagonal is longer than the board is wide,
// and the boards of steps 5 are 10 squares wide, those of steps 4 8 squares.
func (k perftKernel[G]) within(n int) bool {
	var g G
	b := unsafe.Sizeof(g) % fixedRules // (upRightStep: 0 for anySteps, whose boards it does not know)
	return b == 4 || n == 10 && b == 5
}

// kingReach returns how far a flying king may move on the kernel's boards, as fillUp's
// reach: 7 squares when no diagonal is longer than 8 squares, 9 when none is longer than
// 10, 15 otherwise.
func (k perftKernel[G]) kingReach() int {
	if k.within(8) {
		return 7
	}
	if k.within(10) {
		return 9
	}
	return 15
}

// kingsQuiet returns the number of quiet moves of the flying kings over the free squares
// empty: the free squares each reaches along the four diagonals. Two kings never reach
// one square along one diagonal, the nearer being in the way of the other.
func (k perftKernel[G]) kingsQuiet(kings, empty bitboard) int {
	a, b := k.steps()
	reach := k.kingReach()
	n := fillUp(kings, empty, a, reach).Count() + fillUp(kings, empty, b, reach).Count() +
		fillDown(kings, empty, b, reach).Count() + fillDown(kings, empty, a, reach).Count()
	return n - 4*kings.Count()
}

// kingsTake reports whether one of the flying kings can take a piece of targets along a
// diagonal, landing on one of the free squares empty right behind it.
func (k perftKernel[G]) kingsTake(kings, targets, empty bitboard) bool {
	a, b := k.steps()
	reach := 7 // 7 free squares at most lie between a king and what it takes
	if !k.within(10) {
		reach = 15
	}
	ul := (fillUp(kings, empty, a, reach) >> a & targets) >> a
	ur := (fillUp(kings, empty, b, reach) >> b & targets) >> b
	dl := (fillDown(kings, empty, b, reach) << b & targets) << b
	dr := (fillDown(kings, empty, a, reach) << a & targets) << a
	return (ul|ur|dl|dr)&empty != 0
}

// searchInto searches into c, which must be new (zero), the captures of the men of us,
// own, and of its kings searched, where v.kingSearch allows it: opp are the other side's
// pieces, allKings the kings of both, empty the free squares. searched holds own's kings,
// or none of them when the caller knows that they cannot capture. The caller keeps c on
// its stack: a search returned by value was copied out, a stall that cost the leaf count
// a tenth of its time in positions with kings.
func (k perftKernel[G]) searchInto(c *manSearch[G], us Color, opp, allKings, empty, own, searched bitboard, dup Duplicates, moves []Move, list bool) {
	v := k.v
	targets := opp
	if !fixed[G]() && v.MenCannotCaptureKings {
		targets &^= allKings
	}
	// searchMen's fields, one by one: its value copied into c would be read before its
	// writes reach it, a stall
	c.targets, c.promo, c.up, c.down = targets, v.promo[us], fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us]
	c.stop, c.most, c.unique = promotionOf(fixed[G](), v) == PromoteAndStop, menCountOf(fixed[G](), v) == ranksPieces, dup == Unique
	c.list, c.moves, c.base, c.k = list, moves, len(moves), k
	a, b := k.steps()
	men := own &^ allKings
	ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us], a, b, targets, empty)
	if men&(ul|ur|dl|dr) != 0 {
		c.run(empty, ul&men, ur&men, dl&men, dr&men)
	}
	c.opp = opp
	c.searchKings(searched, empty)
}

// kingsCount returns the number of captures of the flying kings, which can capture, of a
// side whose men cannot: opp are the pieces they may take, empty the free squares. It is
// countTaking without the men's jumps, which menMoves2 and kingMoves2 have tested already
// (docs/benchmarks.md, measured choices).
func (k perftKernel[G]) kingsCount(opp, empty, kings bitboard, dup Duplicates, scratch []Move) int {
	var c manSearch[G]
	c.most, c.unique = menCountOf(fixed[G](), k.v) == ranksPieces, dup == Unique
	c.moves, c.k, c.opp = scratch[:0], k, opp
	c.searchKings(kings, empty)
	return c.n
}

// searchKings searches the captures of the flying kings of the side to move, c.opp being
// the pieces they may take and empty the free squares. The squares from which a king can
// capture along each diagonal are found beforehand (kingJumps): of a king's landing
// squares, only those are tried. The directions in which a king can capture are the bits of
// dirs, found without a branch per direction: a king mostly captures along one only, and
// the test of each direction in turn mispredicted. (The call of kingLine stays 8 lines
// into the function, where cmd/perft/default.pgo has it.)
func (c *manSearch[G]) searchKings(kings, empty bitboard) {
	for ; kings != 0; kings &= kings - 1 {
		from := kings & -kings
		c.from, c.king = from.First(), true
		c.empty = empty | from
		c.k.kingJumps(&c.jumps, c.opp, c.empty)
		dirs := flag(from&c.jumps[0] != 0) | flag(from&c.jumps[1] != 0)<<1 | flag(from&c.jumps[2] != 0)<<2 | flag(from&c.jumps[3] != 0)<<3
		for ; dirs != 0; dirs &= dirs - 1 {
			c.kingLine(from, 0, 0, bits.TrailingZeros(dirs))
		}
	}
}

// kingJumps sets j, per diagonal direction, to the free squares from which a king would
// take a piece of opp along it: those whose nearest piece that way is one of opp with a
// free square right behind it. A piece taken before in the sequence stays on the board,
// so the sets hold for a whole capture; they may only hold squares from which the nearest
// piece has been taken already. j is written in place: a returned array, copied, would
// be read before its writes reach it (a stall that cost searchKings a third of its time).
func (k perftKernel[G]) kingJumps(j *[4]bitboard, opp, empty bitboard) {
	a, b := k.steps()
	// The fills start from the free squares right in front of the pieces, one step on:
	// from there a king stands 7 squares away at most on a board no diagonal of which is
	// longer than 10 squares, which three rounds reach.
	reach := 7
	if !k.within(10) {
		reach = 15
	}
	j[upLeft] = fillDown(opp&(empty<<a)<<a&empty, empty, a, reach)
	j[upRight] = fillDown(opp&(empty<<b)<<b&empty, empty, b, reach)
	j[downLeft] = fillUp(opp&(empty>>b)>>b&empty, empty, b, reach)
	j[downRight] = fillUp(opp&(empty>>a)>>a&empty, empty, a, reach)
}

// flag returns 1 when b holds, 0 otherwise, without a branch.
func flag(b bool) uint {
	if b {
		return 1
	}
	return 0
}

// nearest returns the square of occupied (not empty) nearest to the start of a ray in
// direction d.
func nearest(occupied bitboard, d int) bitboard {
	if d < downLeft { // towards lower indices: the nearest is the highest
		return bitOf(occupied.last())
	}
	return occupied & -occupied
}

// kingLine searches the sequences of a king on s, having taken the k pieces of captured,
// that go on with a capture in direction d. s is one of c.jumps[d]: the piece the king
// meets along d is one of c.opp with a free square behind it, which may only have been
// taken already. It reports whether the king takes it. As in capGen.kingJump, the king
// turns from any square it may land on behind the piece (from those in c.jumps), and goes
// on straight ahead when the piece that ends them can be taken. The turns one way are
// tried in a loop of their own, then those the other way, without a test per landing
// square of which way it turns (docs/benchmarks.md, measured choices).
func (c *manSearch[G]) kingLine(s, captured bitboard, k int, d int) bool {
	r := c.k.v.rays[d&3][s.First()]
	occupied := r &^ c.empty
	x := nearest(occupied, d)
	if x&^captured == 0 {
		return false
	}
	landings, stop := behind(r, x, occupied^x, d)
	captured |= x
	k++
	cont := false
	// the turns: upRight and downLeft for upLeft and downRight, and the other way round
	// (upLeft..downRight are 0..3), without a branch
	p := (d ^ d>>1) & 1
	t1, t2 := 1-p, 2+p
	j1, j2 := landings&c.jumps[t1], landings&c.jumps[t2]
	// straight ahead: the piece on stop, with a free square behind it, which every
	// landing square meets first along d
	var ahead bitboard
	if landings&c.jumps[d&3] != 0 && stop&^captured != 0 {
		ahead = landings & -landings
	}
	// The ways on, tested before the loop, so that a capture that ends here (most do)
	// stores nothing for the calls (docs/benchmarks.md, measured choices).
	if j1|j2|ahead != 0 {
		for l := j1; l != 0; l &= l - 1 {
			if c.kingLine(l&-l, captured, k, t1) {
				cont = true
			}
		}
		for l := j2; l != 0; l &= l - 1 {
			if c.kingLine(l&-l, captured, k, t2) {
				cont = true
			}
		}
		if ahead != 0 {
			c.kingLine(ahead, captured, k, d)
			return true
		}
		if cont {
			return true
		}
	}
	if !c.list && (!c.unique || k < repeatPieces) {
		// counted, not listed, and none can repeat another (add): all at once
		// (docs/benchmarks.md, measured choices)
		c.addCount(landings.Count(), k)
		return true
	}
	c.addLandings(landings, captured, k)
	return true
}

// behind returns the free squares right behind x along the ray r in direction d, on which
// a king that takes x may land, and the piece that ends them (none when the ray ends
// first): rest are the ray's pieces beyond x. They are found from the one ray, without a
// ray of x's or of the stop's square: a king's capture search looked up three rays one
// after the other, each from the square the one before gave.
func behind(r, x, rest bitboard, d int) (landings, stop bitboard) {
	if d < downLeft { // towards lower indices: the nearest is the highest
		m := rest.through()
		return r & (x - 1) &^ m, m &^ (m >> 1)
	}
	stop = rest & -rest
	return r & (stop - 1) &^ (x | (x - 1)), stop
}

// countQuietKings is countQuietOf for us, who has kings, when us has no capture: ok is
// false when us has one (opp are the other side's pieces, allKings the kings of both
// sides), and then searched holds the kings whose captures must be searched: none when
// only men can capture. Flying kings that capture along the diagonals only are filled
// along them once, for their captures and their quiet moves.
func (k perftKernel[G]) countQuietKings(us Color, opp, allKings, empty, men, kings bitboard) (n int, ok bool, searched bitboard) {
	v := k.v
	if !fixed[G]() && (v.ShortKings || v.OrthogonalCaptures) {
		if k.hasCapture(us, opp, allKings, empty, men, kings) {
			return 0, false, kings
		}
		return k.countQuietOf(us, empty, men, kings), true, 0
	}
	a, b := k.steps()
	if kings&(kings-1) == 0 {
		// One king: along its rays, to the nearest piece; for two kings, the fills are
		// cheaper (docs/benchmarks.md, measured choices)
		var takes bool
		if n, takes = k.kingAlone(kings.First(), opp, empty); takes {
			return 0, false, kings
		}
	} else {
		reach := k.kingReach()
		ul, ur := fillUp(kings, empty, a, reach), fillUp(kings, empty, b, reach)
		dl, dr := fillDown(kings, empty, b, reach), fillDown(kings, empty, a, reach)
		if ((ul>>a&opp)>>a|(ur>>b&opp)>>b|(dl<<b&opp)<<b|(dr<<a&opp)<<a)&empty != 0 {
			return 0, false, kings
		}
		n = ul.Count() + ur.Count() + dl.Count() + dr.Count() - 4*kings.Count()
	}
	if men != 0 { // hasCapture's men, inline
		manTargets := opp
		if !fixed[G]() && v.MenCannotCaptureKings {
			manTargets &^= allKings
		}
		if ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us], a, b, manTargets, empty); men&(ul|ur|dl|dr) != 0 {
			return 0, false, 0 // the kings' search is left out
		}
	}
	return n + menQuiet(us, a, b, empty, men), true, 0
}

// kingAlone returns the number of quiet moves of a flying king on i over the free squares
// empty, and whether it can take a piece of opp: along each ray, the free squares up to the
// nearest piece, and whether that piece is one of opp with a free square behind it. For
// one king, it is cheaper than the fills of countQuietKings. The rays' squares are counted
// at once, and the squares behind their nearest pieces tested at once, without a branch
// per ray (docs/benchmarks.md, measured choices).
func (k perftKernel[G]) kingAlone(i Index, opp, empty bitboard) (n int, takes bool) {
	v := k.v
	a, b := k.steps()
	// down-left and down-right go towards the higher indices: the nearest piece is the
	// lowest, and the squares before it those below it (the whole ray when there is none)
	dl := v.rays[downLeft][i]
	x := dl &^ empty
	x &= -x
	dl &= x - 1
	behind := (x & opp) << b
	dr := v.rays[downRight][i]
	y := dr &^ empty
	y &= -y
	dr &= y - 1
	behind |= (y & opp) << a
	// up-left and up-right go towards the lower indices: the nearest piece is the highest
	ul := v.rays[upLeft][i]
	if x := ul &^ empty; x != 0 {
		j := x.last()
		x = bitOf(j)
		ul &^= x | v.rays[upLeft][j]
		behind |= (x & opp) >> a
	}
	ur := v.rays[upRight][i]
	if x := ur &^ empty; x != 0 {
		j := x.last()
		x = bitOf(j)
		ur &^= x | v.rays[upRight][j]
		behind |= (x & opp) >> b
	}
	return (ul | ur | dl | dr).Count(), behind&empty != 0
}

// moves2 is quiet2 where v.flyingDiagonal and the other side has kings: it returns the
// number of leaves two plies below a position without captures, us to move with the
// pieces own, the other side's opp, kings the kings of both sides and the free squares
// empty, each child's counted from what the move changes (menMoves2, kingMoves2).
func (pf *perfter[G]) moves2(us Color, own, opp, kings, empty bitboard) (n uint64) {
	if own&^kings != 0 {
		n = pf.menMoves2(us, own, opp, kings, empty)
	}
	if own&kings != 0 {
		n += pf.kingMoves2(us, own, opp, kings, empty)
	}
	return n
}

// kingMoves2 returns the number of leaves two plies below a position, us to move with the
// pieces own, the other side's opp, kings the kings of both sides and the free squares
// empty, through the quiet moves of us's kings (see moves2): the sum of the moves of the
// other side after each. Each child's count is found from the board without the king that
// moves, computed once per king: a quiet move of the other side's men is lost when the
// king lands where the man would step, and one of its king's from the king's landing
// square on along the diagonal it lands on (its kings', when it has several, are found
// again for a landing square on their diagonals); the landing square may open a capture
// or close one, and a child with a capture is counted by countTaking.
func (pf *perfter[G]) kingMoves2(us Color, own, opp, kings, empty bitboard) (n uint64) {
	k, g, dup, scratch := pf.k, &pf.gen, pf.dup, pf.bufs[0]
	v := k.v
	them := us.Other()
	theirKing := opp & kings
	a, b := k.steps()
	men, many := opp&^kings, theirKing&(theirKing-1) != 0
	var lines bitboard // the diagonals of the other side's kings, when it has several
	if many {
		lines = v.diagonals(theirKing)
	}
	for kk := own & kings; kk != 0; kk &= kk - 1 {
		from := kk & -kk
		free, rest := empty|from, own&^from // the board without the king that moves
		// The other side's men: their quiet moves, the squares on which they land taking
		// one of rest, and the free squares on which the king would be taken.
		quiet := menQuiet(them, a, b, free, men)
		targets := rest
		if !fixed[G]() && v.MenCannotCaptureKings {
			targets &^= kings
		}
		ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[them], fixed[G]() || v.manDown[them], a, b, targets, free)
		lands := (ul&men)>>a>>a | (ur&men)>>b>>b | (dl&men)<<b<<b | (dr&men)<<a<<a
		var exposed bitboard
		if fixed[G]() || !v.MenCannotCaptureKings {
			if fixed[G]() || v.manUp[them] {
				exposed |= men>>a&(free<<a) | men>>b&(free<<b)
			}
			if fixed[G]() || v.manDown[them] {
				exposed |= men<<b&(free>>b) | men<<a&(free>>a)
			}
		}
		// The other side's king: the free squares it reaches along each diagonal (runs),
		// and the squares on which it lands taking one of rest. Its kings, when it has
		// more than one: their moves and whether they can capture (kingsOf), which a
		// landing square off their diagonals (reach) leaves as they are.
		var runs [4]bitboard
		var reach, kingLands bitboard
		kingsQuiet, kingsTake := 0, false
		if many {
			reach = lines
			kingsQuiet, kingsTake = k.kingsOf(theirKing, rest, free)
			quiet += kingsQuiet
		} else {
			s := theirKing.First()
			for d := 0; d < 4; d++ {
				r := v.rays[d][s]
				if x := r &^ free; x != 0 {
					x = nearest(x, d)
					r &^= x | v.rays[d][x.First()]
					if x&rest != 0 {
						kingLands |= v.sh(x, d) & free
					}
				}
				runs[d] = r
				reach |= r
			}
			quiet += reach.Count()
		}
		// The king's landing squares. After most, the other side has no capture, and its
		// king the moves it has without the king that moves: those are counted at once.
		var to bitboard
		fi := from.First()
		for d := 0; d < 4; d++ {
			r := v.rays[d][fi]
			if x := r &^ empty; x != 0 {
				x = nearest(x, d)
				r &^= x | v.rays[d][x.First()]
			}
			to |= r
		}
		var plain bitboard
		switch l := lands | kingLands; {
		case kingsTake: // a capture after every move but those onto the kings' diagonals
		case l == 0:
			plain = to &^ exposed &^ reach
		case l&(l-1) == 0:
			plain = to & l &^ exposed &^ reach // a capture, but after the king lands on its landing square
		}
		if us == White { // the other side's men step down the board
			n += uint64(plain.Count()*quiet - (plain & (men << a)).Count() - (plain & (men << b)).Count())
		} else {
			n += uint64(plain.Count()*quiet - (plain & (men >> a)).Count() - (plain & (men >> b)).Count())
		}
		for r := to &^ plain; r != 0; r &= r - 1 {
			t := r & -r
			c := quiet
			if us == White {
				c -= (men&(t>>a) | men&(t>>b)).Count()
			} else {
				c -= (men&(t<<a) | men&(t<<b)).Count()
			}
			var kingTakes bool
			if t&reach == 0 {
				kingTakes = kingsTake || kingLands&^t != 0
			} else if many {
				q, takes := k.kingsOf(theirKing, rest|t, free&^t)
				c += q - kingsQuiet
				kingTakes = takes
			} else {
				e := 0
				for runs[e]&t == 0 {
					e++
				}
				past := runs[e] & v.rays[e][t.First()]
				c -= 1 + past.Count()
				kingTakes = past != 0 || kingLands&^v.rays[e][theirKing.First()] != 0
			}
			if menTake := lands&^t != 0 || exposed&t != 0; kingTakes && !menTake && (fixed[G]() || v.kingSearch) {
				c = k.kingsCount(rest|t, free&^t, theirKing, dup, scratch)
			} else if kingTakes || menTake {
				c = k.countTaking(g, them, opp, rest|t, kings&^from|t, kingTakes, dup, scratch)
			}
			n += uint64(c)
		}
	}
	return n
}

// countTaking is countBoards for us, who has a capture, by its kings when kingTakes, by
// its men only otherwise, where captures are only diagonal and the game does not end by
// crowning: the tests of countQuietKings, which would find the capture again, are left out.
func (k perftKernel[G]) countTaking(g *capGen, us Color, own, opp, allKings bitboard, kingTakes bool, dup Duplicates, scratch []Move) int {
	v := k.v
	if !fixed[G]() && !v.kingSearch {
		return k.countGenerated(g, us, own, opp, allKings, dup, scratch)
	}
	empty := v.board &^ (own | opp)
	if kingTakes {
		var c manSearch[G]
		k.searchInto(&c, us, opp, allKings, empty, own, own&allKings, dup, scratch[:0], false)
		return c.n
	}
	targets := opp
	if !fixed[G]() && v.MenCannotCaptureKings {
		targets &^= allKings
	}
	a, b := k.steps()
	ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[us], fixed[G]() || v.manDown[us], a, b, targets, empty)
	return k.countMen(us, targets, empty, own&^allKings, ul, ur, dl, dr, dup, scratch)
}

// flyingDiagonal reports whether kings fly, every capture is along the diagonals and the
// game does not end by crowning: the rules under which moves2 counts a child from what
// changes.
func (v *Variant) flyingDiagonal() bool {
	return v.plainLeaves && !v.ShortKings // plainLeaves: no orthogonal capture, no win by crowning
}

// kingsOf returns the number of quiet moves of the flying kings, at least one, over the
// free squares empty, and whether one of them can take a piece of opp (the captures along
// the diagonals of countQuietKings).
func (k perftKernel[G]) kingsOf(kings, opp, empty bitboard) (n int, takes bool) {
	if kings&(kings-1) == 0 {
		return k.kingAlone(kings.First(), opp, empty)
	}
	a, b := k.steps()
	reach := k.kingReach()
	ul, ur := fillUp(kings, empty, a, reach), fillUp(kings, empty, b, reach)
	dl, dr := fillDown(kings, empty, b, reach), fillDown(kings, empty, a, reach)
	takes = ((ul>>a&opp)>>a|(ur>>b&opp)>>b|(dl<<b&opp)<<b|(dr<<a&opp)<<a)&empty != 0
	return ul.Count() + ur.Count() + dl.Count() + dr.Count() - 4*kings.Count(), takes
}

// diagonals returns the squares on the diagonals through the squares of set.
func (v *Variant) diagonals(set bitboard) (d bitboard) {
	for ; set != 0; set &= set - 1 {
		i := set.First()
		d |= v.rays[upLeft][i] | v.rays[upRight][i] | v.rays[downLeft][i] | v.rays[downRight][i]
	}
	return d
}

// menMoves2 returns the number of leaves two plies below a position, us to move with the
// pieces own, the other side's opp, which has kings, kings the kings of both sides and the
// free squares empty, through the quiet moves of us's men (see moves2): the sum of the
// moves of the other side after each. The other side's kings' moves, and whether they can
// capture, are found once for all the men's moves that leave their diagonals alone.
func (pf *perfter[G]) menMoves2(us Color, own, opp, kings, empty bitboard) (n uint64) {
	k, g, dup, scratch := pf.k, &pf.gen, pf.dup, pf.bufs[0]
	v := k.v
	them := us.Other()
	theirKings, men := opp&kings, opp&^kings
	lines := v.diagonals(theirKings) // the diagonals of the other side's kings
	quiet0, takes0 := k.kingsOf(theirKings, own, empty)
	a, b := k.steps()
	var once [2]bitboard // the moves counted at once, by the square they reach, by steps a and b
	if !takes0 {
		once[0], once[1], n = pf.menMovesAtOnce2(us, own, men, kings, empty, lines, quiet0)
	}
	ownMen, promo := own&^kings, v.promo[us]
	for i, s := range [2]uint{a, b} {
		var to bitboard
		if us == White {
			to = ownMen >> s & empty &^ once[i]
		} else {
			to = ownMen << s & empty &^ once[i]
		}
		for ; to != 0; to &= to - 1 {
			t := to & -to
			f := t >> s
			if us == White {
				f = t << s
			}
			mover, free, kk := own^f^t, empty^f^t, kings|t&promo
			quiet, takes := quiet0, takes0
			if (f|t)&lines != 0 {
				quiet, takes = k.kingsOf(theirKings, mover, free)
			}
			targets := mover
			if !fixed[G]() && v.MenCannotCaptureKings {
				targets &^= kk
			}
			ul, ur, dl, dr := jumpsAlong(fixed[G]() || v.manUp[them], fixed[G]() || v.manDown[them], a, b, targets, free)
			if menTake := men&(ul|ur|dl|dr) != 0; takes && !menTake && (fixed[G]() || v.kingSearch) {
				n += uint64(k.kingsCount(mover, free, theirKings, dup, scratch))
				continue
			} else if takes || menTake {
				n += uint64(k.countTaking(g, them, opp, mover, kk, takes, dup, scratch))
				continue
			}
			n += uint64(quiet + menQuiet(them, a, b, free, men))
		}
	}
	return n
}

// menMovesAtOnce2 is menLeaves2 for menMoves2: us to move with the pieces own, the other
// side (them) with the men men and kings that cannot capture and have quiet moves, the
// kings' diagonals being lines; kings are the kings of both sides, empty the free squares.
// After a quiet move of us's men that leaves lines alone and does not crown, them's kings
// keep their moves and still cannot capture: when its men have no capture either, the move
// is counted at once. qa and qb are the squares such moves reach by steps a and b, n the
// sum of them's moves after each. A function of its own: menLeaves2 with one more
// parameter cost the positions without kings more instructions (docs/benchmarks.md, measured choices).
func (pf *perfter[G]) menMovesAtOnce2(us Color, own, men, kings, empty, lines bitboard, quiet int) (qa, qb bitboard, n uint64) {
	k := pf.k
	v := k.v
	them := us.Other()
	a, b := k.steps()
	targets := own
	if !fixed[G]() && v.MenCannotCaptureKings {
		targets &^= kings
	}
	up, down := fixed[G]() || v.manUp[them], fixed[G]() || v.manDown[them]
	if ul, ur, dl, dr := jumpsAlong(up, down, a, b, targets, empty); men&(ul|ur|dl|dr) != 0 {
		return 0, 0, 0
	}
	var over, onto bitboard // as in menLeaves2
	if up {
		over |= men>>a&(empty<<a) | men>>b&(empty<<b)
		onto |= (men>>a&targets)>>a | (men>>b&targets)>>b
	}
	if down {
		over |= men<<a&(empty>>a) | men<<b&(empty>>b)
		onto |= (men<<a&targets)<<a | (men<<b&targets)<<b
	}
	mine, slow := own&^kings, over|v.promo[us]|lines
	var sa, sb, fa, fb bitboard
	if us == White {
		qa = mine >> a & empty &^ (slow | lines>>a | men<<a | onto>>a)
		qb = mine >> b & empty &^ (slow | lines>>b | men<<b | onto>>b)
		sa, sb, fa, fb = men<<a, men<<b, qa<<a, qb<<b
	} else {
		qa = mine << a & empty &^ (slow | lines<<a | men>>a | onto<<a)
		qb = mine << b & empty &^ (slow | lines<<b | men>>b | onto<<b)
		sa, sb, fa, fb = men>>a, men>>b, qa>>a, qb>>b
	}
	q := (qa.Count()+qb.Count())*(quiet+menQuiet(them, a, b, empty, men)) +
		(sb & fa).Count() + (sa & fb).Count() - (sb & qa).Count() - (sa & qb).Count()
	return qa, qb, uint64(q)
}
