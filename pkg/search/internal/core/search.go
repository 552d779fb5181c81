package core

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/rafle/rafle/pkg/internal/board"
)

// The search is an iterative-deepening negamax alpha-beta with principal variation search,
// aspiration windows (iterate), late-move reductions (reduction; none with
// Limits.FullWidth), a transposition table, and move ordering by the table's move, captures
// (largest first), promotions, two killer moves per ply and a history table. A node with a
// single legal move does not count against the depth. At depth 0 a quiescence search
// follows captures to the end: captures are compulsory, so a side that has one never stands
// pat; a side without one stands on the static evaluation (or loses when it has no move at
// all). When the variant has a repetition rule, a position that occurred before in the game
// or on the search path (since the last capture or man move) scores as a draw at its second
// occurrence; so do the variant's move counters and special endings (DrawRules). Apart from the time and context limits the
// search is deterministic: the same Searcher state, game and Limits give the same result.
// With an endgame database (SetTablebase), a position below the root with few enough
// pieces is not searched but scored from it (tablebase.go).
//
// With Limits.Threads above 1 the search is a lazy SMP: helper threads (helper) search the
// same root at depths staggered as Stockfish 9's (helperSkip) into the same transposition
// table, each with its own killers and history, until the main thread ends; the main
// thread's result is returned. The table is shared without a lock: each entry is stored as
// words written and read atomically, its key XORed with the others (ttSlot), so that an
// entry torn by two threads writing at once does not match its key and reads as empty.
// Such a search depends on the threads' timing; with one thread the search is exactly the
// single-threaded one.

// Score bounds. A score above MateScore-MaxWin is a win in MateScore-score plies; below
// -(MateScore-MaxWin) a loss in MateScore+score plies. A win found by the search alone is
// within MaxPly plies; one that an endgame database knows may be longer. A score above
// TBWin-TBSpread is a win that the database holds without its distance (TBWin plus a
// bounded evaluation, so that the search still makes progress); below -(TBWin-TBSpread) such
// a loss. The static evaluation stays within EvalBound.
const (
	// MateScore is the score of a side to move that has already won (never reached: a win
	// in n plies scores MateScore-n).
	MateScore = 30000
	// MaxDepth is the deepest nominal depth Search iterates to.
	MaxDepth = 64
	// MaxPly bounds the plies of the main search and the quiescence search together.
	MaxPly = 128
	// MaxWin bounds the plies of a win or loss whose distance is known: the search's own
	// (below MaxPly) and the endgame database's (a longer one counts as MaxWin-1 plies).
	MaxWin = 1024
	// TBWin is the score of a win that the endgame database holds without its distance,
	// give or take TBSpread (the evaluation of the position, bounded).
	TBWin    = 26000
	TBSpread = 1000
	// EvalBound bounds the static evaluation.
	EvalBound = 20000
)

const infinity = MateScore + 1

// Limits bounds one search. The zero value has no limit other than MaxDepth. Depth and
// Nodes give the same result on every run; MoveTime and the context do not.
type Limits struct {
	// Depth is the maximum nominal depth in plies (0: MaxDepth).
	Depth int
	// Nodes is the maximum number of nodes visited (0: no limit); the search never exceeds it.
	Nodes int64
	// MoveTime is the time allowed for the search (0: no limit). No new iteration starts
	// after half of it has gone.
	MoveTime time.Duration
	// NoQuiescence evaluates the leaves statically instead of following captures.
	NoQuiescence bool
	// FullWidth searches every move to the full depth (no late-move reductions). The
	// levels set it, so that their depth is the specification's (with the reductions a
	// fixed depth plays weaker: english at depth 4, -74 Elo in 200 games).
	FullWidth bool
	// Threads is the number of threads that search, sharing the transposition table (0 or
	// 1: one), at most the machine's CPUs whatever is asked. With more than one the search
	// depends on the threads' timing, and Nodes bounds the main thread's nodes only.
	Threads int
}

