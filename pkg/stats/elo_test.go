package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// near reports whether got is within tol of want; infinities must match.
func near(got, want, tol float64) bool {
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol
}

func TestEloFromScore(t *testing.T) {
	// Analytic values: Elo(s) = 400·log10(s/(1-s)).
	tests := []struct {
		score, want float64
	}{
		{0.5, 0},
		{0.75, 400 * math.Log10(3)},  // 190.8485...
		{0.25, -400 * math.Log10(3)}, // symmetry
		{0.9, 400 * math.Log10(9)},   // 381.697...
		{10.0 / 11, 400},             // 10^(400/400) = 10
		{0, math.Inf(-1)},
		{1, math.Inf(1)},
	}
	for _, tc := range tests {
		if got := EloFromScore(tc.score); !near(got, tc.want, 1e-9) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.score, got, tc.want)
		}
		if got := ScoreFromElo(tc.want); !near(got, tc.score, 1e-12) {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tc.want, got, tc.score)
		}
	}
	for _, s := range []float64{-0.1, 1.1, math.NaN()} {
		if got := EloFromScore(s); !math.IsNaN(got) {
			t.Errorf("EloFromScore(%v) = %v, want NaN", s, got)
		}
	}
}

// pentaRef holds pentanomial 95% intervals published as test cases of a
// public Rust GSPRT implementation (tests `penta_logistic_elo` and
// `penta_normalized_elo`, counts given as ll, dl, wl, wd, ww with dd = 0;
// the search index did not name its repository). They are reported to two
// decimals, so the tolerance is 0.005 plus rounding. The same formulas are
// fastchess's EloPentanomial (app/src/matchmaking/elo/elo_pentanomial.cpp).
var pentaRef = []struct {
	p                 Penta
	elo, lower, upper float64
	nelo, nlo, nhi    float64
}{
	{Penta{485, 1923, 2942, 1937, 594}, 5.11, 1.21, 9.02, 7.10, 1.68, 12.53},
	{Penta{261, 739, 2683, 737, 253}, -0.67, -5.00, 3.66, -1.09, -8.13, 5.96},
	{Penta{63, 252, 385, 250, 74}, 3.39, -7.38, 14.17, 4.74, -10.31, 19.79},
	{Penta{527, 1007, 1932, 933, 511}, -3.75, -9.16, 1.66, -4.76, -11.63, 2.11},
	{Penta{175, 305, 694, 291, 157}, -5.36, -14.57, 3.85, -6.96, -18.91, 5.00},
}

func TestPentaEstimateReference(t *testing.T) {
	const tol = 0.0051
	for _, tc := range pentaRef {
		e := tc.p.Estimate(0.95)
		got := []float64{e.EloDiff, e.EloLower, e.EloUpper, e.NEloDiff, e.NEloLower, e.NEloUpper}
		want := []float64{tc.elo, tc.lower, tc.upper, tc.nelo, tc.nlo, tc.nhi}
		names := []string{"EloDiff", "EloLower", "EloUpper", "NEloDiff", "NEloLower", "NEloUpper"}
		for i := range got {
			if !near(got[i], want[i], tol) {
				t.Errorf("%v.Estimate(0.95).%s = %.4f, want %.2f ± %v", tc.p, names[i], got[i], want[i], tol)
			}
		}
	}
}

