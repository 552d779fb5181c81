// Package bench holds rafle's benchmark suite: fixed workloads over pkg/engine, pkg/pdn
// and pkg/match, measured in-process, and the bench signatures of the search.
//
// A benchmark is a fixed amount of work (a perft to a set depth, a read of one PDN file,
// searches of a fixed position set to a fixed depth, a set of self-play games) prepared
// by Setup and then run by Measure. A figure is work per second of CPU time of the process
// (user plus system time, from getrusage), not of wall time: on a loaded machine, time
// spent waiting for a core is not charged to the benchmark. Run repeats each benchmark
// and reports the median and the range of the repetitions.
//
// A bench signature is the number of nodes that a fixed-depth search visits over a fixed
// position set (Positions). It does not depend on the machine or on timing, and changes
// only when the behaviour of the move generator, the search or the evaluation changes.
package bench
