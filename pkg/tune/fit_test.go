package tune

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// synthetic returns n positions of english with random feature vectors, labelled by
// drawing a win with probability σ(k·q/100) for q = Σ w·f (noise from the draw), spread
// over n/50 games.
func synthetic(t testing.TB, n int, w map[string]float64, k float64, seed uint64) *Dataset {
	t.Helper()
	v := engine.MustLookup("english")
	d := NewDataset(v)
	rng := rand.New(rand.NewPCG(seed, 1))
	// Plausible ranges: material differences of a few pieces, larger positional counts.
	spread := map[string]int{"man": 3, "king": 2, "advance": 12, "back_rank": 3, "centre": 3,
		"mobility": 6, "king_mobility": 6, "runaway": 2, "tempo": 0}
	f := make([]float64, len(d.Names))
	for i := 0; i < n; i++ {
		var q float64
		for j, name := range d.Names {
			s := spread[name]
			f[j] = float64(rng.IntN(2*s+1) - s)
			if name == "tempo" {
				f[j] = 1
			}
			q += w[name] * f[j]
		}
		y := 0.0
		if rng.Float64() < sigmoid(k*q/100) {
			y = 1
		}
		d.AddVector(f, y, int32(i/50))
	}
	return d
}

var planted = map[string]float64{"man": 100, "king": 170, "advance": 3, "back_rank": 12, "centre": 6,
	"mobility": 4, "king_mobility": 3, "runaway": 40, "tempo": -5}

func TestFitKRecoversPlantedK(t *testing.T) {
	for _, k := range []float64{0.5, 1.2, 3} {
		d := synthetic(t, 100_000, planted, k, 1)
		init := &search.Weights{Variant: "english", Values: planted}
		for _, loss := range []Loss{LossLogistic, LossSquared} {
			res, err := Fit(context.Background(), d, Config{Init: init, Loss: loss, Tune: []string{"tempo"}, MaxIterations: 1})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(res.K-k)/k > 0.03 {
				t.Errorf("Fit(planted K %g, %s loss): K = %.4f, want within 3%%", k, loss, res.K)
			}
		}
	}
}

