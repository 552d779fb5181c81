package egdb

import (
	"context"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// BenchmarkBuild builds english's database of up to 3 pieces (261,224 placements less
// those of one colour, with each side to move's slices) per iteration.
func BenchmarkBuild(b *testing.B) {
	v := engine.MustLookup("english")
	var pos uint64
	for b.Loop() {
		dir := b.TempDir()
		rs, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 4, Jobs: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rs {
			pos += r.Positions
		}
	}
	b.ReportMetric(float64(pos)/b.Elapsed().Seconds(), "positions/s")
}
