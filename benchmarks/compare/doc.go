// Package compare runs two builds of the benchmark binary side by side and decides
// whether the new one is slower.
//
// Timings on a shared machine drift by tens of percent within minutes, so absolute
// figures are never compared. Instead both builds run the same fixed workload in
// alternation, ABBA BAAB ..., one benchmark at a time, so that each round gives one pair
// of runs taken under nearly the same load. Each pair gives a ratio new/base of
// throughputs (work per CPU second of the process). The estimate is the median of the
// ratios of all rounds, and its confidence interval is the distribution-free interval
// for a median from order statistics (the interval that inverts the sign test): with n
// ratios sorted, [r(k), r(n+1-k)] covers the true median ratio with probability
// 1 - 2 P(Binomial(n, 1/2) < k), whatever the distribution of the noise. k is the
// largest that keeps that probability at least the requested confidence; with too few
// rounds k = 1 (the whole range) and the report gives the lower confidence it has.
//
// A benchmark is a regression when the upper end of its interval is below 1 - threshold:
// with the requested confidence, it lost more than threshold of its speed. A benchmark
// whose interval lies below 1 but reaches past 1 - threshold is reported as slower
// without failing the gate.
package compare
