package egdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// SlicesOf returns the slices of exactly n pieces that v's database holds, in the order
// Build builds them: both sides have a piece (a side without one has lost, or in
// antidraughts won); frisian and frysk have kings only, breakthrough men only (Coverage);
// fewer men first, since a man's crowning leads to the slice with one man fewer.
func SlicesOf(v *engine.Variant, n int) []Slice {
	var out []Slice
	for men := 0; men <= n; men++ {
		for um := 0; um <= men; um++ {
			tm := men - um
			for uk := 0; uk <= n-men; uk++ {
				tk := n - men - uk
				s := Slice{um, uk, tm, tk}
				if um+uk == 0 || tm+tk == 0 {
					continue
				}
				if v.KingMoveLimit > 0 && men > 0 || v.PromotionWins && uk+tk > 0 {
					continue
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// BuildOptions are the settings of Build.
type BuildOptions struct {
	// Dir is the database's directory, created if missing.
	Dir string
	// Pieces: every slice of up to this many pieces (2 to MaxPieces).
	Pieces int
	// Jobs is the number of threads (0: one per CPU).
	Jobs int
	// Stage, when set, builds only the slices of exactly Pieces pieces of which Men are
	// men: one stage of the build. The slices it depends on (fewer pieces, or as many
	// with fewer men: a crowning turns a man into a king) must be in Dir already.
	Stage bool
	Men   int
	// Shard and Shards build only shard Shard (from 0) of Shards of the stage's slices
	// (Stage must be set): the slices of a stage do not depend on each other, so the
	// shards can be built on as many machines at once (docs/egdb.md). Shards 0 builds the
	// whole stage.
	Shard, Shards int
	// DistancePieces, when above 0, keeps the distance to the end of the game only in
	// the slices of up to this many pieces: larger ones hold win, draw or loss, in
	// smaller files. A slice with distances needs them in the slices it depends on.
	DistancePieces int
	// Progress, when set, is called as the build goes: at the start and end of each slice
	// and from time to time in between (from one goroutine at a time).
	Progress func(Progress)
}

// Progress is a report of Build.
type Progress struct {
	// Slices are the slices being built together (a slice and its swap, whose quiet moves
	// lead into each other), Done whether they are finished, Skipped whether their files
	// were there already.
	Slices        []Slice
	Done, Skipped bool
	// Phase is "forward" (every position's moves) or "retro" (the values spread back).
	Phase string
	// Positions are those of the slices, Solved those resolved so far.
	Positions, Solved uint64
	// Group and Groups number the groups of slices of the build (from 1).
	Group, Groups int
}

// SliceReport is what Build did for one slice.
type SliceReport struct {
	Slice     Slice
	Skipped   bool // its file was there already
	Positions uint64
	Bytes     int64
	// Forward, Retro and Write are the wall times of the phases of the slice's group
	// (shared by a slice and its swap, which are built together).
	Forward, Retro, Write time.Duration
	// Stats are the slice's figures, as its file's header has them.
	Stats SliceStats
}

// Build builds v's database of up to opt.Pieces pieces in opt.Dir: every missing slice
// in dependency order (captures and crownings lead to slices built before). Files already
// there are kept (so a killed build resumes at the first missing slice) and read when a
// slice depends on them; their checksums are checked then. Build stops with ctx's error
// when ctx is cancelled, leaving the finished slices written.
func Build(ctx context.Context, v *engine.Variant, opt BuildOptions) ([]SliceReport, error) {
	g, err := newGeometry(v)
	if err != nil {
		return nil, err
	}
	if opt.Pieces < 2 || opt.Pieces > MaxPieces {
		return nil, fmt.Errorf("egdb: %d pieces: want 2 to %d", opt.Pieces, MaxPieces)
	}
	if opt.Shards < 0 || opt.Shards > 0 && (opt.Shard < 0 || opt.Shard >= opt.Shards) {
		return nil, fmt.Errorf("egdb: shard %d/%d: want 0 <= K < N", opt.Shard, opt.Shards)
	}
	if opt.Shards > 0 && !opt.Stage {
		return nil, errors.New("egdb: a shard is part of a stage (pieces and men): the slices of one number of pieces depend on each other through crownings")
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	db, err := Open(opt.Dir, v, Options{CacheMB: 1})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	b := &builder{ctx: ctx, v: v, g: g, db: db, jobs: jobs, load: newLoader(ctx, db), opt: opt}

	var groups [][]Slice
	lo := 2
	if opt.Stage {
		lo = opt.Pieces
	}
	for n := lo; n <= opt.Pieces; n++ {
		seen := map[Slice]bool{}
		for _, s := range SlicesOf(v, n) {
			if seen[s] || opt.Stage && s.UsMen+s.ThemMen != opt.Men {
				continue
			}
			seen[s], seen[s.Swap()] = true, true
			grp := []Slice{s}
			if s.Swap() != s {
				grp = append(grp, s.Swap())
			}
			groups = append(groups, grp)
		}
	}
	if opt.Shards > 0 {
		var mine [][]Slice
		for i, grp := range groups {
			if i%opt.Shards == opt.Shard {
				mine = append(mine, grp)
			}
		}
		groups = mine
	}
	var reports []SliceReport
	for gi, grp := range groups {
		if err := ctx.Err(); err != nil {
			return reports, err
		}
		b.progress = Progress{Slices: grp, Group: gi + 1, Groups: len(groups)}
		have := true
		for _, s := range grp {
			if _, err := os.Stat(filepath.Join(opt.Dir, fileName(s))); err != nil {
				have = false
			}
		}
		if have {
			for _, s := range grp {
				reports = append(reports, SliceReport{Slice: s, Skipped: true, Positions: newIndexer(g, s).size})
			}
			b.report(Progress{Done: true, Skipped: true})
			continue
		}
		for _, s := range grp {
			if _, err := os.Stat(filepath.Join(opt.Dir, fileName(s))); err == nil {
				return reports, fmt.Errorf("egdb: %s: %s is there without %s, built with it: remove it to build both", opt.Dir, fileName(s), fileName(s.Swap()))
			}
		}
		rs, err := b.group(grp)
		reports = append(reports, rs...)
		if err != nil {
			return reports, err
		}
	}
	return reports, nil
}

// builder holds what a build shares between its groups.
type builder struct {
	ctx      context.Context
	v        *engine.Variant
	g        *geometry
	db       *DB
	jobs     int
	opt      BuildOptions
	load     *loader // the values of the slices built before, whole
	progress Progress
	progMu   sync.Mutex
}

func (b *builder) report(p Progress) {
	if b.opt.Progress == nil {
		return
	}
	b.progMu.Lock()
	defer b.progMu.Unlock()
	p.Slices, p.Group, p.Groups = b.progress.Slices, b.progress.Group, b.progress.Groups
	b.opt.Progress(p)
}

// values returns the codes of slice s, built before.
func (b *builder) values(s Slice) ([]uint16, error) { return b.load.values(s) }

// unresolved marks a value not known yet; its low bits hold the longest loss the
// position's moves to other slices give it, plus one (0: none).
const unresolved = 0x8000

// cannotLose marks a counter of a position that has a draw or a win among its moves to
// other slices: it is never a loss. hasCapture marks a position whose moves are captures:
// it has no quiet move, so it is no position's predecessor.
const (
	cannotLose = 0xFF
	hasCapture = 0xFE
)

// A pending or frontier entry is slot<<63 | win<<62 | index.
const (
	slotBit = 1 << 63
	winBit  = 1 << 62
	idxMask = winBit - 1
)

// solver solves a group: a slice and its swap (one slice when it is its own swap).
type solver struct {
	b   *builder
	g   *geometry
	s   []Slice
	ix  []*indexer
	val [][]uint16
	cnt [][]uint8
	// pending[d] are the positions that get their value at level d from a move to
	// another slice (wins; and losses whose every move was decided), as slot<<63 | index.
	pending [][]uint64
	solved  atomic.Uint64
	// distances: the group's files keep the distances (BuildOptions.DistancePieces)
	distances bool
	workers   []*retroWorker // the retro pass's, reused from batch to batch
}

// other returns the slot of the swap of the slice in slot a.
func (sv *solver) other(a int) int { return (a + 1) % len(sv.s) }

func (sv *solver) addPending(d int, e uint64) {
	for len(sv.pending) <= d {
		sv.pending = append(sv.pending, nil)
	}
	sv.pending[d] = append(sv.pending[d], e)
}

func (b *builder) group(grp []Slice) ([]SliceReport, error) {
	sv := &solver{b: b, g: b.g, s: grp}
	sv.distances = b.opt.DistancePieces <= 0 || grp[0].Pieces() <= b.opt.DistancePieces
	var total uint64
	for _, s := range grp {
		ix := newIndexer(b.g, s)
		sv.ix = append(sv.ix, ix)
		sv.val = append(sv.val, make([]uint16, ix.size))
		sv.cnt = append(sv.cnt, make([]uint8, ix.size))
		total += ix.size
	}
	b.report(Progress{Phase: "forward", Positions: total})
	t0 := time.Now()
	if err := sv.forward(); err != nil {
		return nil, err
	}
	t1 := time.Now()
	b.report(Progress{Phase: "retro", Positions: total, Solved: sv.solved.Load()})
	if err := sv.retro(); err != nil {
		return nil, err
	}
	t2 := time.Now()
	var reports []SliceReport
	for a, s := range grp {
		codes := sv.val[a]
		for i, c := range codes {
			if c&unresolved != 0 {
				codes[i] = 0
			}
		}
		cnt := sv.cnt[a]
		n, err := writeSlice(b.ctx, b.opt.Dir, b.v.Name, s, codes, sv.distances, func(i int) bool { return cnt[i] == hasCapture })
		if err != nil {
			return reports, err
		}
		b.load.set(s, codes, sv.distances)
		reports = append(reports, SliceReport{Slice: s, Positions: uint64(len(codes)), Bytes: n, Stats: statsOf(codes)})
	}
	t3 := time.Now()
	for i := range reports {
		reports[i].Forward, reports[i].Retro, reports[i].Write = t1.Sub(t0), t2.Sub(t1), t3.Sub(t2)
	}
	b.report(Progress{Done: true, Positions: total, Solved: total})
	return reports, nil
}

// chunk is the number of positions a worker of the forward pass takes at a time.
const chunk = 1 << 14

// forward looks at the moves of every position: the end of the game, the values of the
// moves to slices built before, and the number of moves inside the group.
func (sv *solver) forward() error {
	type job struct {
		a      int
		lo, hi uint64
	}
	var jobs []job
	for a, ix := range sv.ix {
		for lo := uint64(0); lo < ix.size; lo += chunk {
			jobs = append(jobs, job{a, lo, min(ix.size, lo+chunk)})
		}
	}
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for range min(sv.b.jobs, len(jobs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &forwardWorker{sv: sv, last: Slice{-1, 0, 0, 0}}
			for {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) || sv.b.ctx.Err() != nil {
					break
				}
				j := jobs[k]
				if err := w.run(j.a, j.lo, j.hi); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					break
				}
				sv.b.report(Progress{Phase: "forward", Positions: sv.total(), Solved: uint64(k+1) * chunk})
			}
			mu.Lock()
			for d, es := range w.pending {
				for _, e := range es {
					sv.addPending(d, e)
				}
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return sv.b.ctx.Err()
}

func (sv *solver) total() uint64 {
	var t uint64
	for _, ix := range sv.ix {
		t += ix.size
	}
	return t
}

type forwardWorker struct {
	sv      *solver
	moves   []engine.Move
	pending [][]uint64
	deps    map[Slice]dep // the worker's own view of the builder's, without locks
	last    Slice         // the slice of d, the last one looked up
	d       dep
	// of the position at hand: the shortest win and the longest loss its moves to
	// other slices give (-1: none), and whether one of them draws
	bestWin, worstLoss int
	draw               bool
}

// dep is a slice built before: its indexer and values.
type dep struct {
	ix    *indexer
	codes []uint16
}

// dep returns the indexer and values of slice s, built before.
func (w *forwardWorker) dep(s Slice) (dep, error) {
	if d, ok := w.deps[s]; ok {
		return d, nil
	}
	codes, err := w.sv.b.values(s)
	if err != nil {
		return dep{}, err
	}
	if w.deps == nil {
		w.deps = map[Slice]dep{}
	}
	d := dep{w.sv.g.indexer(s), codes}
	w.deps[s] = d
	return d, nil
}

func (w *forwardWorker) add(d int, e uint64) {
	for len(w.pending) <= d {
		w.pending = append(w.pending, nil)
	}
	w.pending[d] = append(w.pending[d], e)
}

func (w *forwardWorker) run(a int, lo, hi uint64) error {
	sv := w.sv
	g, v := sv.g, sv.b.v
	ix := sv.ix[a]
	val, cnt := sv.val[a], sv.cnt[a]
	noMoveWins := v.NoMoveWins
	for i := lo; i < hi; i++ {
		q := ix.unindex(i)
		p := g.toPosition(&q)
		e := uint64(a)<<63 | i
		w.bestWin, w.worstLoss, w.draw = -1, -1, false
		internal, moves := 0, 0
		capture := v.HasCapture(&p)
		if capture {
			// every move is a capture: the generator's, each to a slice built before
			cnt[i] = hasCapture
			w.moves = v.Generate(w.moves[:0], &p)
			moves = len(w.moves)
			for _, m := range w.moves {
				var succ pieces
				if !(g.menOnly && m.Promotes()) {
					succ = g.play(&q, m)
				}
				if err := w.external(&succ, g.menOnly && m.Promotes()); err != nil {
					return err
				}
			}
		} else {
			// quiet moves only: the kings along their lines, the men one step forward
			// (the geometry is the generator's: newGeometry checks it); a man that
			// reaches the last row is crowned, which leads to a slice built before
			var occ sqset
			for k := range 4 {
				for _, d := range q.sq[k][:q.n[k]] {
					occ.add(d)
				}
			}
			for _, s := range q.sq[usKings][:q.n[usKings]] {
				for k := range g.lines {
					for _, t := range g.rays[s][k] {
						if occ.has(t) {
							break
						}
						internal++
						if g.short {
							break
						}
					}
				}
			}
			for _, s := range q.sq[usMen][:q.n[usMen]] {
				for _, t := range g.manFwd[s] {
					if occ.has(t) {
						continue
					}
					if int(t) >= g.perRow {
						internal++
						continue
					}
					moves++
					var succ pieces
					if !g.menOnly {
						succ = q
						succ.remove(usMen, s)
						succ.add(usKings, t)
						succ = succ.flipped(g.squares)
					}
					if err := w.external(&succ, g.menOnly); err != nil {
						return err
					}
				}
			}
			moves += internal
		}
		if moves == 0 {
			if noMoveWins {
				val[i] = encodeWin(0)
			} else {
				val[i] = encodeLoss(0)
			}
			w.add(0, e) // resolved, spread at level 0
			continue
		}
		switch {
		case w.bestWin >= 0:
			if !capture {
				cnt[i] = cannotLose
			}
			val[i] = unresolved
			w.add(w.bestWin, e|winBit)
		case internal == 0 && w.draw:
			val[i] = 0
		case internal == 0:
			val[i] = unresolved | uint16(w.worstLoss+1)
			w.add(w.worstLoss, e)
		default:
			val[i] = unresolved | uint16(w.worstLoss+1)
			cnt[i] = uint8(internal)
			if w.draw {
				cnt[i] = cannotLose
			}
		}
	}
	return nil
}

// external takes into account a move to a slice built before (a capture or a crowning):
// succ is the position after it, seen from the opponent; crowned is a crowning that wins
// (breakthrough), whose succ is not used.
func (w *forwardWorker) external(succ *pieces, crowned bool) error {
	var r Result
	if crowned {
		r = Result{Value: Loss, Plies: 0}
	} else {
		s := succ.slice()
		var ok bool
		if r, ok = w.sv.g.terminal(s); !ok {
			if s != w.last {
				d, err := w.dep(s)
				if err != nil {
					return err
				}
				w.last, w.d = s, d
			}
			r = decode(w.d.codes[w.d.ix.index(succ)])
			if r.Plies < 0 && r.Value != Draw {
				if w.sv.distances {
					return fmt.Errorf("egdb: %s: slice %s has no distances, which slice %s needs (build it again with them, or give it fewer: --distance-pieces)", w.sv.b.opt.Dir, s, w.sv.s[0])
				}
				r.Plies = 0 // the order of the levels is all it sets without distances
			}
		}
	}
	switch r.Value {
	case Loss:
		if w.bestWin < 0 || r.Plies+1 < w.bestWin {
			w.bestWin = r.Plies + 1
		}
	case Win:
		w.worstLoss = max(w.worstLoss, r.Plies+1)
	default:
		w.draw = true
	}
	return nil
}

// play returns the position after m, seen from the opponent (who is to move then).
func (g *geometry) play(q *pieces, m engine.Move) pieces {
	r := *q
	from, to := uint8(g.denseOf[m.From]), uint8(g.denseOf[m.To])
	k := usMen
	if !r.remove(usMen, from) {
		r.remove(usKings, from)
		k = usKings
	}
	if m.Promotes() {
		k = usKings
	}
	r.add(k, to)
	for i := range m.Captured() {
		d := uint8(g.denseOf[i])
		if !r.remove(themMen, d) {
			r.remove(themKings, d)
		}
	}
	return r.flipped(g.squares)
}
