package egdb

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/rafle/rafle/pkg/engine"
)

// SuiteEntry is a won position of a test suite drawn from a database (Suite): the moves
// that keep the win, and the fastest of them.
type SuiteEntry struct {
	ID    string `json:"id"`
	FEN   string `json:"fen"`
	Value string `json:"value"`
	// Plies is the distance to the win.
	Plies int `json:"plies"`
	// Best are the winning moves that win in Plies; Winning all those that win.
	Best    []string `json:"best"`
	Winning []string `json:"winning"`
	// Moves is the number of legal moves.
	Moves int `json:"moves"`
}

// Suite draws 20*count positions of pieces pieces from db at random (from seed: the same
// suite every time), each slice in proportion to its size and either side to move, and
// returns up to count of the distinct won ones, the longest wins first and, among wins of
// one length, those with the fewest winning moves, numbered egdb-VARIANT-PIECES-NNNN; and
// the number of positions drawn. It needs every slice of pieces pieces.
func Suite(ctx context.Context, db *DB, pieces, count int, seed uint64) (entries []SuiteEntry, draws int, err error) {
	ss := SlicesOf(db.Variant(), pieces)
	sizes := make([]uint64, len(ss))
	var total uint64
	for i, s := range ss {
		sizes[i] = db.Size(s)
		total += sizes[i]
	}
	for _, s := range ss {
		if _, err := db.Stats(s); err != nil {
			return nil, 0, fmt.Errorf("egdb: %s: the suite of %d pieces needs every slice of %d pieces: %w", db.Dir(), pieces, pieces, err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x65676462))
	seen := map[string]bool{}
	draws = 20 * count
	for range draws {
		if err := ctx.Err(); err != nil {
			return nil, draws, err
		}
		k := rng.Uint64N(total)
		si := 0
		for k >= sizes[si] {
			k -= sizes[si]
			si++
		}
		side := engine.White
		if rng.IntN(2) == 1 {
			side = engine.Black
		}
		p, err := db.Position(ss[si], k, side)
		if err != nil {
			return nil, draws, err
		}
		e, won, err := suiteEntry(db, &p, seen)
		if err != nil {
			return nil, draws, err
		}
		if won {
			entries = append(entries, e)
		}
	}
	slices.SortStableFunc(entries, func(a, b SuiteEntry) int {
		if a.Plies != b.Plies {
			return b.Plies - a.Plies
		}
		return cmp.Compare(len(a.Winning), len(b.Winning))
	})
	entries = entries[:min(count, len(entries))]
	for i := range entries {
		entries[i].ID = fmt.Sprintf("egdb-%s-%d-%04d", db.Variant().Name, pieces, i+1)
	}
	return entries, draws, nil
}

// suiteEntry returns the entry of position p, and whether it is one of the suite: a won
// position not seen before (seen notes it).
func suiteEntry(db *DB, p *engine.Position, seen map[string]bool) (SuiteEntry, bool, error) {
	v := db.Variant()
	fen := v.FEN(*p)
	if seen[fen] {
		return SuiteEntry{}, false, nil
	}
	seen[fen] = true
	r, err := db.Probe(p)
	if err != nil || r.Value != Win {
		return SuiteEntry{}, false, err
	}
	moves, err := db.Moves(p)
	if err != nil {
		return SuiteEntry{}, false, err
	}
	e := SuiteEntry{FEN: fen, Value: r.Value.String(), Plies: r.Plies, Moves: len(moves), Best: []string{}, Winning: []string{}}
	for _, m := range moves {
		if m.Result.Value != Win {
			continue
		}
		text := v.FormatMove(p, m.Move, false)
		e.Winning = append(e.Winning, text)
		if m.Result.Plies == r.Plies {
			e.Best = append(e.Best, text)
		}
	}
	return e, true, nil
}
