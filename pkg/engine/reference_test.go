package engine_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// A deliberately naive second move generator for the 10x10 variants: square-by-square
// recursion on a grid of cells, written from the rules' texts and sharing nothing with
// pkg/engine but the FEN text it reads and writes. It checks the rules the bitboard
// generator gained for killer, breakthrough, antidraughts and frysk, and, as a check of
// itself, international and frisian, whose rules the published perft counts prove.
//
// It finds captures differently from pkg/engine: every capture sequence, stopped after any
// jump and on any square the piece may land on, is a candidate, and only the candidates of
// the highest rank are moves (as Scan does). A sequence that could go on is outranked by
// its continuation, so "a capture must be completed" needs no code of its own.

// refDeep runs the reference perft to the depths docs/variants.md reports (millions of
// leaves, minutes) instead of the quick ones.
var refDeep = flag.Bool("refdeep", false, "run the reference generator's perft comparisons to their full depth")

// refRules are the rules the reference knows, each as its text says.
type refRules struct {
	orthogonal     bool // men and kings also capture along rows and columns (frisian)
	frisianValue   bool // the capture of highest value, a king counting just under two men, then by a king (frisian); otherwise the most pieces
	haltBehindKing bool // a capture that ends by taking a king ends right behind it (killer)
	promotionWins  bool // a side whose opponent has a king has lost (breakthrough)
}

var refVariants = map[string]refRules{
	"international": {},
	"killer":        {haltBehindKing: true},
	"breakthrough":  {promotionWins: true},
	"antidraughts":  {},
	"frisian":       {orthogonal: true, frisianValue: true},
	"frysk":         {orthogonal: true, frisianValue: true},
}

const refSize = 10 // the board is refSize x refSize; row 0 is Black's back row, column 0 White's left

// refPos is a position: cell[row][col] is 0 (empty), +1 a white man, +2 a white king, -1 a
// black man, -2 a black king.
type refPos struct {
	cell  [refSize][refSize]int8
	white bool // White to move
}

type refSquare struct{ row, col int }

// refMove is a move: from, to and the captured squares in the order they were taken.
type refMove struct {
	from, to refSquare
	captured []refSquare
	rank     [3]int // the precedence rank of a capture, compared in order
}

// number returns the PDN number of a dark square: five per row, from the top left.
func (s refSquare) number() int { return s.row*refSize/2 + s.col/2 + 1 }

func refSquareOf(n int) refSquare {
	row := (n - 1) / (refSize / 2)
	col := 2 * ((n - 1) % (refSize / 2))
	if row%2 == 0 {
		col++
	}
	return refSquare{row, col}
}

func (s refSquare) on() bool { return s.row >= 0 && s.row < refSize && s.col >= 0 && s.col < refSize }

func (s refSquare) plus(d refSquare) refSquare { return refSquare{s.row + d.row, s.col + d.col} }

// key identifies a move for the rules: from, to and the set of captured squares.
func (m refMove) key() string {
	var caps []int
	for _, c := range m.captured {
		caps = append(caps, c.number())
	}
	slices.Sort(caps)
	return fmt.Sprintf("%d-%d%v", m.from.number(), m.to.number(), caps)
}

// parseRefFEN reads the plain FEN the tests write: "W:W31,K32:B1,K2".
func parseRefFEN(fen string) (refPos, error) {
	var p refPos
	parts := strings.Split(fen, ":")
	if len(parts) != 3 || (parts[0] != "W" && parts[0] != "B") {
		return p, fmt.Errorf("bad FEN %q", fen)
	}
	p.white = parts[0] == "W"
	for _, part := range parts[1:] {
		sign := int8(1)
		if part[0] == 'B' {
			sign = -1
		}
		for _, item := range strings.Split(part[1:], ",") {
			if item == "" {
				continue
			}
			piece := sign
			if item[0] == 'K' {
				piece, item = 2*sign, item[1:]
			}
			n, err := strconv.Atoi(item)
			if err != nil || n < 1 || n > refSize*refSize/2 {
				return p, fmt.Errorf("bad square %q in %q", item, fen)
			}
			s := refSquareOf(n)
			p.cell[s.row][s.col] = piece
		}
	}
	return p, nil
}