// SearchResult is the outcome of a search.
type SearchResult struct {
	// Move is the move chosen; the zero Move when the side to move has no legal move.
	Move board.Move
	// Score is the score of Move for the side to move, in hundredths of a man (see MateScore).
	Score int
	// Depth is the last depth completed (0 when the root had a single legal move, or when
	// not even depth 1 completed within the limits).
	Depth int
	// Nodes is the number of nodes visited (main and quiescence search), by every thread.
	Nodes int64
	// PV is the principal variation, starting with Move.
	PV []board.Move
	// Elapsed is the time the search took.
	Elapsed time.Duration
	// Random is set when a player chose Move at random instead of searching.
	Random bool
}

// TT entry bounds.
const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

type ttEntry struct {
	key   uint64
	move  board.Move
	score int32
	depth int8
	bound uint8
}

// ttWords is the size of a ttEntry in 64-bit words (a whole number of them: see
// TestTTEntryWords).
const ttWords = unsafe.Sizeof(ttEntry{}) / 8

// ttSlot is a ttEntry as the table stores it. While threads share the table (a search with
// Limits.Threads above 1) its words are read and written atomically, the first (the key)
// XORed with the others, so that an entry that two threads wrote at once does not check
// against its key: it reads as empty. A single thread stores the entry as it is (atomic
// stores cost the single-threaded search about 10%, the XOR a few percent of selfplay's
// instructions); an entry stored in the other form reads as another key, a miss.
type ttSlot [ttWords]uint64

// ttLoad returns the entry in the slot of hash, whatever its key (an empty or torn one has
// bound 0 or another key).
func (s *searcher) ttLoad(hash uint64) ttEntry {
	slot := &s.tt[hash&s.ttMask]
	if !s.shared {
		return *(*ttEntry)(unsafe.Pointer(slot))
	}
	var e ttEntry
	w := (*[ttWords]uint64)(unsafe.Pointer(&e))
	for i := range w {
		w[i] = atomic.LoadUint64(&slot[i])
	}
	for i := 1; i < int(ttWords); i++ {
		w[0] ^= w[i]
	}
	return e
}

// ttStore stores e in the slot of its key.
func (s *searcher) ttStore(e ttEntry) {
	slot := &s.tt[e.key&s.ttMask]
	if !s.shared {
		*(*ttEntry)(unsafe.Pointer(slot)) = e
		return
	}
	w := (*[ttWords]uint64)(unsafe.Pointer(&e))
	for i := 1; i < int(ttWords); i++ {
		w[0] ^= w[i]
	}
	for i := range w {
		atomic.StoreUint64(&slot[i], w[i])
	}
}

// searcher is the search's state on a board of up to 64 bits; widegen makes its wide
// instance, wideSearcher.
type searcher struct {
	v      *board.Variant
	t      *evalTables
	w      [numFeatures]float64
	iw     [numFeatures]int // w as integers, when intW (see intWeights)
	intW   bool
	pat    *patternEval // the pattern term (nil: none)
	tt     []ttSlot     // shared with the helpers
	ttMask uint64

	helpers []*searcher // the helper threads of the last search with several
	shared  bool        // whether helpers search with s (the table is shared)

	killers [MaxPly][2]board.Move
	history [2][board.NarrowIndices][board.NarrowIndices]int32

	// the current search
	ctx       context.Context
	done      <-chan struct{}
	deadline  time.Time
	timed     bool
	nodeLimit int64
	nodes     int64
	stopped   bool
	noQS      bool
	noPrune   bool     // Limits.FullWidth
	hist      []uint64 // hashes of the game since its last irreversible move, then the path
	moves     [MaxPly][]board.Move
	scores    [MaxPly][]int32
	// child[ply] is the position searched at ply (ply > 0), played in place from its
	// parent's: a child that is a local of the recursive search would go to the heap
	child     [MaxPly]board.Position
	draw      [MaxPly]board.DrawState // the draw state of the position at each ply, likewise
	pv        [MaxPly][MaxPly]board.Move
	pvLen     [MaxPly]int
	rootBest  board.Move
	rootScore int
	rootFound bool
	rootHint  board.Move // the best move of the last completed iteration, searched first
	window    [2]int     // the last window that iterate searched the root in
	hasHint   bool

	// the endgame database: positions of up to tbPieces pieces below the root are scored
	// from tb (0: none)
	tb       Tablebase
	tbPieces int
}

