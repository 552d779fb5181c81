package annotate

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

// processCPU returns the CPU time of the process (getrusage RUSAGE_SELF).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchGames reads the first n games of the OCA file of the shared corpus, replayed as
// english (skipped without the corpus).
func benchGames(b *testing.B, n int) ([]*pdn.Game, []*pdn.Replayed) {
	path := filepath.Join("..", "..", "..", "shared", "pdn", "corpus", "mzuluaga__checkers", "OCA_2.0.pdn")
	f, err := os.Open(path)
	if err != nil {
		b.Skipf("shared corpus: %v", err)
	}
	defer f.Close()
	r := pdn.NewReader(f)
	v := engine.MustLookup("english")
	var games []*pdn.Game
	var rps []*pdn.Replayed
	for len(games) < n {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			continue
		}
		rp, err := pdn.Replay(g, v)
		if err != nil || !rp.Complete {
			continue
		}
		games, rps = append(games, g), append(rps, rp)
	}
	return games, rps
}

// benchSpec is the search of the benchmarks: depth 6, captures followed.
var benchSpec = search.PlayerSpec{Spec: "depth=6", Limits: search.Limits{Depth: 6}}

// BenchmarkAnnotate analyses 20 OCA games whole, as a worker of pdn annotate does
// (AnalyseGame, Summarize, Annotate, the PDN written), and reports the positions searched
// per CPU second; BenchmarkSearchOnly searches the same positions with the same searcher
// and limits and nothing else. Their ratio is what annotate adds to the engine's work.
func BenchmarkAnnotate(b *testing.B) {
	a, _ := SearchAnalyser(benchSpec)()
	benchAnnotate(b, a)
}

// BenchmarkOverhead is BenchmarkAnnotate with an analyser that answers at once (the
// first legal move, a score of 0, a line of one move): what annotate costs per position
// without the search (replay, database-free judging, summary, PDN).
func BenchmarkOverhead(b *testing.B) {
	benchAnnotate(b, nullAnalyser{})
}

type nullAnalyser struct{}

func (nullAnalyser) StartGame(context.Context, *engine.Variant) error { return nil }
func (nullAnalyser) Close() error                                     { return nil }
func (nullAnalyser) Analyse(_ context.Context, g *engine.Game) (Eval, error) {
	m := g.Legal()[0]
	return Eval{Move: m, HasScore: true, Depth: 1, PV: []engine.Move{m}}, nil
}

func benchAnnotate(b *testing.B, a Analyser) {
	games, rps := benchGames(b, 20)
	ctx := context.Background()
	positions := 0
	cpu0 := processCPU()
	for b.Loop() {
		for i, g := range games {
			gc := *g
			gc.Moves = append([]pdn.Node(nil), g.Moves...)
			rp := rps[i]
			an, err := AnalyseGame(ctx, a, rp, Options{})
			if err != nil {
				b.Fatal(err)
			}
			Summarize("oca", i+1, &gc, rp, an)
			if err := Annotate(&gc, rp, an); err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			w := pdn.NewWriter(&buf)
			w.Format(&gc)
			w.Flush()
			positions += an.Searches
		}
	}
	b.ReportMetric(float64(positions)/(processCPU()-cpu0).Seconds(), "positions/cpu-s")
	b.ReportMetric(float64(positions)/float64(b.N), "positions/op")
}

func BenchmarkSearchOnly(b *testing.B) {
	_, rps := benchGames(b, 20)
	v := engine.MustLookup("english")
	p, err := benchSpec.New(v, 0)
	if err != nil {
		b.Fatal(err)
	}
	s := p.Searcher()
	ctx := context.Background()
	positions := 0
	runtime.GC()
	cpu0 := processCPU()
	for b.Loop() {
		for _, rp := range rps {
			s.Clear()
			g := engine.NewGame(v, rp.Start)
			for k := 0; ; k++ {
				if g.Outcome().Over {
					break
				}
				s.Search(ctx, g, benchSpec.Limits)
				positions++
				if k == len(rp.Plies) || g.Play(rp.Plies[k].Move) != nil {
					break
				}
			}
		}
	}
	b.ReportMetric(float64(positions)/(processCPU()-cpu0).Seconds(), "positions/cpu-s")
	b.ReportMetric(float64(positions)/float64(b.N), "positions/op")
}
