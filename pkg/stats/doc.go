// Package stats computes match statistics for engine-versus-engine play:
// Elo differences with confidence intervals, the likelihood of superiority
// (LOS), the sequential probability ratio test (SPRT) used to stop a match
// early, and maximum-likelihood ratings for several players.
//
// # Results
//
// A [WDL] holds wins, draws and losses from the first player's point of
// view. A [Penta] holds pentanomial counts over game pairs, as fishtest
// defines them: the two games of a pair start from the same opening with
// colours reversed, and index i counts the pairs in which the first player
// scored i half-points:
//
//	Penta[0]  LL        0 points
//	Penta[1]  LD, DL    ½ point
//	Penta[2]  LW, WL, DD 1 point
//	Penta[3]  WD, DW    1½ points
//	Penta[4]  WW        2 points
//
// Paired games are correlated, so the pentanomial variance is smaller than
// the trinomial one and tests stop sooner. In draughts, where 85-98% of
// games are drawn, most pairs land in Penta[2].
//
// # Elo
//
// Elo is logistic: a score s (points per game, 0 ≤ s ≤ 1) corresponds to
//
//	Elo(s) = -400 · log10(1/s - 1),   s = 1 / (1 + 10^(-Elo/400)).
//
// A score of 0 or 1 gives -Inf or +Inf.
//
// A confidence interval at level c (0.95 for the usual 95%) uses the normal
// approximation on the mean score, as cutechess, fastchess and fishtest do:
//
//	s ± z · σ/√n,   z = Φ⁻¹((1+c)/2),
//
// where for a [WDL] σ² is the per-game score variance and n the number of
// games, and for a [Penta] σ² is the variance of the per-pair mean score
// (0, ¼, ½, ¾, 1) and n the number of pairs. Both ends are then mapped
// through Elo(s). When every game was won (or lost) that interval has zero width at an
// infinite Elo; Wilson's score interval on the n games is used instead, whose far end
// n/(n+z²) is finite (a 200-0 match: Elo above +686.6 at 95%). When every sample (game of a
// WDL, pair of a Penta) has the same score s strictly between 0 and 1 (every pair 1-1, every
// game drawn), the normal interval has zero width too, as fastchess and cutechess print it
// ("0.00 +/- 0.00"); the share of the outcomes never seen is then bounded by Wilson's
// z²/(n+z²) over the n samples, and the interval is [s·(1-q), s+q·(1-s)]: ten pairs of 1-1
// give Elo ±99 at 95%. An even score is Elo +0, never -0. Normalized Elo (nElo, fishtest and fastchess) is
// (s - ½)/σ_game · 800/ln 10, with σ_game the per-game standard deviation
// (√2·σ for pairs).
//
// LOS from a [WDL] is the classical formula on wins and losses only,
// ½ + ½·erf((W-L)/√(2(W+L))); LOS from a [Penta] is Φ((s-½)/(σ/√n)) with the
// pair statistics above.
//
// # SPRT
//
// [SPRT] tests H0: Elo = Elo0 against H1: Elo = Elo1 with error rates Alpha
// and Beta. The test continues while
//
//	log(β/(1-α)) < LLR < log((1-β)/α)
//
// and accepts H0 at or below the lower bound, H1 at or above the upper bound.
// The LLR is the generalized SPRT (GSPRT) statistic of fishtest's LLRcalc:
// the outcome distribution is left free (three or five outcomes), and the
// likelihood ratio compares its maximum-likelihood estimates under the
// constraint "expected score = L(Elo1)" against "expected score = L(Elo0)"
// (logistic model), or "(s - ½)/σ = t(nElo)" (normalized model). The
// constrained estimates solve a one-dimensional secular equation
// (M. Van den Bergh, "Comments on Normalized Elo"); this package solves it
// by bisection, so it always terminates. Counts of zero are replaced by
// 0.001 before the estimate, as fishtest and fastchess do.
//
// [SPRT.LLRApprox] gives the closed-form Brownian approximation
// N·(s1-s0)·(2ŝ-s0-s1)/(2σ̂²) (Van den Bergh, "GSPRT approximation"); at
// fishtest-sized samples it agrees with the exact statistic to well under 1%.
//
// # Ratings
//
// [Rate] fits ratings for several players by maximum likelihood in the
// Bradley-Terry model on the Elo scale, draws counting as half a win and
// half a loss:
//
//	P(i scores against j) = 1 / (1 + 10^(-(r_i - r_j)/400)).
//
// One player is anchored at a given rating. The log-likelihood is concave
// and is maximized by Newton's method with gonum/mat; standard errors come
// from the inverse of the observed information with the anchor held fixed.
// A finite maximum exists only when the players cannot be split into two
// groups one of which scored every point between them (Zermelo's
// condition); Rate returns an error otherwise, and when the players are not
// all linked by games.
package stats