func (p *refPos) fen() string {
	var b strings.Builder
	if p.white {
		b.WriteString("W")
	} else {
		b.WriteString("B")
	}
	for _, sign := range []int8{1, -1} {
		b.WriteString(map[int8]string{1: ":W", -1: ":B"}[sign])
		var items []string
		for n := 1; n <= refSize*refSize/2; n++ {
			s := refSquareOf(n)
			switch p.cell[s.row][s.col] {
			case sign:
				items = append(items, strconv.Itoa(n))
			case 2 * sign:
				items = append(items, "K"+strconv.Itoa(n))
			}
		}
		b.WriteString(strings.Join(items, ","))
	}
	return b.String()
}

var (
	refDiagonals   = []refSquare{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}
	refOrthogonals = []refSquare{{0, -2}, {0, 2}, {-2, 0}, {2, 0}} // the next square of the same colour
)

// moves returns the legal moves of p, each once.
func (r refRules) moves(p *refPos) []refMove {
	me := int8(1)
	if !p.white {
		me = -1
	}
	if r.promotionWins {
		for row := range p.cell {
			for col := range p.cell[row] {
				if p.cell[row][col] == -2*me {
					return nil // the opponent crowned a man: the game is over
				}
			}
		}
	}
	var caps []refMove
	for row := range p.cell {
		for col := range p.cell[row] {
			if v := p.cell[row][col]; v == me || v == 2*me {
				r.captures(p, refSquare{row, col}, v == 2*me, &caps)
			}
		}
	}
	if len(caps) > 0 {
		return r.best(caps)
	}
	var out []refMove
	for row := range p.cell {
		for col := range p.cell[row] {
			from := refSquare{row, col}
			switch p.cell[row][col] {
			case me: // a man: one square diagonally forward
				for _, dc := range []int{-1, 1} {
					to := refSquare{row - int(me), col + dc}
					if to.on() && p.cell[to.row][to.col] == 0 {
						out = append(out, refMove{from: from, to: to})
					}
				}
			case 2 * me: // a king: any distance along a diagonal
				for _, d := range refDiagonals {
					for to := from.plus(d); to.on() && p.cell[to.row][to.col] == 0; to = to.plus(d) {
						out = append(out, refMove{from: from, to: to})
					}
				}
			}
		}
	}
	return out
}

// captures adds every capture sequence of the piece on from, stopped after each jump.
func (r refRules) captures(p *refPos, from refSquare, king bool, out *[]refMove) {
	piece := p.cell[from.row][from.col]
	p.cell[from.row][from.col] = 0 // the piece has left its square
	defer func() { p.cell[from.row][from.col] = piece }()
	me := int8(1) // the mover's colour
	if piece < 0 {
		me = -1
	}
	dirs := refDiagonals
	if r.orthogonal {
		dirs = append(slices.Clone(refDiagonals), refOrthogonals...)
	}
	var taken []refSquare
	isTaken := func(s refSquare) bool { return slices.Contains(taken, s) }
	enemy := func(s refSquare) bool { return p.cell[s.row][s.col]*me < 0 && !isTaken(s) }
	free := func(s refSquare) bool { return s.on() && p.cell[s.row][s.col] == 0 }
	var jump func(at refSquare)
	jump = func(at refSquare) {
		for _, d := range dirs {
			target := at.plus(d)
			if king {
				for free(target) {
					target = target.plus(d)
				}
			}
			if !target.on() || !enemy(target) {
				continue
			}
			first := target.plus(d)
			for land := first; free(land); land = land.plus(d) {
				taken = append(taken, target)
				lastKing := p.cell[target.row][target.col]*me == -2
				if !(r.haltBehindKing && lastKing && land != first) {
					*out = append(*out, refMove{from: from, to: land, captured: slices.Clone(taken), rank: r.rank(p, taken, king)})
				}
				jump(land)
				taken = taken[:len(taken)-1]
				if !king {
					break // a man lands right behind
				}
			}
		}
	}
	jump(from)
}

