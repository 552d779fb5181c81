package tune

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// patternGames returns positions of random english games, labelled by drawing a win with
// probability σ(k·q/100), q the evaluation with hidden: a data set with Patterns, and the
// positions in its row order.
func patternGames(t testing.TB, games int, hidden *search.Weights, k float64, seed uint64) (*Dataset, []engine.Position) {
	t.Helper()
	v := engine.MustLookup("english")
	d := NewDataset(v)
	d.Patterns = true
	rng := rand.New(rand.NewPCG(seed, 3))
	var ps []engine.Position
	for g := range games {
		p := v.Start()
		for ply := 0; ply < 60; ply++ {
			moves := v.Generate(nil, &p)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
			if v.HasCapture(&p) || !v.HasMoves(&p) {
				continue
			}
			y := 0.0
			if rng.Float64() < sigmoid(k*search.Evaluate(v, hidden, &p)/100) {
				y = 1
			}
			d.Add(&p, y, int32(g))
			ps = append(ps, p)
		}
	}
	return d, ps
}

// TestFitPatterns: a fit of the patterns on positions labelled by hidden pattern weights
// lowers the held-out loss well below the loss of the hand-set features alone, and the
// fitted weights evaluate each position as the data set's model does (Dataset.Score and
// search.Evaluate agree within the rounding of the pattern term).
func TestFitPatterns(t *testing.T) {
	v := engine.MustLookup("english")
	hidden := search.HandWeights(v)
	rng := rand.New(rand.NewPCG(7, 7))
	hidden.Patterns = &search.Patterns{Windows: 9, Values: make([]int16, 9*PatternVars)}
	for i := range hidden.Patterns.Values {
		hidden.Patterns.Values[i] = int16(rng.IntN(4001) - 2000) // ±2 men
	}
	d, ps := patternGames(t, 1500, hidden, 1, 1)
	res, err := Fit(context.Background(), d, Config{Patterns: true, PatternL2: 1e-6, Holdout: 0.2, Seed: 1, K: 1, MaxIterations: 100})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Holdout
	if !(h.After < h.Before*0.95) {
		t.Errorf("held-out loss %.4f before, %.4f after: want at least 5%% lower", h.Before, h.After)
	}
	if p := res.Patterns; p == nil || p.Windows != 9 || p.Weights != 9*PatternVars || p.NonZero == 0 {
		t.Fatalf("Result.Patterns = %+v", p)
	}
	for name, x := range res.New.Values {
		if x != math.Round(x) {
			t.Errorf("feature %s = %g: want whole hundredths with patterns", name, x)
		}
	}
	for i := range ps {
		got, want := d.Score(i, res.New), search.Evaluate(v, res.New, &ps[i])
		if math.Abs(got-want) > 0.5+1e-3 { // the term is rounded; the phase is a float32
			t.Fatalf("%s: Dataset.Score %g, search.Evaluate %g", v.FEN(ps[i]), got, want)
		}
	}
}

// TestFitPatternsRefused: patterns need a data set read with them, and weights with
// patterns need a fit of them.
func TestFitPatternsRefused(t *testing.T) {
	v := engine.MustLookup("english")
	d := NewDataset(v)
	p := v.Start()
	d.Add(&p, 1, 0)
	if _, err := Fit(context.Background(), d, Config{Patterns: true}); err == nil || !strings.Contains(err.Error(), "without its patterns") {
		t.Errorf("Fit with Patterns on a data set without: %v", err)
	}
	w := search.HandWeights(v)
	w.Patterns = &search.Patterns{Windows: 9, Values: make([]int16, 9*PatternVars)}
	if _, err := Fit(context.Background(), d, Config{Init: w}); err == nil || !strings.Contains(err.Error(), "have patterns") {
		t.Errorf("Fit without Patterns from weights with: %v", err)
	}
}

