// Package perftshard splits a perft count over machines and adds the parts up. Count
// counts one shard, K of N: the move sequences of a split depth's plies from the root are
// numbered 0, 1, 2, ... in the order of move generation, depth first (with
// engine.Keep, one per capture order, as perft counts them), and the shard counts perft of
// the rest of the depth below those whose number is K modulo N. Read reads the file of one
// shard's Result, and Merge checks that Results are the N shards of one count, each once,
// and adds them up. `perft --split-depth D --shard K/N` and `perft merge` are this package
// with flags.
//
// It is a package of its own beside pkg/engine, whose Perft it drives, because pkg/engine
// holds the rules only and pkg/shard (the Shard it counts) stays on the standard library
// for internal/cliutil.
package perftshard
