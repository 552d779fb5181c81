// Package book builds, stores and plays from opening books: positions of one
// variant with the moves played (or searched) from them.
//
// # Model
//
// A Book maps positions to Entries. Positions are keyed by their Zobrist hash
// (engine.Position.Hash, which includes the side to move), so move orders that
// transpose into the same position share one entry; the entry keeps the
// position itself, and a hash that comes back with another position is a
// collision: it is counted and the second position is left out. Each entry
// lists its book moves with statistics from the side to move's point of view:
// Games (how often the move was played from here), Wins, Draws and Losses
// (games with a known result; Games minus the three is the number of games
// without one), and, in books built or probed with the engine, Eval: the
// fixed-depth search score of the move for the side that plays it, in
// hundredths of a man.
//
// Build makes a book from PDN games: every position up to MaxPly plies from
// the start of each game, with the move the game played from it. Results are
// read by the PDN convention that the first number belongs to the variant's
// first mover (Black in English draughts): "1-0" and "2-0" are wins for the
// first mover, "0-1" and "0-2" losses, "1/2-1/2" and "1-1" draws; "*", "0-0"
// and other values count as games without a result. Games are read one at a
// time and replayed in parallel; only their first MaxPly moves are replayed,
// so memory grows with the number of distinct positions, not with the input.
//
// Expand makes a book with the engine alone, by drop-out expansion (Lincke
// 2000): every move of an expanded position gets a fixed-depth search score;
// the value of a position is the best of its moves' values (an expanded
// child's value replaces the move's search score); the drop-out of a path is
// the sum, over its positions, of the best move's value minus the value of the
// move the path takes. The unexpanded position with the smallest drop-out
// (then the fewest plies, then a seeded tie-break) is expanded next.
//
// # File format
//
// WriteJSON writes, and ReadJSON reads, one JSON object per line: a header
// line, then one line per position, sorted by hash:
//
//	{"format":"rafle-book","version":1,"variant":"english","gameType":21,
//	 "root":"B:W21-32:B1-12","maxPly":20,"minGames":2,"positions":1234,
//	 "games":22621,"source":"pdn: OCA_2.0.pdn"}
//	{"hash":"0badc0ffee000000","fen":"B:W21-32:B1-12","moves":[
//	 {"move":"11-15","games":9000,"wins":2000,"draws":5500,"losses":1500}, ...]}
//
// Header fields: format (always "rafle-book"), version (FormatVersion; a
// reader rejects newer versions), variant (engine.Lookup name), gameType,
// root (FEN of the position lines start from), maxPly, minGames, positions
// (the number of position lines), games (games used), source (free text),
// and, for expanded books, depth (search depth), nodes and seed.
// Position fields: hash (16 hex digits, informative: readers key positions
// by the hash they compute from fen), fen (the position, canonical FEN), ply
// (fewest plies from the start at which it was met), eval (expanded books:
// the position's value for the side to move) and moves. Move fields: move
// (the variant's notation, as engine.Variant.FormatMove writes it), games,
// wins, draws, losses (side to move; zero fields are left out) and eval.
// Moves are sorted by games, then eval, then notation, best first.
//
// WritePDN writes the book as a single PDN game: the main line follows the
// most played move of each position, every other book move is a variation,
// and a comment after each move gives its games, W/D/L and score. A position
// reached by several move orders is written once, under its shortest line; the
// other lines end with a "transposes to ..." comment.
package book