func TestFitRecoversPlantedWeights(t *testing.T) {
	const k = 1.0
	d := synthetic(t, 300_000, planted, k, 2)
	for _, loss := range []Loss{LossLogistic, LossSquared} {
		t.Run(loss.String(), func(t *testing.T) {
			zero := search.HandWeights(d.Variant)
			for n := range zero.Values {
				if n != Man {
					zero.Values[n] = 0
				}
			}
			res, err := Fit(context.Background(), d, Config{Init: zero, K: k, Loss: loss, Holdout: 0.1, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range res.Weights {
				want := planted[c.Feature]
				// Tolerance: a few standard errors at this sample size.
				tol := math.Max(0.06*math.Abs(want), 1.5)
				if math.Abs(c.New-want) > tol {
					t.Errorf("%s: fitted %s = %.2f, want %.2f ± %.2f", loss, c.Feature, c.New, want, tol)
				}
			}
			if !(res.Train.After < res.Train.Before) || !(res.Holdout.After < res.Holdout.Before) {
				t.Errorf("%s: loss did not fall: train %.5f → %.5f, held-out %.5f → %.5f", loss,
					res.Train.Before, res.Train.After, res.Holdout.Before, res.Holdout.After)
			}
			if res.KFitted || res.K != k {
				t.Errorf("%s: K = %g (fitted %v), want the given %g", loss, res.K, res.KFitted, k)
			}
		})
	}
}

func TestFitPlantedLoop(t *testing.T) {
	// Fit K with the default weights, then the weights: the held-out loss must fall and the
	// material weights move towards the planted ones.
	d := synthetic(t, 200_000, planted, 1.5, 4)
	res, err := Fit(context.Background(), d, Config{Holdout: 0.2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !res.KFitted || !(res.Holdout.After < res.Holdout.Before) {
		t.Errorf("K %.3f fitted %v; held-out loss %.5f → %.5f, want a fall", res.K, res.KFitted, res.Holdout.Before, res.Holdout.After)
	}
}

func TestFixedFeaturesStayFixed(t *testing.T) {
	d := synthetic(t, 50_000, planted, 1, 6)
	init := search.HandWeights(d.Variant)
	tuned := []string{"king", "runaway"}
	res, err := Fit(context.Background(), d, Config{Init: init, Tune: tuned})
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, c := range res.Weights {
		isTuned := slices.Contains(tuned, c.Feature)
		if c.Tuned != isTuned {
			t.Errorf("%s: Tuned = %v, want %v", c.Feature, c.Tuned, isTuned)
		}
		if !isTuned && (c.New != init.Values[c.Feature] || res.New.Values[c.Feature] != init.Values[c.Feature]) {
			t.Errorf("fixed %s moved: %g → %g", c.Feature, init.Values[c.Feature], c.New)
		}
		if isTuned && c.New != c.Old {
			moved++
		}
	}
	if moved != len(tuned) {
		t.Errorf("%d of the tuned features moved, want %d", moved, len(tuned))
	}
	// Fix names the complement; man is never tuned.
	got, err := Fix(d.Names, []string{"tempo", "centre"})
	want := []string{"king", "advance", "back_rank", "mobility", "king_mobility", "runaway"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Fix(tempo, centre) = %v, %v; want %v", got, err, want)
	}
}

func TestSplitReproducible(t *testing.T) {
	d := synthetic(t, 20_000, planted, 1, 7) // 400 games
	a1, h1 := Split(d, 0.1, 42)
	a2, h2 := Split(d, 0.1, 42)
	if !slices.Equal(a1, a2) || !slices.Equal(h1, h2) {
		t.Fatal("Split(0.1, 42) differs between two calls")
	}
	_, h3 := Split(d, 0.1, 43)
	if slices.Equal(h1, h3) {
		t.Error("Split with seeds 42 and 43 held out the same rows")
	}
	train, held := map[int32]bool{}, map[int32]bool{}
	for _, i := range a1 {
		train[d.Game[i]] = true
	}
	for _, i := range h1 {
		held[d.Game[i]] = true
		if train[d.Game[i]] {
			t.Fatalf("game %d is in both sets", d.Game[i])
		}
	}
	if len(held) != 40 || len(a1)+len(h1) != d.Len() {
		t.Errorf("Split(0.1) of 400 games: %d held-out games, %d+%d rows of %d; want 40 games and every row once",
			len(held), len(a1), len(h1), d.Len())
	}
	if _, h := Split(d, 0, 42); len(h) != 0 {
		t.Errorf("Split(0) held out %d rows", len(h))
	}
}

func TestFitBadInput(t *testing.T) {
	v := engine.MustLookup("english")
	d := synthetic(t, 1000, planted, 1, 8)
	unknown := search.HandWeights(v)
	unknown.Values["flank"] = 1
	missing := search.HandWeights(v)
	delete(missing.Values, "tempo")
	bigMan := search.HandWeights(v)
	bigMan.Values["man"] = 120
	tests := []struct {
		name string
		d    *Dataset
		cfg  Config
		want string
	}{
		{"empty", NewDataset(v), Config{}, "no usable positions"},
		{"unknown feature", d, Config{Tune: []string{"king", "flank"}}, "unknown features: flank"},
		{"tune man", d, Config{Tune: []string{"man"}}, "man cannot be tuned"},
		{"weights with unknown feature", d, Config{Init: unknown}, "unknown features: flank"},
		{"weights with missing feature", d, Config{Init: missing}, "missing features: tempo"},
		{"man not 100", d, Config{Init: bigMan}, "man is 120"},
		{"holdout 1", d, Config{Holdout: 1}, "holdout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Fit(context.Background(), tc.d, tc.cfg)
			if err == nil || res != nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Fit(%s) = %v, %v; want an error naming %q", tc.name, res, err, tc.want)
			}
		})
	}
	if _, err := Fit(context.Background(), NewDataset(v), Config{}); !errors.Is(err, ErrNoPositions) {
		t.Errorf("Fit(empty) = %v, want ErrNoPositions", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, d, Config{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Fit(cancelled) = %v, want context.Canceled", err)
	}
}

// BenchmarkFit1M fits K and every weight on one million synthetic positions.
func BenchmarkFit1M(b *testing.B) {
	d := synthetic(b, 1_000_000, planted, 1.2, 9)
	b.ResetTimer()
	for b.Loop() {
		res, err := Fit(context.Background(), d, Config{Holdout: 0.1, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Iterations), "iterations")
	}
	b.ReportMetric(float64(d.Len()), "positions")
}
