package match

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// BenchmarkSelfplay plays a level against itself (16 games per iteration, random
// 4-ply openings, at most 200 plies) and reports games per second of wall time, and games
// per second of CPU time (user and system, all workers), which a busy machine disturbs less.
func BenchmarkSelfplay(b *testing.B) {
	for _, variant := range []string{"english", "international"} {
		v := engine.MustLookup(variant)
		ops, err := RandomOpenings(v, 4, 8, 1, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, level := range []string{"easy", "medium"} {
			ps, _ := search.Level(level)
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/workers=%d", variant, level, workers), func(b *testing.B) {
					cfg := Config{Variant: v, Players: []Entrant{Engine(level, ps), Engine(level+"#2", ps)},
						Games: 16, Openings: ops, MaxPlies: 200, Concurrency: workers}
					games := 0
					start, cpu := time.Now(), cpuTime()
					for i := 0; b.Loop(); i++ {
						cfg.Seed = int64(i)
						res, err := Run(context.Background(), cfg)
						if err != nil {
							b.Fatal(err)
						}
						games += res.Games
					}
					b.ReportMetric(float64(games)/time.Since(start).Seconds(), "games/s")
					if used := cpuTime() - cpu; used > 0 {
						b.ReportMetric(float64(games)/used.Seconds(), "games/cpu-s")
					}
				})
			}
		}
	}
}
