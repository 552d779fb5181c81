package search_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

func TestParsePlayer(t *testing.T) {
	tests := []struct {
		spec string
		want search.PlayerSpec
	}{
		{"easy", search.PlayerSpec{Spec: "easy", Limits: search.Limits{Depth: 2, NoQuiescence: true, FullWidth: true}, Random: search.EasyRandom, HashMB: 1}},
		{"medium", search.PlayerSpec{Spec: "medium", Limits: search.Limits{Depth: 4, FullWidth: true}, HashMB: 4}},
		{"hard", search.PlayerSpec{Spec: "hard", Limits: search.Limits{Depth: 8, MoveTime: search.HardMoveTime, FullWidth: true}, HashMB: search.DefaultHashMB}},
		{"max", search.PlayerSpec{Spec: "max", Limits: search.Limits{MoveTime: search.HardMoveTime}, HashMB: search.MaxHashMB}},
		{" HARD ", search.PlayerSpec{Spec: "HARD", Limits: search.Limits{Depth: 8, MoveTime: search.HardMoveTime, FullWidth: true}, HashMB: search.DefaultHashMB}},
		{"depth=6", search.PlayerSpec{Spec: "depth=6", Limits: search.Limits{Depth: 6}}},
		{"depth=6:movetime=200ms", search.PlayerSpec{Spec: "depth=6:movetime=200ms", Limits: search.Limits{Depth: 6, MoveTime: 200 * time.Millisecond}}},
		{"nodes=5000:weights=w.json", search.PlayerSpec{Spec: "nodes=5000:weights=w.json", Limits: search.Limits{Nodes: 5000}, WeightsFile: "w.json"}},
		{"hard:weights=tuned.json", search.PlayerSpec{Spec: "hard:weights=tuned.json", Limits: search.Limits{Depth: 8, MoveTime: search.HardMoveTime, FullWidth: true}, WeightsFile: "tuned.json", HashMB: search.DefaultHashMB}},
		{"easy:random=0", search.PlayerSpec{Spec: "easy:random=0", Limits: search.Limits{Depth: 2, NoQuiescence: true, FullWidth: true}, HashMB: 1}},
		{"medium:depth=5:hash=64", search.PlayerSpec{Spec: "medium:depth=5:hash=64", Limits: search.Limits{Depth: 5, FullWidth: true}, HashMB: 64}},
		{"depth=3:quiescence=false:random=0.5", search.PlayerSpec{Spec: "depth=3:quiescence=false:random=0.5", Limits: search.Limits{Depth: 3, NoQuiescence: true}, Random: 0.5}},
		{"movetime=1s", search.PlayerSpec{Spec: "movetime=1s", Limits: search.Limits{MoveTime: time.Second}}},
		{"max:threads=2", search.PlayerSpec{Spec: "max:threads=2", Limits: search.Limits{MoveTime: search.HardMoveTime, Threads: 2}, HashMB: search.MaxHashMB}},
		{"depth=9:threads=64", search.PlayerSpec{Spec: "depth=9:threads=64", Limits: search.Limits{Depth: 9, Threads: 64}}},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := search.ParsePlayer(tc.spec)
			if err != nil {
				t.Fatalf("ParsePlayer(%q): %v", tc.spec, err)
			}
			if got != tc.want {
				t.Errorf("ParsePlayer(%q) = %+v, want %+v", tc.spec, got, tc.want)
			}
		})
	}
}

func TestParsePlayerErrors(t *testing.T) {
	tests := []struct{ spec, token string }{
		{"", "empty"},
		{"expert", `"expert"`},
		{"hard,medium", `"hard,medium"`},
		{"depth=0", `"depth=0"`},
		{"depth=x", `"depth=x"`},
		{"depth=65", `"depth=65"`},
		{"nodes=-1", `"nodes=-1"`},
		{"movetime=fast", `"movetime=fast"`},
		{"movetime=0s", `"movetime=0s"`},
		{"random=1.5", `"random=1.5"`},
		{"random=NaN", `"random=NaN"`},
		{"weights=", `"weights="`},
		{"hash=0", `"hash=0"`},
		{"depth=4:hash=65537", `"hash=65537"`},
		{"depth=4:hash=99999999999999999999", `"hash=99999999999999999999"`},
		{"quiescence=maybe", `"quiescence=maybe"`},
		{"depth=4:threads=0", `"threads=0"`},
		{"depth=4:threads=two", `"threads=two"`},
		{"depth=4:depth=5", `"depth=5"`},
		{"depth=4:hard", `"hard"`},
		{"colour=white", `"colour=white"`},
		{"weights=w.json", "needs a level or a limit"},
		{"random=0.5", "needs a level or a limit"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := search.ParsePlayer(tc.spec)
			if err == nil {
				t.Fatalf("ParsePlayer(%q) succeeded", tc.spec)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.token) || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "engine: ") {
				t.Errorf("ParsePlayer(%q): error %q, want one line starting with engine: naming %s", tc.spec, msg, tc.token)
			}
		})
	}
}

