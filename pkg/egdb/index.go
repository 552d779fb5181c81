package egdb

import (
	"fmt"
	"math/bits"
)

// Slice is a material seen from the side to move: its men and kings, then the opponent's.
// Its file holds every placement of those pieces with that side to move (rotated to White
// to move: see the package documentation).
type Slice struct {
	UsMen, UsKings, ThemMen, ThemKings int
}

// String returns the slice's name, as in its file name: "2m1k-0m1k" for two men and a
// king against a king.
func (s Slice) String() string {
	return fmt.Sprintf("%dm%dk-%dm%dk", s.UsMen, s.UsKings, s.ThemMen, s.ThemKings)
}

// ParseSlice reads a slice name written by String.
func ParseSlice(name string) (Slice, error) {
	var s Slice
	var rest string
	n, _ := fmt.Sscanf(name, "%dm%dk-%dm%dk%s", &s.UsMen, &s.UsKings, &s.ThemMen, &s.ThemKings, &rest)
	if n < 4 || rest != "" || s.String() != name || s.UsMen < 0 || s.UsKings < 0 || s.ThemMen < 0 || s.ThemKings < 0 {
		return Slice{}, fmt.Errorf("egdb: %q is not a slice name (like 2m1k-0m1k)", name)
	}
	return s, nil
}

// Pieces returns the number of pieces of the slice.
func (s Slice) Pieces() int { return s.UsMen + s.UsKings + s.ThemMen + s.ThemKings }

// Swap returns the slice seen from the other side.
func (s Slice) Swap() Slice { return Slice{s.ThemMen, s.ThemKings, s.UsMen, s.UsKings} }

// sqset is a set of dense squares (up to 128).
type sqset [2]uint64

func (s *sqset) add(d uint8)     { s[d>>6] |= 1 << (d & 63) }
func (s sqset) has(d uint8) bool { return s[d>>6]>>(d&63)&1 != 0 }
func (s sqset) or(t sqset) sqset { return sqset{s[0] | t[0], s[1] | t[1]} }
func (s sqset) count() int       { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }
func (s sqset) below(d uint8) (n int) { // the members below d
	if d < 64 {
		return bits.OnesCount64(s[0] & (1<<d - 1))
	}
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]&(1<<(d-64)-1))
}

// binom[n][k] is n choose k, for n up to 128 and k up to MaxPieces; binomT is the same
// table transposed, for uncolex's bisections.
var (
	binom  [129][MaxPieces + 1]uint64
	binomT [MaxPieces + 1][129]uint64
)

func init() {
	for n := range binom {
		binom[n][0] = 1
		for k := 1; k <= MaxPieces && k <= n; k++ {
			binom[n][k] = binom[n-1][k-1] + binom[n-1][k]
		}
		for k := range MaxPieces + 1 {
			binomT[k][n] = binom[n][k]
		}
	}
}

// choose is n choose k, 0 outside the table's range.
func choose(n, k int) uint64 {
	if n < 0 || k < 0 || k > n || k > MaxPieces {
		return 0
	}
	return binom[n][k]
}

// The four kinds of piece, in the order of pieces.
const (
	usMen = iota
	usKings
	themMen
	themKings
)

// pieces is a position seen from the side to move: the dense squares of each kind,
// ascending.
type pieces struct {
	n  [4]uint8
	sq [4][MaxPieces]uint8
}

// slice returns the material of p.
func (p *pieces) slice() Slice {
	return Slice{int(p.n[usMen]), int(p.n[usKings]), int(p.n[themMen]), int(p.n[themKings])}
}

// add puts square d in kind k, keeping the order.
func (p *pieces) add(k int, d uint8) {
	i := int(p.n[k])
	for i > 0 && p.sq[k][i-1] > d {
		p.sq[k][i] = p.sq[k][i-1]
		i--
	}
	p.sq[k][i] = d
	p.n[k]++
}

// remove takes square d out of kind k; it reports whether d was there.
func (p *pieces) remove(k int, d uint8) bool {
	n := int(p.n[k])
	for i := range n {
		if p.sq[k][i] == d {
			copy(p.sq[k][i:n-1], p.sq[k][i+1:n])
			p.n[k]--
			return true
		}
	}
	return false
}

// flipped returns p seen from the other side: the board turned by half a turn, the colours
// swapped.
func (p *pieces) flipped(squares int) pieces {
	var q pieces
	for k := range 4 {
		o := k ^ 2 // us <-> them
		n := p.n[k]
		q.n[o] = n
		for i := range n {
			q.sq[o][n-1-i] = uint8(squares-1) - p.sq[k][i]
		}
	}
	return q
}

// indexer maps the placements of a slice to 0..size-1 and back, without a hole: the
// placements the rules allow, men never on their own crowning row. The men of the side to
// move on the last row (the opponent's crowning row, where the opponent's men cannot
// stand) are counted apart (j of them), so that the opponent's men have an exact number of
// squares left: the index is perfect. Its parts, most significant first: j; the side to
// move's men on the last row and on the middle rows; the opponent's men on the squares
// above the last row that are free; the side to move's kings, then the opponent's, on the
// squares still free. Each part is a combination ranked in colex order.
type indexer struct {
	g     *geometry
	s     Slice
	size  uint64
	jLo   int
	off   []uint64    // offset of each j (from jLo)
	radix [][5]uint64 // per j the number of combinations of each part
}

