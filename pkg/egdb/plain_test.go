package egdb

import (
	"context"
	"fmt"
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
func plainSolve(t *testing.T, v *engine.Variant, n int) map[engine.Position]Result {
	t.Helper()
	var positions []engine.Position
	at := map[engine.Position]int{}
	key := func(p engine.Position) engine.Position { p.Hash = 0; return p }
	add := func(p engine.Position) int {
		k := key(p)
		if i, ok := at[k]; ok {
			return i
		}
		at[k] = len(positions)
		positions = append(positions, p)
		return len(positions) - 1
	}
	kinds := []string{"W", "WK", "B", "BK"}
	var rec func(from, left int, pcs []string)
	rec = func(from, left int, pcs []string) {
		if left == 0 {
			var w, b []string
			for _, pc := range pcs {
				sq, kind, _ := strings.Cut(pc, ":")
				switch kind {
				case "W":
					w = append(w, sq)
				case "WK":
					w = append(w, "K"+sq)
				case "B":
					b = append(b, sq)
				case "BK":
					b = append(b, "K"+sq)
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
				king := strings.HasSuffix(k, "K")
				if v.KingMoveLimit > 0 && !king || v.PromotionWins && king {
					continue
				}
				rec(s+1, left-1, append(pcs, fmt.Sprint(s)+":"+k))
			}
		}
	}
	for k := 2; k <= n; k++ {
		rec(1, k, nil)
	}
	// successors (adding those outside the set: the end of the game)
	succ := make([][]int, 0, len(positions))
	var moves []engine.Move
	for i := 0; i < len(positions); i++ {
		p := positions[i]
		moves = v.Generate(moves[:0], &p)
		var s []int
		for _, m := range moves {
			s = append(s, add(p.Play(m)))
		}
		succ = append(succ, s)
	}
	vals := make([]Result, len(positions))
	for i := range vals {
		vals[i] = Result{Value: Unknown, Plies: -1}
	}
	type update struct {
		i int
		r Result
	}
	for sweep := 0; ; sweep++ {
		var ups []update
		for i, p := range positions {
			if vals[i].Value != Unknown {
				continue
			}
			if len(succ[i]) == 0 {
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
			for _, j := range succ[i] {
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
			}
		}
		if len(ups) == 0 {
			break
		}
		for _, u := range ups {
			vals[u.i] = u.r
		}
	}
	out := make(map[engine.Position]Result, len(positions))
	for i, p := range positions {
		r := vals[i]
		if r.Value == Unknown {
			r = Result{Value: Draw, Plies: -1}
		}
		out[p] = r
	}
	return out
}

// plainPieces is the number of pieces the plain solver checks per variant: 3 on the 8x8
// boards and in breakthrough (men only), 2 elsewhere, to keep the test short.
func plainPieces(v *engine.Variant) int {
	if v.Squares() <= 32 || v.PromotionWins {
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
			want := plainSolve(t, v, n)
			bad := 0
			for p, w := range want {
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