func TestWDLEstimate(t *testing.T) {
	// Hand-derived values (normal approximation, as fastchess EloWDL):
	// 30 wins, 40 draws, 30 losses: s = 0.5, σ² = 0.6·0.25 = 0.15,
	// SE = √(0.15/100); the Elo interval is ±Elo(0.5 + z·SE).
	se := math.Sqrt(0.15 / 100)
	z95 := 1.959963984540054 // Φ⁻¹(0.975)
	hw := EloFromScore(0.5 + z95*se)
	// nElo margin z·(800/ln 10)/√games.
	nhw := z95 * 800 / math.Ln10 / 10
	tests := []struct {
		name                 string
		r                    WDL
		level                float64
		score, se            float64
		elo, lower, upper    float64
		nelo, nlower, nupper float64
		los                  float64
	}{
		{"even", WDL{30, 40, 30}, 0.95, 0.5, se, 0, -hw, hw, 0, -nhw, nhw, 0.5},
		// 60 wins, 40 losses: (W-L)/√(W+L) = 2, LOS = Φ(2) = 0.977249868;
		// score 0.6, σ² = 0.24, Elo(0.6) = 400·log10(1.5).
		{"sixty-forty", WDL{60, 0, 40}, 0.95, 0.6, math.Sqrt(0.24 / 100),
			400 * math.Log10(1.5),
			EloFromScore(0.6 - z95*math.Sqrt(0.0024)),
			EloFromScore(0.6 + z95*math.Sqrt(0.0024)),
			0.1 / math.Sqrt(0.24) * 800 / math.Ln10,
			0.1/math.Sqrt(0.24)*800/math.Ln10 - nhw,
			0.1/math.Sqrt(0.24)*800/math.Ln10 + nhw,
			0.977249868051821},
		{"no games", WDL{}, 0.95, 0.5, math.Inf(1), 0, math.Inf(-1), math.Inf(1), 0, math.Inf(-1), math.Inf(1), 0.5},
		// every game drawn: the share of decisive games is bounded by Wilson's z²/(n+z²)
		// (oneOutcome), not zero
		{"all draws", WDL{0, 500, 0}, 0.95, 0.5, 0, 0, EloFromScore(0.5 * 500 / (500 + z95*z95)), -EloFromScore(0.5 * 500 / (500 + z95*z95)), 0,
			-z95 * 800 / math.Ln10 / math.Sqrt(500), z95 * 800 / math.Ln10 / math.Sqrt(500), 0.5},
		// all wins or losses: the Elo interval is Wilson's, n/(n+z²) (TestEstimateAllSame)
		{"all wins", WDL{7, 0, 0}, 0.95, 1, 0, math.Inf(1), EloFromScore(7 / (7 + z95*z95)), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), 0.5 + 0.5*math.Erf(7/math.Sqrt(14))},
		{"all losses", WDL{0, 0, 7}, 0.95, 0, 0, math.Inf(-1), math.Inf(-1), EloFromScore(1 - 7/(7+z95*z95)), math.Inf(-1), math.Inf(-1), math.Inf(-1), 0.5 - 0.5*math.Erf(7/math.Sqrt(14))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.r.Estimate(tc.level)
			check := func(field string, got, want float64) {
				t.Helper()
				if math.IsNaN(got) || !near(got, want, 1e-9) {
					t.Errorf("%+v.Estimate(%v).%s = %v, want %v", tc.r, tc.level, field, got, want)
				}
			}
			check("Score", e.Score, tc.score)
			check("ScoreStdErr", e.ScoreStdErr, tc.se)
			check("EloDiff", e.EloDiff, tc.elo)
			check("EloLower", e.EloLower, tc.lower)
			check("EloUpper", e.EloUpper, tc.upper)
			check("NEloDiff", e.NEloDiff, tc.nelo)
			check("NEloLower", e.NEloLower, tc.nlower)
			check("NEloUpper", e.NEloUpper, tc.nupper)
			check("LOS", e.LOS, tc.los)
			check("LOS()", tc.r.LOS(), tc.los)
			if e.Games != tc.r.Games() {
				t.Errorf("%+v.Estimate(%v).Games = %d, want %d", tc.r, tc.level, e.Games, tc.r.Games())
			}
		})
	}
}

func TestPentaEdgeCases(t *testing.T) {
	inf := math.Inf(1)
	z95 := 1.959963984540054 // Φ⁻¹(0.975)
	tests := []struct {
		name            string
		p               Penta
		elo, lo, hi     float64
		los, score, nel float64
	}{
		{"no pairs", Penta{}, 0, -inf, inf, 0.5, 0.5, 0},
		{"all 1-1 pairs", Penta{0, 0, 90, 0, 0}, 0, EloFromScore(0.5 * 90 / (90 + z95*z95)), -EloFromScore(0.5 * 90 / (90 + z95*z95)), 0.5, 0.5, 0},
		{"all won pairs", Penta{0, 0, 0, 0, 4}, inf, EloFromScore(8 / (8 + z95*z95)), inf, 1, 1, inf},
		{"all lost pairs", Penta{3, 0, 0, 0, 0}, -inf, -inf, EloFromScore(1 - 6/(6+z95*z95)), 0, 0, -inf},
		// five pairs of 1½: q = z²/(5+z²) of other pairs could be anywhere, so the score is
		// within [0.75(1-q), 0.75+0.25q]; LOS from the standard error that interval implies
		{"all 1.5 pairs", Penta{0, 0, 0, 5, 0}, 400 * math.Log10(3),
			EloFromScore(0.75 * 5 / (5 + z95*z95)), EloFromScore(0.75 + 0.25*z95*z95/(5+z95*z95)),
			0.5 * math.Erfc(-0.25/((0.25*z95*z95/(5+z95*z95)+0.75*z95*z95/(5+z95*z95))/(2*z95))/math.Sqrt2), 0.75, inf},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.p.Estimate(0.95)
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"EloDiff", e.EloDiff, tc.elo}, {"EloLower", e.EloLower, tc.lo}, {"EloUpper", e.EloUpper, tc.hi},
				{"LOS", e.LOS, tc.los}, {"Score", e.Score, tc.score}, {"NEloDiff", e.NEloDiff, tc.nel},
			} {
				if math.IsNaN(f.got) || !near(f.got, f.want, 1e-9) {
					t.Errorf("%v.Estimate(0.95).%s = %v, want %v", tc.p, f.name, f.got, f.want)
				}
			}
			if math.IsNaN(e.NEloLower) || math.IsNaN(e.NEloUpper) || math.IsNaN(e.ScoreStdErr) {
				t.Errorf("%v.Estimate(0.95) = %+v, has NaN", tc.p, e)
			}
		})
	}
}

