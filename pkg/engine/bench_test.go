package engine_test

import (
	"context"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// BenchmarkPerft measures bulk-counting perft from the start position on one thread
// without a hash table, and reports leaves per second. Depths are chosen for about a
// second per run.
func BenchmarkPerft(b *testing.B) {
	for _, bc := range []struct {
		variant string
		depth   int
	}{{"english", 11}, {"international", 9}, {"russian", 10}, {"brazilian", 10}} {
		v := engine.MustLookup(bc.variant)
		b.Run(bc.variant, func(b *testing.B) {
			var nodes uint64
			for i := 0; i < b.N; i++ {
				n, _ := v.Perft(context.Background(), v.Start(), bc.depth, engine.PerftOptions{Duplicates: v.PerftDuplicates, Threads: 1})
				nodes += n
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "leaves/s")
		})
	}
}
