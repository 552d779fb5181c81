package egdb

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
)

// geometry is what the index and the generator know of a variant's board, in dense
// square numbers: d = PDN square - 1, row by row from the top (White's crowning row is
// row 0, d < perRow; Black's is the last). Rotating the board by 180 degrees maps d to
// squares-1-d (flip).
type geometry struct {
	v       *engine.Variant
	squares int // dark squares
	perRow  int // dark squares per row
	wide    bool
	idxOf   []engine.Index // dense square -> board index
	denseOf [256]int16     // board index -> dense square (-1 for none)
	// rays[d][:lines] are the squares from d to the edge in each direction of the board's
	// lines (the four diagonals, or the rows and columns on an orthogonal board, and the
	// diagonals too with DiagonalSteps), nearest first. Kings move along them (one square
	// for short kings).
	rays  [][8][]uint8
	lines int
	// manFwd[d]: the squares a man of the side to move (moving up, as White) steps to.
	manFwd [][]uint8
	// themBack[d]: the squares from which a man of the side not to move (moving down, as
	// Black) steps to d.
	themBack [][]uint8
	short    bool // kings move one square
	kingsOnly,
	menOnly bool // the slices the variant's database holds (Coverage)
	indexers sync.Map // Slice -> *indexer
}

// newGeometry reads v's board through its public API: the squares' coordinates from
// AlgebraicName, checked against the moves Generate gives a lone man and a lone king on
// every square, so that a board the generator would play otherwise is refused.
func newGeometry(v *engine.Variant) (*geometry, error) {
	g := &geometry{v: v, squares: v.Squares(), perRow: v.Width / 2, short: v.ShortKings}
	if v.Orthogonal {
		g.perRow = v.Width // every square is played (turkish)
	}
	g.kingsOnly = v.KingMoveLimit > 0
	g.menOnly = v.PromotionWins
	n := g.squares
	if n > 128 || n%g.perRow != 0 {
		return nil, fmt.Errorf("egdb: %s: a board of %d squares is not supported", v.Name, n)
	}
	for i := range g.denseOf {
		g.denseOf[i] = -1
	}
	type xy struct{ f, r int }
	at := map[xy]int{}
	coord := make([]xy, n)
	g.idxOf = make([]engine.Index, n)
	for d := range n {
		s := engine.Square(d + 1)
		i, ok := v.Index(s)
		if !ok {
			return nil, fmt.Errorf("egdb: %s: square %d has no index", v.Name, s)
		}
		if i >= 64 {
			g.wide = true
		}
		g.idxOf[d] = i
		g.denseOf[i] = int16(d)
		name := v.AlgebraicName(s)
		r, err := strconv.Atoi(name[1:])
		if err != nil {
			return nil, fmt.Errorf("egdb: %s: square %d: coordinates %q", v.Name, s, name)
		}
		coord[d] = xy{int(name[0] - 'a'), r}
		if d < g.perRow && r != v.Height || d >= n-g.perRow && r != 1 {
			return nil, fmt.Errorf("egdb: %s: square %d (%s) is not on the row the index expects", v.Name, s, name)
		}
		at[coord[d]] = d
	}
	// The lines of a square, in fours; a half turn maps direction k to k^3 (check). Men
	// step along fwd (White's, upwards) and the side not to move's men along back
	// (downwards).
	dirs := []xy{{-1, 1}, {1, 1}, {-1, -1}, {1, -1}} // up-left, up-right, down-left, down-right (White looks up)
	fwd, back := []int{0, 1}, []int{2, 3}
	if v.Orthogonal {
		// rows and columns (docs/rules.md#turkish): men step forward or sideways
		dirs = []xy{{0, 1}, {-1, 0}, {1, 0}, {0, -1}} // up, left, right, down
		fwd, back = []int{0, 1, 2}, []int{3, 1, 2}
		if v.DiagonalSteps {
			// and the diagonals (docs/rules.md#armenian): men also step diagonally forward
			dirs = append(dirs, xy{-1, 1}, xy{1, 1}, xy{-1, -1}, xy{1, -1})
			fwd, back = append(fwd, 4, 5), append(back, 6, 7)
		}
	}
	g.lines = len(dirs)
	g.rays = make([][8][]uint8, n)
	g.manFwd = make([][]uint8, n)
	g.themBack = make([][]uint8, n)
	for d := range n {
		for k, dir := range dirs {
			for c := (xy{coord[d].f + dir.f, coord[d].r + dir.r}); ; c = (xy{c.f + dir.f, c.r + dir.r}) {
				e, ok := at[c]
				if !ok {
					break
				}
				g.rays[d][k] = append(g.rays[d][k], uint8(e))
			}
		}
		for _, k := range fwd {
			if len(g.rays[d][k]) > 0 {
				g.manFwd[d] = append(g.manFwd[d], g.rays[d][k][0])
			}
		}
	}
	// a man of the side not to move steps down (or sideways) from e to d
	for e := range n {
		for _, k := range back {
			if len(g.rays[e][k]) > 0 {
				d := g.rays[e][k][0]
				g.themBack[d] = append(g.themBack[d], uint8(e))
			}
		}
	}
	if err := g.check(); err != nil {
		return nil, err
	}
	return g, nil
}

// check compares the geometry with the moves of a lone white man and a lone white king on
// every square, and the flip with the coordinates.
func (g *geometry) check() error {
	v := g.v
	var moves []engine.Move
	for d := range g.squares {
		for _, king := range []bool{false, true} {
			if !king && d < g.perRow {
				continue // no white man on White's crowning row
			}
			var p engine.Position
			p.Put(g.idxOf[d], engine.White, king)
			moves = v.Generate(moves[:0], &p)
			var got, want []int
			for _, m := range moves {
				got = append(got, int(g.denseOf[m.To]))
			}
			if king {
				for k := range g.lines {
					r := g.rays[d][k]
					if g.short && len(r) > 1 {
						r = r[:1]
					}
					for _, e := range r {
						want = append(want, int(e))
					}
				}
			} else {
				for _, e := range g.manFwd[d] {
					want = append(want, int(e))
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				return fmt.Errorf("egdb: %s: the moves of a lone piece on square %d are not the board's lines (got %v, want %v)", v.Name, d+1, got, want)
			}
		}
		f := g.squares - 1 - d
		for k := range g.lines {
			if len(g.rays[d][k]) != len(g.rays[f][k^3]) {
				return fmt.Errorf("egdb: %s: the board is not symmetric under a half turn at square %d", v.Name, d+1)
			}
		}
	}
	return nil
}

// indexer returns the indexer of slice s, made once.
func (g *geometry) indexer(s Slice) *indexer {
	if ix, ok := g.indexers.Load(s); ok {
		return ix.(*indexer)
	}
	ix, _ := g.indexers.LoadOrStore(s, newIndexer(g, s))
	return ix.(*indexer)
}