func TestPentaLOS(t *testing.T) {
	// LOS = Φ((s-½)/SE). Pairs {0,0,a,b,0}: per-pair score ½ or ¾.
	// With 50 pairs at ½ and 50 at ¾: mean 0.625, variance 1/64,
	// SE = (1/8)/10, so (s-½)/SE = 10 and LOS = Φ(10).
	p := Penta{0, 0, 50, 50, 0}
	want := 0.5 * math.Erfc(-10/math.Sqrt2)
	if got := p.LOS(); !near(got, want, 1e-12) {
		t.Errorf("%v.LOS() = %v, want %v", p, got, want)
	}
}

func TestEstimateLevel(t *testing.T) {
	// A wider level gives a wider interval; 0.6827 is about ±1 SE.
	r := WDL{120, 700, 100}
	e68, e95, e99 := r.Estimate(0.682689492137086), r.Estimate(0.95), r.Estimate(0.99)
	if !(e68.EloMargin() < e95.EloMargin() && e95.EloMargin() < e99.EloMargin()) {
		t.Errorf("%+v margins at 68/95/99%%: %v %v %v, want increasing", r, e68.EloMargin(), e95.EloMargin(), e99.EloMargin())
	}
	if got, want := e68.EloUpper, EloFromScore(e68.Score+e68.ScoreStdErr); !near(got, want, 1e-6) {
		t.Errorf("%+v.Estimate(0.6827).EloUpper = %v, want %v (one SE)", r, got, want)
	}
	for _, level := range []float64{0, 1, -0.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v.Estimate(%v) did not panic", r, level)
				}
			}()
			r.Estimate(level)
		}()
	}
}

// TestEstimateSymmetry checks that swapping the players negates the Elo
// and mirrors the interval and the LOS.
func TestEstimateSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		r := WDL{rng.IntN(50), rng.IntN(500), rng.IntN(50)}
		p := Penta{rng.IntN(10), rng.IntN(80), rng.IntN(600), rng.IntN(80), rng.IntN(10)}
		for _, c := range []struct {
			in   any
			a, b Estimate
		}{
			{in: r, a: r.Estimate(0.95), b: r.Reverse().Estimate(0.95)},
			{in: p, a: p.Estimate(0.95), b: p.Reverse().Estimate(0.95)},
		} {
			a, b := c.a, c.b
			pairs := [][2]float64{
				{a.EloDiff, -b.EloDiff}, {a.EloLower, -b.EloUpper}, {a.EloUpper, -b.EloLower},
				{a.NEloDiff, -b.NEloDiff}, {a.LOS, 1 - b.LOS}, {a.Score, 1 - b.Score},
			}
			for i, q := range pairs {
				if !near(q[0], q[1], 1e-9) {
					t.Errorf("Estimate(%v) field %d = %v, reversed gives %v", c.in, i, q[0], q[1])
				}
			}
		}
	}
}

