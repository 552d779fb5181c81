package egdb

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rafle/rafle/pkg/engine"
)

// VerifyOptions are the settings of Verify.
type VerifyOptions struct {
	// Jobs is the number of threads (0: one per CPU).
	Jobs int
	// Progress, when set, is called after each slice and from time to time in between
	// (from one goroutine at a time): the slice, the positions checked, its positions.
	Progress func(s Slice, done, total uint64)
}

// Verify checks every slice file of the DB: its checksum, and every stored value against
// the values of the position's moves (the standard consistency check: a win in d plies
// has a move to a loss in d-1 and none shorter, a loss in d has only moves to wins, the
// longest in d-1, a draw has a move to a draw and none to a loss, and a position without
// a move is over as the rules say). The first difference is returned as an error with the
// position's FEN; a damaged file as an error naming it.
func (db *DB) Verify(ctx context.Context, opt VerifyOptions) error {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	l := newLoader(ctx, db)
	for _, s := range db.Slices() {
		// the slice, with the values its file leaves out worked out, and every slice a
		// move can lead to, read before the workers start
		c, err := l.values(s)
		if err != nil {
			return err
		}
		sl, err := db.open(s)
		if err != nil {
			return err
		}
		distances := sl.sf.h.Distances
		vals := map[Slice][]uint16{s: c}
		for _, t := range db.Slices() {
			if t.Pieces() < s.Pieces() || t.Pieces() == s.Pieces() && t.UsMen+t.ThemMen < s.UsMen+s.ThemMen || t == s.Swap() {
				if vals[t], err = l.values(t); err != nil {
					return err
				}
			}
		}
		var done atomic.Uint64
		var next atomic.Uint64
		var mu sync.Mutex
		var first error
		var wg sync.WaitGroup
		n := uint64(len(c))
		for range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := newVerifier(db, s, vals)
				for {
					lo := next.Add(chunk) - chunk
					if lo >= n || ctx.Err() != nil {
						return
					}
					for i := lo; i < min(n, lo+chunk); i++ {
						if err := w.check(i, c[i], distances); err != nil {
							mu.Lock()
							if first == nil {
								first = err
							}
							mu.Unlock()
							return
						}
					}
					d := done.Add(min(n, lo+chunk) - lo)
					if opt.Progress != nil {
						mu.Lock()
						opt.Progress(s, d, n)
						mu.Unlock()
					}
				}
			}()
		}
		wg.Wait()
		if first != nil {
			return first
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// verifier is a worker of Verify: the slice it checks, the values of the slices its
// moves lead to, and the last one looked up.
type verifier struct {
	db     *DB
	s      Slice
	vals   map[Slice][]uint16
	moves  []engine.Move
	last   Slice
	codes  []uint16
	ix     *indexer
	lookup func(*pieces) (Result, error)
}

func newVerifier(db *DB, s Slice, vals map[Slice][]uint16) *verifier {
	w := &verifier{db: db, s: s, vals: vals, last: Slice{-1, 0, 0, 0}}
	w.lookup = w.value
	return w
}

// value returns the value of a position after a move.
func (w *verifier) value(succ *pieces) (Result, error) {
	if t := succ.slice(); t != w.last {
		c, ok := w.vals[t]
		if !ok {
			return Result{}, fmt.Errorf("egdb: %s: slice %s leads to slice %s, which is missing", w.db.dir, w.s, t)
		}
		w.last, w.codes, w.ix = t, c, w.db.g.indexer(t)
	}
	return decode(w.codes[w.ix.index(succ)]), nil
}

// check checks position i of the slice, whose stored code is got. Without distances (a
// slice of win, draw or loss) only the values are compared.
func (w *verifier) check(i uint64, got uint16, distances bool) error {
	db, s := w.db, w.s
	g := db.g
	q := g.indexer(s).unindex(i)
	p := g.toPosition(&q)
	w.moves = db.v.Generate(w.moves[:0], &p)
	best, err := g.fromMoves(&q, w.moves, w.lookup)
	if err != nil {
		return err
	}
	var want uint16
	switch {
	case !distances && best.Value == Win:
		want = noDistWin
	case !distances && best.Value == Loss:
		want = noDistLoss
	case best.Value == Win && best.Plies >= 0:
		want = encodeWin(best.Plies)
	case best.Value == Loss && best.Plies >= 0:
		want = encodeLoss(best.Plies)
	case best.Value != Draw:
		return fmt.Errorf("egdb: %s: slice %s has distances and its moves lead to slices without", db.dir, s)
	}
	if got != want {
		p.Hash = p.ComputeHash()
		return fmt.Errorf("egdb: %s: slice %s, position %d (%s): stored %v, its moves give %v",
			db.dir, s, i, db.v.FEN(p), decode(got), decode(want))
	}
	return nil
}
