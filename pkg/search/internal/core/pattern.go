package core

import (
	"sync"

	"github.com/rafle/rafle/pkg/internal/board"
)

// The pattern evaluation (docs/evaluation.md). The board is covered by windows of 4 rows
// by 4 files, at every even row and file offset (9 on 8x8, 16 on 10x10): each holds 8 dark
// squares, and each square is empty, holds a man of the side whose view it is ("own") or
// a man of the other side; so a window has 3^8 = 6561 configurations, and every
// configuration of every window has a weight for the middle game and one for the endgame.
// Kings are left to the named features (eval.go).
//
// A window is seen from both sides: from White's, as it stands, and from Black's, the
// board turned half a turn (the window at row r, file f is then the one at row H-4-r,
// file W-4-f, its squares in the reverse order). The pattern score of a side is the sum
// over the windows of the weights of its view, and the pattern term of the evaluation is
// the side to move's score minus the other side's: it changes sign with the colours.
// The two phases mix linearly by the number of pieces n on the board, N at the start:
//
//	pattern = (mg·n + eg·(N−n)) / N
//
// with mg and eg the scores from the middle-game and endgame weights. Weights are stored
// in thousandths of a man (PatternUnit per hundredth), so the term is rounded once, to
// hundredths, at the end.
//
// The index of a window's configuration is computed from the bitboards without a loop over
// squares: the two dark squares of a window's row are adjacent bits in the padded layout,
// so a shift and a mask give two bits per row, four rows give the byte of each colour, and
// a table turns the byte into base 3.
//
// Patterns exist on boards of up to 64 bits with dark squares only (not turkish), both
// sides even: 8x8 and 10x10.

const (
	// PatternSquares is the number of squares of a window.
	PatternSquares = 8
	// PatternConfigs is the number of configurations of a window (3^PatternSquares).
	PatternConfigs = 6561
	// PatternUnit is the number of pattern weight units per hundredth of a man.
	PatternUnit = 10
	// maxWindows bounds the windows of a board (16 on 10x10).
	maxWindows = 16
)

// patternGeometry is a variant's windows.
type patternGeometry struct {
	n     int                   // windows
	shift [maxWindows][4]uint8  // the lower index of the two squares of each row, top first
	rot   [maxWindows]uint8     // the window Black's view of window w is
	sq    [maxWindows][8]uint16 // PDN squares, in the order of the configuration's digits
	full  int                   // pieces at the start
}

var (
	tern, ternRev [256]uint16 // a byte's bits as base-3 digits, in the order and reversed
	patternCache  sync.Map    // *board.Variant -> *patternGeometry (nil: no patterns)
)

func init() {
	for b := range 256 {
		x, y, p := 0, 0, 1
		for i := range 8 {
			x += (b >> i & 1) * p
			y += (b >> (7 - i) & 1) * p
			p *= 3
		}
		tern[b], ternRev[b] = uint16(x), uint16(y)
	}
}

// patternsOf returns v's windows, nil when its board has none.
func patternsOf(v *board.Variant) *patternGeometry {
	if g, ok := patternCache.Load(v); ok {
		return g.(*patternGeometry)
	}
	g, _ := patternCache.LoadOrStore(v, buildPatterns(v))
	return g.(*patternGeometry)
}

// PatternWindows returns the number of windows of v's board: 0 when it has no patterns.
func PatternWindows(v *board.Variant) int {
	if g := patternsOf(v); g != nil {
		return g.n
	}
	return 0
}

// PatternSquaresOf returns the PDN squares of window w of v, in the order of the digits of
// a configuration (the first is the lowest digit), from White's view.
func PatternSquaresOf(v *board.Variant, w int) []int {
	g := patternsOf(v)
	out := make([]int, 8)
	for i, s := range g.sq[w] {
		out[i] = int(s)
	}
	return out
}

func buildPatterns(v *board.Variant) *patternGeometry {
	if _, wide := board.WideVariantOf(v); wide || v.Orthogonal || v.Width%2 != 0 || v.Height%2 != 0 ||
		v.Width < 4 || v.Height < 4 || (v.Width/2-1)*(v.Height/2-1) > maxWindows {
		return nil
	}
	h, w := v.Height, v.Width
	at := map[[2]int]board.Square{} // (row from the top, file) -> square
	for s := 1; s <= v.Squares(); s++ {
		file, rank := board.Coords(v, board.Square(s))
		at[[2]int{h - rank, file}] = board.Square(s)
	}
	index := func(s board.Square) int { i, _ := v.Index(s); return int(i) }
	g := &patternGeometry{}
	windowAt := map[[2]int]int{}
	for r := 0; r+4 <= h; r += 2 {
		for f := 0; f+4 <= w; f += 2 {
			k := g.n
			windowAt[[2]int{r, f}] = k
			for row := range 4 {
				var sq []board.Square
				for file := f; file < f+4; file++ {
					if s, ok := at[[2]int{r + row, file}]; ok {
						sq = append(sq, s)
					}
				}
				if len(sq) != 2 {
					return nil
				}
				a, b := index(sq[0]), index(sq[1])
				if a > b {
					a, b, sq[0], sq[1] = b, a, sq[1], sq[0]
				}
				if b != a+1 {
					return nil // not adjacent bits: the shift and mask cannot read the row
				}
				g.shift[k][row] = uint8(a)
				g.sq[k][2*row], g.sq[k][2*row+1] = uint16(sq[0]), uint16(sq[1])
			}
			g.n++
		}
	}
	// Black's view: the board turned half a turn must map each window onto another with
	// its squares in the reverse order, or the views would not be the same patterns.
	turn := func(s board.Square) board.Square {
		file, rank := board.Coords(v, s)
		return at[[2]int{h - (h + 1 - rank), w - 1 - file}]
	}
	for r := 0; r+4 <= h; r += 2 {
		for f := 0; f+4 <= w; f += 2 {
			k, o := windowAt[[2]int{r, f}], windowAt[[2]int{h - 4 - r, w - 4 - f}]
			for i := range 8 {
				if turn(board.Square(g.sq[k][i])) != board.Square(g.sq[o][7-i]) {
					return nil
				}
			}
			g.rot[k] = uint8(o)
		}
	}
	start := v.Start()
	g.full = board.Occupied(&start).Count()
	return g
}

