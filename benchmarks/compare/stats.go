package compare

import (
	"math"
	"slices"

	"github.com/rafle/rafle/benchmarks/bench"
)

// binomCDF returns P(Binomial(n, 1/2) <= k).
func binomCDF(k, n int) float64 {
	if k < 0 {
		return 0
	}
	var p float64
	c := 1.0 // C(n, i)
	for i := 0; i <= k && i <= n; i++ {
		if i > 0 {
			c = c * float64(n-i+1) / float64(i)
		}
		p += c
	}
	return p / math.Pow(2, float64(n))
}

// MedianCI returns the median of xs and a distribution-free confidence interval for the
// median of the population xs was drawn from: [x(k), x(n+1-k)] of the sorted values, with
// the largest k whose coverage 1 - 2 P(Binomial(n, 1/2) <= k-1) is at least conf. When
// even k = 1 falls short of conf, the interval is [min, max]. It returns the coverage of
// the interval. It panics when xs is empty.
func MedianCI(xs []float64, conf float64) (med, lo, hi, coverage float64) {
	if len(xs) == 0 {
		panic("compare: MedianCI of no values")
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	med = bench.Median(s)
	k := 1
	for k+1 <= (n+1)/2 && 1-2*binomCDF(k, n) >= conf {
		k++
	}
	coverage = 1 - 2*binomCDF(k-1, n)
	if n == 1 {
		coverage = 0
	}
	return med, s[k-1], s[n-k], coverage
}

// Ratio is the comparison of one benchmark: the median ratio new/base of the paired
// throughputs and its confidence interval.
type Ratio struct {
	Ratio, Lo, Hi float64
	// Confidence is the coverage of [Lo, Hi].
	Confidence float64
	// N is the number of pairs.
	N int
}

// PairedRatio compares paired throughputs: base[i] and new[i] come from the same round.
// It works on log ratios so that the interval is symmetric in speedups and slowdowns. It
// panics when the lengths differ or are zero.
func PairedRatio(base, new []float64, conf float64) Ratio {
	if len(base) != len(new) || len(base) == 0 {
		panic("compare: PairedRatio needs pairs")
	}
	logs := make([]float64, len(base))
	for i := range base {
		logs[i] = math.Log(new[i] / base[i])
	}
	m, lo, hi, cov := MedianCI(logs, conf)
	return Ratio{Ratio: math.Exp(m), Lo: math.Exp(lo), Hi: math.Exp(hi), Confidence: cov, N: len(base)}
}

// Verdict classifies a Ratio against a threshold.
type Verdict string

// Verdicts, from worst to best.
const (
	// Regression: the interval lies below 1 - threshold.
	Regression Verdict = "REGRESSION"
	// Slower: the interval lies below 1, but not all of it below 1 - threshold.
	Slower Verdict = "slower"
	// Same: the interval contains 1.
	Same Verdict = "~"
	// Faster: the interval lies above 1.
	Faster Verdict = "faster"
)

// Verdicts on amounts, where lower is better (JudgeAmount).
const (
	// More: the interval lies above 1, but not all of it above 1 + threshold.
	More Verdict = "more"
	// Less: the interval lies below 1.
	Less Verdict = "less"
)

// JudgeAmount returns the verdict on r, the ratio new/base of an amount where lower is
// better (peak memory), for a threshold such as 0.10: Regression when the interval lies
// above 1 + threshold.
func JudgeAmount(r Ratio, threshold float64) Verdict {
	switch {
	case r.Lo > 1+threshold:
		return Regression
	case r.Lo > 1:
		return More
	case r.Hi < 1:
		return Less
	}
	return Same
}

// Judge returns the verdict on r for a threshold such as 0.10 (10% slower).
func Judge(r Ratio, threshold float64) Verdict {
	switch {
	case r.Hi < 1-threshold:
		return Regression
	case r.Hi < 1:
		return Slower
	case r.Lo > 1:
		return Faster
	}
	return Same
}