// init prepares s for v with the weights values, the pattern weights pats and a table of
// about hashMB MiB.
func (s *searcher) init(v *board.Variant, values map[string]float64, pats []int16, hashMB int) {
	s.v, s.t = v, tablesFor(v)
	s.pat = newPatternEval(v, pats)
	s.w = weightVector(values, s.t.featureSet)
	s.iw, s.intW = intWeights(&s.w)
	if hashMB < 1 {
		hashMB = 1
	}
	n := uint64(1)
	for n*2*uint64(unsafe.Sizeof(ttSlot{})) <= uint64(hashMB)<<20 {
		n *= 2
	}
	s.tt = make([]ttSlot, n)
	s.ttMask = n - 1
	s.initStacks()
}

// initStacks allocates the move lists of each ply.
func (s *searcher) initStacks() {
	for i := range s.moves {
		s.moves[i] = make([]board.Move, 0, 64)
		s.scores[i] = make([]int32, 0, 64)
	}
}

// clear is Clear on the board's own representation.
func (s *searcher) clear() {
	clear(s.tt)
	for _, h := range append([]*searcher{s}, s.helpers...) {
		h.killers = [MaxPly][2]board.Move{}
		h.history = [2][board.NarrowIndices][board.NarrowIndices]int32{}
	}
}

// helper returns the i-th helper thread of s (from 0), made on first use: it shares the
// weights, the table and the endgame database of s, and has its own killers and history.
func (s *searcher) helper(i int) *searcher {
	for len(s.helpers) <= i {
		h := &searcher{v: s.v, t: s.t, w: s.w, iw: s.iw, intW: s.intW, pat: s.pat, tt: s.tt, ttMask: s.ttMask,
			shared: true}
		h.initStacks()
		s.helpers = append(s.helpers, h)
	}
	h := s.helpers[i]
	h.tb, h.tbPieces = s.tb, s.tbPieces
	h.hist = append(h.hist[:0], s.hist...)
	return h
}

// maxThreads bounds Limits.Threads: the machine's CPUs (a variable for the tests).
var maxThreads = runtime.NumCPU()

// Stockfish 9's staggering of the helper threads' depths (search.cpp, SkipSize and
// SkipPhase): helper i (from 0, modulo 20) skips the depths d with
// (d+helperPhase[i])/helperSize[i] odd, so that the threads spread over the next depths.
var (
	helperSize  = [20]int{1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4}
	helperPhase = [20]int{0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7}
)

// helperSkip reports whether helper i skips depth.
func helperSkip(i, depth int) bool {
	i %= len(helperSize)
	return (depth+helperPhase[i])/helperSize[i]%2 != 0
}

// help is the work of helper i: iterative deepening of root, with the depths of
// helperSkip, up to maxDepth or until ctx ends. It returns the nodes it visited.
func (s *searcher) help(ctx context.Context, i int, root board.Position, draw board.DrawState, lim Limits, maxDepth int) int64 {
	s.begin(ctx, time.Time{}, draw, Limits{NoQuiescence: lim.NoQuiescence, FullWidth: lim.FullWidth})
	score := 0
	for depth := 1; depth <= maxDepth && !s.stopped; depth++ {
		if helperSkip(i, depth) {
			continue
		}
		score = s.iterate(&root, depth, score)
		if !s.stopped && s.pvLen[0] > 0 {
			s.rootHint, s.hasHint = s.pv[0][0], true
		}
	}
	return s.nodes
}

