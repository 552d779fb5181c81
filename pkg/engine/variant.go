package engine

import (
	"context"

	"github.com/rafle/rafle/pkg/internal/board"
)

// Squares returns the number of playing squares (32, 50).
func (v *Variant) Squares() int {
	return bv(v).Squares()
}

// Index returns the bit index of square s, and false when s is not a square of the board.
func (v *Variant) Index(s Square) (Index, bool) {
	r0, r1 := bv(v).Index(board.Square(s))
	return Index(r0), r1
}

// Square returns the PDN number of index i (0 for an index that is not a square).
func (v *Variant) Square(i Index) Square {
	return Square(bv(v).Square(board.Index(i)))
}

// Start returns the initial position.
func (v *Variant) Start() Position {
	return epos(bv(v).Start())
}

// ParseFEN reads a PDN FEN in any of the forms real files use: "W:W31-50:B1-20", squares one
// by one or as ranges, kings marked K, the colour blocks in either order, a trailing ".",
// clock suffixes such as ":H0:F1" (ignored), and algebraic squares ("Wa1,c1") on boards
// that use them. Pieces are checked: a square is known and holds one piece, and no man
// stands on the row where it would have been crowned. As PDN 3.0's grammar says, a FEN has
// at least one colour block, which may be empty ("W:W:B1,2"); "W", "W:" and "W::" are
// errors, not an empty board. Empty fields (a trailing ':') are skipped.
func (v *Variant) ParseFEN(fen string) (Position, error) {
	r0, r1 := bv(v).ParseFEN(fen)
	return epos(r0), eerr(r1)
}

// FEN writes p in the canonical form: side to move, then White's and Black's pieces square
// by square, kings marked K, in the variant's notation: by increasing number, or for
// russian and brazilian as algebraic squares by file and rank.
func (v *Variant) FEN(p Position) string {
	return bv(v).FEN(bpos(p))
}

// ParseSquare reads a square as a PDN number (zero padding allowed) or, on any board, as
// algebraic coordinates ("c3").
func (v *Variant) ParseSquare(s string) (Square, error) {
	r0, r1 := bv(v).ParseSquare(s)
	return Square(r0), eerr(r1)
}

// AlgebraicName returns the coordinates of s ("c3") on any board, whatever its notation.
func (v *Variant) AlgebraicName(s Square) string {
	return bv(v).AlgebraicName(board.Square(s))
}

// SquareName returns the name of s in the variant's notation: "c3" on algebraic boards,
// the PDN number otherwise.
func (v *Variant) SquareName(s Square) string {
	return bv(v).SquareName(board.Square(s))
}

// PositionOutcome is Outcome for a position without its game: whether p ends the game by
// the rules of play alone (the side to move has no legal move: a loss, a win where
// Rules.NoMoveWins, or the opponent's crowning where Rules.PromotionWins). The draw rules
// and the king-move limit need the game's history: PositionOutcome never reports a draw.
func (v *Variant) PositionOutcome(p *Position) Outcome {
	return eoutcome(bv(v).PositionOutcome(bp(p)))
}

// CheckKingRun returns nil when the king-move limit allows m, a legal move of p, after r;
// otherwise a MoveError wrapping ErrIllegalMove that says which king is held.
func (v *Variant) CheckKingRun(r KingRun, p *Position, m Move) error {
	return eerr(bv(v).CheckKingRun(r.r, bp(p), bmove(m)))
}

// Generate appends the legal moves of p to dst and returns the extended slice. Captures are
// compulsory: when there is one, only captures (those the variant's precedence allows) are
// generated. Sequences that differ only in the order of the same captured pieces are one move.
func (v *Variant) Generate(dst []Move, p *Position) []Move {
	return emoves(bv(v).GenerateDup(bmoves(dst), bp(p), board.Unique))
}

// GenerateDup is Generate with a choice of duplicate-capture convention (for perft).
func (v *Variant) GenerateDup(dst []Move, p *Position, dup Duplicates) []Move {
	return emoves(bv(v).GenerateDup(bmoves(dst), bp(p), board.Duplicates(dup)))
}

// Paths returns every capture path of m in p: each path is the start square followed by the
// square the piece lands on after each captured piece. A flying king that goes on straight
// ahead is shown stopping on the last free square before the next piece. Paths returns nil
// for a quiet move and for a move that is not legal.
func (v *Variant) Paths(p *Position, m Move) [][]Square {
	return epaths(bv(v).Paths(bp(p), bmove(m)))
}

// IsPath reports whether path (the start square, then the square the piece lands on after
// each captured piece, as Paths gives them) is a capture path of m in p: whether Paths(p, m)
// holds it, found without building the paths (replaying a game checks the paths written
// in full this way).
func (v *Variant) IsPath(p *Position, m Move, path []Square) bool {
	return bv(v).IsPath(bp(p), bmove(m), bsquares(path))
}

// FormatMove writes m in the variant's notation: "32-28" or "19x28" (numeric), "c3-d4" or
// "c3:e5" (algebraic). A capture is written from-to unless another legal capture shares
// both squares, or full is set; then it is written with its whole path ("28x19x10").
func (v *Variant) FormatMove(p *Position, m Move, full bool) string {
	return bv(v).FormatMove(bp(p), bmove(m), full)
}

// FormatPath writes a capture path (as returned by Paths) in the variant's notation: "28x19x10", "c3:e5:g3".
func (v *Variant) FormatPath(path []Square) string {
	return bv(v).FormatPath(bsquares(path))
}