// rank is the precedence rank of a capture of the pieces on taken.
func (r refRules) rank(p *refPos, taken []refSquare, byKing bool) [3]int {
	if !r.frisianValue {
		return [3]int{len(taken)}
	}
	men, kings := 0, 0
	for _, s := range taken {
		if v := p.cell[s.row][s.col]; v == 2 || v == -2 {
			kings++
		} else {
			men++
		}
	}
	k := 0
	if byKing {
		k = 1
	}
	// n kings are worth more than 2n-1 men and less than 2n: a king is two men less a
	// little, so the larger men+2*kings wins, then the fewer kings, then a king's capture
	return [3]int{men + 2*kings, -kings, k}
}

// best keeps the captures of the highest rank, each move once.
func (r refRules) best(caps []refMove) []refMove {
	top := caps[0].rank
	for _, m := range caps {
		if slices.Compare(m.rank[:], top[:]) > 0 {
			top = m.rank
		}
	}
	var out []refMove
	seen := map[string]bool{}
	for _, m := range caps {
		if m.rank == top && !seen[m.key()] {
			seen[m.key()] = true
			out = append(out, m)
		}
	}
	return out
}

// play returns the position after m.
func (p refPos) play(m refMove) refPos {
	piece := p.cell[m.from.row][m.from.col]
	p.cell[m.from.row][m.from.col] = 0
	for _, c := range m.captured {
		p.cell[c.row][c.col] = 0
	}
	if (piece == 1 && m.to.row == 0) || (piece == -1 && m.to.row == refSize-1) {
		piece *= 2
	}
	p.cell[m.to.row][m.to.col] = piece
	p.white = !p.white
	return p
}

func (r refRules) perft(p refPos, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := r.moves(&p)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += r.perft(p.play(m), depth-1)
	}
	return n
}

// engineMoveKeys returns rafle's moves of fen in the reference's key form.
func engineMoveKeys(t *testing.T, v *engine.Variant, fen string) []string {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: ParseFEN(%q): %v", v.Name, fen, err)
	}
	var keys []string
	for _, m := range v.Generate(nil, &p) {
		var caps []int
		for i := range m.Captured() {
			caps = append(caps, int(v.Square(i)))
		}
		slices.Sort(caps)
		keys = append(keys, fmt.Sprintf("%d-%d%v", v.Square(m.From), v.Square(m.To), caps))
	}
	slices.Sort(keys)
	return keys
}

// randomRefPosition places up to 14 pieces a side at random, kings with probability
// kingShare; men never stand on the row where they would be crowned.
func randomRefPosition(rng *rand.Rand, kingShare float64) refPos {
	var p refPos
	p.white = rng.IntN(2) == 0
	for _, sign := range []int8{1, -1} {
		for range 1 + rng.IntN(14) {
			s := refSquareOf(1 + rng.IntN(refSize*refSize/2))
			if p.cell[s.row][s.col] != 0 {
				continue
			}
			piece := sign
			if rng.Float64() < kingShare {
				piece *= 2
			} else if (sign == 1 && s.row == 0) || (sign == -1 && s.row == refSize-1) {
				continue
			}
			p.cell[s.row][s.col] = piece
		}
	}
	return p
}

