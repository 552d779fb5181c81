package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// llrRef holds LLR reference values with their sources. fastchess's
// values are printed to two decimals, so the tolerance is 0.005.
var llrRef = []struct {
	source string
	sprt   SPRT
	c      Counts
	want   float64
}{
	// fastchess tests/sprt_test.cpp (commit 74b0a8de): Stats(w, l, d) and
	// Stats(ll, ld, wl, dd, wd, ww), SPRT(alpha, beta, elo0, elo1, model).
	{"fastchess normalized trinomial 1", SPRT{0, 2, 0.05, 0.05, Normalized}, WDL{36433, 68692, 36027}, 0.92},
	{"fastchess normalized trinomial 2", SPRT{-1.75, 0.25, 0.05, 0.05, Normalized}, WDL{10871, 20431, 10650}, 2.30},
	{"fastchess logistic trinomial 1", SPRT{0.5, 2.5, 0.05, 0.05, Logistic}, WDL{21404, 40708, 21184}, -1.57},
	{"fastchess logistic trinomial 2", SPRT{0, 2, 0.05, 0.05, Logistic}, WDL{57433, 106593, 57030}, -2.59},
	{"fastchess normalized pentanomial 1", SPRT{0, 2, 0.05, 0.05, Normalized}, Penta{365, 16618, 36029 + 200, 16974, 390}, 2.25},
	{"fastchess normalized pentanomial 2", SPRT{-1.75, 0.25, 0.05, 0.05, Normalized}, Penta{127, 4883, 10311 + 401, 5150, 104}, 3.01},
	{"fastchess logistic pentanomial 1", SPRT{0.5, 2.5, 0.05, 0.05, Logistic}, Penta{223, 9863, 20279 + 1000, 10037, 246}, -3.07},
	{"fastchess logistic pentanomial 2", SPRT{0, 2, 0.05, 0.05, Logistic}, Penta{871, 26175, 55003 + 980, 26678, 821}, -4.98},
	// Public Rust GSPRT implementation, test `sprt_llr_test` (normalized
	// Elo bounds, alpha 0.05, beta 0.10; repository not named by the
	// search index). Values to two decimals, stated tolerance 0.01.
	{"rust sprt_llr_test 1", SPRT{0, 5, 0.05, 0.10, Normalized}, Penta{440, 2910, 5170, 2888, 455}, -2.27},
	{"rust sprt_llr_test 2", SPRT{0, 5, 0.05, 0.10, Normalized}, Penta{142, 620, 1122, 699, 188}, 2.99},
	{"rust sprt_llr_test 3", SPRT{-5, 0, 0.05, 0.10, Normalized}, Penta{349, 1561, 3340, 1604, 359}, 2.90},
	{"rust sprt_llr_test 4", SPRT{-5, 0, 0.05, 0.10, Normalized}, Penta{98, 382, 674, 369, 71}, -1.11},
}

func TestLLRReference(t *testing.T) {
	const tol = 0.0051
	for _, tc := range llrRef {
		t.Run(tc.source, func(t *testing.T) {
			if got := tc.sprt.LLR(tc.c); !near(got, tc.want, tol) {
				t.Errorf("SPRT{%v}.LLR(%v) = %.4f, want %.2f ± %v", tc.sprt, tc.c, got, tc.want, tol)
			}
			// The closed form agrees with the exact GSPRT to within 0.3%
			// at these sample sizes (fishtest GSPRT_approximation.pdf).
			exact, approx := tc.sprt.LLR(tc.c), tc.sprt.LLRApprox(tc.c)
			if !near(approx, exact, 0.003*math.Abs(exact)+1e-3) {
				t.Errorf("SPRT{%v}.LLRApprox(%v) = %.4f, LLR = %.4f", tc.sprt, tc.c, approx, exact)
			}
		})
	}
}