func newIndexer(g *geometry, s Slice) *indexer {
	n, c := g.squares, g.perRow
	mid := n - 2*c
	ix := &indexer{g: g, s: s}
	ix.jLo = max(0, s.UsMen-mid)
	for j := ix.jLo; j <= min(c, s.UsMen); j++ {
		r := [5]uint64{
			choose(c, j),
			choose(mid, s.UsMen-j),
			choose(n-c-(s.UsMen-j), s.ThemMen),
			choose(n-s.UsMen-s.ThemMen, s.UsKings),
			choose(n-s.UsMen-s.ThemMen-s.UsKings, s.ThemKings),
		}
		ix.off = append(ix.off, ix.size)
		ix.radix = append(ix.radix, r)
		ix.size += r[0] * r[1] * r[2] * r[3] * r[4]
	}
	return ix
}

// colex ranks the ascending positions ps as a combination.
func colex(ps []uint8) uint64 {
	var r uint64
	for i, p := range ps {
		r += binom[p][i+1]
	}
	return r
}

// uncolex writes into ps the combination of k elements of rank r (positions ascending)
// among n: each position is the largest p with binom[p][i] <= r, found by bisection.
func uncolex(r uint64, k, n int, ps []uint8) {
	hi := n // binom[hi][i] > r
	for i := k; i >= 2; i-- {
		t := &binomT[i]
		lo := i - 1 // binom[i-1][i] = 0 <= r
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if t[mid] <= r {
				lo = mid
			} else {
				hi = mid
			}
		}
		ps[i-1] = uint8(lo)
		r -= t[lo]
		hi = lo
	}
	if k >= 1 {
		ps[0] = uint8(r) // binom[p][1] = p
	}
}

// index returns the index of p, which must be a placement of ix's slice.
func (ix *indexer) index(p *pieces) uint64 {
	n, c := ix.g.squares, ix.g.perRow
	var buf [MaxPieces]uint8
	// the side to move's men: on the last row (j of them), then in the middle
	um := p.sq[usMen][:p.n[usMen]]
	j := 0
	for j < len(um) && int(um[len(um)-1-j]) >= n-c {
		j++
	}
	midMen := um[:len(um)-j]
	for i, d := range um[len(um)-j:] {
		buf[i] = d - uint8(n-c)
	}
	r0 := colex(buf[:j])
	var midSet, men sqset
	for i, d := range midMen {
		buf[i] = d - uint8(c)
		midSet.add(d)
		men.add(d)
	}
	r1 := colex(buf[:len(midMen)])
	for _, d := range um[len(midMen):] {
		men.add(d)
	}
	tm := p.sq[themMen][:p.n[themMen]]
	for i, d := range tm {
		buf[i] = d - uint8(midSet.below(d))
		men.add(d)
	}
	r2 := colex(buf[:len(tm)])
	uk := p.sq[usKings][:p.n[usKings]]
	occ := men
	for i, d := range uk {
		buf[i] = d - uint8(men.below(d))
		occ.add(d)
	}
	r3 := colex(buf[:len(uk)])
	tk := p.sq[themKings][:p.n[themKings]]
	for i, d := range tk {
		buf[i] = d - uint8(occ.below(d))
	}
	r4 := colex(buf[:len(tk)])
	x := j - ix.jLo
	r := &ix.radix[x]
	return ix.off[x] + (((r0*r[1]+r1)*r[2]+r2)*r[3]+r3)*r[4] + r4
}

// unindex returns the placement of index i (< size).
func (ix *indexer) unindex(i uint64) pieces {
	n, c := ix.g.squares, ix.g.perRow
	s := ix.s
	x := len(ix.off) - 1
	for ix.off[x] > i {
		x--
	}
	j := ix.jLo + x
	r := &ix.radix[x]
	i -= ix.off[x]
	r4 := i % r[4]
	i /= r[4]
	r3 := i % r[3]
	i /= r[3]
	r2 := i % r[2]
	i /= r[2]
	r1 := i % r[1]
	r0 := i / r[1]
	var p pieces
	var buf [MaxPieces]uint8
	// middle men first (the lower squares), then those on the last row
	mm := s.UsMen - j
	uncolex(r1, mm, n-2*c, buf[:])
	for i, e := range buf[:mm] {
		p.sq[usMen][i] = e + uint8(c)
	}
	uncolex(r0, j, c, buf[:])
	for i, e := range buf[:j] {
		p.sq[usMen][mm+i] = e + uint8(n-c)
	}
	p.n[usMen] = uint8(s.UsMen)
	// the opponent's men: the e-th free square above the last row
	uncolex(r2, s.ThemMen, n-c-mm, buf[:])
	p.n[themMen] = uint8(s.ThemMen)
	fill(p.sq[themMen][:s.ThemMen], buf[:s.ThemMen], p.sq[usMen][:mm])
	var mb, ob [2 * MaxPieces]uint8
	men := merge(mb[:], p.sq[usMen][:s.UsMen], p.sq[themMen][:s.ThemMen])
	uncolex(r3, s.UsKings, n-s.UsMen-s.ThemMen, buf[:])
	p.n[usKings] = uint8(s.UsKings)
	fill(p.sq[usKings][:s.UsKings], buf[:s.UsKings], men)
	occ := merge(ob[:], men, p.sq[usKings][:s.UsKings])
	uncolex(r4, s.ThemKings, n-s.UsMen-s.ThemMen-s.UsKings, buf[:])
	p.n[themKings] = uint8(s.ThemKings)
	fill(p.sq[themKings][:s.ThemKings], buf[:s.ThemKings], occ)
	return p
}

// fill writes into dst the squares whose ranks among the squares outside taken (ascending)
// are ranks (ascending).
func fill(dst, ranks []uint8, taken []uint8) {
	for i, e := range ranks {
		d := e
		for _, t := range taken {
			if t > d {
				break
			}
			d++
		}
		dst[i] = d
	}
}

// merge returns the ascending union of two ascending lists (disjoint), in buf.
func merge(buf []uint8, a, b []uint8) []uint8 {
	out := buf[:0]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < b[j] {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
