// Package egdb builds, stores, verifies and probes endgame databases: the exact value (win,
// draw or loss for the side to move) and the distance to the end of the game in plies of
// every position with few pieces, for the variants of pkg/engine, computed by retrograde
// analysis on rafle's own move generator.
//
// A database is a directory of slice files, one per material seen from the side to move
// (Slice): its men and kings, then the opponent's. A position with Black to move is the
// position rotated by 180 degrees with the colours swapped, with White to move: every
// variant's rules are the same for both sides, so one file serves both. The value is the
// game's value under the move rules alone: the draw rules that count moves or repetitions
// are left out (a position from which neither side can force the end of the game is a
// draw), as Kingsrow, Scan and Moby Dam do. docs/egdb.md describes the file format, the
// index and what each variant's rules mean for the values.
//
// Build writes a database; Open reads one and Probe answers for a position. A DB is safe
// for concurrent use; the blocks it has read are kept in a cache of bounded size.
package egdb
