// Command suitefind finds tactical shots in real games for the test suites shipped in
// corpus/suites (docs/suites.md): positions of a game's main line where the side to move has
// a single winning move that a shallow search misses and a deep one finds. It is the
// documented, reproducible procedure behind the "shot" lines of those suites; it is not
// shipped in a binary.
//
// Usage:
//
//	go run ./internal/suitefind --variant V [--shallow 2] [--deep 10] [--win 100] [--gap 80]
//	    [--min-ply 6] [--swing 2] [--window 8] [--pre 6] [--count 10] [--max-nodes N] FILE...
//
// Each PDN FILE is read in order, game after game (an untagged game's variant inferred
// from the whole file, as pdn validate does), and each game of the variant is replayed
// (games that do not replay are skipped). A position of the main line from ply --min-ply on
// is looked at when the side to move gained at least --swing pieces (2; 0 looks at every
// position) in the game over the next --window plies (8) and is then ahead, a king counting
// as a man: the shots that were played, found without a search. It is kept when it has at
// least two legal moves, none of them a capture (the side to move starts the shot: not the
// middle of an exchange), a search of --pre plies (6; 0: none) already scores --win (a cheap
// first filter), and
//
//   - a search of --deep plies (with empty tables, so that each position is judged alone)
//     finds a move M scoring at least --win hundredths of a man;
//   - every other legal move, searched to --deep minus one plies after it is played, scores
//     below --win and at least --gap less than M: M is the single winning move;
//   - a search of --shallow plies whose leaves are evaluated statically (captures not
//     followed: as the easy level searches) chooses another move than M.
//
// --max-nodes bounds each search (0: none), so that a position that takes the search too
// long is judged without it. The search is rafle's (pkg/search, the variant's default
// weights; the deep searches follow captures at their leaves); with depth and node limits it gives the same moves on every run
// and machine, so the procedure's output is reproducible. It stops after --count positions,
// at most one per game, and writes them as EPD-like lines on standard output:
//
//	FEN bm M; id "shot-VARIANT-N"; c0 "FILE game G, before ply P (White - Black, Event, Date)"; ce SCORE; acd DEPTH;
//
// FILE is the path from the shared corpus's root (pdn/corpus/) when the file is in it.
//
// with EPD's c0 (comment), ce (centipawn evaluation: here hundredths of a man) and acd
// (analysis depth) opcodes. Progress goes to standard error.
package main
