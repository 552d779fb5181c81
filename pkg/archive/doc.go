// Package archive does the batch work over PDN archives that the pdn
// command offers, on top of package pdn: a Job reads many inputs (files,
// gzip, JSON lines) in order, and Validate, Copy, CollectStats and Split
// stream their games through it, with bounded memory, stopping within a
// batch of games when their context is done. One bad game never stops a
// job: it is counted and reported with its file, game number, line and
// column.
//
// # Operations
//
// Validate counts games, moves, warnings and errors per input (Summary,
// Problem), and with ValidateOptions.Replay replays every game with
// pdn.Replayer. CollectStats counts games by variant, result, length,
// first move, player and event (Stats, StatsReport). Copy writes the games
// that pass a Filter and a Deduper, after a Transform, to a pdn.Writer,
// pdn.JSONWriter or PositionWriter; its ReplayCopy stage replays them,
// rewrites their moves (Notation, Captures) and keeps those that reach a
// position (PositionFilter). PositionWriter writes one row per main-line
// position, as CSV (the columns of positionColumns) or FEN lines
// (Format): the input of the tuner. Split writes the games into files of
// N games or by the value of a tag. Job.InferVariants infers the variant
// of each input's untagged games (pdn.InferVariant).
//
// # Parallel work
//
// With Job.Jobs above 1, one large input is read by several goroutines
// (parallel.go, chunk.go): one goroutine decompresses it, decides its
// encoding once (pdn.ReadHead), and cuts it at game boundaries that a
// cheap pass over the bytes finds (after a terminator at the end of a
// line, or at a '[' opening a line after movetext); each piece is read by
// a pdn.Reader resumed at the piece's pdn.Boundary, and the games are
// merged back in input order and renumbered. A piece whose Reader did not
// end exactly where the next piece starts (the cheap pass guessed wrong)
// is read again in order, so the games, warnings, positions, numbers and
// errors are those of a single Reader for every number of goroutines.
// Validate with Replay replays the games in parallel, reporting in input
// order; games are read in batches into pdn.Arena values that the
// replaying goroutines give back, so that memory stays flat and reading
// allocates next to nothing. Copy with Jobs above 1 also replays and
// formats the games in parallel, in batches written in input order
// (copy_parallel.go).
//
// # Shards
//
// A job too large for one machine runs in shards (Job.Select keeps the
// games of one pkg/shard Shard: shard.go), each writing what it found to a
// shard file (ShardHeader, ShardRecord, ShardEnd). OpenShards reads the N
// files of a job back, checks that they are its shards, each once and
// complete, and merges them in game order (merge.go): ShardSet.Each hands
// on every record with its output, and Validate, Stats and Copy make of
// them what one run of the job would have found, byte for byte.
package archive
