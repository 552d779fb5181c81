package engine

import (
	"iter"

	"github.com/rafle/rafle/pkg/internal/board"
)

// ComputeHash computes the Zobrist key of p from scratch (Play updates it incrementally).
func (p *Position) ComputeHash() uint64 {
	return bp(p).ComputeHash()
}

// At returns the piece on index i: its colour, whether it is a king, and false when the
// square is empty.
func (p *Position) At(i Index) (c Color, king, ok bool) {
	bc, king, ok := bp(p).At(board.Index(i))
	return Color(bc), king, ok
}

// Put places a piece of colour c, a king when king is set, on index i: a way to build a
// Position from its pieces without a FEN (endgame databases enumerate positions so). i must
// be a playing square of the position's variant (Variant.Index) and empty; Put checks
// neither, nor that a man does not stand on its promotion row. Hash is left as it is: set
// Side and call ComputeHash when the pieces are placed, if the hash is needed.
func (p *Position) Put(i Index, c Color, king bool) {
	bp(p).Put(board.Index(i), board.Color(c), king)
}

// Sets returns the squares of White's pieces, of Black's and of the kings of both, as sets
// of indices: index i is bit i%64 of word i/64. A fast way to read every piece (endgame
// databases index positions so); At reads one square.
func (p *Position) Sets() (white, black, kings [2]uint64) {
	return bp(p).Sets()
}

// Equal reports whether p and q have the same pieces and side to move (the hash aside).
func (p *Position) Equal(q *Position) bool {
	return bp(p).Equal(bp(q))
}

// Material counts each side's men and kings.
func (p *Position) Material() Material {
	return Material(bp(p).Material())
}

// Play returns the position after m. m must be a legal move of p (as generated).
func (p Position) Play(m Move) Position {
	return epos(bpos(p).Play(bmove(m)))
}

// Promotes reports whether the man that moves is crowned by m.
func (m Move) Promotes() bool {
	return bmove(m).Promotes()
}

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool {
	return bmove(m).IsCapture()
}

// Captured returns the indices of the pieces m captures, in increasing order.
func (m Move) Captured() iter.Seq[Index] {
	return eindices(bmove(m).Captured())
}

// CaptureCount returns the number of pieces m captures.
func (m Move) CaptureCount() int {
	return bmove(m).CaptureCount()
}

// Other returns the opponent of c.
func (c Color) Other() Color {
	return Color(board.Color(c).Other())
}

// String returns "white" or "black".
func (c Color) String() string {
	return board.Color(c).String()
}

// Pieces returns c's men and kings together.
func (m Material) Pieces(c Color) int {
	return board.Material(m).Pieces(board.Color(c))
}

// String returns "unique", "keep" or "paths".
func (d Duplicates) String() string {
	return board.Duplicates(d).String()
}
