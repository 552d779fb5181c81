package search

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/internal/board"
	"github.com/rafle/rafle/pkg/search/internal/core"
)

// Endgame databases. A Searcher given one (SetEGDB) plays a position that the database
// holds from it, without searching: the best move by value and distance (the shortest win,
// the longest loss, a move that keeps a draw). When the database holds a win or a loss
// without its distance (egdb's DistancePieces), the search chooses among the moves of that
// value, so that it makes progress by its evaluation. Below the root, the search scores a
// position of up to the database's MaxPieces pieces from it instead of searching it: a win
// or loss in n plies from the root as MateScore-n (whatever the depth, so that the search
// prefers the shorter win), one without distance as TBWin plus the evaluation, bounded by
// TBSpread, and a draw as 0. The database's values leave out the draw rules that count
// moves or repetitions (pkg/egdb); the search keeps applying them to the moves it searches.

// TBWin and TBSpread: a score above TBWin-TBSpread (and at most TBWin+TBSpread) is a win
// that the endgame database holds without its distance; below -(TBWin-TBSpread) such a loss.
const (
	TBWin    = core.TBWin
	TBSpread = core.TBSpread
)

// tbCacheSize is the number of probes a Searcher keeps (a power of 2): the positions of
// a search repeat, and the Searcher's own table needs no lock (its threads share it
// through atomic words, tbEntry).
const tbCacheSize = 1 << 14

// tablebase is an egdb.DB as the search sees it (core.Tablebase), with a cache of probes.
type tablebase struct {
	db     *egdb.DB
	pieces int
	cache  []tbEntry
	mu     sync.Mutex // guards err
	err    error      // the first error of a probe
}

// tbEntry is a cached probe, two words that the searching threads read and write
// atomically: data holds the value plus 2 (0 for an empty entry; 1 loss, 2 draw, 3 win; 4
// unknown) in its low 16 bits and the distance (int16) in the next 16; check is the key
// XOR data, so that an entry torn by two threads writing at once does not match its key.
type tbEntry struct {
	check, data uint64
}

// Probe is core.Tablebase's.
func (t *tablebase) Probe(bp *board.Position) (value, plies int, ok bool) {
	p := eposition(bp)
	e := &t.cache[p.Hash&(tbCacheSize-1)]
	data := atomic.LoadUint64(&e.data)
	value, plies = int(data&0xffff), int(int16(data>>16))
	if atomic.LoadUint64(&e.check)^data != p.Hash || value == 0 {
		r, err := t.db.Probe(p)
		if err != nil {
			t.fail(err)
			return 0, 0, false // not cached: a damaged slice stays unknown
		}
		value, plies = 4, -1
		switch r.Value {
		case egdb.Win:
			value = 3
		case egdb.Draw:
			value = 2
		case egdb.Loss:
			value = 1
		}
		if r.Plies >= 0 {
			plies = min(r.Plies, MaxWin)
		}
		data = uint64(value) | uint64(uint16(int16(plies)))<<16
		atomic.StoreUint64(&e.data, data)
		atomic.StoreUint64(&e.check, p.Hash^data)
	}
	if value == 4 {
		return 0, 0, false
	}
	return value - 2, plies, true
}

// fail records the first error of a probe.
func (t *tablebase) fail(err error) {
	t.mu.Lock()
	if t.err == nil {
		t.err = err
	}
	t.mu.Unlock()
}

// SetEGDB gives the searcher an endgame database of its variant (nil removes it). The
// database may be shared by several Searchers (an egdb.DB is safe for concurrent use);
// each Searcher keeps a small cache of its own probes. It returns an error when db is of
// another variant.
func (s *Searcher) SetEGDB(db *egdb.DB) error {
	if db == nil {
		s.tb = nil
		s.s.SetTablebase(nil, 0)
		return nil
	}
	if db.Variant().Name != s.Variant().Name {
		return fmt.Errorf("search: an endgame database of %s for a searcher of %s", db.Variant().Name, s.Variant().Name)
	}
	s.tb = &tablebase{db: db, pieces: db.MaxPieces(), cache: make([]tbEntry, tbCacheSize)}
	s.s.SetTablebase(s.tb, s.tb.pieces)
	return nil
}

// EGDB returns the searcher's endgame database (nil when it has none).
func (s *Searcher) EGDB() *egdb.DB {
	if s.tb == nil {
		return nil
	}
	return s.tb.db
}

// EGDBError returns the first error that a probe of the endgame database met (a slice
// file that could not be read or is damaged), nil when there was none. A position whose
// probe fails is searched as if the database did not hold it.
func (s *Searcher) EGDBError() error {
	if s.tb == nil {
		return nil
	}
	s.tb.mu.Lock()
	defer s.tb.mu.Unlock()
	return s.tb.err
}

// InEGDB reports whether the searcher's endgame database holds the current position of g
// (one that is not over): Search plays it from the database.
func (s *Searcher) InEGDB(g *engine.Game) bool {
	if s.tb == nil {
		return false
	}
	p := g.Position()
	m := p.Material()
	if m.Pieces(engine.White)+m.Pieces(engine.Black) > s.tb.pieces {
		return false
	}
	_, plies, ok := s.tb.Probe(bposition(&p))
	return ok && plies != 0
}

// fromEGDB plays the current position of g from the endgame database, when it holds it:
// the best legal move by value and distance. For a win or loss without distance it
// searches (the search scores every move from the database) and keeps the search's move
// when it has the best value. It reports false when the database does not hold the
// position, or the game is over there.
func (s *Searcher) fromEGDB(ctx context.Context, g *engine.Game, lim Limits) (Result, bool) {
	start := time.Now()
	if !s.InEGDB(g) {
		return Result{}, false
	}
	p := g.Position()
	legal := g.Legal()
	if len(legal) == 0 {
		return Result{}, false
	}
	moves, err := s.tb.db.Moves(&p)
	if err != nil {
		s.tb.fail(err)
		return Result{}, false
	}
	best := -1
	for i, mr := range moves {
		if mr.Result.Value != egdb.Unknown && slices.Contains(legal, mr.Move) {
			best = i
			break
		}
	}
	if best < 0 {
		return Result{}, false
	}
	b := moves[best].Result
	if (b.Value == egdb.Win || b.Value == egdb.Loss) && b.Plies < 0 {
		r := result(s.s.Search(ctx, bgame(g), core.Limits(lim)))
		for _, mr := range moves {
			if mr.Move == r.Move && mr.Result.Value == b.Value {
				return r, true
			}
		}
	}
	value := map[egdb.Value]int{egdb.Win: 1, egdb.Draw: 0, egdb.Loss: -1}[b.Value]
	e := 0
	if value != 0 && b.Plies < 0 {
		e = s.Evaluate(&p)
	}
	mv := moves[best].Move
	return Result{Move: mv, Score: core.TBScore(value, b.Plies, 0, e), PV: []engine.Move{mv},
		Elapsed: time.Since(start)}, true
}
