package compare

import (
	"math"
	"testing"
)

func TestBinomCDF(t *testing.T) {
	for _, tc := range []struct {
		k, n int
		want float64
	}{
		{0, 5, 1.0 / 32}, {1, 10, 11.0 / 1024}, {2, 10, 56.0 / 1024}, {10, 10, 1}, {-1, 3, 0},
	} {
		if got := binomCDF(tc.k, tc.n); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("binomCDF(%d, %d) = %g, want %g", tc.k, tc.n, got, tc.want)
		}
	}
}

// TestMedianCI checks the order-statistic intervals against the binomial tables: for
// n = 5 only [min, max] is possible (coverage 1 - 2/32); for n = 10 the 95% interval is
// [x(2), x(9)] (coverage 1 - 2*11/1024).
func TestMedianCI(t *testing.T) {
	xs := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(n - i) // descending: MedianCI must sort
		}
		return s
	}
	for _, tc := range []struct {
		name          string
		xs            []float64
		med, lo, hi   float64
		coverage      float64
		wantFullRange bool
	}{
		{"n=1", xs(1), 1, 1, 1, 0, true},
		{"n=5", xs(5), 3, 1, 5, 1 - 2.0/32, true},
		{"n=6", xs(6), 3.5, 1, 6, 1 - 2.0/64, true},
		{"n=10", xs(10), 5.5, 2, 9, 1 - 2*11.0/1024, false},
		{"n=20", xs(20), 10.5, 6, 15, 1 - 2*binomCDF(5, 20), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			med, lo, hi, cov := MedianCI(tc.xs, 0.95)
			if med != tc.med || lo != tc.lo || hi != tc.hi || math.Abs(cov-tc.coverage) > 1e-12 {
				t.Errorf("MedianCI(%v, 0.95) = %g [%g, %g] %.4f, want %g [%g, %g] %.4f", tc.xs, med, lo, hi, cov, tc.med, tc.lo, tc.hi, tc.coverage)
			}
			if len(tc.xs) >= 10 && cov < 0.95 {
				t.Errorf("coverage %.4f below 0.95", cov)
			}
		})
	}
}

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		r    Ratio
		want Verdict
	}{
		{Ratio{Ratio: 0.67, Lo: 0.6, Hi: 0.7}, Regression},
		{Ratio{Ratio: 0.85, Lo: 0.8, Hi: 0.95}, Slower}, // slower, but 10% not certain
		{Ratio{Ratio: 0.88, Lo: 0.7, Hi: 1.02}, Same},   // noisy: not even surely slower
		{Ratio{Ratio: 1.2, Lo: 1.1, Hi: 1.3}, Faster},
		{Ratio{Ratio: 1.0, Lo: 0.97, Hi: 1.03}, Same},
	} {
		if got := Judge(tc.r, 0.10); got != tc.want {
			t.Errorf("Judge(%+v, 0.10) = %s, want %s", tc.r, got, tc.want)
		}
	}
}

func TestPairedRatioSymmetric(t *testing.T) {
	base := []float64{100, 90, 110, 95, 105, 100}
	new := []float64{50, 45, 55, 47.5, 52.5, 50}
	r := PairedRatio(base, new, 0.95)
	if math.Abs(r.Ratio-0.5) > 1e-12 || math.Abs(r.Lo-0.5) > 1e-12 || math.Abs(r.Hi-0.5) > 1e-12 {
		t.Errorf("PairedRatio of halved throughputs = %+v, want 0.5 [0.5, 0.5]", r)
	}
	back := PairedRatio(new, base, 0.95)
	if math.Abs(back.Ratio*r.Ratio-1) > 1e-12 {
		t.Errorf("PairedRatio swapped = %g, want %g", back.Ratio, 1/r.Ratio)
	}
}
