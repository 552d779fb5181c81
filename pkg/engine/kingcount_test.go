package engine_test

import (
	"context"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// leavesByGeneration counts the leaves depth plies below p by generating every move with
// GenerateDup: the general capture search, none of perft's kernel.
func leavesByGeneration(v *engine.Variant, p engine.Position, depth int, dup engine.Duplicates) uint64 {
	moves := v.GenerateDup(nil, &p, dup)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += leavesByGeneration(v, p.Play(m), depth-1, dup)
	}
	return n
}

// TestPerftKernelAgainstGeneration checks perft's kernel (its instance of the board's
// steps: the kings' fills, the capture search of men and kings, the leaf counts) against
// the general move generation, three plies below sample positions of every variant, in
// both duplicate conventions: the positions of random games have kings, long captures and
// crowning, which the published counts from the start position reach little.
func TestPerftKernelAgainstGeneration(t *testing.T) {
	for _, v := range engine.Variants() {
		for i, p := range samplePositions(v, 6) {
			for _, dup := range []engine.Duplicates{engine.Keep, engine.Unique} {
				want := leavesByGeneration(v, p, 3, dup)
				got, err := v.Perft(context.Background(), p, 3, engine.PerftOptions{Duplicates: dup})
				if err != nil || got != want {
					t.Fatalf("%s position %d %s (%s): Perft(3) = %d, %v; generation counts %d", v.Name, i, v.FEN(p), dup, got, err, want)
				}
			}
		}
	}
}
