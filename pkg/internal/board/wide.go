package board

import (
	"context"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Boards of more than 64 bits (canadian, 12x12: 77 bits in the padded layout) are played by
// a second instance of the hot code, generated from the same source: widegen copies move
// generation, perft and the functions the search uses (shared.go) with bitboard replaced
// by wide, a 128-bit set, and Position, Move and Variant by widePosition, wideMove and
// wideVariant (see wide_gen.go and internal/widegen). The 64-bit code is untouched by it,
// so the variants that fit 64 bits keep their speed. A Position keeps the squares of index
// 64 and above in its high part; a Variant with a board that needs them has a wideVariant
// for its kernel (kernel.go), which converts at its edges. The search's own wide instance
// is generated the same way in pkg/search/internal/core.

//go:generate go run ../widegen -config widegen.conf

// wide is a set of up to 128 indices: lo holds 0-63, hi 64-127. Its methods are the
// operators of bitboard, written out; they are small enough to be inlined.
type wide struct{ lo, hi uint64 }

// And returns b & c.
func (b wide) And(c wide) wide { return wide{b.lo & c.lo, b.hi & c.hi} }

// Or returns b | c.
func (b wide) Or(c wide) wide { return wide{b.lo | c.lo, b.hi | c.hi} }

// Xor returns b ^ c.
func (b wide) Xor(c wide) wide { return wide{b.lo ^ c.lo, b.hi ^ c.hi} }

// AndNot returns b &^ c.
func (b wide) AndNot(c wide) wide { return wide{b.lo &^ c.lo, b.hi &^ c.hi} }

// Not returns ^b.
func (b wide) Not() wide { return wide{^b.lo, ^b.hi} }

// Shl returns b << n.
func (b wide) Shl(n uint) wide {
	if n >= 64 {
		return wide{0, b.lo << (n - 64)}
	}
	return wide{b.lo << n, b.hi<<n | b.lo>>(64-n)}
}

// Shr returns b >> n.
func (b wide) Shr(n uint) wide {
	if n >= 64 {
		return wide{b.hi >> (n - 64), 0}
	}
	return wide{b.lo>>n | b.hi<<(64-n), b.hi >> n}
}

// Sub returns b - c (modulo 2^128).
func (b wide) Sub(c wide) wide {
	lo, borrow := bits.Sub64(b.lo, c.lo, 0)
	hi, _ := bits.Sub64(b.hi, c.hi, borrow)
	return wide{lo, hi}
}

// Add returns b + c (modulo 2^128).
func (b wide) Add(c wide) wide {
	lo, carry := bits.Add64(b.lo, c.lo, 0)
	hi, _ := bits.Add64(b.hi, c.hi, carry)
	return wide{lo, hi}
}

// IsZero reports whether b is empty.
func (b wide) IsZero() bool { return b.lo|b.hi == 0 }

// ClearFirst returns b without its lowest index (b & (b-1)).
func (b wide) ClearFirst() wide {
	if b.lo != 0 {
		return wide{b.lo & (b.lo - 1), b.hi}
	}
	return wide{0, b.hi & (b.hi - 1)}
}

// Has reports whether index i is in b.
func (b wide) Has(i Index) bool {
	if i >= 64 {
		return b.hi>>(i-64)&1 != 0
	}
	return b.lo>>i&1 != 0
}

// Count returns the number of indices in b.
func (b wide) Count() int { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }

// First returns the lowest index in b; b must not be empty.
func (b wide) First() Index {
	if b.lo != 0 {
		return Index(bits.TrailingZeros64(b.lo))
	}
	return Index(64 + bits.TrailingZeros64(b.hi))
}

// last returns the highest index in b; b must not be empty.
func (b wide) last() Index {
	if b.hi != 0 {
		return Index(127 - bits.LeadingZeros64(b.hi))
	}
	return Index(63 - bits.LeadingZeros64(b.lo))
}

// through returns the indices up to b's highest, that one included; none when b is empty.
func (b wide) through() wide {
	if b.hi != 0 {
		return wide{^uint64(0), 1<<uint(64-bits.LeadingZeros64(b.hi)) - 1}
	}
	return wide{1<<uint(64-bits.LeadingZeros64(b.lo)) - 1, 0}
}

// widePosition is Position on a wide board.
type widePosition struct {
	pieces [2]wide
	kings  wide
	Side   Color
	Hash   uint64
}

// wideMove is Move on a wide board.
type wideMove struct {
	From, To Index
	flags    uint32 // promoteFlag only
	captured wide
}

// Promotes reports whether the man that moves is crowned by m.
func (m wideMove) Promotes() bool { return m.flags&promoteFlag != 0 }

// IsCapture reports whether m captures.
func (m wideMove) IsCapture() bool { return !m.captured.IsZero() }

// captures reports whether m captures (Move.captures).
func (m wideMove) captures() bool { return !m.captured.IsZero() }

// widen returns p as a widePosition.
func (p *Position) widen() widePosition {
	return widePosition{
		pieces: [2]wide{{uint64(p.pieces[White]), uint64(p.high[White])}, {uint64(p.pieces[Black]), uint64(p.high[Black])}},
		kings:  wide{uint64(p.kings), uint64(p.high[2])},
		Side:   p.Side,
		Hash:   p.Hash,
	}
}

// narrow returns w as a Position.
func (w *widePosition) narrow() Position {
	return Position{
		pieces: [2]bitboard{bitboard(w.pieces[White].lo), bitboard(w.pieces[Black].lo)},
		kings:  bitboard(w.kings.lo),
		Side:   w.Side,
		high:   [3]uint16{uint16(w.pieces[White].hi), uint16(w.pieces[Black].hi), uint16(w.kings.hi)},
		Hash:   w.Hash,
	}
}

// widen returns m as a wideMove.
func (m Move) widen() wideMove {
	return wideMove{From: m.From, To: m.To, flags: m.flags & promoteFlag, captured: wide{uint64(m.captured), uint64(m.capHigh())}}
}

// narrow returns m as a Move.
func (m wideMove) narrow() Move {
	return Move{From: m.From, To: m.To, flags: m.flags | uint32(m.captured.hi)<<16, captured: bitboard(m.captured.lo)}
}

// narrowMoves appends ms to dst as Moves.
func narrowMoves(dst []Move, ms []wideMove) []Move {
	for _, m := range ms {
		dst = append(dst, m.narrow())
	}
	return dst
}

// playWide is Play for a move that touches an index of 64 or above.
func (p Position) playWide(m Move) Position {
	w := p.widen()
	w.apply(m.widen())
	return w.narrow()
}

// wideVariant is the part of a Variant that a wide board needs: the tables that hold
// sets of squares, as wide sets. The rest (steps, directions, square numbers, the rules)
// is the Variant's own, reached through the embedded pointer.
type wideVariant struct {
	*Variant
	board wide
	promo [2]wide
	rays  [8][maxIndex]wide
	start widePosition
}

// wideBit returns the one-index set of i.
func wideBit(i Index) wide { return wide{1, 0}.Shl(uint(i)) }

// newWideVariant builds the wide tables of v, whose square indices and start position are
// set.
func newWideVariant(v *Variant) *wideVariant {
	w := &wideVariant{Variant: v, start: v.start.widen()}
	for n := 1; n <= v.squares; n++ {
		w.board = w.board.Or(wideBit(v.idx[n]))
	}
	for n := 1; n <= v.perRow; n++ {
		w.promo[White] = w.promo[White].Or(wideBit(v.idx[n]))
		w.promo[Black] = w.promo[Black].Or(wideBit(v.idx[v.squares+1-n]))
	}
	for d := 0; d < 8; d++ {
		for i := Index(0); i < maxIndex; i++ {
			if !w.board.Has(i) {
				continue
			}
			for s := w.shift(wideBit(i), d); !s.IsZero(); s = w.shift(s, d) {
				w.rays[d][i] = w.rays[d][i].Or(s)
			}
		}
	}
	return w
}

// The kernel of a wide board (see kernel): each method converts at its edges.

func (w *wideVariant) generateDup(dst []Move, p Position, dup Duplicates) []Move {
	wp := p.widen()
	var g wideCapGen
	return narrowMoves(dst, w.generate(&g, nil, &wp, dup))
}

func (w *wideVariant) hasCaptureOf(p Position) bool {
	wp := p.widen()
	return w.hasCaptureIn(&wp)
}

func (w *wideVariant) countOf(p Position, dup Duplicates, _ []Move) int {
	wp := p.widen()
	var g wideCapGen
	return w.count(&g, &wp, dup, nil)
}

func (w *wideVariant) hasMovesOf(p Position) bool {
	wp := p.widen()
	return w.hasMoves(&wp)
}

func (w *wideVariant) divideOf(ctx context.Context, p Position, depth int, opt PerftOptions) ([]DivideEntry, error) {
	entries, err := w.divide(ctx, p.widen(), depth, opt)
	out := make([]DivideEntry, len(entries))
	for i, e := range entries {
		out[i] = DivideEntry{Move: e.Move.narrow(), Nodes: e.Nodes}
	}
	return out, err
}

func (w *wideVariant) pathsOf(p Position, m Move) [][]Square {
	wp := p.widen()
	return w.paths(&wp, m.widen())
}

// widePathScratches is pathScratches for the wide instance of isPath.
var widePathScratches = sync.Pool{New: func() any { return new(widePathScratch) }}

func (w *wideVariant) isPathOf(p Position, m Move, want wantedPath) bool {
	wp := p.widen()
	return w.isPath(&wp, m.widen(), want)
}

func (w *wideVariant) quietMoveOf(p Position, from, to Index) (Move, bool) {
	wp := p.widen()
	m, ok := w.quietMove(&wp, from, to)
	return m.narrow(), ok
}

func (w *wideVariant) playQuietOf(p Position, from, to Index) (Position, bool) {
	m, ok := w.quietMoveOf(p, from, to)
	if ok {
		p.play(m)
	}
	return p, ok
}

func (w *wideVariant) movesFromToOf(dst []Move, p Position, from, to Index) []Move {
	wp := p.widen()
	return narrowMoves(dst, w.movesFromTo(nil, &wp, from, to))
}

func (w *wideVariant) advanceDrawOf(d *drawState, p Position, m Move, c Position) {
	wp, wc := p.widen(), c.widen()
	WideAdvanceDraw(d, w, &wp, m.widen(), &wc)
}

// hasMen reports whether c has a man.
func (p *widePosition) hasMen(c Color) bool { return !p.men(c).IsZero() }

// The conversions and the choice of width of the search's wide instance
// (pkg/search/internal/core), which has no access to the representation.

// WideVariantOf returns the wide instance of v, and whether v plays on it (a board of
// more than 64 bits).
func WideVariantOf(v *Variant) (*WideVariant, bool) {
	w, ok := v.k.(*wideVariant)
	return w, ok
}

// NewWideVariant returns a wide instance of v, even for a board that fits 64 bits: the
// same rules and squares, played by the generated code (tests compare the two).
func NewWideVariant(v *Variant) *WideVariant { return newWideVariant(v) }

// Widen returns *p as a WidePosition.
func Widen(p *Position) WidePosition { return p.widen() }

// Narrow returns *w as a Position (the inverse of Widen).
func Narrow(w *WidePosition) Position { return w.narrow() }

// NarrowMove returns m as a Move.
func NarrowMove(m WideMove) Move { return m.narrow() }

// NarrowMoves appends ms to dst as Moves.
func NarrowMoves(dst []Move, ms []WideMove) []Move { return narrowMoves(dst, ms) }

// widePerfterOf is perfterOf on a wide board (widegen.conf renames perfterOf so).
func widePerfterOf(v *wideVariant, dup Duplicates, tt *perftTable, depth int, stop *atomic.Bool) widePerftCounter {
	return v.geom.widePerfter(v, dup, tt, depth, stop)
}