func TestPlayerWeightsFile(t *testing.T) {
	v := engine.MustLookup("international")
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	f, err := os.Create(good)
	if err != nil {
		t.Fatal(err)
	}
	w := search.DefaultWeights(v)
	w.Values["king"] = 250
	if err := w.Save(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"variant": "international", "values": {"man": 100}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	spec, err := search.ParsePlayer("depth=2:weights=" + good)
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.New(v, 1)
	if err != nil {
		t.Fatalf("New with %s: %v", good, err)
	}
	if _, err := p.Choose(context.Background(), engine.NewGame(v, v.Start())); err != nil {
		t.Fatal(err)
	}
	if _, err := spec.New(engine.MustLookup("english"), 1); err == nil || !strings.Contains(err.Error(), "not english") {
		t.Errorf("international weights for english: err = %v", err)
	}
	for _, tc := range []struct{ file, want string }{
		{filepath.Join(dir, "missing.json"), "no such file"},
		{bad, "missing features"},
	} {
		spec, _ := search.ParsePlayer("medium:weights=" + tc.file)
		_, err := spec.New(v, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file) {
			t.Errorf("New with %s: err = %v, want one naming the file and %q", tc.file, err, tc.want)
		}
	}
}

func TestPlayerChoose(t *testing.T) {
	v, g := gameFrom(t, "english", "W:W6:B1,2") // White's man on 6 is blocked by 1 and 2
	spec, _ := search.ParsePlayer("easy")
	p, err := spec.New(v, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "easy" {
		t.Errorf("Name() = %q", p.Name())
	}
	if _, err := p.Choose(context.Background(), g); !errors.Is(err, search.ErrNoMove) {
		t.Errorf("Choose without a legal move: err = %v, want ErrNoMove", err)
	}
	// easy plays random moves at about the documented rate
	v, g = gameFrom(t, "international", "")
	small, _ := search.ParsePlayer("easy:hash=1")
	random := 0
	const n = 400
	for i := range n {
		p, _ := small.New(v, int64(i))
		r, err := p.Choose(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if r.Random {
			random++
		}
	}
	if got := float64(random) / n; got < search.EasyRandom-0.08 || got > search.EasyRandom+0.08 {
		t.Errorf("easy played %d random moves of %d, want about %.0f%%", random, n, 100*search.EasyRandom)
	}
}

// playGame plays one game between a (White) and b (Black) from v's start after `random`
// seeded random plies, and returns the outcome.
func playGame(t testing.TB, v *engine.Variant, a, b search.PlayerSpec, seed int64, random int) engine.Outcome {
	t.Helper()
	pa, err := a.New(v, seed)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.New(v, seed+1000)
	if err != nil {
		t.Fatal(err)
	}
	opening, _ := search.ParsePlayer("depth=1:random=1")
	po, _ := opening.New(v, seed)
	g := engine.NewGame(v, v.Start())
	for ply := 0; ply < 300 && !g.Outcome().Over; ply++ {
		pl := pa
		if ply < random {
			pl = po
		} else if g.Position().Side != v.Start().Side {
			pl = pb
		}
		r, err := pl.Choose(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(r.Move); err != nil {
			t.Fatal(err)
		}
	}
	return g.Outcome()
}

// TestLevelsOrdered plays short matches between the levels (hard against medium, medium
// against easy) and checks the stronger level scores more. It takes minutes: set
// RAFLE_LEVELS=N (games per pair) to run it.
func TestLevelsOrdered(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("RAFLE_LEVELS"))
	if n <= 0 {
		t.Skip("set RAFLE_LEVELS=<games per pair> to run")
	}
	pairs := [][2]string{{"hard", "medium"}, {"medium", "easy"}, {"hard", "easy"}}
	for _, v := range engine.Variants() {
		for _, pair := range pairs {
			strong, _ := search.ParsePlayer(pair[0])
			weak, _ := search.ParsePlayer(pair[1])
			var score float64 // for strong
			w, d, l := 0, 0, 0
			for i := range n {
				first := v.Start().Side
				a, b := strong, weak
				if i%2 == 1 {
					a, b = weak, strong
				}
				o := playGame(t, v, a, b, int64(i/2), 4)
				switch {
				case o.Draw:
					d++
					score += 0.5
				case (o.Winner == first) == (i%2 == 0):
					w++
					score++
				default:
					l++
				}
			}
			t.Logf("%s: %s vs %s: +%d =%d -%d (%.1f/%d)", v.Name, pair[0], pair[1], w, d, l, score, n)
			if score <= float64(n)/2 {
				t.Errorf("%s: %s scored %.1f/%d against %s", v.Name, pair[0], score, n, pair[1])
			}
		}
	}
}

func TestPlayerReseed(t *testing.T) {
	v := engine.MustLookup("russian")
	spec, _ := search.ParsePlayer("easy:random=0.5")
	moves := func(p *search.Player) string {
		g := engine.NewGame(v, v.Start())
		for ply := 0; ply < 30 && !g.Outcome().Over; ply++ {
			r, err := p.Choose(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Play(r.Move); err != nil {
				t.Fatal(err)
			}
		}
		return v.FEN(g.Position())
	}
	fresh, _ := spec.New(v, 42)
	want := moves(fresh)
	used, _ := spec.New(v, 7)
	moves(used)
	used.Reseed(42)
	if got := moves(used); got != want {
		t.Errorf("after Reseed(42): %s, want %s as a new player with seed 42", got, want)
	}
}

// TestPlayerHashMiB: the table size a player will allocate, for commands to check against
// the memory of the machine.
func TestPlayerHashMiB(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want int
	}{{"easy", 1}, {"medium", 4}, {"hard", search.DefaultHashMB}, {"depth=3", search.DefaultHashMB}, {"hard:hash=64", 64}, {"max", search.MaxHashMB}} {
		ps, err := search.ParsePlayer(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := ps.HashMiB(); got != tc.want {
			t.Errorf("ParsePlayer(%q).HashMiB() = %d, want %d", tc.spec, got, tc.want)
		}
	}
}
