package board

import "slices"

// Duplicates is the convention for capture sequences that take the same pieces, by the
// same piece, from the same square to the same square, in a different order (round a ring
// one way and the other). For the rules of the game they are one move.
type Duplicates uint8

const (
	// Unique counts such sequences once: the rules' view, and the one Generate uses.
	Unique Duplicates = iota
	// Keep counts every order as its own move, as the published english lists do. A flying
	// king that may stop on several squares behind a piece and goes on straight ahead is
	// counted once, not once per square it could have stopped on (docs/rules.md#perft).
	Keep
	// Paths counts every path: every order, and a flying king that may stop on several
	// squares behind a piece and goes on straight ahead once per square it could have
	// stopped on, as the published turkish list (kish) does (docs/rules.md#perft). Perft
	// counts it by generating every move (the kernels count Keep and Unique only).
	Paths
)

// String returns "unique", "keep" or "paths".
func (d Duplicates) String() string {
	switch d {
	case Keep:
		return "keep"
	case Paths:
		return "paths"
	}
	return "unique"
}

// capGen holds the state of one capture search.
type capGen struct {
	v          *Variant
	dst        []Move
	start      int      // where this position's captures begin in dst
	from       Index    // square the capturing piece started on
	king       bool     // the capturing piece was a king when the move began
	crowned    bool     // the capturing man was crowned during this sequence (russian)
	empty      bitboard // free squares (the mover's start square included)
	opp        bitboard // the opponent's pieces
	oppKings   bitboard
	manTargets bitboard // pieces a man may capture (opp, or opp men)
	manDirs    []int
	up, down   bool // men capture up the board, down the board
	promo      bitboard
	best       uint64
	// everyLanding: a flying king goes on straight ahead from every square it may stop
	// on behind a piece, not from the last one only (Paths)
	everyLanding bool

	// record mode (for notation): the landing squares so far, and one path per move in dst;
	// with want set (isPath), instead of the paths, hits tells for each move in dst whether
	// its path is want
	record bool
	path   []Index
	paths  [][]Index
	want   []Index
	hits   []bool
}

// Generate appends the legal moves of p to dst and returns the extended slice. Captures are
// compulsory: when there is one, only captures (those the variant's precedence allows) are
// generated. Sequences that differ only in the order of the same captured pieces are one move.
func (v *Variant) Generate(dst []Move, p *Position) []Move {
	return v.GenerateDup(dst, p, Unique)
}

// GenerateDup is Generate with a choice of duplicate-capture convention (for perft).
func (v *Variant) GenerateDup(dst []Move, p *Position, dup Duplicates) []Move {
	return v.k.generateDup(dst, *p, dup)
}

// legalMoves is Generate on the board's own representation.
func (v *Variant) legalMoves(dst []Move, p *Position) []Move {
	var g capGen
	return v.generate(&g, dst, p, Unique)
}

// generate is GenerateDup with the capture search's scratch space supplied by the caller.
func (v *Variant) generate(g *capGen, dst []Move, p *Position, dup Duplicates) []Move {
	if v.crowned(p.pieces[p.Side.Other()], p.kings) {
		return dst
	}
	n := len(dst)
	g.everyLanding = dup == Paths
	dst = v.generateCaptures(g, dst, p)
	g.everyLanding = false
	if len(dst) > n {
		if dup == Unique {
			dst = dedupe(dst, n)
		}
		return dst
	}
	return v.generateQuiet(dst, p)
}

// crowned reports whether the game is over because the side that just moved, whose pieces
// are moved, has a king in a variant where crowning wins (Rules.PromotionWins); kings are
// the kings of both sides. The side to move then has no legal move.
func (v *Variant) crowned(moved, kings bitboard) bool {
	return v.PromotionWins && moved&kings != 0
}

// dedupe removes repeated moves from dst[start:].
func dedupe(dst []Move, start int) []Move {
	if len(dst)-start < 2 {
		return dst
	}
	out := start
	for i := start; i < len(dst); i++ {
		m := dst[i]
		dup := false
		for j := start; j < out; j++ {
			if dst[j] == m {
				dup = true
				break
			}
		}
		if !dup {
			dst[out] = m
			out++
		}
	}
	return dst[:out]
}