// ParseMove resolves a move text in p: "32-28", "19x28", "28x19x10", "c3-d4", "c3:e5"
// (numbers and algebraic squares are both accepted on every board; '-', 'x' and ':' are all
// accepted as separators, and trailing marks such as "!" or "?" are ignored). A capture
// given by its two ends is resolved to the unique legal capture between them; with more
// squares, the piece must pass through them in order.
func (v *Variant) ParseMove(p *Position, text string) (Move, error) {
	r0, r1 := bv(v).ParseMove(bp(p), text)
	return emove(r0), eerr(r1)
}

// QuietMove returns the quiet move from-to and true when it is legal in p (the side to move
// has no capture, and a man steps forward or a king moves along a free line), without
// generating the other moves: the common case when replaying games.
func (v *Variant) QuietMove(p *Position, from, to Index) (Move, bool) {
	r0, r1 := bv(v).QuietMove(bp(p), board.Index(from), board.Index(to))
	return emove(r0), r1
}

// PlayQuiet plays the quiet move from-to on p and reports true when it is legal in p (see
// QuietMove); otherwise it leaves p as it is. Replaying a game plays its commonest moves
// so, without handing the move back and forth.
func (v *Variant) PlayQuiet(p *Position, from, to Index) bool {
	return bv(v).PlayQuiet(bp(p), board.Index(from), board.Index(to))
}

// PlayJump plays the capture from-to on p and reports true when it is a legal move of p
// and the only one from-to: a man's single jump, where men capture one way only and any
// capture may be chosen (english). Otherwise, or when it cannot tell, it leaves p as it is
// and reports false (MovesFromTo has the answer). Replaying a game plays the commonest
// captures so.
func (v *Variant) PlayJump(p *Position, from, to Index) bool {
	return bv(v).PlayJump(bp(p), board.Index(from), board.Index(to))
}

// PlayPath plays on p the capture whose path is path (the start square, then the square
// the piece lands on after each captured piece, as Paths gives them) and reports true when
// it is a man's capture, where men capture one way only and any capture may be chosen
// (english), and path is a legal path of it: the move ParseMove finds for the path written
// in full. Otherwise, or when it cannot tell, it leaves p as it is and reports false.
// Replaying a game plays the captures written in full so (PlayJump plays a path of two
// squares the same).
func (v *Variant) PlayPath(p *Position, path []Index) bool {
	return bv(v).PlayPath(bp(p), bindices(path))
}

// PlaySquares plays on p the move written with the squares from and to, a capture when
// capture is set, and reports true, when PlayQuiet (a quiet move) or PlayJump (a capture)
// plays it; otherwise it leaves p as it is and reports false. Replaying a game plays its
// commonest moves so, from the squares as written.
func (v *Variant) PlaySquares(p *Position, from, to Square, capture bool) bool {
	return bv(v).PlaySquares(bp(p), board.Square(from), board.Square(to), capture)
}

// PlaySquarePairs plays on p the moves ms in turn, each as PlaySquares would, and returns
// how many it played: it stops at the first it does not play, with p the position before
// it. Replaying a game plays its runs of plain moves so, with the board's code chosen
// once a run rather than once a move.
func (v *Variant) PlaySquarePairs(p *Position, ms []SquarePair) int {
	return bv(v).PlaySquarePairs(bp(p), bpairs(ms))
}

// MovesFromTo appends to dst the legal moves of p from index from to index to, and returns
// the extended slice: the moves Generate gives that go from-to (sequences that differ only
// in the order of the same captured pieces are one move), in no particular order. Without
// a capture precedence it looks at the captures of the piece on from alone, and at the
// other pieces only for whether they have a capture when that piece has none: replaying a
// game checks a capture without generating those of the other pieces.
func (v *Variant) MovesFromTo(dst []Move, p *Position, from, to Index) []Move {
	return emoves(bv(v).MovesFromTo(bmoves(dst), bp(p), board.Index(from), board.Index(to)))
}

// HasCapture reports whether the side to move in p has a capture.
func (v *Variant) HasCapture(p *Position) bool {
	return bv(v).HasCapture(bp(p))
}

// Count returns the number of legal moves of p under the given duplicate convention,
// without generating the quiet ones.
func (v *Variant) Count(p *Position, dup Duplicates, scratch []Move) int {
	return bv(v).Count(bp(p), board.Duplicates(dup), bmoves(scratch))
}

// HasMoves reports whether the side to move in p has a legal move.
func (v *Variant) HasMoves(p *Position) bool {
	return bv(v).HasMoves(bp(p))
}

// Perft returns the number of leaf positions depth plies below p (perft(0) = 1). Draw
// rules are ignored, as by every published count. It stops early, returning ctx's error,
// when ctx is cancelled.
func (v *Variant) Perft(ctx context.Context, p Position, depth int, opt PerftOptions) (uint64, error) {
	r0, r1 := bv(v).Perft(ctx, bpos(p), depth, bopts(opt))
	return r0, eerr(r1)
}

// Divide returns, for each root move of p (in generation order; with Keep a move may appear
// once per capture order), the number of leaves depth-1 plies below it. depth must be at
// least 1.
func (v *Variant) Divide(ctx context.Context, p Position, depth int, opt PerftOptions) ([]DivideEntry, error) {
	r0, r1 := bv(v).Divide(ctx, bpos(p), depth, bopts(opt))
	return edivide(r0), eerr(r1)
}