func TestDecisionReference(t *testing.T) {
	// Public Rust GSPRT implementation, test `sprt_threshold_test`
	// (normalized bounds, alpha 0.05, beta 0.10).
	tests := []struct {
		p          Penta
		elo0, elo1 float64
		want       Decision
	}{
		{Penta{485, 1923, 2942, 1937, 594}, 0, 5, AcceptH1},
		{Penta{261, 739, 2683, 737, 253}, -10, 0, AcceptH1},
		{Penta{63, 252, 385, 250, 74}, 0, 10, Continue},
		{Penta{527, 1007, 1932, 933, 511}, 0, 5, AcceptH0},
		{Penta{175, 305, 694, 291, 157}, 0, 10, AcceptH0},
	}
	for _, tc := range tests {
		s := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.10, Model: Normalized}
		if llr, got := s.Status(tc.p); got != tc.want {
			t.Errorf("SPRT{%v}.Status(%v) = %.3f, %v, want %v", s, tc.p, llr, got, tc.want)
		}
	}
}

func TestBounds(t *testing.T) {
	// Analytic: log(β/(1-α)) and log((1-β)/α).
	tests := []struct {
		alpha, beta  float64
		lower, upper float64
	}{
		{0.05, 0.05, -math.Log(19), math.Log(19)}, // ±2.944
		{0.05, 0.10, math.Log(0.10 / 0.95), math.Log(18)},
		{0.01, 0.2, math.Log(0.2 / 0.99), math.Log(80)},
	}
	for _, tc := range tests {
		s := SPRT{Elo0: 0, Elo1: 5, Alpha: tc.alpha, Beta: tc.beta}
		lo, hi := s.Bounds()
		if !near(lo, tc.lower, 1e-12) || !near(hi, tc.upper, 1e-12) {
			t.Errorf("SPRT{%v}.Bounds() = %v, %v, want %v, %v", s, lo, hi, tc.lower, tc.upper)
		}
		for _, d := range []struct {
			llr  float64
			want Decision
		}{
			{lo - 1e-9, AcceptH0}, {lo, AcceptH0}, {lo + 1e-9, Continue}, {0, Continue},
			{hi - 1e-9, Continue}, {hi, AcceptH1}, {hi + 1, AcceptH1},
		} {
			if got := s.Decide(d.llr); got != d.want {
				t.Errorf("SPRT{%v}.Decide(%v) = %v, want %v", s, d.llr, got, d.want)
			}
		}
	}
}

func TestLLREdgeCases(t *testing.T) {
	tests := []struct {
		name string
		c    Counts
		sign int // expected sign of the LLR for elo0=0, elo1=5
	}{
		{"no games", WDL{}, 0},
		{"no pairs", Penta{}, 0},
		{"all draws", WDL{0, 1000, 0}, -1},
		{"all 1-1 pairs", Penta{0, 0, 1000, 0, 0}, -1},
		{"all wins", WDL{100, 0, 0}, 1},
		{"all won pairs", Penta{0, 0, 0, 0, 100}, 1},
		{"all losses", WDL{0, 0, 100}, -1},
		{"one game", WDL{1, 0, 0}, 1},
	}
	for _, tc := range tests {
		for _, m := range []Model{Logistic, Normalized} {
			s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}
			for _, f := range []struct {
				name string
				llr  func(Counts) float64
			}{{"LLR", s.LLR}, {"LLRApprox", s.LLRApprox}} {
				got := f.llr(tc.c)
				if math.IsNaN(got) || math.IsInf(got, 0) {
					t.Errorf("%s: SPRT{%v}.%s(%v) = %v, want finite", tc.name, s, f.name, tc.c, got)
					continue
				}
				if sign := int(math.Copysign(1, got)); got == 0 && tc.sign != 0 || got != 0 && sign != tc.sign {
					t.Errorf("%s: SPRT{%v}.%s(%v) = %v, want sign %d", tc.name, s, f.name, tc.c, got, tc.sign)
				}
			}
		}
	}
}