func (v *Variant) generateQuiet(dst []Move, p *Position) []Move {
	us := p.Side
	empty := v.board &^ p.occupied()
	men := p.men(us)
	for _, d := range v.stepDirs[us] {
		step := int(v.step[d])
		if v.rsh[d&7] != 0 { // towards the lower indices
			step = -step
		}
		for t := v.sh(men, d) & empty; t != 0; t &= t - 1 {
			to := t.First()
			dst = append(dst, Move{From: Index(int(to) - step), To: to, flags: promotes(v.promo[us].Has(to))})
		}
	}
	for k := p.kingsOf(us); k != 0; k &= k - 1 {
		from := k.First()
		for _, d := range v.kingDirs {
			for s := v.sh(bit(from), d) & empty; s != 0; s = v.sh(s, d) & empty {
				dst = append(dst, Move{From: from, To: s.First()})
				if v.ShortKings {
					break
				}
			}
		}
	}
	return dst
}

// shift moves every square of b one step in direction d; squares that leave the board or
// land on a ghost square are dropped.
func (v *Variant) shift(b bitboard, d int) bitboard { return v.sh(b, d) & v.board }

// sh moves every square of b one step in direction d without masking: callers intersect
// the result with a set of real squares, which drops what left the board or fell on a
// ghost square.
func (v *Variant) sh(b bitboard, d int) bitboard {
	return b << (v.lsh[d&7] & 63) >> (v.rsh[d&7] & 63)
}

// diagonalJumps returns the squares from which a man of us would jump along each
// diagonal over a piece of targets onto a free square, wherever it stands: a man jumps
// up-left from s when s>>a is a target and s>>2a is free (a = the up-left step), and so
// on. The directions men of us do not capture in are empty. The shifts may bring in
// squares off the board: callers intersect the sets with real squares.
func (v *Variant) diagonalJumps(us Color, targets, empty bitboard) (ul, ur, dl, dr bitboard) {
	return jumpsAlong(v.manUp[us], v.manDown[us], v.step[upLeft]&63, v.step[upRight]&63, targets, empty)
}

// jumpsAlong is diagonalJumps for men that capture up and down the board or not, on a
// board of up-left step a and up-right step b. It is small enough to be inlined, which
// counts at the leaves of perft (keep it so): into perftKernel's instances, whose steps are
// constants, it brings shifts by constants.
func jumpsAlong(up, down bool, a, b uint, targets, empty bitboard) (ul, ur, dl, dr bitboard) {
	if up {
		ul = (targets & (empty << a)) << a
		ur = (targets & (empty << b)) << b
	}
	if down {
		dl = (targets & (empty >> b)) >> b
		dr = (targets & (empty >> a)) >> a
	}
	return ul, ur, dl, dr
}

// init prepares g for a capture search in p that appends to dst.
func (g *capGen) init(v *Variant, dst []Move, p *Position) {
	us, them := p.Side, p.Side.Other()
	g.v, g.dst, g.start = v, dst, len(dst)
	g.opp = p.pieces[them]
	g.oppKings = p.pieces[them] & p.kings
	g.manDirs = v.manDirs[us]
	g.up, g.down = v.manUp[us], v.manDown[us]
	g.promo = v.promo[us]
	g.manTargets = g.opp
	if v.MenCannotCaptureKings {
		g.manTargets &^= p.kings
	}
}

func (v *Variant) generateCaptures(g *capGen, dst []Move, p *Position) []Move {
	us := p.Side
	empty := v.board &^ p.occupied()
	g.init(v, dst, p)
	if men := p.men(us); men != 0 {
		// the men one step before a target that has a free square behind it, per direction
		// in the order of manDirs: the diagonals, then the orthogonals (frisian)
		var jumpers [8]bitboard
		jumpers[upLeft], jumpers[upRight], jumpers[downLeft], jumpers[downRight] = v.diagonalJumps(us, g.manTargets, empty)
		n := 4
		if v.OrthogonalCaptures {
			n = 8
			for _, d := range g.manDirs {
				if back := opposite(d); d >= left {
					jumpers[d] = v.sh(g.manTargets&v.sh(empty, back), back)
				}
			}
		}
		for d, j := range jumpers[:n] {
			for j &= men; j != 0; j &= j - 1 {
				from := j.First()
				g.from, g.king = from, false
				g.empty = empty | bit(from)
				mid := v.sh(bit(from), d)
				g.manJump(mid, v.sh(mid, d), 0, 0, d)
			}
		}
	}
	for k := p.kingsOf(us); k != 0; k &= k - 1 {
		from := k.First()
		g.from, g.king = from, true
		g.empty = empty | bit(from)
		g.kingCaptures(bit(from), 0, 0, noDir)
	}
	return g.dst
}

