package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testengines"
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

// BenchmarkRefereeOverhead plays hubfake, which answers at once with its first legal move,
// against itself over Hub (one game at a time, international, random 4-ply openings, at
// most 200 plies past them), and reports rafle's own work per move: the CPU time of this
// process (the referee, the clocks, writing the whole game in "pos", reading and checking
// the answer; the engine's replay is in its own process) and the wall time of a move, the
// round trip through the pipe included. go test -bench RefereeOverhead -benchtime 3x ./pkg/match
func BenchmarkRefereeOverhead(b *testing.B) {
	fake := testengines.Hub(b)
	v := engine.MustLookup("international")
	ops, err := RandomOpenings(v, 4, 8, 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	var players []Entrant
	for _, name := range []string{"a", "b"} {
		spec, err := ParseEngineSpec("name=" + name + ",cmd=" + fake + ",tc=60+1")
		if err != nil {
			b.Fatal(err)
		}
		players = append(players, External(spec, ExternalOptions{}))
	}
	moves := 0
	var wall, cpu time.Duration
	for i := 0; b.Loop(); i++ {
		journal := filepath.Join(b.TempDir(), "m.journal")
		cfg := Config{Variant: v, Players: players, Games: 4, Openings: ops, MaxPlies: 200, Concurrency: 1,
			Seed: int64(i), JournalPath: journal}
		start, c0 := time.Now(), cpuTime()
		if _, err := Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
		wall, cpu = wall+time.Since(start), cpu+cpuTime()-c0
		f, err := os.Open(journal)
		if err != nil {
			b.Fatal(err)
		}
		_, recs, _, err := readJournal(f, journal)
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range recs {
			moves += len(r.Moves) - r.OpeningPlies
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(moves), "cpu-µs/move")
	b.ReportMetric(float64(wall.Microseconds())/float64(moves), "µs/move")
}
