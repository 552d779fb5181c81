package board

import (
	"errors"
	"fmt"
	"math/bits"
)

// bitboard is a set of squares in a variant's padded bit layout: the dark squares are
// numbered row by row from the top (Black's side), with ghost bits left free so that every
// step is a fixed shift that never wraps round the board. With c dark squares per row and
// g ghosts after each even row (g+1 after each odd row), the diagonal steps are ±(c+g) and
// ±(c+g+1). Boards without orthogonal captures use g = 0 (one ghost per two rows); with
// them, g = 1 also makes the steps along a row (±1) and a column (±(2c+2g+1)) safe.
type bitboard uint64

// Index is a square's bit position in the board's padded layout (0-79; see the package
// documentation). Square is the PDN square number used at the API; Variant.Index and
// Variant.Square convert between them.
type Index uint8

// Square is a 1-based PDN square number.
type Square int

// Has reports whether index i is in b.
func (b bitboard) Has(i Index) bool { return b&(1<<i) != 0 }

// Count returns the number of squares in b.
func (b bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest index in b; b must not be empty.
func (b bitboard) First() Index { return Index(bits.TrailingZeros64(uint64(b))) }

// last returns the highest index in b; b must not be empty.
func (b bitboard) last() Index { return Index(63 - bits.LeadingZeros64(uint64(b))) }

// through returns the indices up to b's highest, that one included; none when b is empty.
func (b bitboard) through() bitboard {
	return 1<<uint(64-bits.LeadingZeros64(uint64(b))) - 1 // 1<<64 is 0 in Go
}

// bit returns the one-square set of index i.
func bit(i Index) bitboard { return 1 << i }

// bitOf is bit for an index known to be below 64: the mask spares the shift its bounds
// check, which counts in perft's inner loops. The wide instance uses wideBit instead.
func bitOf(i Index) bitboard { return 1 << (i & 63) }

// direction numbers: up moves towards square 1 (White's forward), down towards Black's.
// The four diagonals come first; the orthogonal ones are used by frisian captures only.
const (
	upLeft = iota
	upRight
	downLeft
	downRight
	left
	up
	down
	right
	// noDir is the "previous direction" of a capture's first jump: no direction is its
	// opposite.
	noDir = 12
)

// Variant is a Rules value with the tables the move generator needs. Build one with
// NewVariant or take a registered one with Lookup; a Variant is immutable and safe for
// concurrent use.
//
// Its layout is that of pkg/engine's Variant, which names it for users (its Rules, then
// Tables): pkg/engine converts pointers between the two (TestLayouts there).
type Variant struct {
	Rules
	Tables
}

// Tables are the tables of a Variant that NewVariant builds from its Rules: the part of
// a Variant that pkg/engine holds without reading.
type Tables struct {
	perRow   int              // dark squares per row
	squares  int              // number of dark squares
	board    bitboard         // the real squares
	step     [8]uint          // shift amount per direction
	lsh, rsh [8]uint          // the same as a left and a right shift, one of them 0 (branch-free steps)
	idx      []Index          // square number -> index (idx[0] unused)
	sq       [maxIndex]Square // index -> square number (0 for ghosts)
	promo    [2]bitboard      // the row where each colour's men are crowned
	start    Position         // the initial position
	order    []Square         // the order FEN lists squares in
	manDirs  [2][]int         // directions men capture in, per colour
	manUp    [2]bool          // per colour: men capture up the board (towards square 1)
	manDown  [2]bool          // per colour: men capture down the board
	fwd      [2][2]int        // forward directions per colour
	stepDirs [2][]int         // directions a man steps in, per colour: fwd, and sideways on an Orthogonal board (and diagonally forward with DiagonalSteps)
	kingDirs []int            // directions a king moves in: the diagonals, or the orthogonals on an Orthogonal board (all eight with DiagonalSteps)
	capDirs  []int            // directions of captures: the diagonals, and the orthogonals in frisian (only they in turkish)
	turns    [8][]int         // after a capture along d: the capture directions but d and its opposite
	rays     [8][64]bitboard  // squares from an index to the edge, per direction
	steps    [2][64]bitboard  // per colour and index, the squares a man there steps to
	// kingJumpRanked: the precedence ranks a man's single jump over a king apart from one
	// over a man.
	kingJumpRanked bool
	// plainLeaves: a position whose side to move has men only and no capture has as many
	// moves as its men have free squares in front of them (no orthogonal captures, and no
	// win by crowning that leaves the side to move without moves); perft counts such
	// leaves in place.
	plainLeaves bool
	// jumpAlone: men capture one way only (up or down the board) along the diagonals, with
	// free choice among captures, so that a man's single jump is the only move from its
	// start to its end when the man cannot go on (Variant.PlayJump plays it so).
	jumpAlone bool
	// geom is the geometry whose instances of perft's and the replay's kernels serve the
	// board (geometryOf): by its up-right step where the kernels fix it at compile time,
	// and on 10x10 boards by whether the rules are plainFlying's.
	geom *geometryCode
	// menCount: how countManCaptures may count the captures of men (see menRanks); 0 when
	// it may not (orthogonal captures, pieces removed at once, men crowned mid-capture, or a
	// precedence that ranks men's captures by more than their number of pieces).
	menCount menRanks
	// kingSearch: the search of men's captures of perft (manSearch) may take the kings'
	// too: menCount allows it, kings fly, may stop anywhere behind the piece they take, and
	// the precedence does not rank a capture by a king apart.
	kingSearch bool
	// plainFlying: the rules of international draughts as far as perft's kernel reads them
	// (men capture both ways and are crowned at the end of a move, which takes the most
	// pieces, whatever they are; flying kings, diagonal captures, no win by crowning), on a
	// board of steps 6 and 5, whose kernel (steps5) has them as constants.
	plainFlying bool
	// replay is replayKernel's instance for the board's geometry when k is narrowKernel,
	// nil on a wide board (a test of it is cheaper than one of k's type, so that
	// pkg/engine's PlayQuiet, PlayJump and PlayPath, which call these, stay inlined).
	replay replayer
	// k does the work of the public methods, on the variant's tables or, for a board of
	// more than 64 bits, on its wide instance (whose sets of squares replace board, promo
	// and rays).
	k kernel
}

// ErrUnsupported is returned by NewVariant for rules the generator cannot play yet.
var ErrUnsupported = errors.New("engine: rules not supported yet")

// NewVariant checks r and builds its tables.
func NewVariant(r Rules) (*Variant, error) {
	if r.Name == "" {
		return nil, errors.New("engine: rules have no name")
	}
	if r.Width < 4 || r.Height < 4 || r.Width%2 != 0 || r.Height%2 != 0 {
		return nil, fmt.Errorf("engine: %s: board %dx%d: width and height must be even and at least 4", r.Name, r.Width, r.Height)
	}
	if r.Orthogonal && !r.OrthogonalCaptures {
		return nil, fmt.Errorf("engine: %s: Orthogonal needs OrthogonalCaptures", r.Name)
	}
	if r.DiagonalSteps && !r.Orthogonal {
		return nil, fmt.Errorf("engine: %s: DiagonalSteps needs Orthogonal", r.Name)
	}
	c := r.Width / 2
	g := 0 // ghosts after each even row (see bitboard)
	if r.OrthogonalCaptures {
		g = 1
	}
	block := 2*c + 2*g + 1                       // bits per two rows
	last := (r.Height/2-1)*block + c + g + c - 1 // the highest index
	if r.Orthogonal {
		// Every square, row by row from the top, with one ghost after each row: index
		// row*(Width+1) + file, so that a step along a row (±1), a column (±(Width+1)) or a
		// diagonal (±Width, ±(Width+2)) from the edge falls on a ghost or off the board.
		c, g = r.Width, 1
		block = 2 * (c + g)
		last = (r.Height-1)*(c+g) + c - 1
	}
	if last >= maxIndex {
		return nil, fmt.Errorf("%w: %s: a %dx%d board does not fit %d bits", ErrUnsupported, r.Name, r.Width, r.Height, maxIndex)
	}
	if back := btoi(r.EmptyBackRow); r.Rows < 1 || 2*(r.Rows+back) >= r.Height {
		return nil, fmt.Errorf("engine: %s: %d rows of men do not fit a board of height %d", r.Name, r.Rows, r.Height)
	}
	if r.PromotionWins && r.NoMoveWins {
		return nil, fmt.Errorf("engine: %s: PromotionWins and NoMoveWins exclude each other", r.Name)
	}
	if len(r.Draw.Endgames) > maxEndgames {
		return nil, fmt.Errorf("engine: %s: %d special endings; at most %d", r.Name, len(r.Draw.Endgames), maxEndgames)
	}
	v := &Variant{Rules: r, Tables: Tables{perRow: c, squares: c * r.Height}}
	diag, diag1 := uint(c+g), uint(c+g+1)
	v.step = [8]uint{diag1, diag, diag, diag1, 1, uint(block), uint(block), 1}
	if r.Orthogonal {
		v.step = [8]uint{diag1, diag - 1, diag - 1, diag1, 1, diag, diag, 1}
	}
	for d := 0; d < 8; d++ {
		if d == upLeft || d == upRight || d == left || d == up {
			v.rsh[d] = v.step[d]
		} else {
			v.lsh[d] = v.step[d]
		}
	}
	v.idx = make([]Index, v.squares+1)
	for n := 1; n <= v.squares; n++ {
		row, k := (n-1)/c, (n-1)%c
		if r.Mirrored {
			k = c - 1 - k
		}
		i := Index(row/2*block + row%2*(c+g) + k)
		v.idx[n] = i
		v.sq[i] = Square(n)
	}
	v.fwd[White] = [2]int{upLeft, upRight}
	v.fwd[Black] = [2]int{downLeft, downRight}
	v.capDirs = []int{upLeft, upRight, downLeft, downRight}
	v.kingDirs = v.capDirs
	v.stepDirs = [2][]int{v.fwd[White][:], v.fwd[Black][:]}
	if r.OrthogonalCaptures {
		v.capDirs = append(v.capDirs, left, up, down, right)
	}
	if r.Orthogonal {
		v.capDirs = []int{left, up, down, right}
		v.kingDirs = v.capDirs
		v.stepDirs = [2][]int{{up, left, right}, {down, left, right}}
	}
	for col := White; col <= Black; col++ {
		if r.MenCaptureForwardOnly {
			v.manDirs[col] = v.stepDirs[col]
		} else {
			v.manDirs[col] = v.capDirs
		}
		// the diagonal captures of men (jumpsAlong): none on an Orthogonal board
		v.manUp[col] = !r.Orthogonal && (!r.MenCaptureForwardOnly || col == White)
		v.manDown[col] = !r.Orthogonal && (!r.MenCaptureForwardOnly || col == Black)
	}
	if r.DiagonalSteps {
		// after manDirs, which keep the men's captures along the lines
		v.stepDirs = [2][]int{{up, left, right, upLeft, upRight}, {down, left, right, downLeft, downRight}}
		v.kingDirs = []int{upLeft, upRight, downLeft, downRight, left, up, down, right}
	}
	for _, d := range v.capDirs {
		for _, t := range v.capDirs {
			if t != d && t != opposite(d) {
				v.turns[d] = append(v.turns[d], t)
			}
		}
	}
	v.jumpAlone = r.Precedence == nil && !r.OrthogonalCaptures && r.MenCaptureForwardOnly
	v.plainLeaves = !r.OrthogonalCaptures && !r.PromotionWins
	if !r.OrthogonalCaptures && !r.RemoveAtOnce && r.Promotion != PromoteAndContinue {
		v.menCount = rankOfMen(r.Precedence)
		v.kingSearch = v.menCount != ranksOther && !r.ShortKings && !r.LandRightBehind && !r.HaltBehindKing &&
			kingUnranked(r.Precedence)
	}
	if prec := r.Precedence; prec != nil {
		v.kingJumpRanked = prec(CaptureSummary{Pieces: 1}) != prec(CaptureSummary{Pieces: 1, Kings: 1, Order: 1})
	}
	v.plainFlying = v.step[upRight] == 5 && v.manUp == [2]bool{true, true} && v.manDown == [2]bool{true, true} &&
		!r.MenCannotCaptureKings && r.Promotion == PromoteAtEnd && v.menCount == ranksPieces && v.kingSearch &&
		v.plainLeaves && !r.ShortKings && !v.kingJumpRanked && !r.OrthogonalCaptures && !r.PromotionWins
	v.geom = geometryOf(v.step[upRight], v.plainFlying)
	v.start.Side = r.FirstMover
	skip := btoi(r.EmptyBackRow) * c // the empty back row
	for n := skip + 1; n <= skip+c*r.Rows; n++ {
		v.start.put(v.idx[n], Black, false)
		v.start.put(v.idx[v.squares+1-n], White, false)
	}
	v.start.Hash = v.start.ComputeHash()
	v.order = v.fenOrder()
	// the board's width is chosen here, once
	if last >= 64 || r.Orthogonal {
		// (an Orthogonal board of up to 64 bits too: the 64-bit code's own kernels, perft's
		// and the replay's, know the diagonal boards only)
		v.k = newWideVariant(v)
	} else {
		v.bitboardTables()
		v.k, v.replay = narrowKernel{v}, v.geom.replay(v)
	}
	return v, nil
}

// bitboardTables builds the sets of squares of a board that fits 64 bits.
func (v *Variant) bitboardTables() {
	for n := 1; n <= v.squares; n++ {
		v.board |= bit(v.idx[n])
	}
	for n := 1; n <= v.perRow; n++ {
		v.promo[White] |= bit(v.idx[n])
		v.promo[Black] |= bit(v.idx[v.squares+1-n])
	}
	for d := 0; d < 8; d++ {
		for i := Index(0); i < 64; i++ {
			if !v.board.Has(i) {
				continue
			}
			for s := v.shift(bit(i), d); s != 0; s = v.shift(s, d) {
				v.rays[d][i] |= s
			}
		}
	}
	for c := White; c <= Black; c++ {
		for i := Index(0); i < 64; i++ {
			if v.board.Has(i) {
				v.steps[c][i] = v.shift(bit(i), v.fwd[c][0]) | v.shift(bit(i), v.fwd[c][1])
			}
		}
	}
}

// onPromotionRow reports whether square s is on the row where c's men are crowned.
func (v *Variant) onPromotionRow(c Color, s Square) bool {
	if c == White {
		return int(s) <= v.perRow
	}
	return int(s) > v.squares-v.perRow
}

// opposite returns the direction opposite to d (noDir for noDir).
func opposite(d int) int {
	if d < left {
		return 3 - d
	}
	return 11 - d
}

// Squares returns the number of playing squares (32, 50).
func (v *Variant) Squares() int { return v.squares }

// Index returns the bit index of square s, and false when s is not a square of the board.
func (v *Variant) Index(s Square) (Index, bool) {
	if s < 1 || int(s) > v.squares {
		return 0, false
	}
	return v.idx[s], true
}

// Square returns the PDN number of index i (0 for an index that is not a square).
func (v *Variant) Square(i Index) Square {
	if i >= maxIndex {
		return 0
	}
	return v.sq[i]
}

// Start returns the initial position.
func (v *Variant) Start() Position { return v.start }

// coords returns the file (0 = a) and rank (1 = bottom row) of square s, seen from White.
func (v *Variant) coords(s Square) (file, rank int) {
	c := v.perRow
	row, k := (int(s)-1)/c, (int(s)-1)%c
	rank = v.Height - row
	if v.Orthogonal {
		return k, rank
	}
	if v.Mirrored {
		file = 2 * k
		if row%2 == 1 {
			file++
		}
	} else {
		file = 2 * k
		if row%2 == 0 {
			file++
		}
	}
	return file, rank
}

// squareAt returns the square at file, rank, or 0 when that is not a playing square.
func (v *Variant) squareAt(file, rank int) Square {
	if file < 0 || file >= v.Width || rank < 1 || rank > v.Height {
		return 0
	}
	row := v.Height - rank
	if v.Orthogonal {
		return Square(row*v.perRow + file + 1)
	}
	dark := file%2 == 1
	if row%2 == 1 {
		dark = !dark
	}
	if v.Mirrored {
		dark = !dark
	}
	if !dark {
		return 0
	}
	return Square(row*v.perRow + file/2 + 1)
}

// menRanks is how a precedence rule ranks the captures of men, as far as countManCaptures
// is concerned.
type menRanks uint8

const (
	ranksOther  menRanks = iota // by more than the number of pieces: generate the captures
	ranksNone                   // free choice: every complete sequence is a move
	ranksPieces                 // the most pieces, whatever they are
)

// kingUnranked reports whether prec ranks a capture by a king as the same capture by a man
// (probed up to 20 pieces, as rankOfMen).
func kingUnranked(prec Precedence) bool {
	for n := 1; prec != nil && n <= 20; n++ {
		if prec(CaptureSummary{Pieces: n, King: true}) != prec(CaptureSummary{Pieces: n}) {
			return false
		}
	}
	return true
}

// rankOfMen probes prec with the summaries of men's captures of up to 20 pieces, with and
// without kings among them in various orders: none of the rules here ranks them on more.
func rankOfMen(prec Precedence) menRanks {
	if prec == nil {
		return ranksNone
	}
	free, most := true, true
	for n := 1; n <= 20; n++ {
		r := prec(CaptureSummary{Pieces: n})
		if r <= prec(CaptureSummary{Pieces: n - 1}) {
			most = false
		}
		if r != prec(CaptureSummary{Pieces: 1}) {
			free = false
		}
		for k := 1; k <= n; k++ {
			for _, order := range []uint64{1, 1 << (n - 1), 1<<k - 1, 1<<n - 1<<(n-k)} {
				if prec(CaptureSummary{Pieces: n, Kings: k, Order: order}) != r {
					return ranksOther
				}
			}
		}
	}
	switch {
	case free:
		return ranksNone
	case most:
		return ranksPieces
	}
	return ranksOther
}

// btoi is 1 for true, 0 for false.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
