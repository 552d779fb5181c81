// Package pdn reads and writes PDN (Portable Draughts Notation), the
// game-record format for draughts and checkers, and replays its games
// with the rules of pkg/engine. It has two layers:
//
//   - The syntax, one grammar: the Scanner splits the input into tokens
//     (scanner.go, token.go; the tokens that hold text and their
//     recovery in scantext.go, results, move numbers and moves in
//     scanmove.go), and the Reader builds games from them (reader.go, its
//     state machine; tag pairs in tag.go, how a game ends in end.go), in
//     the memory of an arena (arena.go) with the strings it interns
//     (intern.go). The Reader's fast mode (plain.go) reads the commonest
//     tag pairs and moves straight from the Scanner's buffer, as it would
//     read their tokens: FuzzPlain and the corpus tests check that both
//     ways give the same games, warnings and errors. Walk (walk.go) hands
//     the elements of games to a Visitor; Writer and JSONWriter write
//     them (writer.go, json.go). This layer knows tags, moves as lists of
//     squares, comments, variations and results, not the rules of any
//     variant.
//   - The replay (replay.go, variant.go, infer.go, stream.go), above it:
//     Replay plays a game's moves with pkg/engine; InferVariant reads the
//     games with the Reader and weighs their squares. A Reader can hand
//     the main line of each game to the layer above as it reads it,
//     instead of building it (SetReplayer; InferVariant does the same to
//     keep only its squares): it decides nothing by the rules, it only
//     passes the moves on.
//
// Work over whole archives (jobs over many files, parallel reading,
// validation, copy, statistics, split) is in package archive, built on
// this one.
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
// Three ways to read: Scanner yields tokens with positions; Reader.Next returns
// one Game at a time (io.EOF at the end) and never holds more than one
// game; Walk passes the elements of each game to a Visitor (whose hooks
// can Skip or Stop) without building the movetext. JSONReader reads games
// back from JSON lines; NewGameReader picks the right reader (and undoes
// gzip).
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
// # Damaged input
//
// Whatever the reader drops or alters is reported, never hidden: a
// repair it is sure of is a Warning on the game (strict mode makes the
// kinds the grammar rejects errors), and damage it can only contain is a
// *GameError returned with the game in both modes, giving the game's
// number, line and column. A caller that keeps going after a *GameError
// must still count it or say so (the pdn commands print it on stderr
// and exit with status 1; convert drops such games only with
// --skip-bad). The rules that keep damage to one game:
//
//   - A tag value ("...") ends at the end of its line. Without its closing
//     quote there, the value is the rest of the line less trailing blanks
//     and a final ']' (which closes the tag), and the game has an
//     ErrUnterminatedString error.
//   - A {comment} may span lines, but not a line that starts (after
//     blanks) with a tag pair: '[', a name and '"'. A comment that runs
//     into such a line, or to the end of the input, ends before it, and
//     the game has an ErrUnterminatedComment error; the tag line starts
//     the next game. (In the corpus, no comment over several lines holds
//     a '[' at all; one-line comments hold [%clock ...] and the like.)
//   - A game keeps at most MaxWarnings warnings; one last warning of kind
//     WarnTooMany counts the others.
//   - Input dropped with an error or a warning after the last game (a
//     stray ']', an unterminated string) comes back as a game of its own,
//     with an empty-game warning and the others, rather than vanishing.
//   - MaxTokenSize bounds a comment or a string, MaxDepth the nesting of
//     variations; both are errors (the token is dropped, the rest of the
//     game kept). MaxTags and MaxTagBytes bound the tag pairs of a game
//     (an ErrTooManyTags error; the rest are dropped), MaxStrayText the
//     stray text kept as comments (a warning; the rest is dropped).
//   - An input without a tag pair, a move or a result is not PDN: Next
//     returns ErrNotPDN instead of a game. A last game cut by the end of
//     the input (no terminator, no final line break, and a tag pair, a
//     move number, a variation or a move left incomplete) has an
//     ErrTruncated error.
//
// Memory stays in proportion to the largest game and time to the size of
// the input, for any input (see BenchmarkPathological).
//
// The reader also checks two tag values, as warnings of kind
// WarnTagValue: a GameType outside the PDN 3.0 syntax
// Type[,Colour,Width,Height,Notation[,Invert]] or whose board is not the
// one of its type (20,W,0,0,N,0), and an empty FEN tag.
//
// # Replay
//
// Replay plays a game's moves with pkg/engine. The variant is the GameType
// tag's; without one, the caller's default (Replayer.Default), else the
// variant inferred from the whole input the game comes from
// (Replayer.Inferred, from InferVariant), else inferred from the game
// alone by the same rules (see InferVariant: the GameType tags of the
// other games, the largest square, the first moves, all weighed against
// the boards and start positions of the engine's variants). Messages say
// when a variant was inferred, and from what. A GameType the engine does
// not play is a warning, not an error. The FEN tag, if any, is the start
// position. A move written by its two end squares is resolved to the
// legal move joining them (a man's quiet step, the commonest move,
// without generating the others); a full path must be one of the move's
// paths. The first main-line move that is illegal, ambiguous (candidates
// listed) or names a square not on the board ends the replay with a
// *ReplayError holding the position in the input, the move number, the
// move and the FEN before it; the game itself is left as it is.
// Variations are replayed from the position before the move they replace
// (or, when their first move does not fit there, after it, as some
// exporters write them); their errors are warnings. A final position
// without a legal move for the side to move that the result contradicts
// is a warning. Results are read with the first number as the score of
// the side that moves first (Black in english, White elsewhere).
//
// # Reading in pieces
//
// A Reader can take over in the middle of an input, at a Boundary between
// two games that another Reader reported (Reader.Boundary), with
// ResumeReader or ResumeBytes, in the encoding ReadHead decided for the
// whole input; Reader.EndedAt checks that a piece was read to its end as
// a Reader of the whole input would have. With an Arena (Reader.SetArena)
// a Reader carves its games out of memory the caller recycles batch after
// batch. Writer.Format and WriteFormatted (and JSONWriter.AppendGame and
// WriteFormatted) let games be formatted in several goroutines and written in order.
// Package archive builds its parallel reading and copying on these.
//
// # Writing
//
// Writer writes canonical PDN: each tag on its own line, a blank line, the
// movetext wrapped at 80 columns and the terminator. Reading the output
// gives the same Game (apart from positions and warnings), and writing it
// again gives the same bytes. JSONWriter and JSONReader do the same with one
// JSON object per line: tags as an object in file order, the movetext,
// the result and the warnings; source positions only with
// JSONWriter.Positions (see JSONWriter for the form, and for games with a
// repeated tag). JSONReader also reads the earlier form, with tags as an
// array and positions everywhere. For the Open Checkers Archive (11.5 MB)
// the JSON is 88 MB, against 156 MB in the earlier form.
package pdn
