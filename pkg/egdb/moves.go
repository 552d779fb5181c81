package egdb

import (
	"fmt"

	"github.com/rafle/rafle/pkg/engine"
)

// MoveResult is a legal move and what it leads to.
type MoveResult struct {
	Move engine.Move
	// Result is the value of the move for the side that plays it: the value of the
	// position after it for the opponent, turned round, with Plies counting the move (a
	// move to a position the opponent has lost in 0 plies is a win in 1).
	Result Result
}

// Moves returns every legal move of p with its result, best first (Result.Better; the
// generator's order among equals). A move whose position is not in the database has
// Value Unknown.
func (db *DB) Moves(p *engine.Position) ([]MoveResult, error) {
	var out []MoveResult
	for _, m := range db.v.Generate(nil, p) {
		q := p.Play(m)
		r, err := db.Probe(&q)
		if err != nil {
			return nil, err
		}
		out = append(out, MoveResult{Move: m, Result: after(r)})
	}
	for i := 1; i < len(out); i++ { // insertion sort: stable, and a handful of moves
		for j := i; j > 0 && out[j].Result.Better(out[j-1].Result); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// after turns the result of the position after a move into the move's result.
func after(r Result) Result {
	switch r.Value {
	case Win, Loss:
		out := Result{Value: r.Value.Negate(), Plies: -1}
		if r.Plies >= 0 {
			out.Plies = r.Plies + 1
		}
		return out
	}
	return r
}

// Size returns the number of positions of slice s (with its side to move).
func (db *DB) Size(s Slice) uint64 { return db.g.indexer(s).size }

// Position returns position i (below Size(s)) of slice s with side to move: with Black
// to move, the board is turned by half a turn and the colours swapped.
func (db *DB) Position(s Slice, i uint64, side engine.Color) (engine.Position, error) {
	ix := db.g.indexer(s)
	if i >= ix.size {
		return engine.Position{}, fmt.Errorf("egdb: slice %s has %d positions, not %d", s, ix.size, i+1)
	}
	q := ix.unindex(i)
	if side == engine.Black {
		q = q.flipped(db.g.squares)
	}
	p := db.g.toPosition(&q)
	p.Side = side
	p.Hash = p.ComputeHash()
	return p, nil
}
