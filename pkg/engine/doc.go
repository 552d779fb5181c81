// Package engine is rafle's rules engine: variants, positions, move generation, FEN and
// move notation, perft and the end of a game. The search, the evaluation and the computer
// levels are in pkg/search, above it. It imports only the standard library and its own
// implementation, pkg/internal/board: each type here has the memory layout of board's
// type of the same name, and each method hands its work to board's (the examples show the
// common tasks).
//
// # Variants
//
// A variant is a [Rules] value: board size, rows of men, first mover, mirrored numbering,
// notation, short or flying kings, the directions men capture in, whether men may take
// kings, what a man does on reaching the far row during a capture ([Promotion]), the
// capture precedence ([Precedence]: free choice, [MostPieces], [KingFirst],
// [MostPiecesThenKings], [ItalianPrecedence], [FrisianPrecedence]), whether captured pieces
// leave at once, orthogonal captures, the limit on moves in a row with one king
// (KingMoveLimit, frisian), where a king's capture that ends with a king stops
// (HaltBehindKing, killer), what ends the game (PromotionWins, breakthrough; NoMoveWins,
// antidraughts) and the automatic draws ([DrawRules]). The zero value of each field is the
// common choice. [NewVariant] checks a Rules value and builds its tables; the move
// generator reads only those tables and never a variant's name. The built-in variants
// (english, international, russian, brazilian, pool, czech, spanish, portuguese,
// italian, thai, frisian, canadian, killer, breakthrough, antidraughts, frysk, turkish and
// armenian, each specified with its sources in docs/rules.md, one section per variant such
// as docs/rules.md#international) are registered by name, alias and PDN GameType: see
// [Lookup].
//
// # Boards and moves
//
// [Square] is the 1-based PDN number used at the API, [Index] a square's bit position in
// the board's padded layout: the dark squares row by row from square 1 (every square on an
// Orthogonal board, turkish: square 1 = a8, one ghost after each row), with ghost bits
// placed so that every step (diagonal, and along rows and columns for frisian and turkish)
// is one fixed shift that cannot wrap round the board. A [Position] is a small comparable value
// (pieces, kings, side to move and its Zobrist hash): [Position.At] and
// [Position.Material] read it, and [Position.Play] returns the next one (copy-make). A
// [Move] is its start and end squares and the set of captured pieces ([Move.Captured]): two
// capture paths that take the same pieces between the same squares are one move for the
// rules, and [Variant.Paths] recovers the paths for notation. Every method works on every
// board.
//
// The hot code (move generation, perft, and pkg/search's evaluation and search) works on
// 64-bit sets. A board that needs more than 64 bits (canadian, 12x12: 77; turkish, 71) is
// played by a second instance of it over a 128-bit set, which pkg/internal/widegen generates from the
// 64-bit source: one source, and no cost to the boards that fit 64 bits. [NewVariant]
// picks the instance once.
//
// [Variant.Generate] appends the legal moves to a caller's buffer: the captures the
// precedence allows when there is one (a sequence must be completed, and a flying king
// that can go on must stop where it can), the quiet moves otherwise. Perft can also count
// every capture order separately ([Duplicates]), as the published english lists do.
//
// # Perft
//
// [Variant.Perft] and [Variant.Divide] count the leaves of the move tree with bulk counting
// at the last ply, an optional shared transposition table and threads, all giving the same
// counts; they return data and never print. [ReadPerftSuite] reads the published counts
// shipped in corpus/perft.
//
// # Text
//
// [Variant.ParseFEN] reads PDN FEN in the forms real files use and [Variant.FEN] writes one
// canonical form. [Variant.ParseMove] reads a move in any notation (numbers or algebraic
// squares; '-', 'x' or ':'), resolving a short capture to the unique legal move or
// reporting it as ambiguous with its candidates ([MoveError]); [Variant.FormatMove] writes
// one in the variant's notation.
//
// # Games
//
// A [Game] is a position with its history: [Game.Legal] applies the rules that depend on it
// (the king-move limit, carried as a [KingRun]) and [Game.Outcome] the variant's end rules
// (no legal move loses; then repetition, move counters and special endings, each with its
// reason).
package engine