// TestFitScale: with FitScale, K is fitted with the weights, so a start whose K is wrong
// (every weight but man's and king's halved) still recovers the planted K and weights, man
// staying the unit and the fixed king keeping its ratio to man.
func TestFitScale(t *testing.T) {
	const k = 1.2
	d := synthetic(t, 200_000, planted, k, 3)
	init := &search.Weights{Variant: "english", Values: map[string]float64{}}
	for n, x := range planted {
		init.Values[n] = x / 2
	}
	init.Values[Man], init.Values["king"] = ManValue, planted["king"]
	tuned, err := Fix(d.Names, []string{"king"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Fit(context.Background(), d, Config{Init: init, FitScale: true, Tune: tuned, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !res.ScaleFitted || math.Abs(res.K-k)/k > 0.05 {
		t.Errorf("K = %.4f (scale fitted %v), want %g within 5%%", res.K, res.ScaleFitted, k)
	}
	for _, c := range res.Weights {
		if (c.Feature == Man || c.Feature == "king") && (c.New != init.Values[c.Feature] || c.Tuned) {
			t.Errorf("%s: %+v, want %g and not tuned", c.Feature, c, init.Values[c.Feature])
		}
		if want := planted[c.Feature]; math.Abs(c.New-want) > 0.1*math.Abs(want)+3 {
			t.Errorf("%s = %g, planted %g", c.Feature, c.New, want)
		}
	}
}

// TestFitPatternsShared: on positions labelled by pattern weights that are the same for
// every window of a band of rows, a fit with ShareRow writes one table to the windows of
// each band, fits a third of the weights, and predicts the held-out games better than a
// fit of a table for every window (the same truth, three times the positions per weight).
func TestFitPatternsShared(t *testing.T) {
	v := engine.MustLookup("english")
	hidden := search.HandWeights(v)
	rng := rand.New(rand.NewPCG(8, 8))
	vals := make([]int16, 9*PatternVars)
	for band := range 3 {
		for c := range PatternVars {
			x := int16(rng.IntN(4001) - 2000) // ±2 men
			for f := range 3 {
				vals[(3*band+f)*PatternVars+c] = x
			}
		}
	}
	hidden.Patterns = &search.Patterns{Windows: 9, Values: vals}
	d, _ := patternGames(t, 300, hidden, 1, 2)
	fit := func(s Share) *Result {
		res, err := Fit(context.Background(), d, Config{Patterns: true, PatternShare: s, PatternL2: 1e-6, Holdout: 0.2, Seed: 1, K: 1, MaxIterations: 50})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	row, window := fit(ShareRow), fit(ShareWindow)
	if p := row.Patterns; p.Free != 3*PatternVars || p.Share != "row" || p.Weights != 9*PatternVars {
		t.Errorf("Result.Patterns = %+v, want 3 tables of %d fitted", p, PatternVars)
	}
	got := row.New.Patterns.Values
	for w := range 9 {
		first := (w / 3) * 3
		if !slices.Equal(got[w*PatternVars:(w+1)*PatternVars], got[first*PatternVars:(first+1)*PatternVars]) {
			t.Fatalf("window %d's table differs from window %d's, its band's", w, first)
		}
	}
	if !(row.Holdout.After < window.Holdout.After) {
		t.Errorf("held-out loss: shared by rows %.5f, a table a window %.5f: want the shared lower", row.Holdout.After, window.Holdout.After)
	}
}

// TestParseShare reads the names of the ways of sharing and refuses others.
func TestParseShare(t *testing.T) {
	for in, want := range map[string]Share{"window": ShareWindow, "": ShareWindow, "Row": ShareRow, "board": ShareBoard} {
		if got, err := ParseShare(in); err != nil || got != want {
			t.Errorf("ParseShare(%q) = %v, %v; want %v", in, got, err, want)
		}
		if want != ShareWindow || in != "" {
			if s, _ := ParseShare(want.String()); s != want {
				t.Errorf("ParseShare(%v.String()) = %v", want, s)
			}
		}
	}
	if _, err := ParseShare("column"); err == nil || !strings.Contains(err.Error(), "window, row or board") {
		t.Errorf("ParseShare(column): %v", err)
	}
}
