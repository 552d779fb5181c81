// Command benchmarks measures rafle: perft, PDN reading, search and self-play, with
// fixed workloads timed in CPU time of the process; checks the bench signatures of the
// search; and compares the working tree with a base revision as a CI gate against speed
// regressions. See docs/benchmarks.md.
//
//	go run ./benchmarks [run] [--short] [--reps N] [--bench perft,search/english] [--out FILE] [--history]
//	go run ./benchmarks signature [--check | --update]
//	go run ./benchmarks compare [--base HEAD~1] [--short] [--rounds N] [--threshold 0.10]
//	go run ./benchmarks plot [--out benchmarks/history/history.svg]
//	go run ./benchmarks history --revs REV,REV,...
//	go run ./benchmarks list
package main
