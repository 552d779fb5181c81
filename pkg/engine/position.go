package engine

// Position is a board and the side to move: a small comparable value. Positions are
// copy-make: Play returns a new Position and leaves its receiver untouched. Position does
// not know its variant; the Variant that generated a move knows the board.
type Position struct {
	// Pieces holds each side's men and kings.
	Pieces [2]Bitboard
	// Kings holds the kings of both sides.
	Kings Bitboard
	// Side is the side to move.
	Side Color
	// Hash is the Zobrist key of the position, kept up to date by Play.
	Hash uint64
}

// zobrist keys: [colour][man=0, king=1][index], and the key of Black to move. They are
// drawn once from a fixed seed, so hashes are the same from run to run.
var (
	zobrist     [2][2][64]uint64
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
	for c := range zobrist {
		for k := range zobrist[c] {
			for i := range zobrist[c][k] {
				zobrist[c][k][i] = next()
			}
		}
	}
	zobristSide = next()
}

func newPosition(white, black, kings Bitboard, side Color) Position {
	p := Position{Pieces: [2]Bitboard{white, black}, Kings: kings, Side: side}
	p.Hash = p.ComputeHash()
	return p
}

// ComputeHash computes the Zobrist key of p from scratch (Play updates it incrementally).
func (p *Position) ComputeHash() uint64 {
	var h uint64
	for c := White; c <= Black; c++ {
		for b := p.Pieces[c]; b != 0; b &= b - 1 {
			i := b.First()
			k := 0
			if p.Kings.Has(i) {
				k = 1
			}
			h ^= zobrist[c][k][i]
		}
	}
	if p.Side == Black {
		h ^= zobristSide
	}
	return h
}

// Occupied returns every occupied square.
func (p *Position) Occupied() Bitboard { return p.Pieces[White] | p.Pieces[Black] }

// Material counts each side's men and kings.
func (p *Position) Material() Material {
	var m Material
	for c := White; c <= Black; c++ {
		m.Men[c] = p.Men(c).Count()
		m.Kings[c] = p.KingsOf(c).Count()
	}
	return m
}

// Men returns c's men.
func (p *Position) Men(c Color) Bitboard { return p.Pieces[c] &^ p.Kings }

// KingsOf returns c's kings.
func (p *Position) KingsOf(c Color) Bitboard { return p.Pieces[c] & p.Kings }

// Move is a move: the piece on From goes to To and the pieces on Captured are removed. Two
// capture paths that take the same pieces from the same square to the same square are the
// same Move; Variant.Paths recovers the paths for notation.
type Move struct {
	From, To Index
	// Promote is set when the man that moves is crowned by this move.
	Promote bool
	// Captured is the set of captured pieces (empty for a quiet move).
	Captured Bitboard
}

// IsCapture reports whether m captures.
func (m Move) IsCapture() bool { return m.Captured != 0 }

// Play returns the position after m. m must be a legal move of p (as generated).
func (p Position) Play(m Move) Position {
	p.apply(m)
	return p
}

// apply plays m on p in place, updating the hash.
func (p *Position) apply(m Move) {
	us, them := p.Side, p.Side.Other()
	from, to := bit(m.From), bit(m.To)
	king := p.Kings&from != 0
	if king {
		p.Kings = p.Kings&^from | to
	} else if m.Promote {
		p.Kings |= to
	}
	p.Pieces[us] = p.Pieces[us]&^from | to
	h := p.Hash ^ zobristSide
	k := 0
	if king {
		k = 1
	}
	h ^= zobrist[us][k][m.From]
	if king || m.Promote {
		h ^= zobrist[us][1][m.To]
	} else {
		h ^= zobrist[us][0][m.To]
	}
	for b := m.Captured; b != 0; b &= b - 1 {
		i := b.First()
		k := 0
		if p.Kings.Has(i) {
			k = 1
		}
		h ^= zobrist[them][k][i]
	}
	p.Hash = h
	p.Pieces[them] &^= m.Captured
	p.Kings &^= m.Captured
	p.Side = them
}
