package board

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Move errors keep three kinds apart.
var (
	// ErrInvalidMove: the text is not a move (syntax, unknown square).
	ErrInvalidMove = errors.New("invalid move")
	// ErrIllegalMove: a well-formed move that is not legal in the position.
	ErrIllegalMove = errors.New("illegal move")
	// ErrAmbiguousMove: a short capture that fits more than one legal capture.
	ErrAmbiguousMove = errors.New("ambiguous move")
)

// MoveError is a move text that cannot be resolved. Candidates lists, for an ambiguous
// move, the full paths of the legal moves it fits.
type MoveError struct {
	Text       string
	Err        error
	Detail     string
	Candidates []string
}

// Error describes the move, the kind of problem and, for an ambiguous move, its candidates.
func (e *MoveError) Error() string {
	msg := fmt.Sprintf("engine: %s %q", e.Err, e.Text)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if len(e.Candidates) > 0 {
		msg += " (candidates: " + strings.Join(e.Candidates, ", ") + ")"
	}
	return msg
}

// Unwrap returns ErrInvalidMove, ErrIllegalMove or ErrAmbiguousMove.
func (e *MoveError) Unwrap() error { return e.Err }

// Paths returns every capture path of m in p: each path is the start square followed by the
// square the piece lands on after each captured piece. A flying king that goes on straight
// ahead is shown stopping on the last free square before the next piece. Paths returns nil
// for a quiet move and for a move that is not legal.
func (v *Variant) Paths(p *Position, m Move) [][]Square {
	return v.k.pathsOf(*p, m)
}

// paths is Paths on the board's own representation.
func (v *Variant) paths(p *Position, m Move) [][]Square {
	if !m.IsCapture() || !p.pieces[p.Side].Has(m.From) {
		return nil
	}
	g := &capGen{record: true}
	g.captureFrom(v, nil, p, m.From)
	var out [][]Square
	for i, got := range g.dst {
		if got != m {
			continue
		}
		path := make([]Square, len(g.paths[i]))
		for j, idx := range g.paths[i] {
			path[j] = v.sq[idx]
		}
		out = append(out, path)
	}
	return out
}

// captureFrom appends to dst, in g.dst, the captures of the piece of the side to move on
// from in p, with their paths when g.record is set.
func (g *capGen) captureFrom(v *Variant, dst []Move, p *Position, from Index) {
	g.init(v, dst, p)
	g.from, g.king = from, p.kings.Has(from)
	g.empty = v.board&^p.occupied() | bit(from)
	if g.king {
		g.kingCaptures(bit(from), 0, 0, noDir)
	} else {
		g.manCaptures(bit(from), 0, 0, noDir)
	}
}

// IsPath reports whether path (the start square, then the square the piece lands on after
// each captured piece, as Paths gives them) is a capture path of m in p: whether Paths(p, m)
// holds it, found without building the paths (replaying a game checks the paths written
// in full this way).
func (v *Variant) IsPath(p *Position, m Move, path []Square) bool {
	if len(path) > maxWantedPath {
		return slices.ContainsFunc(v.Paths(p, m), func(q []Square) bool { return slices.Equal(q, path) })
	}
	// The path goes to the kernel as indices in an array: a slice passed to an interface
	// method escapes, and would cost the caller an allocation.
	var want wantedPath
	for i, s := range path {
		idx, ok := v.Index(s)
		if !ok {
			return false
		}
		want.idx[i] = idx
	}
	want.n = len(path)
	return v.k.isPathOf(*p, m, want)
}

// maxWantedPath is the longest path IsPath looks for without Paths.
const maxWantedPath = 16

// wantedPath is the path IsPath looks for: idx[:n].
type wantedPath struct {
	idx [maxWantedPath]Index
	n   int
}