// evaluate is Evaluate on the board's own representation.
func (s *searcher) evaluate(p *board.Position) int {
	const bound = EvalBound
	if s.intW {
		// the float sum below would be this integer exactly, and round to itself
		return max(-bound, min(bound, s.t.evaluateInt(s.v, &s.iw, p)+s.pat.score(p)))
	}
	sum := s.t.evaluate(s.v, &s.w, p) + float64(s.pat.score(p))
	if sum >= 0 {
		sum += 0.5
	} else {
		sum -= 0.5
	}
	e := int(sum)
	return max(-bound, min(bound, e))
}

// run searches root, whose draw state is draw, after the game whose hashes are in s.hist.
func (s *searcher) run(ctx context.Context, start time.Time, root board.Position, draw board.DrawState, lim Limits) SearchResult {
	s.begin(ctx, start, draw, lim)
	res := SearchResult{}
	legal := board.Restrict(s.v, board.Moves(s.v, nil, &root), &s.draw[0], &root)
	if len(legal) == 0 {
		res.Score = noMoveScore(&s.v.Rules, 0)
		res.Elapsed = time.Since(start)
		return res
	}
	res.Move = legal[0]
	res.PV = []board.Move{legal[0]}
	if len(legal) == 1 {
		res.Score = s.evaluate(&root)
		res.Elapsed = time.Since(start)
		return res
	}
	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxDepth {
		maxDepth = MaxDepth
	}
	s.shared = false
	if threads := min(lim.Threads, maxThreads); threads > 1 {
		s.shared = true
		hctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		nodes := make([]int64, threads-1)
		for i := range nodes {
			h := s.helper(i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				nodes[i] = h.help(hctx, i, root, draw, lim, maxDepth)
			}()
		}
		res = s.deepen(start, &root, lim, maxDepth, res)
		cancel()
		wg.Wait()
		for _, n := range nodes {
			res.Nodes += n
		}
		res.Elapsed = time.Since(start)
		return res
	}
	return s.deepen(start, &root, lim, maxDepth, res)
}

// begin prepares s for a search within lim that started at start, of a root whose draw
// state is draw.
func (s *searcher) begin(ctx context.Context, start time.Time, draw board.DrawState, lim Limits) {
	s.ctx, s.done = ctx, ctx.Done()
	s.timed = false
	if lim.MoveTime > 0 {
		s.deadline, s.timed = start.Add(lim.MoveTime), true
	}
	if dl, ok := ctx.Deadline(); ok && (!s.timed || dl.Before(s.deadline)) {
		s.deadline, s.timed = dl, true
	}
	s.nodeLimit = lim.Nodes
	s.nodes = 0
	s.stopped = false
	s.noQS = lim.NoQuiescence
	s.noPrune = lim.FullWidth
	s.draw[0] = draw
	s.hasHint = false
}

// deepen is run's iterative deepening of root up to maxDepth, from res (the first legal
// move).
func (s *searcher) deepen(start time.Time, root *board.Position, lim Limits, maxDepth int, res SearchResult) SearchResult {
	for depth := 1; depth <= maxDepth; depth++ {
		score := s.iterate(root, depth, res.Score)
		if s.stopped {
			if s.rootFound {
				// the first root move searched is the previous best (rootHint),
				// so a move that beat it in the unfinished iteration is better still
				res.Move, res.Score = s.rootBest, s.rootScore
				if len(res.PV) == 0 || res.PV[0] != res.Move {
					res.PV = []board.Move{res.Move}
				}
			}
			break
		}
		res.Depth = depth
		res.Score = score
		res.PV = append(res.PV[:0], s.pv[0][:s.pvLen[0]]...)
		if len(res.PV) > 0 {
			res.Move = res.PV[0]
			s.rootHint, s.hasHint = res.Move, true
		}
		if score > MateScore-MaxWin || score < -(MateScore-MaxWin) {
			if MateScore-abs(score) <= depth {
				break // a forced result within the horizon: deeper searches cannot change it
			}
		}
		if lim.MoveTime > 0 && time.Since(start) > lim.MoveTime/2 {
			break
		}
	}
	res.Nodes = s.nodes
	res.Elapsed = time.Since(start)
	return res
}