// TestLLRExtremeBounds guards against the solver hang reported for
// fastchess at extreme bounds (fastchess#877): bisection always stops (a hang
// would end the test binary at go test's timeout).
func TestLLRExtremeBounds(t *testing.T) {
	for _, s := range []SPRT{
		{Elo0: -3999, Elo1: 3999, Alpha: 0.05, Beta: 0.05},
		{Elo0: 3000, Elo1: 3999, Alpha: 0.05, Beta: 0.05},
		{Elo0: -3999, Elo1: -3000, Alpha: 0.05, Beta: 0.05},
		{Elo0: -3999, Elo1: 3999, Alpha: 0.05, Beta: 0.05, Model: Normalized},
		{Elo0: 0, Elo1: 1e-9, Alpha: 0.05, Beta: 0.05},
	} {
		for _, c := range []Counts{WDL{3, 90, 1}, Penta{0, 3, 90, 1, 0}, Penta{0, 0, 0, 0, 1}, WDL{0, 0, 9}} {
			if got := s.LLR(c); math.IsNaN(got) || math.IsInf(got, 0) {
				t.Errorf("SPRT{%v}.LLR(%v) = %v, want finite", s, c, got)
			}
		}
	}
}

// TestLLRMonotone checks that more wins (or a pair moved to a better
// outcome) never lowers the LLR for H1: Elo > Elo0.
func TestLLRMonotone(t *testing.T) {
	for _, m := range []Model{Logistic, Normalized} {
		s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}
		prev := math.Inf(-1)
		for w := 0; w <= 200; w += 5 {
			r := WDL{w, 900, 100}
			got := s.LLR(r)
			if got < prev {
				t.Errorf("SPRT{%v}.LLR(%+v) = %v < %v with 5 fewer wins", s, r, got, prev)
			}
			prev = got
		}
		rng := rand.New(rand.NewPCG(3, 4))
		for range 100 {
			p := Penta{rng.IntN(20) + 1, rng.IntN(100) + 1, rng.IntN(900) + 1, rng.IntN(100) + 1, rng.IntN(20) + 1}
			i := rng.IntN(4)
			q := p
			q[i]--
			q[i+1]++
			if a, b := s.LLR(p), s.LLR(q); b < a-1e-9 {
				t.Errorf("SPRT{%v}: LLR(%v) = %v > LLR(%v) = %v", s, p, a, q, b)
			}
		}
	}
}

// TestLLRSymmetry checks that reversing the players and mirroring the
// hypotheses negates the LLR.
func TestLLRSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100 {
		r := WDL{rng.IntN(300), rng.IntN(3000), rng.IntN(300)}
		p := Penta{rng.IntN(30), rng.IntN(300), rng.IntN(3000), rng.IntN(300), rng.IntN(30)}
		for _, m := range []Model{Logistic, Normalized} {
			s := SPRT{Elo0: -1, Elo1: 4, Alpha: 0.05, Beta: 0.05, Model: m}
			mirror := SPRT{Elo0: -4, Elo1: 1, Alpha: 0.05, Beta: 0.05, Model: m}
			if a, b := s.LLR(r), mirror.LLR(r.Reverse()); !near(a, -b, 1e-6*(1+math.Abs(a))) {
				t.Errorf("SPRT{%v}.LLR(%+v) = %v, mirrored gives %v", s, r, a, b)
			}
			if a, b := s.LLR(p), mirror.LLR(p.Reverse()); !near(a, -b, 1e-6*(1+math.Abs(a))) {
				t.Errorf("SPRT{%v}.LLR(%v) = %v, mirrored gives %v", s, p, a, b)
			}
		}
	}
}

