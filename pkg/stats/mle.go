package stats

import "math"

// This file holds the constrained maximum-likelihood estimates behind the
// GSPRT. The theory is in M. Van den Bergh, "Comments on Normalized Elo"
// (https://www.cantate.be/Fishtest/normalized_elo_practical.pdf), and
// "Support for the MLE of a multinomial" (support_MLE_multinomial.pdf on the
// same site): the maximum-likelihood distribution with a linear constraint
// Σ p_i φ_i = 0, given the empirical distribution p̂, is
// p_i = p̂_i / (1 + x·φ_i), where x solves Σ p̂_i φ_i / (1 + x·φ_i) = 0.

// regularizeEpsilon replaces empty outcome classes (fishtest LLRcalc and
// fastchess both use 1e-3), so that the estimates stay inside the simplex.
const regularizeEpsilon = 1e-3

// regularize returns the counts with zeros replaced by regularizeEpsilon,
// their total, and the empirical probabilities.
func regularize(c []float64) (total float64, phat []float64) {
	phat = make([]float64, len(c))
	for i, v := range c {
		if v == 0 {
			v = regularizeEpsilon
		}
		phat[i] = v
		total += v
	}
	for i := range phat {
		phat[i] /= total
	}
	return total, phat
}

// scorePoints returns the scores 0, 1/(n-1), ..., 1 of n ordered outcomes.
func scorePoints(n int) []float64 {
	a := make([]float64, n)
	for i := range a {
		a[i] = float64(i) / float64(n-1)
	}
	return a
}

// secular returns the root x of Σ p_i φ_i / (1 + x·φ_i) = 0 on the interval
// where every 1 + x·φ_i is positive. The function is strictly decreasing
// there, from +Inf to -Inf, so bisection always converges; it stops when
// the interval can no longer be halved in floating point. ok is false unless
// min φ < 0 < max φ.
func secular(p, phi []float64) (x float64, ok bool) {
	minPhi, maxPhi := math.Inf(1), math.Inf(-1)
	for _, v := range phi {
		minPhi = math.Min(minPhi, v)
		maxPhi = math.Max(maxPhi, v)
	}
	if !(minPhi < 0 && maxPhi > 0) {
		return 0, false
	}
	lo, hi := -1/maxPhi, -1/minPhi
	f := func(x float64) float64 {
		var s float64
		for i, v := range phi {
			s += p[i] * v / (1 + x*v)
		}
		return s
	}
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, true
}

// mleExpected returns the maximum-likelihood distribution on the scores a
// with expected score s, given the empirical distribution phat. s must lie
// strictly between the smallest and largest score.
func mleExpected(phat, a []float64, s float64) []float64 {
	phi := make([]float64, len(a))
	for i := range a {
		phi[i] = a[i] - s
	}
	x, ok := secular(phat, phi)
	if !ok {
		panic("stats: expected score outside the outcome range")
	}
	p := make([]float64, len(a))
	for i := range a {
		p[i] = phat[i] / (1 + x*phi[i])
	}
	return p
}

// mleTValue returns the maximum-likelihood distribution on the scores a with
// t-value (μ - ref)/σ = t, given the empirical distribution phat, by the
// fixed-point iteration of Van den Bergh's section 4.1 starting from the
// uniform distribution.
func mleTValue(phat, a []float64, ref, t float64) []float64 {
	n := len(a)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	phi := make([]float64, n)
	for range 100 {
		mu, variance := weightedMoments(p, a)
		sigma := math.Sqrt(variance)
		for i := range a {
			d := (a[i] - mu) / sigma
			phi[i] = a[i] - ref - t*sigma*(1+d*d)/2
		}
		x, ok := secular(phat, phi)
		if !ok {
			break
		}
		var change float64
		for i := range p {
			q := phat[i] / (1 + x*phi[i])
			change = math.Max(change, math.Abs(q-p[i]))
			p[i] = q
		}
		if change < 1e-12 {
			break
		}
	}
	return p
}

// weightedMoments returns the mean and variance of the scores a under the
// probabilities p.
func weightedMoments(p, a []float64) (mean, variance float64) {
	for i := range a {
		mean += p[i] * a[i]
	}
	for i := range a {
		d := a[i] - mean
		variance += p[i] * d * d
	}
	return mean, variance
}

// llrFrom returns N·Σ p̂_i·log(p1_i/p0_i).
func llrFrom(total float64, phat, p0, p1 []float64) float64 {
	var s float64
	for i := range phat {
		s += phat[i] * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return total * s
}

// llrLogistic returns the GSPRT log-likelihood ratio for expected score s1
// against s0 (fishtest LLRcalc.LLR_logistic).
func llrLogistic(c []float64, s0, s1 float64) float64 {
	total, phat := regularize(c)
	a := scorePoints(len(c))
	return llrFrom(total, phat, mleExpected(phat, a, s0), mleExpected(phat, a, s1))
}

// llrNormalized returns the GSPRT log-likelihood ratio for t-value t1
// against t0 (fishtest LLRcalc.LLR_normalized). The t-values are per sample
// (game or pair).
func llrNormalized(c []float64, t0, t1 float64) float64 {
	total, phat := regularize(c)
	a := scorePoints(len(c))
	return llrFrom(total, phat, mleTValue(phat, a, 0.5, t0), mleTValue(phat, a, 0.5, t1))
}

// llrApprox returns the Brownian approximation of the GSPRT log-likelihood
// ratio (fishtest LLRcalc.LLR_alt2): N·(s1-s0)·(2ŝ-s0-s1)/(2σ̂²).
func llrApprox(c []float64, s0, s1 float64) float64 {
	total, phat := regularize(c)
	mean, variance := weightedMoments(phat, scorePoints(len(c)))
	return total * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}
