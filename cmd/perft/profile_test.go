package main

import (
	"context"
	"testing"
	"time"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/pkg/engine"
)

// The workload of BenchmarkProfile: each position at the deepest depth of its suite with
// at most profileLeaves leaves, counted again until profileTime has passed, so that every
// position weighs about the same in the profile.
const (
	profileLeaves = 1 << 25
	profileTime   = 300 * time.Millisecond
)

// BenchmarkProfile is the workload of cmd/perft/default.pgo, the CPU profile `go build`
// uses for this command (docs/benchmarks.md, "Profile-guided builds"): every position of
// every variant's published suite in corpus/perft, counted on one thread without a hash
// table in the convention of its row. It fails when a count differs from the published
// one.
func BenchmarkProfile(b *testing.B) {
	var cases []engine.PerftCase
	for _, v := range engine.Variants() {
		suite, err := corpus.PerftSuite(v)
		if err != nil {
			b.Fatal(err)
		}
		deepest := map[string]engine.PerftCase{}
		for _, c := range suite {
			if d, ok := deepest[c.FEN]; c.Nodes <= profileLeaves && (!ok || c.Depth > d.Depth) {
				deepest[c.FEN] = c
			}
		}
		for _, c := range suite {
			if deepest[c.FEN] == c {
				cases = append(cases, c)
			}
		}
	}
	var leaves uint64
	for range b.N {
		for _, c := range cases {
			p, err := c.Variant.ParseFEN(c.FEN)
			if err != nil {
				b.Fatal(err)
			}
			opts := engine.PerftOptions{Duplicates: c.Conventions()[0], Threads: 1}
			for start := time.Now(); time.Since(start) < profileTime; {
				n, err := c.Variant.Perft(context.Background(), p, c.Depth, opts)
				if err != nil || n != c.Nodes {
					b.Fatalf("%s %s depth %d: %d leaves, %v; published %d", c.Variant.Name, c.Position, c.Depth, n, err, c.Nodes)
				}
				leaves += n
			}
		}
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "leaves/s")
}