// patternEval is a searcher's pattern term: v's windows and the weights (nil: none).
type patternEval struct {
	g *patternGeometry
	w [][2]int16 // [window×PatternConfigs+configuration][phase: 0 middle game, 1 endgame], PatternUnit per hundredth
}

// newPatternEval returns the pattern term of v with weights w (window×PatternConfigs +
// configuration, then the phase: 0 middle game, 1 endgame), nil when w is empty. It panics
// when w does not fit v (a programming error: pkg/search checks weights when it loads
// them).
func newPatternEval(v *board.Variant, w []int16) *patternEval {
	if len(w) == 0 {
		return nil
	}
	g := patternsOf(v)
	if g == nil || len(w) != g.n*PatternConfigs*2 {
		panic("core: pattern weights do not fit the variant's board")
	}
	pairs := make([][2]int16, len(w)/2)
	for i := range pairs {
		pairs[i] = [2]int16{w[2*i], w[2*i+1]}
	}
	return &patternEval{g: g, w: pairs}
}

// score returns the pattern term of p for the side to move, in hundredths of a man; 0
// without patterns.
func (e *patternEval) score(p *board.Position) int {
	if e == nil {
		return 0
	}
	g, w := e.g, e.w
	wm, bm := board.Men(p, board.White), board.Men(p, board.Black)
	var mg, eg int
	for k, sh := range g.shift[:g.n] {
		// the mask spares the shifts their test for counts of 64 or more
		s0, s1, s2, s3 := sh[0]&63, sh[1]&63, sh[2]&63, sh[3]&63
		a := uint8(wm>>s0&3) | uint8(wm>>s1&3)<<2 | uint8(wm>>s2&3)<<4 | uint8(wm>>s3&3)<<6
		b := uint8(bm>>s0&3) | uint8(bm>>s1&3)<<2 | uint8(bm>>s2&3)<<4 | uint8(bm>>s3&3)<<6
		x := w[k*PatternConfigs+int(tern[a])+2*int(tern[b])]
		y := w[int(g.rot[k])*PatternConfigs+int(ternRev[b])+2*int(ternRev[a])]
		mg += int(x[0]) - int(y[0])
		eg += int(x[1]) - int(y[1])
	}
	n := min(board.Occupied(p).Count(), g.full)
	d := g.full * PatternUnit
	s := mg*n + eg*(g.full-n)
	// rounded to the nearest hundredth, halves away from zero
	if s >= 0 {
		s = (s + d/2) / d
	} else {
		s = -((-s + d/2) / d)
	}
	if p.Side == board.Black {
		return -s
	}
	return s
}

// PatternIndices appends to dst[:0] the weights p's pattern term reads, as configuration
// numbers window×PatternConfigs+configuration: first the side to move's view of every
// window, then the other side's. The term is Σ own − Σ other of the weights
// phase·mg + (1−phase)·eg, phase the returned share of the starting pieces still on the
// board. It returns nil and 0 for a variant without patterns.
func PatternIndices(v *board.Variant, p *board.Position, dst []int32) ([]int32, float64) {
	g := patternsOf(v)
	if g == nil {
		return nil, 0
	}
	dst = dst[:0]
	wm, bm := board.Men(p, board.White), board.Men(p, board.Black)
	var white, black [maxWindows]int32
	for k := 0; k < g.n; k++ {
		sh := &g.shift[k]
		a := uint(wm>>sh[0]&3) | uint(wm>>sh[1]&3)<<2 | uint(wm>>sh[2]&3)<<4 | uint(wm>>sh[3]&3)<<6
		b := uint(bm>>sh[0]&3) | uint(bm>>sh[1]&3)<<2 | uint(bm>>sh[2]&3)<<4 | uint(bm>>sh[3]&3)<<6
		white[k] = int32(k*PatternConfigs + int(tern[a]) + 2*int(tern[b]))
		black[k] = int32(int(g.rot[k])*PatternConfigs + int(ternRev[b]) + 2*int(ternRev[a]))
	}
	own, other := white[:g.n], black[:g.n]
	if p.Side == board.Black {
		own, other = other, own
	}
	dst = append(append(dst, own...), other...)
	n := min(board.Occupied(p).Count(), g.full)
	return dst, float64(n) / float64(g.full)
}

// PatternScore returns the pattern term of p with weights w (as NewSearcher takes them), in
// hundredths of a man for the side to move, as the search computes it.
func PatternScore(v *board.Variant, w []int16, p *board.Position) int {
	return newPatternEval(v, w).score(p)
}