// isPath is IsPath on the board's own representation.
func (v *Variant) isPath(p *Position, m Move, want wantedPath) bool {
	if !m.IsCapture() || !p.pieces[p.Side].Has(m.From) || want.n < 2 || want.idx[0] != m.From || want.idx[want.n-1] != m.To {
		return false
	}
	// The search keeps what it is given in g (its slices escape): its memory is reused.
	sc := pathScratches.Get().(*pathScratch)
	defer pathScratches.Put(sc)
	sc.want = want.idx
	g := &sc.g
	*g = capGen{record: true, want: sc.want[:want.n], hits: sc.hits[:0], path: sc.path[:0]}
	g.captureFrom(v, sc.dst[:0], p, m.From)
	for i, got := range g.dst {
		if got == m && g.hits[i] {
			return true
		}
	}
	return false
}

// pathScratch is the memory of isPath's search, kept in pathScratches.
type pathScratch struct {
	g    capGen
	want [maxWantedPath]Index
	path [maxWantedPath]Index
	dst  [8]Move
	hits [8]bool
}

var pathScratches = sync.Pool{New: func() any { return new(pathScratch) }}

// separators returns the quiet and capture separators of the variant's notation.
func (v *Variant) separators() (quiet, capture string) {
	if v.CaptureSep != 0 {
		return "-", string(rune(v.CaptureSep))
	}
	return "-", "x"
}

// FormatMove writes m in the variant's notation: "32-28" or "19x28" (numeric), "c3-d4" or
// "c3:e5" (algebraic). A capture is written from-to unless another legal capture shares
// both squares, or full is set; then it is written with its whole path ("28x19x10").
func (v *Variant) FormatMove(p *Position, m Move, full bool) string {
	quiet, capture := v.separators()
	from, to := v.SquareName(v.sq[m.From]), v.SquareName(v.sq[m.To])
	if !m.IsCapture() {
		return from + quiet + to
	}
	if !full {
		for _, o := range v.Generate(nil, p) {
			if o.From == m.From && o.To == m.To && o != m {
				full = true
				break
			}
		}
	}
	if full {
		if paths := v.Paths(p, m); len(paths) > 0 {
			return v.FormatPath(paths[0])
		}
	}
	return from + capture + to
}

// FormatPath writes a capture path (as returned by Paths) in the variant's notation: "28x19x10", "c3:e5:g3".
func (v *Variant) FormatPath(path []Square) string {
	_, capture := v.separators()
	names := make([]string, len(path))
	for i, s := range path {
		names[i] = v.SquareName(s)
	}
	return strings.Join(names, capture)
}

// ParseMove resolves a move text in p: "32-28", "19x28", "28x19x10", "c3-d4", "c3:e5"
// (numbers and algebraic squares are both accepted on every board; '-', 'x' and ':' are all
// accepted as separators, and trailing marks such as "!" or "?" are ignored). A capture
// given by its two ends is resolved to the unique legal capture between them; with more
// squares, the piece must pass through them in order.
func (v *Variant) ParseMove(p *Position, text string) (Move, error) {
	t := strings.TrimRight(strings.TrimSpace(text), "!?+#")
	fail := func(err error, detail string, cands []string) (Move, error) {
		return Move{}, &MoveError{Text: text, Err: err, Detail: detail, Candidates: cands}
	}
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == 'x' || r == 'X' || r == ':' || r == '×' })
	if len(parts) < 2 {
		return fail(ErrInvalidMove, "want at least two squares", nil)
	}
	squares := make([]Square, len(parts))
	for i, s := range parts {
		sq, problem := v.parseSquare(s)
		if problem != "" {
			return fail(ErrInvalidMove, problem, nil)
		}
		squares[i] = sq
	}
	from, to := v.idx[squares[0]], v.idx[squares[len(squares)-1]]
	if len(squares) == 2 {
		if m, ok := v.QuietMove(p, from, to); ok {
			return m, nil
		}
	}
	// A path given square by square picks the move with exactly that path when there is
	// one; otherwise the squares given must be passed through in order.
	var found, exact []Move
	var paths [][]Square
	for _, m := range v.Generate(nil, p) {
		if m.From != from || m.To != to {
			continue
		}
		if !m.IsCapture() {
			found, paths = append(found, m), append(paths, squares)
			continue
		}
		mpaths := v.Paths(p, m)
		for _, path := range mpaths {
			if slices.Equal(path, squares) {
				exact = append(exact, m)
			}
		}
		for _, path := range mpaths {
			if v.passesThrough(path, squares[1:len(squares)-1]) {
				found, paths = append(found, m), append(paths, path)
				break
			}
		}
	}
	if len(exact) == 1 {
		return exact[0], nil
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return fail(ErrIllegalMove, "", nil)
	}
	cands := make([]string, len(paths))
	for i, path := range paths {
		cands[i] = v.FormatPath(path)
	}
	return fail(ErrAmbiguousMove, "", cands)
}

