package board

import (
	"iter"
	"math/bits"
)

// Position is a board and the side to move: a small comparable value. Positions are
// copy-make: Play returns a new Position and leaves its receiver untouched. Position does
// not know its variant; the Variant that generated a move knows the board.
//
// At, Material and Equal read the pieces on every board.
type Position struct {
	// pieces holds each side's men and kings, kings the kings of both sides: the squares
	// of index below 64, the whole of a board that fits 64 bits (every variant but
	// canadian).
	pieces [2]bitboard
	kings  bitboard
	// Side is the side to move.
	Side Color
	// high holds the squares of index 64 to 79: each side's pieces, then the kings; bit k
	// is index 64+k. It sits in what would be padding, so Position stays 40 bytes.
	high [3]uint16
	// Hash is the Zobrist key of the position, kept up to date by Play.
	Hash uint64
}

// highBits is the number of indices a board may have beyond 64 (see Position.high).
const highBits = 16

// narrowIndices is the size of tables indexed by Index in the code for boards of up to 64
// bits; widegen gives their wide instances maxIndex entries.
const narrowIndices = 64

// maxIndex bounds the indices of every board: tables indexed by Index have this size.
const maxIndex = 64 + highBits

// zobrist keys: [colour][man=0, king=1][index], and the key of Black to move. They are
// drawn once from a fixed seed, so hashes are the same from run to run.
var (
	zobrist     [2][2][maxIndex]uint64
	zobristSide uint64
)

func init() {
	state := uint64(0x9E3779B97F4A7C15) // splitmix64 seed: any fixed value will do
	next := func() uint64 {
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	// the keys of indices 0-63 first, as before boards grew past 64 bits, so that hashes
	// (and the searches the bench signatures record) stay what they were
	for c := range zobrist {
		for k := range zobrist[c] {
			for i := range narrowIndices {
				zobrist[c][k][i] = next()
			}
		}
	}
	zobristSide = next()
	for c := range zobrist {
		for k := range zobrist[c] {
			for i := narrowIndices; i < maxIndex; i++ {
				zobrist[c][k][i] = next()
			}
		}
	}
}

// ComputeHash computes the Zobrist key of p from scratch (Play updates it incrementally).
func (p *Position) ComputeHash() uint64 {
	var h uint64
	for c := White; c <= Black; c++ {
		for b := p.pieces[c]; b != 0; b &= b - 1 {
			i := b.First()
			k := 0
			if p.kings.Has(i) {
				k = 1
			}
			h ^= zobrist[c][k][i]
		}
	}
	for c := White; c <= Black; c++ {
		for b := p.high[c]; b != 0; b &= b - 1 {
			i := 64 + bits.TrailingZeros16(b)
			k := int(p.high[2]>>(i-64)) & 1
			h ^= zobrist[c][k][i]
		}
	}
	if p.Side == Black {
		h ^= zobristSide
	}
	return h
}

// At returns the piece on index i: its colour, whether it is a king, and false when the
// square is empty.
func (p *Position) At(i Index) (c Color, king, ok bool) {
	if i >= 64 {
		k := i - 64
		for c := White; c <= Black; c++ {
			if p.high[c]>>k&1 != 0 {
				return c, p.high[2]>>k&1 != 0, true
			}
		}
		return White, false, false
	}
	for c := White; c <= Black; c++ {
		if p.pieces[c].Has(i) {
			return c, p.kings.Has(i), true
		}
	}
	return White, false, false
}

// put places a piece of colour c on the empty index i (the hash is not updated).
func (p *Position) put(i Index, c Color, king bool) {
	if i >= 64 {
		p.high[c] |= 1 << (i - 64)
		if king {
			p.high[2] |= 1 << (i - 64)
		}
		return
	}
	p.pieces[c] |= bit(i)
	if king {
		p.kings |= bit(i)
	}
}

// Put places a piece of colour c, a king when king is set, on index i: a way to build a
// Position from its pieces without a FEN (endgame databases enumerate positions so). i must
// be a playing square of the position's variant (Variant.Index) and empty; Put checks
// neither, nor that a man does not stand on its promotion row. Hash is left as it is: set
// Side and call ComputeHash when the pieces are placed, if the hash is needed.
func (p *Position) Put(i Index, c Color, king bool) { p.put(i, c, king) }

// Sets returns the squares of White's pieces, of Black's and of the kings of both, as sets
// of indices: index i is bit i%64 of word i/64. A fast way to read every piece (endgame
// databases index positions so); At reads one square.
func (p *Position) Sets() (white, black, kings [2]uint64) {
	return [2]uint64{uint64(p.pieces[White]), uint64(p.high[White])},
		[2]uint64{uint64(p.pieces[Black]), uint64(p.high[Black])},
		[2]uint64{uint64(p.kings), uint64(p.high[2])}
}

// hasMen reports whether c has a man anywhere on the board.
func (p *Position) hasMen(c Color) bool {
	return p.men(c) != 0 || p.high[c]&^p.high[2] != 0
}

// Equal reports whether p and q have the same pieces and side to move (the hash aside).
func (p *Position) Equal(q *Position) bool {
	return p.pieces == q.pieces && p.kings == q.kings && p.high == q.high && p.Side == q.Side
}

// occupied returns the occupied squares of pieces (those of index below 64).
func (p *Position) occupied() bitboard { return p.pieces[White] | p.pieces[Black] }

// Material counts each side's men and kings.
func (p *Position) Material() Material {
	m := p.material()
	for c := White; c <= Black; c++ {
		kings := bits.OnesCount16(p.high[c] & p.high[2])
		m.Men[c] += bits.OnesCount16(p.high[c]) - kings
		m.Kings[c] += kings
	}
	return m
}

// material counts the men and kings of pieces and kings (the squares of index below 64:
// the whole of a board that fits 64 bits).
func (p *Position) material() Material {
	var m Material
	for c := White; c <= Black; c++ {
		m.Men[c] = p.men(c).Count()
		m.Kings[c] = p.kingsOf(c).Count()
	}
	return m
}

// men returns c's men in pieces (those of index below 64).
func (p *Position) men(c Color) bitboard { return p.pieces[c] &^ p.kings }

// kingsOf returns c's kings in pieces (those of index below 64).
func (p *Position) kingsOf(c Color) bitboard { return p.pieces[c] & p.kings }

// Move is a move: the piece on From goes to To and the captured pieces are removed. Two
// capture paths that take the same pieces from the same square to the same square are the
// same Move; Variant.Paths recovers the paths for notation.
type Move struct {
	From, To Index
	// flags holds whether the man that moves is crowned (promoteFlag), and above bit 16
	// the captured squares of index 64 and above (see Position). Move keeps four fields,
	// so that the compiler holds it in registers: a fifth costs perft 7%.
	flags uint32
	// captured is the set of captured pieces of index below 64 (empty for a quiet move).
	captured bitboard
}

// promoteFlag is the bit of Move.flags set when the moving man is crowned.
const promoteFlag = 1

// promotes returns the flags of a move that crowns its man or not.
func promotes(crowned bool) uint32 {
	if crowned {
		return promoteFlag
	}
	return 0
}

// Promotes reports whether the man that moves is crowned by m.
func (m Move) Promotes() bool { return m.flags&promoteFlag != 0 }

// capHigh returns the captured squares of index 64 and above, bit k for index 64+k.
func (m Move) capHigh() uint16 { return uint16(m.flags >> 16) }

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.captured != 0 || m.flags>>16 != 0 }