// Aspiration windows: from depth aspireDepth on, an iteration first searches a window of
// aspireDelta around the score of the one before, and widens it (doubling, to the full
// window) on the side that fails.
const (
	aspireDepth = 5
	aspireDelta = 20
)

// iterate searches root to depth, within an aspiration window around prev (the score of
// the iteration before) when depth is at least aspireDepth.
func (s *searcher) iterate(root *board.Position, depth, prev int) int {
	alpha, beta := -infinity, infinity
	delta := aspireDelta
	if depth >= aspireDepth && prev < EvalBound && prev > -EvalBound {
		alpha, beta = prev-delta, prev+delta
	}
	for {
		s.rootFound = false
		s.window = [2]int{alpha, beta}
		score := s.search(root, depth, 0, alpha, beta, 0)
		switch {
		case s.stopped:
			return score
		case score <= alpha && alpha > -infinity:
			alpha = max(score-delta, -infinity)
		case score >= beta && beta < infinity:
			beta = min(score+delta, infinity)
		default:
			return score
		}
		delta *= 2
		if delta > 4*aspireDelta*aspireDelta {
			alpha, beta = -infinity, infinity
		}
	}
}

// noMoveScore is the score at ply of a side to move without a legal move: a loss, or a
// win where having no move wins (Rules.NoMoveWins).
func noMoveScore(r *board.Rules, ply int) int {
	if r.NoMoveWins {
		return MateScore - ply
	}
	return -(MateScore - ply)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// visit counts a node and reports whether the search must stop.
func (s *searcher) visit() bool {
	if s.stopped {
		return true
	}
	if s.nodeLimit > 0 && s.nodes >= s.nodeLimit {
		s.stopped = true
		return true
	}
	s.nodes++
	if s.nodes&1023 == 0 {
		select {
		case <-s.done:
			s.stopped = true
			return true
		default:
		}
		if s.timed && !time.Now().Before(s.deadline) {
			s.stopped = true
			return true
		}
	}
	return false
}

// repeated reports whether the position on top of s.hist occurred before at or after index
// from (the first position after the last irreversible move), with the same side to move.
func (s *searcher) repeated(from int) bool {
	n := len(s.hist) - 1
	h := s.hist[n]
	for i := n - 2; i >= from; i -= 2 {
		if s.hist[i] == h {
			return true
		}
	}
	return false
}

func ttScore(score, ply int) int32 {
	switch {
	case score > MateScore-MaxWin:
		score += ply
	case score < -(MateScore - MaxWin):
		score -= ply
	}
	return int32(score)
}

func fromTT(score int32, ply int) int {
	x := int(score)
	switch {
	case x > MateScore-MaxWin:
		x -= ply
	case x < -(MateScore - MaxWin):
		x += ply
	}
	return x
}

// search is the main alpha-beta search of p, whose draw state is s.draw[ply]; from is the
// index in s.hist of the first position after the last irreversible move (p itself is
// s.hist's last entry).
func (s *searcher) search(p *board.Position, depth, ply, alpha, beta int, from int) int {
	ds := &s.draw[ply]
	s.pvLen[ply] = ply
	if s.visit() {
		return 0
	}
	if ply > 0 {
		// a repeated position had a move when it occurred before; the counted draws
		// come after the loss of a side without a move
		if s.v.Draw.Repetition > 0 && s.repeated(from) || board.Drawn(ds, &s.v.Rules) && board.HasMoves(s.v, p) {
			return 0
		}
		if s.tbPieces > 0 && board.Occupied(p).Count() <= s.tbPieces {
			// a win or loss without distance is searched on, so that the search sees
			// its way: the database's value only bounds it
			if score, exact, ok := s.probe(p, ply); ok {
				switch {
				case exact:
					return score
				case depth <= 0:
					if !board.HasMoves(s.v, p) {
						// a loss without distance may be the end itself: score it as the
						// end, so that the search sees the shortest way to it
						return noMoveScore(&s.v.Rules, ply)
					}
					return score
				case score > 0 && TBWin-TBSpread >= beta:
					return TBWin - TBSpread
				case score < 0 && -(TBWin-TBSpread) <= alpha:
					return -(TBWin - TBSpread)
				}
			}
		}
	}
	if depth <= 0 {
		if board.Held(s.v, ds, p) && !board.HasCapture(s.v, p) && len(board.Restrict(s.v, board.Moves(s.v, s.moves[ply][:0], p), ds, p)) == 0 {
			return noMoveScore(&s.v.Rules, ply) // the held king was the only piece that could move
		}
		return s.qbody(p, ply, alpha, beta)
	}
	moves := board.Restrict(s.v, board.Moves(s.v, s.moves[ply][:0], p), ds, p)
	s.moves[ply] = moves
	if len(moves) == 0 {
		return noMoveScore(&s.v.Rules, ply)
	}
	if ply >= MaxPly-1 {
		return s.evaluate(p)
	}
	pvNode := beta-alpha > 1

	// transposition table
	var ttMove board.Move
	hasTT := false
	if e := s.ttLoad(p.Hash); e.key == p.Hash && e.bound != 0 {
		ttMove, hasTT = e.move, true
		if !pvNode && int(e.depth) >= depth {
			sc := fromTT(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && sc >= beta,
				e.bound == boundUpper && sc <= alpha:
				return sc
			}
		}
	}

	if ply == 0 && s.hasHint {
		ttMove, hasTT = s.rootHint, true
	}
	s.order(p, moves, ply, ttMove, hasTT)
	best, bestMove := -infinity, moves[0]
	alpha0 := alpha
	// a move that is the only reply is not a choice: do not count it against the depth
	childDepth := depth - 1
	if len(moves) == 1 && ply < MaxDepth {
		childDepth = depth
	}
	c, nds := &s.child[ply+1], &s.draw[ply+1]
	for i, m := range moves {
		*c = *p
		board.Apply(c, m)
		*nds = *ds
		board.AdvanceDraw(nds, s.v, p, m, c)
		cfrom := from
		if board.Irreversible(p, m) {
			cfrom = len(s.hist)
		}
		s.hist = append(s.hist, c.Hash)
		var score int
		if i == 0 {
			score = -s.search(c, childDepth, ply+1, -beta, -alpha, cfrom)
		} else {
			r := 0
			if !s.noPrune {
				r = reduction(m, depth, i, pvNode)
			}
			score = -s.search(c, childDepth-r, ply+1, -alpha-1, -alpha, cfrom)
			if r > 0 && score > alpha && !s.stopped {
				score = -s.search(c, childDepth, ply+1, -alpha-1, -alpha, cfrom)
			}
			if score > alpha && score < beta && !s.stopped {
				score = -s.search(c, childDepth, ply+1, -beta, -alpha, cfrom)
			}
		}
		s.hist = s.hist[:len(s.hist)-1]
		if s.stopped {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if ply == 0 {
					s.rootBest, s.rootScore, s.rootFound = m, score, true
				}
				if alpha >= beta {
					if board.Captured(m) == 0 {
						if s.killers[ply][0] != m {
							s.killers[ply][1] = s.killers[ply][0]
							s.killers[ply][0] = m
						}
						h := &s.history[p.Side][m.From][m.To]
						*h += int32(depth * depth)
						if *h > 1<<20 {
							s.ageHistory()
						}
					}
					break
				}
			}
		}
	}
	bound := boundExact
	switch {
	case best <= alpha0:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	if e := s.ttLoad(p.Hash); e.key != p.Hash || int(e.depth) <= depth || bound == boundExact {
		s.ttStore(ttEntry{key: p.Hash, move: bestMove, score: ttScore(best, ply), depth: int8(depth), bound: bound})
	}
	return best
}

// Late-move reductions (reduction): from depth lmrDepth, the quiet moves after the first
// of a node (the first lmrMovesPV on the principal variation) are searched less deep first.
const (
	lmrDepth   = 3
	lmrMovesPV = 3
)

// reduction returns the plies by which the i-th move m of a node at depth is searched less
// deep before a re-search at full depth if it beats alpha: none for the first move (the
// first lmrMovesPV on the principal variation), a capture or a promotion; one ply, and two
// off the principal variation from the sixth move on (Scan 2.0's rule, search.cpp reduce).
func reduction(m board.Move, depth, i int, pvNode bool) int {
	first := 1
	if pvNode {
		first = lmrMovesPV
	}
	if depth < lmrDepth || i < first || board.Captured(m) != 0 || m.Promotes() {
		return 0
	}
	if !pvNode && i >= 6 {
		return 2
	}
	return 1
}

func (s *searcher) ageHistory() {
	for c := range s.history {
		for i := range s.history[c] {
			for j := range s.history[c][i] {
				s.history[c][i][j] /= 2
			}
		}
	}
}

// quiesce searches captures to the end: a side with a capture must take, so it does not
// stand pat; a side without one stands on the static evaluation.
func (s *searcher) quiesce(p *board.Position, ply, alpha, beta int) int {
	s.pvLen[ply] = ply
	if s.visit() {
		return 0
	}
	if s.tbPieces > 0 && board.Occupied(p).Count() <= s.tbPieces {
		if score, _, ok := s.probe(p, ply); ok {
			return score
		}
	}
	return s.qbody(p, ply, alpha, beta)
}

// qbody is quiesce after the node is counted.
func (s *searcher) qbody(p *board.Position, ply, alpha, beta int) int {
	if board.Crowned(s.v, p) {
		return noMoveScore(&s.v.Rules, ply)
	}
	capture := board.HasCapture(s.v, p)
	if s.noQS || !capture {
		if !capture && !board.HasQuiet(s.v, p) {
			return noMoveScore(&s.v.Rules, ply)
		}
		return s.evaluate(p)
	}
	if ply >= MaxPly-1 {
		return s.evaluate(p)
	}
	moves := board.Moves(s.v, s.moves[ply][:0], p)
	s.moves[ply] = moves
	s.order(p, moves, ply, board.Move{}, false)
	best := -infinity
	c := &s.child[ply+1]
	for _, m := range moves {
		*c = *p
		board.Apply(c, m)
		score := -s.quiesce(c, ply+1, -beta, -alpha)
		if s.stopped {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.pv[ply][ply] = m
				copy(s.pv[ply][ply+1:], s.pv[ply+1][ply+1:s.pvLen[ply+1]])
				s.pvLen[ply] = s.pvLen[ply+1]
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// order sorts moves (s.moves[ply]) best first: the table's move, captures by the number of
// pieces (kings first among equals), promotions, killers, then by history.
func (s *searcher) order(p *board.Position, moves []board.Move, ply int, ttMove board.Move, hasTT bool) {
	if len(moves) < 2 {
		return
	}
	sc := s.scores[ply][:0]
	for _, m := range moves {
		var x int32
		captured := board.Captured(m)
		switch {
		case hasTT && m == ttMove:
			x = 1 << 30
		case captured != 0:
			x = 1<<26 + int32(captured.Count())<<8 + int32((captured&board.Kings(p)).Count())<<4
			if m.Promotes() {
				x += 2
			}
		case m.Promotes():
			x = 1 << 25
		case m == s.killers[ply][0]:
			x = 1 << 24
		case m == s.killers[ply][1]:
			x = 1<<24 - 1
		default:
			x = s.history[p.Side][m.From][m.To]
		}
		sc = append(sc, x)
	}
	s.scores[ply] = sc
	// insertion sort, stable: equal scores keep the generator's order
	for i := 1; i < len(moves); i++ {
		m, x := moves[i], sc[i]
		j := i
		for j > 0 && sc[j-1] < x {
			moves[j], sc[j] = moves[j-1], sc[j-1]
			j--
		}
		moves[j], sc[j] = m, x
	}
}
