package report

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
)

// writeSyntheticJournal writes the journal of a match of n english games: distinct
// games of random legal moves (at most 2000, then repeated under other game numbers, with
// 2000 openings and results of their own), as a long match has them.
func writeSyntheticJournal(tb testing.TB, path string, n int) {
	tb.Helper()
	v := engine.MustLookup("english")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	players := []string{"base", "test"}
	if err := enc.Encode(match.Header{Format: "rafle-selfplay-journal/1", Variant: v.Name, Players: players, Seed: 1, Games: n, Openings: "synthetic"}); err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var games [][]string
	var reasons []string
	for i := range n {
		k := i % 2000
		if k == len(games) {
			g := engine.NewGame(v, v.Start())
			var moves []string
			reason := "max-plies"
			for g.Ply() < 160 {
				if out := g.Outcome(); out.Over {
					reason = out.Reason
					break
				}
				legal := g.Legal()
				m := legal[rng.IntN(len(legal))]
				p := g.Position()
				moves = append(moves, v.FormatMove(&p, m, false))
				if err := g.Play(m); err != nil {
					tb.Fatal(err)
				}
			}
			games, reasons = append(games, moves), append(reasons, reason)
		}
		white, black := players[i%2], players[1-i%2]
		rec := match.Record{Game: i, White: white, Black: black, Opening: "opening " + string(rune('A'+i/2%26)) + string(rune('a'+i/52%26)),
			Moves: games[k], Reason: reasons[k], Date: "2026.12.01"}
		if rng.IntN(3) > 0 {
			rec.Winner = []string{"white", "black"}[rng.IntN(2)]
		}
		if err := enc.Encode(rec); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// loadAverage returns the machine's one-minute load average (Linux), or 0.
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	l, _ := strconv.ParseFloat(strings.Fields(string(data))[0], 64)
	return l
}

// BenchmarkLargeReport measures the report of a match of 100,000 games: the time to make
// it, its size, and the time a headless Chromium takes to open it (the load event, and
// the first game drawn, each the best of three loads). Run it alone:
//
//	go test -run '^$' -bench LargeReport -benchtime 1x ./pkg/report
func BenchmarkLargeReport(b *testing.B) {
	const games = 100_000
	path := chromium(b)
	dir := b.TempDir()
	journal := filepath.Join(dir, "large.journal")
	writeSyntheticJournal(b, journal, games)
	br := newBrowser(b, path)
	for b.Loop() {
		start := time.Now()
		m, err := ReadMatch(context.Background(), []string{journal})
		if err != nil {
			b.Fatal(err)
		}
		read := time.Since(start)
		if err := WriteMatch(context.Background(), filepath.Join(dir, "report"), m, "bench"); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(read.Seconds(), "read-s")
		b.ReportMetric(time.Since(start).Seconds(), "make-s")
		info, err := os.Stat(filepath.Join(dir, "report", "index.html"))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(info.Size())/1e6, "page-MB")
		// the best of three loads: the machine may be busy with other work
		drawn, load := math.Inf(1), math.Inf(1)
		for range 3 {
			begin := time.Now()
			br.open(b, filepath.Join(dir, "report"), true)
			drawn = min(drawn, float64(time.Since(begin).Milliseconds()))
			ctx, cancel := context.WithTimeout(br.ctx, 20*time.Second)
			l, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`performance.getEntriesByType("navigation")[0].loadEventEnd`))
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			load = min(load, l)
		}
		b.ReportMetric(drawn, "drawn-ms")
		b.ReportMetric(loadAverage(), "loadavg")
		b.ReportMetric(load, "load-ms")
	}
}