// captures is IsCapture for the code of boards that fit 64 bits, whose moves never
// capture on an index of 64 or above; the search asks it of every move it orders.
func (m Move) captures() bool { return m.captured != 0 }

// Captured returns the indices of the pieces m captures, in increasing order.
func (m Move) Captured() iter.Seq[Index] {
	return func(yield func(Index) bool) {
		for b := m.captured; b != 0; b &= b - 1 {
			if !yield(b.First()) {
				return
			}
		}
		for h := m.capHigh(); h != 0; h &= h - 1 {
			if !yield(Index(64 + bits.TrailingZeros16(h))) {
				return
			}
		}
	}
}

// CaptureCount returns the number of pieces m captures.
func (m Move) CaptureCount() int { return m.captured.Count() + bits.OnesCount16(m.capHigh()) }

// Play returns the position after m. m must be a legal move of p (as generated).
func (p Position) Play(m Move) Position {
	p.play(m)
	return p
}

// play plays m on p in place: apply, or for a move that touches an index of 64 or above,
// the wide instance's. Play stays small enough to be inlined with one call in it.
func (p *Position) play(m Move) {
	if m.From|m.To >= 64 || m.flags>>16 != 0 {
		*p = p.playWide(m)
		return
	}
	p.apply(m)
}

// apply plays m on p in place, updating the hash.
func (p *Position) apply(m Move) {
	us, them := p.Side, p.Side.Other()
	from, to := bit(m.From), bit(m.To)
	king := p.kings&from != 0
	h := p.Hash ^ zobristSide
	// The captured pieces first: a capture may end on the square of a piece it took, when
	// pieces are removed at once (turkish).
	for b := m.captured; b != 0; b &= b - 1 {
		i := b.First()
		k := 0
		if p.kings.Has(i) {
			k = 1
		}
		h ^= zobrist[them][k][i]
	}
	p.pieces[them] &^= m.captured
	p.kings &^= m.captured
	if king {
		p.kings = p.kings&^from | to
	} else if m.Promotes() {
		p.kings |= to
	}
	p.pieces[us] = p.pieces[us]&^from | to
	k := 0
	if king {
		k = 1
	}
	h ^= zobrist[us][k][m.From]
	if king || m.Promotes() {
		h ^= zobrist[us][1][m.To]
	} else {
		h ^= zobrist[us][0][m.To]
	}
	p.Hash = h
	p.Side = them
}
