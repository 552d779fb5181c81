package stats

import "math"

// neloPerT converts a t-value (score excess over one half, divided by the
// per-game standard deviation) to normalized Elo: 800/ln 10.
var neloPerT = 800 / math.Ln10

// EloFromScore returns the logistic Elo difference for a score s in [0, 1]:
// -400·log10(1/s - 1). It returns -Inf for 0, +Inf for 1 and NaN for a
// value outside [0, 1] or NaN.
func EloFromScore(s float64) float64 {
	switch {
	case !(s >= 0 && s <= 1):
		return math.NaN()
	case s == 0:
		return math.Inf(-1)
	case s == 1:
		return math.Inf(1)
	case s == 0.5:
		return 0 // not -400·log10(1), which is -0 and prints "-0.0"
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo returns the expected score for a logistic Elo difference:
// 1/(1 + 10^(-elo/400)). It returns 0 for -Inf and 1 for +Inf.
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// zScore returns the two-sided normal quantile for a confidence level,
// Φ⁻¹((1+level)/2). It panics if level is not strictly between 0 and 1.
func zScore(level float64) float64 {
	if !(level > 0 && level < 1) {
		panic("stats: confidence level must be in (0, 1)")
	}
	return math.Sqrt2 * math.Erfinv(level)
}

// Estimate is an Elo estimate with its confidence interval, computed by the
// normal approximation on the mean score. See the package documentation for
// the formulas.
type Estimate struct {
	Games       int     // number of games (twice the pairs for a Penta)
	Score       float64 // points per game in [0, 1]; 0.5 for no games
	ScoreStdErr float64 // standard error of Score; +Inf for no games
	Level       float64 // confidence level of the intervals, e.g. 0.95

	EloDiff  float64 // logistic Elo difference; ±Inf for a score of 1 or 0
	EloLower float64 // lower end of the Elo confidence interval
	EloUpper float64 // upper end of the Elo confidence interval

	NEloDiff  float64 // normalized Elo; ±Inf when every game had the same non-even score
	NEloLower float64 // lower end of the normalized Elo confidence interval
	NEloUpper float64 // upper end of the normalized Elo confidence interval

	LOS float64 // likelihood of superiority in [0, 1]
}

// EloMargin returns half the width of the Elo confidence interval, the
// "±" figure that cutechess and fastchess print.
func (e Estimate) EloMargin() float64 { return (e.EloUpper - e.EloLower) / 2 }

// NEloMargin returns half the width of the normalized Elo confidence
// interval.
func (e Estimate) NEloMargin() float64 { return (e.NEloUpper - e.NEloLower) / 2 }

// Estimate returns the Elo estimate of the first player at confidence level
// level (0.95 for a 95% interval), with the per-game trinomial variance and
// the classical LOS formula on wins and losses. It panics if level is not in
// (0, 1) or a count is negative.
func (r WDL) Estimate(level float64) Estimate {
	if !r.valid() {
		panic("stats: negative count in WDL")
	}
	e := estimate(r.counts(), r.Games(), level)
	e.LOS = losWL(r.Wins, r.Losses)
	return e
}

// Estimate returns the Elo estimate of the first player at confidence level
// level (0.95 for a 95% interval), with the variance of the per-pair score
// and LOS from the same normal approximation. It panics if level is not in
// (0, 1) or a count is negative.
func (p Penta) Estimate(level float64) Estimate {
	if !p.valid() {
		panic("stats: negative count in Penta")
	}
	e := estimate(p.counts(), p.Games(), level)
	switch {
	case p.Pairs() == 0:
		e.LOS = 0.5
	case e.ScoreStdErr == 0 && (e.Score == 0 || e.Score == 1):
		e.LOS = stepHalf(e.Score - 0.5)
	case e.ScoreStdErr == 0:
		// every pair scored the same, neither 0 nor 1: the standard error the interval
		// implies (oneOutcome), not a certainty that ten equal pairs cannot give
		se := (ScoreFromElo(e.EloUpper) - ScoreFromElo(e.EloLower)) / (2 * zScore(level))
		e.LOS = 0.5 * math.Erfc(-(e.Score-0.5)/se/math.Sqrt2)
	default:
		e.LOS = 0.5 * math.Erfc(-(e.Score-0.5)/e.ScoreStdErr/math.Sqrt2)
	}
	return e
}

// LOS returns the likelihood of superiority from wins and losses only, the
// classical formula ½ + ½·erf((W-L)/√(2(W+L))); draws carry no information
// about which player is stronger. It is 0.5 when there are no decisive
// games.
func (r WDL) LOS() float64 { return losWL(r.Wins, r.Losses) }

// LOS returns the likelihood of superiority Φ((s-½)/SE) from the pair
// statistics, as fastchess reports it for pentanomial results.
func (p Penta) LOS() float64 { return p.Estimate(0.95).LOS }

func losWL(w, l int) float64 {
	if w+l == 0 {
		return 0.5
	}
	return 0.5 + 0.5*math.Erf(float64(w-l)/math.Sqrt(2*float64(w+l)))
}

// stepHalf returns 1 for x > 0, 0 for x < 0 and 0.5 for x == 0.
func stepHalf(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return 0
	}
	return 0.5
}

// moments returns the mean and variance of the distribution with counts c
// over the equally spaced scores i/(len(c)-1).
func moments(c []float64) (mean, variance float64) {
	var n float64
	for _, v := range c {
		n += v
	}
	k := float64(len(c) - 1)
	for i, v := range c {
		mean += v * float64(i) / k
	}
	mean /= n
	for i, v := range c {
		d := float64(i)/k - mean
		variance += v * d * d
	}
	variance /= n
	return mean, variance
}

// oneOutcome returns the score interval when every one of n samples (games or pairs)
// scored s, with 0 < s < 1: the normal approximation gives it zero width (ten pairs of 1-1
// would be "Elo 0 ± 0", as fastchess and cutechess print it). Every sample in one outcome
// does not show that the others cannot happen: Wilson's interval bounds the share of the
// other outcomes, observed in none of n samples, by q = z²/(n+z²) (E. B. Wilson, JASA 22,
// 1927: the upper end for a proportion of 0), and the interval is where the mean score can be
// with that share at the worst place, all at score 0 or all at score 1:
// [s·(1-q), s + q·(1-s)]. For s = 1 this is the interval Wilson's formula gives a match of
// n wins, n/(n+z²) to 1; ten pairs of 1-1 give [0.361, 0.639], Elo ±99 at 95%, and 500
// drawn games ±2.6.
func oneOutcome(s, n, z float64) (lo, hi float64) {
	q := z * z / (n + z*z)
	return s * (1 - q), s + q*(1-s)
}

// estimate fills everything but LOS from the counts c (three or five,
// ordered by score) and the number of games.
func estimate(c []float64, games int, level float64) Estimate {
	z := zScore(level)
	e := Estimate{Games: games, Level: level}
	if games == 0 {
		inf := math.Inf(1)
		e.Score, e.ScoreStdErr = 0.5, inf
		e.EloLower, e.EloUpper = -inf, inf
		e.NEloLower, e.NEloUpper = -inf, inf
		e.LOS = 0.5
		return e
	}
	mean, variance := moments(c)
	samples := float64(games)
	if len(c) == 5 {
		samples /= 2
	}
	e.Score = mean
	e.ScoreStdErr = math.Sqrt(variance / samples)
	lo := math.Max(0, mean-z*e.ScoreStdErr)
	hi := math.Min(1, mean+z*e.ScoreStdErr)
	if mean == 0 || mean == 1 {
		// Every game was won (or lost): the normal approximation gives an interval of zero
		// width at an infinite Elo. Use Wilson's score interval on the games instead
		// (E. B. Wilson, JASA 22, 1927), which is finite on the side away from the
		// observed score: 200 wins out of 200 give a lower bound of 200/(200+z²).
		n := float64(games)
		center := (mean + z*z/(2*n)) / (1 + z*z/n)
		half := z * math.Sqrt(mean*(1-mean)/n+z*z/(4*n*n)) / (1 + z*z/n)
		lo, hi = math.Max(0, center-half), math.Min(1, center+half)
		if mean == 1 { // exactly: center+half can round just below 1
			hi = 1
		} else {
			lo = 0
		}
	} else if variance == 0 {
		lo, hi = oneOutcome(mean, samples, z)
	}
	e.EloDiff = EloFromScore(mean)
	e.EloLower, e.EloUpper = EloFromScore(lo), EloFromScore(hi)

	// The normalized Elo margin z·(800/ln 10)/√games is the same for
	// trinomial and pentanomial counts and is defined even when σ = 0.
	margin := z * neloPerT / math.Sqrt(float64(games))
	switch {
	case mean == 0.5:
		e.NEloDiff = 0
	case variance == 0:
		e.NEloDiff = math.Inf(int(2*stepHalf(mean-0.5)) - 1)
	default:
		// Per-game standard deviation: σ for games, √2·σ for pairs.
		sigmaGame := math.Sqrt(variance * float64(games) / samples)
		e.NEloDiff = (mean - 0.5) / sigmaGame * neloPerT
	}
	e.NEloLower, e.NEloUpper = e.NEloDiff-margin, e.NEloDiff+margin
	return e
}