func TestResultHelpers(t *testing.T) {
	var r WDL
	for _, o := range []Outcome{Win, Draw, Draw, Loss, Win} {
		r.Add(o)
	}
	if want := (WDL{2, 2, 1}); r != want {
		t.Errorf("WDL after W D D L W = %+v, want %+v", r, want)
	}
	if got := r.DrawRatio(); got != 0.4 {
		t.Errorf("%+v.DrawRatio() = %v, want 0.4", r, got)
	}
	if got := (WDL{}).DrawRatio(); got != 0 {
		t.Errorf("WDL{}.DrawRatio() = %v, want 0", got)
	}
	if got, want := r.Plus(r.Reverse()), (WDL{3, 4, 3}); got != want {
		t.Errorf("%+v.Plus(Reverse) = %+v, want %+v", r, got, want)
	}
	var p Penta
	p.AddPair(Win, Loss)
	p.AddPair(Draw, Draw)
	p.AddPair(Win, Draw)
	p.AddPair(Loss, Loss)
	p.AddPair(Draw, Win)
	if want := (Penta{1, 0, 2, 2, 0}); p != want {
		t.Errorf("Penta after WL DD WD LL DW = %v, want %v", p, want)
	}
	if p.Games() != 10 || p.Points() != 5 || p.Score() != 0.5 {
		t.Errorf("%v: Games, Points, Score = %d, %v, %v, want 10, 5, 0.5", p, p.Games(), p.Points(), p.Score())
	}
	if got, want := p.Plus(p.Reverse()), (Penta{1, 2, 4, 2, 1}); got != want {
		t.Errorf("%v.Plus(Reverse) = %v, want %v", p, got, want)
	}
	if Win.Reverse() != Loss || Draw.Reverse() != Draw {
		t.Errorf("Outcome.Reverse: Win→%v Draw→%v, want Loss, Draw", Win.Reverse(), Draw.Reverse())
	}
}

// TestEstimateAllSame: when every game is won (or lost) the interval comes from Wilson's score
// interval: lower score bound n/(n+z²) for n games (derived from Wilson's formula with
// p̂ = 1), upper bound 1 (Elo +Inf); and symmetrically for all losses.
func TestEstimateAllSame(t *testing.T) {
	z := 1.959963984540054
	e := Penta{0, 0, 0, 0, 100}.Estimate(0.95)
	wantLo := EloFromScore(200 / (200 + z*z))
	if math.Abs(e.EloLower-wantLo) > 1e-6 || !math.IsInf(e.EloUpper, 1) || e.EloLower <= 0 {
		t.Errorf("Penta{0,0,0,0,100}: Elo interval [%v, %v], want [%v, +Inf]", e.EloLower, e.EloUpper, wantLo)
	}
	if s := (WDL{Wins: 4}).Estimate(0.95); !math.IsInf(s.EloUpper, 1) {
		t.Errorf("WDL 4-0-0: Elo upper bound %v, want +Inf (rounding must not make it finite)", s.EloUpper)
	}
	l := WDL{Losses: 50}.Estimate(0.95)
	if want := EloFromScore(1 - 50/(50+z*z)); math.Abs(l.EloUpper-want) > 1e-6 || !math.IsInf(l.EloLower, -1) {
		t.Errorf("WDL 0-0-50: Elo interval [%v, %v], want [-Inf, %v]", l.EloLower, l.EloUpper, want)
	}
}

// TestEstimateOneOutcome: ten pairs that all split 1-1 printed "Elo -0.0 ±95% 0.0" (issue 33
// item 17): an interval of zero width from ten pairs, and a negative zero. The interval
// must be as wide as Wilson's bound on the unseen outcomes allows: ±99 Elo for ten pairs.
func TestEstimateOneOutcome(t *testing.T) {
	z := 1.959963984540054
	for _, tc := range []struct {
		name string
		e    Estimate
		n    float64
	}{
		{"ten 1-1 pairs", Penta{0, 0, 10, 0, 0}.Estimate(0.95), 10},
		{"twenty draws", WDL{Draws: 20}.Estimate(0.95), 20},
	} {
		e := tc.e
		if e.EloDiff != 0 || math.Signbit(e.EloDiff) {
			t.Errorf("%s: Elo %v, want +0", tc.name, e.EloDiff)
		}
		want := -EloFromScore(0.5 * tc.n / (tc.n + z*z))
		if !near(e.EloUpper, want, 1e-9) || !near(e.EloLower, -want, 1e-9) {
			t.Errorf("%s: interval [%v, %v], want ±%v", tc.name, e.EloLower, e.EloUpper, want)
		}
		if tc.n == 10 && (e.EloMargin() < 98 || e.EloMargin() > 100) {
			t.Errorf("%s: margin %.1f, want about 99 (an honest interval from ten pairs)", tc.name, e.EloMargin())
		}
	}
	// a larger sample narrows it
	if a, b := (Penta{0, 0, 10, 0, 0}).Estimate(0.95), (Penta{0, 0, 1000, 0, 0}).Estimate(0.95); b.EloMargin() >= a.EloMargin() || b.EloMargin() <= 0 {
		t.Errorf("margins %v (10 pairs), %v (1000 pairs): want 0 < second < first", a.EloMargin(), b.EloMargin())
	}
	if x := EloFromScore(0.5); math.Signbit(x) {
		t.Errorf("EloFromScore(0.5) = %v, want +0", x)
	}
}