func TestParseSPRT(t *testing.T) {
	tests := []struct {
		in      string
		want    SPRT
		errText string // substring of the error, "" for success
	}{
		{"elo0=0,elo1=5,alpha=0.05,beta=0.05", SPRT{0, 5, 0.05, 0.05, Logistic}, ""},
		{" elo0 = -1.5 , elo1=0.5 ", SPRT{-1.5, 0.5, 0.05, 0.05, Logistic}, ""},
		{"elo1=2,elo0=0,alpha=0.1,beta=0.2,model=normalized", SPRT{0, 2, 0.1, 0.2, Normalized}, ""},
		{"elo0=0,elo1=5,model=logistic", SPRT{0, 5, 0.05, 0.05, Logistic}, ""},
		{"", SPRT{}, "empty token"},
		{"elo0=0,,elo1=5", SPRT{}, "empty token"},
		{"elo0=0", SPRT{}, "missing elo1"},
		{"elo1=5", SPRT{}, "missing elo0"},
		{"elo0=0,elo1=five", SPRT{}, `"elo1=five": not a finite number`},
		{"elo0=0,elo1=5,alpha", SPRT{}, `"alpha": want key=value`},
		{"elo0=0,elo1=5,gamma=1", SPRT{}, `"gamma=1": unknown key`},
		{"elo0=0,elo1=5,elo0=1", SPRT{}, `"elo0=1": duplicate elo0`},
		{"elo0=0,elo1=5,model=bayes", SPRT{}, `"model=bayes": model must be`},
		{"elo0=0,elo1=NaN", SPRT{}, `"elo1=NaN": not a finite number`},
		{"elo0=0,elo1=inf", SPRT{}, `"elo1=inf": not a finite number`},
		{"elo0=5,elo1=0", SPRT{}, "elo0=5 must be less than elo1=0"},
		{"elo0=0,elo1=0", SPRT{}, "elo0=0 must be less than elo1=0"},
		{"elo0=0,elo1=5,alpha=0", SPRT{}, "alpha=0 must be in (0, 1)"},
		{"elo0=0,elo1=5,beta=1", SPRT{}, "beta=1 must be in (0, 1)"},
		{"elo0=0,elo1=5,alpha=0.5,beta=0.5", SPRT{}, "alpha+beta=1 must be less than 1"},
		{"elo0=0,elo1=5000", SPRT{}, "elo1=5000 out of range"},
	}
	for _, tc := range tests {
		got, err := ParseSPRT(tc.in)
		if tc.errText == "" {
			if err != nil || got != tc.want {
				t.Errorf("ParseSPRT(%q) = %+v, %v, want %+v, nil", tc.in, got, err, tc.want)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrInvalidSPRT) || !strings.Contains(err.Error(), tc.errText) || !strings.HasPrefix(err.Error(), "stats: ") {
			t.Errorf("ParseSPRT(%q) error = %v, want one containing %q wrapping ErrInvalidSPRT", tc.in, err, tc.errText)
		}
	}
}

func TestSPRTStringRoundTrip(t *testing.T) {
	for _, s := range []SPRT{
		{0, 5, 0.05, 0.05, Logistic},
		{-1.75, 0.25, 0.05, 0.1, Normalized},
		{-3, 1, 0.01, 0.2, Logistic},
	} {
		got, err := ParseSPRT(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSPRT(%q) = %+v, %v, want %+v", s.String(), got, err, s)
		}
	}
	if got, want := (SPRT{0, 5, 0.05, 0.05, Logistic}).String(), "elo0=0,elo1=5,alpha=0.05,beta=0.05"; got != want {
		t.Errorf("SPRT.String() = %q, want %q", got, want)
	}
}

func TestSPRTMisusePanics(t *testing.T) {
	for _, f := range []func(){
		func() { SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}.LLR(WDL{1, 1, 1}) },
		func() { SPRT{Elo0: 0, Elo1: 5}.LLR(WDL{1, 1, 1}) },
		func() { SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}.LLR(WDL{-1, 1, 1}) },
		func() { WDL{-1, 0, 0}.Estimate(0.95) },
		func() { Penta{0, -1, 0, 0, 0}.Estimate(0.95) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("misuse did not panic")
				}
			}()
			f()
		}()
	}
}

func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"elo0=0,elo1=5,alpha=0.05,beta=0.05", "elo0=-1,elo1=1,model=normalized", "elo0=0,,", "=,=", "elo0=1e308,elo1=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSPRT(in)
		if err != nil {
			if !errors.Is(err, ErrInvalidSPRT) {
				t.Fatalf("ParseSPRT(%q) error %v does not wrap ErrInvalidSPRT", in, err)
			}
			return
		}
		back, err := ParseSPRT(s.String())
		if err != nil || back != s {
			t.Fatalf("ParseSPRT(%q) = %+v; round trip via %q = %+v, %v", in, s, s.String(), back, err)
		}
		if llr := s.LLR(WDL{10, 80, 9}); math.IsNaN(llr) {
			t.Fatalf("SPRT{%v}.LLR = NaN", s)
		}
	})
}