// QuietMove returns the quiet move from-to and true when it is legal in p (the side to move
// has no capture, and a man steps forward or a king moves along a free line), without
// generating the other moves: the common case when replaying games.
func (v *Variant) QuietMove(p *Position, from, to Index) (Move, bool) {
	return v.k.quietMoveOf(*p, from, to)
}

// PlayQuiet plays the quiet move from-to on p and reports true when it is legal in p (see
// QuietMove); otherwise it leaves p as it is. Replaying a game plays its commonest moves
// so, without handing the move back and forth.
func (v *Variant) PlayQuiet(p *Position, from, to Index) bool {
	if v.replay != nil {
		return v.replay.playQuiet(p, from, to) // (in place, without the kernel's copies)
	}
	return v.playQuietWide(p, from, to)
}

// PlayJump plays the capture from-to on p and reports true when it is a legal move of p
// and the only one from-to: a man's single jump, where men capture one way only and any
// capture may be chosen (english). Otherwise, or when it cannot tell, it leaves p as it is
// and reports false (MovesFromTo has the answer). Replaying a game plays the commonest
// captures so.
func (v *Variant) PlayJump(p *Position, from, to Index) bool {
	if v.replay != nil {
		return v.replay.playJump(p, from, to) // (in place, without the kernel's copies)
	}
	return false // (the wide boards leave it to MovesFromTo)
}

// PlayPath plays on p the capture whose path is path (the start square, then the square
// the piece lands on after each captured piece, as Paths gives them) and reports true when
// it is a man's capture, where men capture one way only and any capture may be chosen
// (english), and path is a legal path of it: the move ParseMove finds for the path written
// in full. Otherwise, or when it cannot tell, it leaves p as it is and reports false.
// Replaying a game plays the captures written in full so (PlayJump plays a path of two
// squares the same).
func (v *Variant) PlayPath(p *Position, path []Index) bool {
	if v.replay == nil || len(path) > maxWantedPath {
		return false // (the wide boards leave it to MovesFromTo and IsPath, as a longer path)
	}
	var want wantedPath
	want.n = copy(want.idx[:], path)
	return v.replay.playPath(p, want)
}

// PlaySquares plays on p the move written with the squares from and to, a capture when
// capture is set, and reports true, when PlayQuiet (a quiet move) or PlayJump (a capture)
// plays it; otherwise it leaves p as it is and reports false. Replaying a game plays its
// commonest moves so, from the squares as written.
func (v *Variant) PlaySquares(p *Position, from, to Square, capture bool) bool {
	if from < 1 || to < 1 || int(from) > v.squares || int(to) > v.squares {
		return false
	}
	f, t := v.idx[from], v.idx[to]
	r := v.replay
	switch {
	case r == nil && capture:
		return false // (as PlayJump)
	case r == nil:
		return v.playQuietWide(p, f, t)
	case capture:
		return r.playJump(p, f, t)
	}
	return r.playQuiet(p, f, t)
}

// SquarePair is a move written with two square numbers, a capture when Capture is set, as
// PlaySquarePairs plays it.
type SquarePair struct {
	From, To uint8
	Capture  bool
}

