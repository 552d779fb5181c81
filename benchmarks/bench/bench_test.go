package bench

import (
	"bytes"
	"context"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

func TestSelect(t *testing.T) {
	names := func(bs []Benchmark) string {
		var s []string
		for _, b := range bs {
			s = append(s, b.Name)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		short    bool
		patterns []string
		want     string
	}{
		{false, []string{"search/english", "pdn/read"}, "pdn/read search/english"},
		{false, []string{"perft-hash/[eb]*"}, "perft-hash/english perft-hash/brazilian perft-hash/breakthrough"},
		{false, []string{"perf"}, ""}, // a prefix must end at a slash
	} {
		if got := names(Select(tc.short, tc.patterns...)); got != tc.want {
			t.Errorf("Select(%v, %q) = %q, want %q", tc.short, tc.patterns, got, tc.want)
		}
	}
	perft := Select(false, "perft")
	if len(perft) != len(engine.Variants())+2 {
		t.Errorf("Select(false, \"perft\") has %d benchmarks, want one per variant (%d) and international's two", len(perft), len(engine.Variants()))
	}
	for _, b := range perft {
		if !strings.HasPrefix(b.Name, "perft/") {
			t.Errorf("Select(false, \"perft\") has %s", b.Name)
		}
	}
	all, short := Select(false), Select(true)
	if len(short) == 0 || len(short) >= len(all) {
		t.Errorf("short set has %d of %d benchmarks", len(short), len(all))
	}
}

func TestFirstGames(t *testing.T) {
	data := []byte("[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-13 *\n\n[Event \"c\"]\n*\n")
	for n, want := range map[int]string{1: "[Event \"a\"]\n1. 11-15 *\n\n", 2: "[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-13 *\n\n", 5: string(data)} {
		if got := string(firstGames(data, n)); got != want {
			t.Errorf("firstGames(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestMeasureSlowdown(t *testing.T) {
	if testing.Short() {
		t.Skip("burns CPU")
	}
	w := func(ctx context.Context) (float64, error) {
		end := CPUTime() + 30*time.Millisecond
		Spin(func() bool { return CPUTime() >= end })
		return 1, nil
	}
	plain, err := Measure(context.Background(), w, 1)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := Measure(context.Background(), w, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r := slow.CPU.Seconds() / plain.CPU.Seconds(); r < 1.7 || r > 2.5 {
		t.Errorf("CPU time with slowdown 2 / without = %.2f (%v / %v), want about 2", r, slow.CPU, plain.CPU)
	}
}

func TestSignaturesDiff(t *testing.T) {
	want := &Signatures{Depth: 7, HashMB: 16, Nodes: map[string]int64{"english": 100, "russian": 50}}
	got := &Signatures{Depth: 7, HashMB: 16, Nodes: map[string]int64{"english": 110, "frisian": 9}}
	diff := strings.Join(want.Diff(got), "\n")
	for _, s := range []string{"english: signature 110, expected 100 (+10 nodes, +10.00%)", "frisian: signature 9, but no expected", "russian: expected signature 50, but the variant is not registered"} {
		if !strings.Contains(diff, s) {
			t.Errorf("Diff = %q, want it to contain %q", diff, s)
		}
	}
	if d := want.Diff(want); d != nil {
		t.Errorf("Diff of equal signatures = %q, want nil", d)
	}
}

func TestPlotHistory(t *testing.T) {
	rs := []*Result{
		{Commit: "aaa", Figures: []Figure{{Name: "perft/english", Unit: "leaves/s", Median: 100}, {Name: "pdn/read", Skipped: "no corpus"}}},
		{Commit: "bbb", Figures: []Figure{{Name: "perft/english", Unit: "leaves/s", Median: 150}, {Name: "pdn/read", Median: 60}}},
		{Commit: "c<d", Figures: []Figure{{Name: "perft/english", Unit: "leaves/s", Median: 140}, {Name: "pdn/read", Median: 66}}},
	}
	var b bytes.Buffer
	if err := PlotHistory(&b, rs); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&b)
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("PlotHistory wrote invalid XML: %v", err)
			}
			break
		}
	}
}

// TestValue: a throughput is work per CPU (or wall) second; an amount such as MiB is the
// work itself, whatever the time, and lower is better.
func TestValue(t *testing.T) {
	s := Sample{Work: 80, CPU: 2 * time.Second, Wall: 4 * time.Second}
	for _, tc := range []struct {
		unit       string
		wall       bool
		want       float64
		lowerIsBet bool
	}{{"leaves/s", false, 40, false}, {"MB/s", true, 20, false}, {MiB, false, 80, true}, {MiB, true, 80, true}} {
		if got := Value(tc.unit, s, tc.wall); got != tc.want || LowerIsBetter(tc.unit) != tc.lowerIsBet {
			t.Errorf("Value(%q, wall %v) = %g, LowerIsBetter %v; want %g, %v", tc.unit, tc.wall, got, LowerIsBetter(tc.unit), tc.want, tc.lowerIsBet)
		}
	}
}
