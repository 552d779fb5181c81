// Package pdn reads and writes PDN (Portable Draughts Notation), the
// game-record format for draughts and checkers, at the syntax level: it
// knows tags, moves as lists of squares, comments, variations and results,
// but not the rules of any variant. Checking moves against the rules
// (replay) belongs to the engine layer.
//
// # Format
//
// A PDN file is a sequence of games. A game is a tag section followed by
// movetext; either may be missing:
//
//	[Event "Example"]
//	[Result "2-0"]
//
//	1. 32-28 19-23 2. 28x19 14x23 {a comment} (2... 13x24 $2) 3. 33-28 2-0
//
// Tags are [Name "value"] pairs; a backslash escapes the next character in
// a value. Movetext holds move numbers ("1." or "1..." for the second
// player's move), moves written as squares joined by '-' (move) or 'x' /
// ':' (capture), numeric (32-28, 28x19x10) or algebraic (c3-d4, c3:e5,
// a3b4), move strengths (! ? !? (?) ...), NAGs ($n), {comments},
// (variations) which nest, and /setup/ commands. A game ends with '*' or a
// result: 1-0 0-1 1/2-1/2 (chess style), 2-0 1-1 0-2 (international style)
// or 0-0 (double forfeit). A '%' starts a comment to the end of the line.
// The text of PDN 3.0 is UTF-8.
//
// "1-1" is a result only when no digit follows it: 1-10 is a move.
//
// # Reading
//
// Three layers: Scanner yields tokens with positions; Reader.Next returns
// one Game at a time (io.EOF at the end) and never holds more than one
// game; Walk passes the elements of each game to a Visitor (whose hooks
// can Skip or Stop) without building the movetext. JSONReader reads games back from JSON lines; NewGameReader picks
// the right reader (and undoes gzip). Job, Validate, Copy, CollectStats
// and Split are the streaming operations of the pdn command.
//
// The Reader is lenient by default and records each leniency as a Warning
// on the game (kind and position): CR-only line breaks, the two characters
// `\r` left by some exporters, a UTF-8 byte order mark, Latin-1 and CP1251
// text (detected, or forced with Reader.Encoding; always converted to
// UTF-8), ';' comments, upper-case squares, moves without a separator,
// games without a terminator before the next tag section, localised or
// malformed tag names, stray tokens. Leading zeros in squares, '-' and ':'
// separators and move numbers on another line than their move are part of
// the PDN 3.0 reading grammar and need no warning.
//
// With Reader.Strict the reader follows the PDN 3.0 reading grammar: input
// outside it makes Next return a *GameError with the position. In both
// modes a bad game does not end the stream: Next returns the game as far as
// it could be read with the error, and the next call reads the next game.
// Errors are *SyntaxError values (or *GameError wrapping one) that unwrap
// to the Err* sentinels.
//
// # Writing
//
// Writer writes canonical PDN: each tag on its own line, a blank line, the
// movetext wrapped at 80 columns and the terminator. Reading the output
// gives the same Game (apart from positions and warnings), and writing it
// again gives the same bytes. JSONWriter and JSONReader do the same with one
// JSON object per line holding every field of Game.
package pdn
