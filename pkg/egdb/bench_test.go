package egdb

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// BenchmarkBuild builds english's database of up to 3 pieces (199,520 positions with White
// to move) per iteration, on one thread.
func BenchmarkBuild(b *testing.B) {
	v := engine.MustLookup("english")
	var pos uint64
	for b.Loop() {
		dir := b.TempDir()
		rs, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range rs {
			pos += r.Positions
		}
	}
	b.ReportMetric(float64(pos)/b.Elapsed().Seconds(), "positions/s")
}

// BenchmarkProbe probes random positions of english's 3-piece slices, cache warm.
func BenchmarkProbe(b *testing.B) {
	v := engine.MustLookup("english")
	dir := b.TempDir()
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 1}); err != nil {
		b.Fatal(err)
	}
	db, err := Open(dir, v, Options{})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ss := SlicesOf(v, 3)
	ps := make([]engine.Position, 4096)
	for i := range ps {
		s := ss[rng.IntN(len(ss))]
		ps[i], _ = db.Position(s, rng.Uint64N(db.Size(s)), engine.Color(rng.IntN(2)))
		db.Probe(&ps[i])
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := db.Probe(&ps[i&4095]); err != nil {
			b.Fatal(err)
		}
	}
}