// add records a complete capture sequence.
func (g *capGen) add(to bitboard, captured bitboard, order uint64, promote bool) {
	if prec := g.v.Precedence; prec != nil {
		r := prec(CaptureSummary{
			King:   g.king,
			Pieces: captured.Count(),
			Kings:  (captured & g.oppKings).Count(),
			Order:  order,
		})
		switch {
		case len(g.dst) == g.start:
			g.best = r
		case r < g.best:
			return
		case r > g.best:
			g.best = r
			g.dst = g.dst[:g.start]
			g.paths = g.paths[:0]
			g.hits = g.hits[:0]
		}
	}
	g.dst = append(g.dst, Move{From: g.from, To: to.First(), flags: promotes(promote || g.crowned), captured: captured})
	if g.record {
		if g.want != nil {
			g.hits = append(g.hits, g.onWantedPath())
		} else {
			g.paths = append(g.paths, append([]Index{g.from}, g.path...))
		}
	}
}

// onWantedPath reports whether the path so far, from g.from, is g.want.
func (g *capGen) onWantedPath() bool {
	return len(g.want) == len(g.path)+1 && g.want[0] == g.from && slices.Equal(g.want[1:], g.path)
}

func (g *capGen) push(s bitboard) {
	if g.record {
		g.path = append(g.path, s.First())
	}
}

func (g *capGen) pop() {
	if g.record {
		g.path = g.path[:len(g.path)-1]
	}
}

// manCaptures extends a man's capture sequence standing on s, having captured the pieces in
// captured (order: which of them were kings); prev is the direction of the last jump (noDir
// at the start). It reports whether any capture was found from s.
func (g *capGen) manCaptures(s, captured bitboard, order uint64, prev int) bool {
	v := g.v
	found := false
	if v.OrthogonalCaptures {
		for _, d := range g.manDirs {
			if d == opposite(prev) {
				continue
			}
			mid := v.sh(s, d) & g.manTargets &^ captured
			if mid == 0 {
				continue
			}
			land := v.sh(mid, d) & g.empty
			if land == 0 {
				continue
			}
			found = true
			g.manJump(mid, land, captured, order, d)
		}
		return found
	}
	// The diagonals with fixed shifts, in the order of manDirs: a jump up-left takes the
	// target on s>>a and lands on s>>2a (a = the up-left step), and so on. The jump back
	// (opposite to prev) needs no test: the piece it would take is in captured.
	a, b := v.step[upLeft]&63, v.step[upRight]&63
	targets := g.manTargets &^ captured
	if g.up {
		if land := ((s >> a) & targets) >> a & g.empty; land != 0 {
			found = true
			g.manJump(land<<a, land, captured, order, upLeft)
		}
		if land := ((s >> b) & targets) >> b & g.empty; land != 0 {
			found = true
			g.manJump(land<<b, land, captured, order, upRight)
		}
	}
	if g.down {
		if land := ((s << b) & targets) << b & g.empty; land != 0 {
			found = true
			g.manJump(land>>b, land, captured, order, downLeft)
		}
		if land := ((s << a) & targets) << a & g.empty; land != 0 {
			found = true
			g.manJump(land>>a, land, captured, order, downRight)
		}
	}
	return found
}

