package engine

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

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
	return v.hasCapture(us, p.pieces[us.Other()], p.kings, v.board&^p.occupied(), p.pieces[us]&^p.kings, p.pieces[us]&p.kings)
}

// hasCapture is HasCapture with the position given as its boards (us to move, the other
// side's pieces targets, the kings of both sides allKings), the free squares and the
// mover's men and kings.
func (v *Variant) hasCapture(us Color, targets, allKings, empty, men, kings bitboard) bool {
	if men != 0 {
		manTargets := targets
		if v.MenCannotCaptureKings {
			manTargets &^= allKings
		}
		ul, ur, dl, dr := v.diagonalJumps(us, manTargets, empty)
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
	for _, d := range v.capDirs {
		back := opposite(d)
		reach := kings
		if !v.ShortKings {
			for g := v.sh(kings, d) & empty; g != 0; g = v.sh(g, d) & empty {
				reach |= g
			}
		}
		if reach&v.sh(targets&v.sh(empty, back), back) != 0 {
			return true
		}
	}
	return false
}

// countQuiet returns the number of non-capturing moves of p.
func (v *Variant) countQuiet(p *Position) int {
	us := p.Side
	return v.countQuietOf(us, v.board&^p.occupied(), p.pieces[us]&^p.kings, p.pieces[us]&p.kings)
}

// countQuietOf counts the quiet moves of us's men and kings over the free squares.
func (v *Variant) countQuietOf(us Color, empty, men, kings bitboard) int {
	n := v.countMenQuiet(us, empty, men)
	if kings == 0 {
		return n
	}
	for d := 0; d < 4; d++ {
		if v.ShortKings {
			n += (v.sh(kings, d) & empty).Count()
			continue
		}
		for g := v.sh(kings, d) & empty; g != 0; g = v.sh(g, d) & empty {
			n += g.Count()
		}
	}
	return n
}

// countMenQuiet counts the quiet moves of us's men over the free squares. It is small
// enough to be inlined into the leaf count: keep it so.
func (v *Variant) countMenQuiet(us Color, empty, men bitboard) int {
	a, b := v.step[upLeft]&63, v.step[upRight]&63
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
	us := p.Side
	return v.countBoards(g, us, p.pieces[us], p.pieces[us.Other()], p.kings, dup, scratch)
}

// countBoards is count with the position given as its boards: us to move, own and opp the
// pieces of us and of the other side, allKings the kings of both. Perft calls it at the
// second-to-last ply with a child's boards, without writing the child.
func (v *Variant) countBoards(g *capGen, us Color, own, opp, allKings bitboard, dup Duplicates, scratch []Move) int {
	if v.crowned(opp, allKings) {
		return 0
	}
	empty := v.board &^ (own | opp)
	men, kings := own&^allKings, own&allKings
	if kings == 0 {
		if n, ok := v.countSingleJumps(us, opp, allKings, empty, men); ok {
			if n > 0 {
				return n
			}
			return v.countMenQuiet(us, empty, men)
		}
	} else if !v.hasCapture(us, opp, allKings, empty, men, kings) {
		return v.countQuietOf(us, empty, men, kings)
	}
	var p Position
	p.pieces[us], p.pieces[us.Other()], p.kings, p.Side = own, opp, allKings, us
	return len(v.generate(g, scratch[:0], &p, dup))
}

// countSingleJumps counts the captures of us's men (us has no kings; targets are the other
// side's pieces, allKings the kings of both) when none of them can go on after its first
// jump, which is most often the case: every capture is then one jump, a move of its own
// under either duplicate convention. ok is false when some jump might go on, or when a man
// might take a king and the precedence ranks that apart: the caller generates the captures.
func (v *Variant) countSingleJumps(us Color, targets, allKings, empty, men bitboard) (n int, ok bool) {
	if v.MenCannotCaptureKings {
		targets &^= allKings
	}
	ul, ur, dl, dr := v.diagonalJumps(us, targets, empty)
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
	a, b := v.step[upLeft]&63, v.step[upRight]&63
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
	// HashMB is the size of the transposition table in MiB (0: none).
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

type perfter struct {
	v    *Variant
	dup  Duplicates
	tt   *perftTable
	bufs [][]Move
	gen  capGen
	stop *atomic.Bool // set when the run is cancelled
}

func newPerfter(v *Variant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) *perfter {
	pf := &perfter{v: v, dup: dup, tt: tt, bufs: make([][]Move, depth+1), stop: stop}
	for i := range pf.bufs {
		pf.bufs[i] = make([]Move, 0, maxMoves)
	}
	return pf
}

// perft counts the leaves below p. p is passed by value: a pointer to a child position
// would make every child escape to the heap through the recursion.
func (pf *perfter) perft(p Position, depth int) uint64 {
	if depth == 1 {
		return uint64(pf.v.count(&pf.gen, &p, pf.dup, pf.bufs[0]))
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
	moves := pf.v.generate(&pf.gen, pf.bufs[depth][:0], &p, pf.dup)
	var n uint64
	if pf.tt == nil || depth == 3 {
		// No table reads these children's hash (there is none, or they are at depth 2):
		// each is written from its boards, without it.
		us, them := p.Side, p.Side.Other()
		own, opp, kings := p.pieces[us], p.pieces[them], p.kings
		for _, m := range moves {
			var c Position
			c.pieces[us], c.pieces[them], c.kings = after(own, opp, kings, m)
			c.Side = them
			n += pf.perft(c, depth-1)
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
func (pf *perfter) perft2(p *Position) uint64 {
	v, g, dup, scratch := pf.v, &pf.gen, pf.dup, pf.bufs[0]
	us, them := p.Side, p.Side.Other()
	own, opp, kings := p.pieces[us], p.pieces[them], p.kings
	if v.crowned(opp, kings) {
		return 0
	}
	var n uint64
	if moves := v.generateCaptures(g, pf.bufs[2][:0], p); len(moves) > 0 {
		if dup == Unique {
			moves = dedupe(moves, 0)
		}
		for _, m := range moves {
			mover, other, k := after(own, opp, kings, m)
			n += uint64(v.countBoards(g, them, other, mover, k, dup, scratch))
		}
		return n
	}
	empty := v.board &^ (own | opp)
	for _, d := range v.fwd[us] {
		back := opposite(d)
		for t := v.sh(own&^kings, d) & empty; t != 0; t &= t - 1 {
			to := t & -t
			k := kings | to&v.promo[us]
			n += uint64(v.countBoards(g, them, opp, own&^v.sh(to, back)|to, k, dup, scratch))
		}
	}
	for kk := own & kings; kk != 0; kk &= kk - 1 {
		from := kk & -kk
		for d := 0; d < 4; d++ {
			for to := v.sh(from, d) & empty; to != 0; to = v.sh(to, d) & empty {
				n += uint64(v.countBoards(g, them, opp, own&^from|to, kings&^from|to, dup, scratch))
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