// PlaySquarePairs plays on p the moves ms in turn, each as PlaySquares would, and returns
// how many it played: it stops at the first it does not play, with p the position before
// it. Replaying a game plays its runs of plain moves so, with the board's code chosen
// once a run rather than once a move.
func (v *Variant) PlaySquarePairs(p *Position, ms []SquarePair) int {
	if v.replay == nil {
		for i := range ms {
			if !v.PlaySquares(p, Square(ms[i].From), Square(ms[i].To), ms[i].Capture) {
				return i
			}
		}
		return len(ms)
	}
	return v.replay.playPairs(p, ms)
}

// quietMove is QuietMove on the board's own representation.
func (v *Variant) quietMove(p *Position, from, to Index) (Move, bool) {
	us := p.Side
	occ := p.occupied()
	if !p.pieces[us].Has(from) || occ.Has(to) || v.hasCaptureIn(p) {
		return Move{}, false
	}
	if !p.kings.Has(from) {
		for _, d := range v.stepDirs[us] {
			if v.shift(bit(from), d) == bit(to) {
				return Move{From: from, To: to, flags: promotes(v.promo[us].Has(to))}, true
			}
		}
		return Move{}, false
	}
	if v.kingReaches(from, to, occ) {
		return Move{From: from, To: to}, true
	}
	return Move{}, false
}

// kingReaches reports whether a king on from reaches to in one quiet move over the free
// squares (occ the occupied ones).
func (v *Variant) kingReaches(from, to Index, occ bitboard) bool {
	for _, d := range v.kingDirs {
		if !v.rays[d][from].Has(to) {
			continue
		}
		for s := v.shift(bit(from), d); s&occ == 0 && s != 0; s = v.shift(s, d) {
			if s == bit(to) {
				return true
			}
			if v.ShortKings {
				break
			}
		}
	}
	return false
}

// MovesFromTo appends to dst the legal moves of p from index from to index to, and returns
// the extended slice: the moves Generate gives that go from-to (sequences that differ only
// in the order of the same captured pieces are one move), in no particular order. Without
// a capture precedence it looks at the captures of the piece on from alone, and at the
// other pieces only for whether they have a capture when that piece has none: replaying a
// game checks a capture without generating those of the other pieces.
func (v *Variant) MovesFromTo(dst []Move, p *Position, from, to Index) []Move {
	return v.k.movesFromToOf(dst, *p, from, to)
}

// movesFromTo is MovesFromTo on the board's own representation.
func (v *Variant) movesFromTo(dst []Move, p *Position, from, to Index) []Move {
	us := p.Side
	if v.crowned(p.pieces[us.Other()], p.kings) || !p.pieces[us].Has(from) {
		return dst
	}
	n := len(dst)
	var g capGen
	if v.Precedence == nil {
		// Any capture may be chosen: those of the piece on from, if it has one, are its
		// legal moves.
		g.captureFrom(v, dst, p, from)
		dst = g.dst
	} else {
		dst = v.generateCaptures(&g, dst, p)
	}
	if len(dst) == n {
		if m, ok := v.quietMove(p, from, to); ok {
			dst = append(dst, m)
		}
		return dst
	}
	k := n
	for _, m := range dst[n:] {
		if m.From == from && m.To == to {
			dst[k] = m
			k++
		}
	}
	return dedupe(dst[:k], n)
}

// passesThrough reports whether a piece following path (start and landing squares) visits
// the squares of via in that order, counting every square it moves over.
func (v *Variant) passesThrough(path, via []Square) bool {
	k := 0
	for i := 0; i+1 < len(path) && k < len(via); i++ {
		f, r := v.coords(path[i])
		tf, tr := v.coords(path[i+1])
		df, dr := sign(tf-f), sign(tr-r)
		for f != tf || r != tr {
			f, r = f+df, r+dr
			if k < len(via) && v.squareAt(f, r) == via[k] {
				k++
			}
		}
	}
	return k == len(via)
}

// sign returns -1, 0 or 1 as x is negative, zero or positive.
func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}
