package egdb

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// plainSolve solves every position of v with 1 to n pieces the plain way, sharing nothing
// with the package but the engine: the positions come from FEN text (ParseFEN refuses a
// man on its crowning row), every position's moves from Generate and Play, and the values
// from a forward fixed-point iteration: at sweep k, a position with a move to a position
// lost in k-1 plies is won in k, one whose moves all lead to positions won (the last in
// k-1 plies) is lost in k, one without moves is over. What no sweep decides is a draw.
// The positions of the variant's coverage only (frisian kings, breakthrough men).
func plainSolve(t *testing.T, v *engine.Variant, n int) ([]engine.Position, []Result) {
	t.Helper()
	var positions []engine.Position
	// positions by their Zobrist keys (ParseFEN computes them, Play keeps them), in an
	// open-addressing table: a collision between two of these few hundred thousand
	// positions would show as a difference, never hide one
	const bits = 21
	keys := make([]uint64, 1<<bits)
	slot := make([]int32, 1<<bits)
	add := func(p engine.Position) int {
		h := p.Hash | 1 // 0 marks a free slot
		for k := (h * 0x9E3779B97F4A7C15) >> (64 - bits); ; k = (k + 1) & (1<<bits - 1) {
			switch keys[k] {
			case 0:
				if len(positions) >= 1<<(bits-1) {
					t.Fatalf("%s: more positions than the table holds", v.Name)
				}
				keys[k], slot[k] = h, int32(len(positions))
				positions = append(positions, p)
				return len(positions) - 1
			case h:
				i := int(slot[k])
				if !positions[i].Equal(&p) {
					t.Fatalf("%s: %s and %s have the same hash", v.Name, v.FEN(p), v.FEN(positions[i]))
				}
				return i
			}
		}
	}
	kinds := []string{"W", "WK", "B", "BK"} // a colour, then K for a king
	var rec func(from, left int, pcs []string)
	rec = func(from, left int, pcs []string) {
		if left == 0 {
			var w, b []string
			for _, pc := range pcs {
				if pc[0] == 'W' {
					w = append(w, pc[1:])
				} else {
					b = append(b, pc[1:])
				}
			}
			if len(w) == 0 || len(b) == 0 {
				return
			}
			for _, side := range []string{"W", "B"} {
				p, err := v.ParseFEN(fmt.Sprintf("%s:W%s:B%s", side, strings.Join(w, ","), strings.Join(b, ",")))
				if err != nil {
					return // a man on its crowning row
				}
				add(p)
			}
			return
		}
		for s := from; s <= v.Squares(); s++ {
			for _, k := range kinds {
				king := len(k) == 2
				if v.KingMoveLimit > 0 && !king || v.PromotionWins && king {
					continue
				}
				rec(s+1, left-1, append(pcs, k+strconv.Itoa(s)))
			}
		}
	}
	for k := 2; k <= n; k++ {
		rec(1, k, nil)
	}
	// successors (adding those outside the set: the end of the game), flattened
	first := make([]int32, 0, len(positions)+1)
	var succ []int32
	var moves []engine.Move
	for i := 0; i < len(positions); i++ {
		p := positions[i]
		first = append(first, int32(len(succ)))
		moves = v.Generate(moves[:0], &p)
		for _, m := range moves {
			succ = append(succ, int32(add(p.Play(m))))
		}
	}
	first = append(first, int32(len(succ)))
	vals := make([]Result, len(positions))
	open := make([]int32, len(positions))
	for i := range vals {
		vals[i] = Result{Value: Unknown, Plies: -1}
		open[i] = int32(i)
	}
	type update struct {
		i int32
		r Result
	}
	var ups []update
	for sweep := 0; ; sweep++ {
		ups = ups[:0]
		still := open[:0]
		for _, i := range open {
			if first[i] == first[i+1] {
				p := positions[i]
				o := v.PositionOutcome(&p)
				if !o.Over || o.Draw {
					t.Fatalf("%s: %s has no move but is not won or lost: %+v", v.Name, v.FEN(p), o)
				}
				r := Result{Value: Loss, Plies: 0}
				if o.Winner == p.Side {
					r.Value = Win
				}
				ups = append(ups, update{i, r})
				continue
			}
			won, lost := false, true
			for _, j := range succ[first[i]:first[i+1]] {
				switch vals[j].Value {
				case Loss:
					won = true
				case Win:
				default:
					lost = false
				}
			}
			switch {
			case won:
				ups = append(ups, update{i, Result{Value: Win, Plies: sweep}})
			case lost:
				ups = append(ups, update{i, Result{Value: Loss, Plies: sweep}})
			default:
				still = append(still, i)
			}
		}
		open = still
		if len(ups) == 0 {
			break
		}
		for _, u := range ups {
			vals[u.i] = u.r
		}
	}
	for i, r := range vals {
		if r.Value == Unknown {
			vals[i] = Result{Value: Draw, Plies: -1}
		}
	}
	return positions, vals
}

// plainPieces is the number of pieces the plain solver checks per variant: 3 on the 8x8
// boards and in breakthrough (men only), 2 elsewhere, and 2 for portuguese, whose move
// rules are spanish's (checked with 3), to keep the test short.
func plainPieces(v *engine.Variant) int {
	if (v.Squares() <= 32 || v.PromotionWins) && v.Name != "portuguese" {
		return 3
	}
	return 2
}

// TestPlainSolver compares the database with the plain solver on every position of up to
// plainPieces pieces, both sides to move, for every variant.
func TestPlainSolver(t *testing.T) {
	for _, v := range engine.Variants() {
		t.Run(v.Name, func(t *testing.T) {
			n := plainPieces(v)
			dir := t.TempDir()
			if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: n, Jobs: 1}); err != nil {
				t.Fatal(err)
			}
			db, err := Open(dir, v, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			positions, want := plainSolve(t, v, n)
			bad := 0
			for i, p := range positions {
				w := want[i]
				got, err := db.Probe(&p)
				if err != nil {
					t.Fatal(err)
				}
				if got != w {
					if bad++; bad <= 5 {
						t.Errorf("%s: Probe(%s) = %v, the plain solver says %v", v.Name, v.FEN(p), got, w)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%s: %d of %d positions differ", v.Name, bad, len(want))
			}
		})
	}
}