// manJump plays a man's jump over mid onto land in direction d and everything that follows.
func (g *capGen) manJump(mid, land, captured bitboard, order uint64, d int) {
	v := g.v
	caps := captured | mid
	if mid&g.oppKings != 0 {
		order |= 1 << uint(captured.Count())
	}
	if v.RemoveAtOnce {
		g.empty |= mid
	}
	g.push(land)
	switch {
	case land&g.promo == 0 || v.Promotion == PromoteAtEnd:
		if !g.manCaptures(land, caps, order, d) {
			g.add(land, caps, order, land&g.promo != 0)
		}
	case v.Promotion == PromoteAndStop:
		g.add(land, caps, order, true)
	default: // PromoteAndContinue: crowned at once, goes on as a king
		g.crowned = true
		if !g.kingCaptures(land, caps, order, d) {
			g.add(land, caps, order, true)
		}
		g.crowned = false
	}
	g.pop()
	if v.RemoveAtOnce {
		g.empty &^= mid
	}
}

// kingCaptures extends a king's capture sequence standing on s; see manCaptures.
func (g *capGen) kingCaptures(s, captured bitboard, order uint64, prev int) bool {
	found := false
	for _, d := range g.v.capDirs {
		if d == opposite(prev) && !g.v.KingCanReverse() {
			continue
		}
		if g.kingJump(s, captured, order, d) {
			found = true
		}
	}
	return found
}

// ray returns what a flying piece on i sees in direction d over the free squares empty:
// the free squares up to the first occupied one, and that square (none at the edge).
func (v *Variant) ray(i Index, d int, empty bitboard) (free, stop bitboard) {
	r := v.rays[d&7][i]
	occupied := r &^ empty
	if occupied == 0 {
		return r, 0
	}
	var n Index
	if v.rsh[d&7] != 0 { // towards lower indices: the nearest is the highest
		n = occupied.last()
	} else {
		n = occupied.First()
	}
	stop = bitOf(n)
	return r &^ v.rays[d&7][n] &^ stop, stop
}

// kingJump tries a king's capture from s in direction d and everything that follows it.
func (g *capGen) kingJump(s, captured bitboard, order uint64, d int) bool {
	v := g.v
	var x, landings bitboard // the piece to capture; the free squares behind it
	if v.ShortKings {
		x = v.sh(s, d)
		landings = v.sh(x, d) & g.empty
	} else {
		_, x = v.ray(s.First(), d, g.empty)
		if x&g.opp&^captured == 0 {
			return false
		}
		landings, _ = v.ray(x.First(), d, g.empty)
	}
	if x&g.opp&^captured == 0 || landings == 0 {
		return false
	}
	// The landing squares: the first, and for a flying king every free square after it.
	first, last := landings, landings
	if v.ShortKings || v.LandRightBehind {
		first = v.sh(x, d)
		landings, last = first, first
	} else if v.rsh[d&7] != 0 { // towards lower indices
		first, last = bitOf(landings.last()), bitOf(landings.First())
	} else {
		first, last = bitOf(landings.First()), bitOf(landings.last())
	}
	caps := captured | x
	ord := order
	if x&g.oppKings != 0 {
		ord |= 1 << uint(captured.Count())
	}
	if v.RemoveAtOnce {
		g.empty |= x
	}
	// The sequence must be completed: when the king can go on from some landing squares, it
	// may stop only on those. Turning happens from any landing square; going on straight
	// ahead is searched once.
	cont := false
	for l := landings; l != 0; l &= l - 1 {
		sq := bit(l.First())
		g.push(sq)
		for _, t := range v.turns[d] {
			if g.kingJump(sq, caps, ord, t) {
				cont = true
			}
		}
		g.pop()
	}
	if g.everyLanding { // (Paths: from the other landing squares too)
		for l := landings &^ last; l != 0; l &= l - 1 {
			sq := bit(l.First())
			g.push(sq)
			if g.kingJump(sq, caps, ord, d) {
				cont = true
			}
			g.pop()
		}
	}
	g.push(last)
	if g.kingJump(last, caps, ord, d) {
		cont = true
	}
	g.pop()
	if v.KingCanReverse() {
		g.push(first)
		if g.kingJump(first, caps, ord, opposite(d)) {
			cont = true
		}
		g.pop()
	}
	if !cont {
		if v.HaltBehindKing && x&g.oppKings != 0 {
			landings = first // the capture ends with a king: right behind it (killer)
		}
		for l := landings; l != 0; l &= l - 1 {
			sq := bit(l.First())
			g.push(sq)
			g.add(sq, caps, ord, false)
			g.pop()
		}
	}
	if v.RemoveAtOnce {
		g.empty &^= x
	}
	return true
}
