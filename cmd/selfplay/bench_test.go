package main

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkMatch plays the same fixed-depth match in-process and against rafle over Hub
// (one process per worker, one worker), and reports games per second; the protocol's share
// of the time is 1 - hub/in-process. go test -bench Match -benchtime 3x ./cmd/selfplay
func BenchmarkMatch(b *testing.B) {
	bin, err := selfplayBinary()
	if err != nil {
		b.Fatal(err)
	}
	const games = 20
	for _, bc := range []struct{ name, players, engine string }{
		{"in-process", "depth=4,depth=4", ""},
		{"hub", "r,depth=4", "name=r,cmd=" + bin + `,args="engine --proto hub --player depth=4 -v english",depth=4`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var elapsed time.Duration
			for i := range b.N {
				args := []string{"-v", "english", "--players", bc.players, "--games", strconv.Itoa(games), "--seed", strconv.Itoa(i),
					"--max-plies", "100", "-j", "1", "-q", "--json", "--pdn", filepath.Join(b.TempDir(), "m.pdn")}
				if bc.engine != "" {
					args = append(args, "--engine", bc.engine)
				}
				began := time.Now()
				if code, _, stderr := runArgs(b, args...); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr)
				}
				elapsed += time.Since(began)
			}
			b.ReportMetric(float64(games*b.N)/elapsed.Seconds(), "games/s")
		})
	}
}
