package egdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
)

// loader holds the values of whole slices in memory, for the builder and Verify: read
// from their files once, with the values of the positions whose side to move has a
// capture, which files leave out (header capturesOmitted), worked out from the slices of
// fewer pieces the captures lead to; or set by the builder as it builds them.
type loader struct {
	ctx     context.Context // stops the work of filling in captures
	db      *DB
	dir     string // for messages
	mu      sync.Mutex
	entries map[Slice]*loaderEntry
}

type loaderEntry struct {
	once  sync.Once
	codes []uint16
	dist  bool // the values have distances
	err   error
}

func newLoader(ctx context.Context, db *DB) *loader {
	return &loader{ctx: ctx, db: db, dir: db.dir, entries: map[Slice]*loaderEntry{}}
}

func (l *loader) entry(s Slice) *loaderEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries[s]
	if e == nil {
		e = &loaderEntry{}
		l.entries[s] = e
	}
	return e
}

// set records the values of slice s, just built.
func (l *loader) set(s Slice, codes []uint16, dist bool) {
	e := l.entry(s)
	e.once.Do(func() { e.codes, e.dist = codes, dist })
}

// values returns the values of every position of slice s.
func (l *loader) values(s Slice) ([]uint16, error) {
	e := l.entry(s)
	e.once.Do(func() { e.codes, e.dist, e.err = l.read(s) })
	return e.codes, e.err
}

func (l *loader) read(s Slice) ([]uint16, bool, error) {
	sl, err := l.db.open(s)
	if err != nil {
		return nil, false, err
	}
	if sl == nil {
		if _, err := os.Stat(l.db.path(s)); err == nil {
			// written after the DB was opened (by another shard): open it now
			sl, err = l.db.add(s)
		}
		if sl == nil {
			if err == nil || errors.Is(err, os.ErrNotExist) {
				err = fmt.Errorf("egdb: %s: slice %s is needed and missing (build the smaller slices first)", l.dir, s)
			}
			return nil, false, err
		}
	}
	codes, err := sl.sf.readAll()
	if err != nil {
		return nil, false, err
	}
	if sl.sf.h.CapturesOmitted {
		if err := l.fillCaptures(s, codes, sl.sf.h.Distances); err != nil {
			return nil, false, err
		}
	}
	return codes, sl.sf.h.Distances, nil
}

// fillCaptures sets the value of every position of slice s whose side to move has a
// capture, from the positions after its captures (in slices of fewer pieces).
func (l *loader) fillCaptures(s Slice, codes []uint16, dist bool) error {
	g := l.db.g
	ix := g.indexer(s)
	var moves []engine.Move
	for i := range ix.size {
		if i&0xFFFF == 0 {
			if err := l.ctx.Err(); err != nil {
				return err
			}
		}
		q := ix.unindex(i)
		p := g.toPosition(&q)
		if !g.v.HasCapture(&p) {
			continue
		}
		moves = g.v.Generate(moves[:0], &p)
		r, err := g.fromMoves(&q, moves, l.lookup)
		if err != nil {
			return err
		}
		codes[i] = encode(r, dist)
	}
	return nil
}

// lookup returns the value of q, seen from its side to move, from the loaded slices.
func (l *loader) lookup(q *pieces) (Result, error) {
	s := q.slice()
	codes, err := l.values(s)
	if err != nil {
		return Result{}, err
	}
	return decode(codes[l.db.g.indexer(s).index(q)]), nil
}

// fromMoves returns the value of position q (seen from its side to move) from its legal
// moves: the best of the values they lead to (Result.Better), the end of the game when
// there is none. lookup gives the value of a position after a move.
func (g *geometry) fromMoves(q *pieces, moves []engine.Move, lookup func(*pieces) (Result, error)) (Result, error) {
	if len(moves) == 0 {
		if g.v.NoMoveWins {
			return Result{Value: Win, Plies: 0}, nil
		}
		return Result{Value: Loss, Plies: 0}, nil
	}
	var best Result
	for _, m := range moves {
		var r Result
		if g.menOnly && m.Promotes() {
			r = Result{Value: Loss, Plies: 0} // breakthrough: crowning wins
		} else {
			succ := g.play(q, m)
			var ok bool
			if r, ok = g.terminal(succ.slice()); !ok {
				var err error
				if r, err = lookup(&succ); err != nil {
					return Result{}, err
				}
			}
		}
		if a := after(r); a.Better(best) {
			best = a
		}
	}
	return best, nil
}

// encode returns the code of r; without distances, a win or a loss without its distance.
func encode(r Result, dist bool) uint16 {
	switch {
	case r.Value == Win && dist && r.Plies >= 0:
		return encodeWin(r.Plies)
	case r.Value == Loss && dist && r.Plies >= 0:
		return encodeLoss(r.Plies)
	case r.Value == Win:
		return noDistWin
	case r.Value == Loss:
		return noDistLoss
	}
	return 0
}