// TestReferenceMoves compares the legal moves of both generators, move for move, in
// random positions with kings and in positions of random games from the start.
func TestReferenceMoves(t *testing.T) {
	for name, r := range refVariants {
		t.Run(name, func(t *testing.T) {
			v := engine.MustLookup(name)
			rng := rand.New(rand.NewPCG(19, uint64(len(name))))
			var fens []string
			kingShare := 0.4
			if r.promotionWins {
				kingShare = 0.03 // mostly games in progress, some over
			}
			for range 3000 {
				p := randomRefPosition(rng, kingShare)
				fens = append(fens, p.fen())
			}
			for range 40 { // random games: positions as play reaches them
				p, err := parseRefFEN(v.FEN(v.Start()))
				if err != nil {
					t.Fatal(err)
				}
				for range 120 {
					moves := r.moves(&p)
					if len(moves) == 0 {
						break
					}
					p = p.play(moves[rng.IntN(len(moves))])
					fens = append(fens, p.fen())
				}
			}
			captures, kingCaptures, differ := 0, 0, 0
			for _, fen := range fens {
				p, err := parseRefFEN(fen)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, m := range r.moves(&p) {
					want = append(want, m.key())
					if len(m.captured) > 0 {
						captures++
						if piece := p.cell[m.from.row][m.from.col]; piece == 2 || piece == -2 {
							kingCaptures++
						}
					}
				}
				slices.Sort(want)
				if got := engineMoveKeys(t, v, fen); !slices.Equal(got, want) {
					if differ++; differ <= 5 {
						t.Errorf("%s %s:\n rafle     %v\n reference %v", name, fen, got, want)
					}
				}
			}
			if differ > 0 {
				t.Fatalf("%s: %d of %d positions differ", name, differ, len(fens))
			}
			if captures < len(fens)/10 || kingCaptures < 100 {
				t.Errorf("%s: only %d captures, %d by a king: the test exercises too little", name, captures, kingCaptures)
			}
			t.Logf("%s: %d positions, %d captures, %d by a king", name, len(fens), captures, kingCaptures)
		})
	}
}

// refPerftCases are perft runs compared between both generators, at every depth up to the
// one given: the start positions; killer's published Random178 and Woldouby (dctl); and
// positions of random games that exercise each rule, the rows of corpus/perft marked
// rafle+reference (killer's and antidraughts' with kings, breakthrough's with men crowned
// within the horizon, frysk's with kings).
var refPerftCases = []struct {
	variant, fen string
	depth, deep  int // the quick depth (go test) and the full one (-refdeep)
}{
	{"killer", "", 5, 8},
	{"killer", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", 3, 7},
	{"killer", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 6, 13},
	{"killer", "B:WK1,29,33,36,41,42,43,44,45,46,48,49,50:B2,3,4,5,6,10,11,15,16", 3, 7},
	{"killer", "B:WK4,34,35,36,37,38,41,42,43,44,46,48,49:B1,2,6,7,8,10,11,12,14,15,16,45", 3, 7},
	{"breakthrough", "", 5, 8},
	{"breakthrough", "W:W26,30,33,37,38,39,42,43,44,45,47,49:B1,4,5,7,9,10,11,12,13,15", 4, 7},
	{"antidraughts", "", 5, 8},
	{"antidraughts", "B:WK4,34,35,36,37,38,41,42,43,44,46,48,49:B1,2,6,7,8,10,11,12,14,15,16,45", 3, 7},
	{"frysk", "", 6, 9},
	{"frysk", "B:WK25:B2,16,K42", 4, 8},
	{"frisian", "", 4, 7},
	{"international", "", 4, 7},
}

// TestReferencePerft compares perft counts of both generators.
func TestReferencePerft(t *testing.T) {
	for _, c := range refPerftCases {
		v := engine.MustLookup(c.variant)
		fen := c.fen
		if fen == "" {
			fen = v.FEN(v.Start())
		}
		depth := c.depth
		if *refDeep {
			depth = c.deep
		}
		t.Run(fmt.Sprintf("%s/%s/%d", c.variant, fen, depth), func(t *testing.T) {
			rp, err := parseRefFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			p, err := v.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for d := 1; d <= depth; d++ {
				want := refVariants[c.variant].perft(rp, d)
				got, err := v.Perft(context.Background(), p, d, engine.PerftOptions{Duplicates: engine.Unique})
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: Perft(%q, %d) = %d, reference %d", c.variant, fen, d, got, want)
				}
				t.Logf("%s\t%s\t%d\t%d", c.variant, fen, d, want)
			}
		})
	}
}
