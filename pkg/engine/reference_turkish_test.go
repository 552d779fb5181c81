package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// A second, deliberately naive move generator for turkish draughts (docs/rules.md#turkish),
// as reference_test.go has for the 10x10 variants: square-by-square recursion on an 8x8
// grid, written from the rules' texts, sharing nothing with pkg/engine but the FEN text.
// Every capture sequence, stopped after any jump, is a candidate; only those that take the
// most pieces are moves. Each captured piece leaves the board as it is jumped, so a later
// jump may cross its square; no jump turns back 180 degrees on the one before; a man that
// reaches the last row during a capture is crowned and goes on as a king. With diag set it
// plays armenian draughts (docs/rules.md#armenian): men also step one square diagonally
// forward and kings also move along the diagonals, without capturing so.

// trkPos is a position: cell[row][col], row 0 the 8th rank (Black's back row), col 0 the a
// file; 0 empty, +1 a white man, +2 a white king, -1 a black man, -2 a black king.
type trkPos struct {
	cell  [8][8]int8
	white bool // White to move
	diag  bool // armenian: quiet moves along the diagonals too
}

type trkSquare struct{ row, col int }

// number is rafle's square number on the turkish board: row by row from a8 (1) to h1 (64).
func (s trkSquare) number() int { return s.row*8 + s.col + 1 }

func (s trkSquare) on() bool { return s.row >= 0 && s.row < 8 && s.col >= 0 && s.col < 8 }

func (s trkSquare) plus(d trkSquare) trkSquare { return trkSquare{s.row + d.row, s.col + d.col} }

// trkMove is a move: the landing squares after from (one for a quiet move), and the
// captured squares in the order they were taken.
type trkMove struct {
	from     trkSquare
	path     []trkSquare
	captured []trkSquare
}

func (m trkMove) to() trkSquare { return m.path[len(m.path)-1] }

// key identifies a move for the rules: from, to and the set of captured squares.
func (m trkMove) key() string {
	var caps []int
	for _, c := range m.captured {
		caps = append(caps, c.number())
	}
	slices.Sort(caps)
	return fmt.Sprintf("%d-%d%v", m.from.number(), m.to().number(), caps)
}

// the four directions along the rows and columns; up is towards row 0
var trkDirs = []trkSquare{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// the four diagonals
var trkDiagonals = []trkSquare{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}}

// parseTrkFEN reads rafle's turkish FEN: "W:Wa2,Kd4:Bh7"; diag: the position is armenian.
func parseTrkFEN(fen string, diag bool) (trkPos, error) {
	p := trkPos{diag: diag}
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
			if len(item) != 2 || item[0] < 'a' || item[0] > 'h' || item[1] < '1' || item[1] > '8' {
				return p, fmt.Errorf("bad square %q in %q", item, fen)
			}
			p.cell['8'-item[1]][item[0]-'a'] = piece
		}
	}
	return p, nil
}

func (p *trkPos) fen() string {
	var b strings.Builder
	b.WriteString(map[bool]string{true: "W", false: "B"}[p.white])
	for _, sign := range []int8{1, -1} {
		b.WriteString(map[int8]string{1: ":W", -1: ":B"}[sign])
		var items []string
		for row := range 8 {
			for col := range 8 {
				name := string(rune('a'+col)) + string(rune('8'-row))
				switch p.cell[row][col] {
				case sign:
					items = append(items, name)
				case 2 * sign:
					items = append(items, "K"+name)
				}
			}
		}
		b.WriteString(strings.Join(items, ","))
	}
	return b.String()
}

// moves returns the legal moves of p: with paths, every capture path (kish's count, rafle's
// Paths); otherwise each move once (Unique).
func (p *trkPos) moves(paths bool) []trkMove {
	me := int8(1)
	if !p.white {
		me = -1
	}
	var caps []trkMove
	for row := range 8 {
		for col := range 8 {
			if v := p.cell[row][col]; v == me || v == 2*me {
				p.captures(trkSquare{row, col}, &caps)
			}
		}
	}
	if len(caps) > 0 {
		most := 0
		for _, m := range caps {
			most = max(most, len(m.captured))
		}
		var out []trkMove
		seen := map[string]bool{}
		for _, m := range caps {
			if len(m.captured) == most && (paths || !seen[m.key()]) {
				seen[m.key()] = true
				out = append(out, m)
			}
		}
		return out
	}
	var out []trkMove
	for row := range 8 {
		for col := range 8 {
			from := trkSquare{row, col}
			switch p.cell[row][col] {
			case me: // a man: one square forward or sideways (and diagonally forward: armenian)
				steps := []trkSquare{{-int(me), 0}, {0, -1}, {0, 1}}
				if p.diag {
					steps = append(steps, trkSquare{-int(me), -1}, trkSquare{-int(me), 1})
				}
				for _, d := range steps {
					if to := from.plus(d); to.on() && p.cell[to.row][to.col] == 0 {
						out = append(out, trkMove{from: from, path: []trkSquare{to}})
					}
				}
			case 2 * me: // a king: any distance along a row or column (or a diagonal: armenian)
				dirs := trkDirs
				if p.diag {
					dirs = append(slices.Clone(trkDirs), trkDiagonals...)
				}
				for _, d := range dirs {
					for to := from.plus(d); to.on() && p.cell[to.row][to.col] == 0; to = to.plus(d) {
						out = append(out, trkMove{from: from, path: []trkSquare{to}})
					}
				}
			}
		}
	}
	return out
}

// captures adds every capture sequence of the piece on from, stopped after each jump. The
// pieces taken are removed from p as they are jumped and put back on the way out.
func (p *trkPos) captures(from trkSquare, out *[]trkMove) {
	piece := p.cell[from.row][from.col]
	p.cell[from.row][from.col] = 0 // the piece has left its square
	defer func() { p.cell[from.row][from.col] = piece }()
	me := int8(1)
	if piece < 0 {
		me = -1
	}
	var path, taken []trkSquare
	free := func(s trkSquare) bool { return s.on() && p.cell[s.row][s.col] == 0 }
	var jump func(at trkSquare, king bool, back trkSquare)
	jump = func(at trkSquare, king bool, back trkSquare) {
		for _, d := range trkDirs {
			if d == back {
				continue // no 180-degree turn
			}
			if !king && d.row == int(me) {
				continue // a man never captures backward
			}
			target := at.plus(d)
			if king {
				for free(target) {
					target = target.plus(d)
				}
			}
			if !target.on() || p.cell[target.row][target.col]*me >= 0 {
				continue
			}
			victim := p.cell[target.row][target.col]
			p.cell[target.row][target.col] = 0 // removed at once
			taken = append(taken, target)
			for land := target.plus(d); free(land); land = land.plus(d) {
				path = append(path, land)
				*out = append(*out, trkMove{from: from, path: slices.Clone(path), captured: slices.Clone(taken)})
				crowned := king || (me == 1 && land.row == 0) || (me == -1 && land.row == 7)
				jump(land, crowned, trkSquare{-d.row, -d.col})
				path = path[:len(path)-1]
				if !king {
					break // a man lands right behind
				}
			}
			taken = taken[:len(taken)-1]
			p.cell[target.row][target.col] = victim
		}
	}
	jump(from, piece == 2*me, trkSquare{})
}

// play returns the position after m.
func (p trkPos) play(m trkMove) trkPos {
	piece := p.cell[m.from.row][m.from.col]
	p.cell[m.from.row][m.from.col] = 0
	for _, c := range m.captured {
		p.cell[c.row][c.col] = 0
	}
	for _, s := range m.path {
		if (piece == 1 && s.row == 0) || (piece == -1 && s.row == 7) {
			piece *= 2
		}
	}
	to := m.to()
	p.cell[to.row][to.col] = piece
	p.white = !p.white
	return p
}

func (p trkPos) perft(depth int, paths bool) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.moves(paths)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += p.play(m).perft(depth-1, paths)
	}
	return n
}

// randomTrkPosition places up to 14 pieces a side at random, kings with probability
// kingShare; men never stand on the row where they would be crowned.
func randomTrkPosition(rng *rand.Rand, kingShare float64) trkPos {
	var p trkPos
	p.white = rng.IntN(2) == 0
	for _, sign := range []int8{1, -1} {
		for range 1 + rng.IntN(14) {
			s := trkSquare{rng.IntN(8), rng.IntN(8)}
			if p.cell[s.row][s.col] != 0 {
				continue
			}
			piece := sign
			if rng.Float64() < kingShare {
				piece *= 2
			} else if (sign == 1 && s.row == 0) || (sign == -1 && s.row == 7) {
				continue
			}
			p.cell[s.row][s.col] = piece
		}
	}
	return p
}

// TestReferenceTurkishMoves compares the legal moves of both generators, move for move, in
// random positions with kings and in positions of random games from the start, in turkish
// and armenian draughts.
func TestReferenceTurkishMoves(t *testing.T) {
	for _, name := range []string{"turkish", "armenian"} {
		t.Run(name, func(t *testing.T) { testReferenceTrkMoves(t, engine.MustLookup(name)) })
	}
}

func testReferenceTrkMoves(t *testing.T, v *engine.Variant) {
	diag := v.DiagonalSteps
	rng := rand.New(rand.NewPCG(19, 30))
	var fens []string
	for range 3000 {
		p := randomTrkPosition(rng, 0.3)
		fens = append(fens, p.fen())
	}
	for range 40 { // random games: positions as play reaches them
		p, err := parseTrkFEN(v.FEN(v.Start()), diag)
		if err != nil {
			t.Fatal(err)
		}
		for range 150 {
			moves := p.moves(false)
			if len(moves) == 0 {
				break
			}
			p = p.play(moves[rng.IntN(len(moves))])
			fens = append(fens, p.fen())
		}
	}
	captures, kingCaptures, crossings, diagonals, differ := 0, 0, 0, 0, 0
	for _, fen := range fens {
		p, err := parseTrkFEN(fen, diag)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range p.moves(false) {
			want = append(want, m.key())
			if len(m.captured) == 0 && m.from.row != m.to().row && m.from.col != m.to().col {
				diagonals++
			}
			if len(m.captured) > 0 {
				captures++
				if piece := p.cell[m.from.row][m.from.col]; piece == 2 || piece == -2 {
					kingCaptures++
				}
				if crossesTaken(m) {
					crossings++
				}
			}
		}
		slices.Sort(want)
		if got := engineMoveKeys(t, v, fen); !slices.Equal(got, want) {
			if differ++; differ <= 5 {
				t.Errorf("%s %s:\n rafle     %v\n reference %v", v.Name, fen, got, want)
			}
		}
	}
	if differ > 0 {
		t.Fatalf("%s: %d of %d positions differ", v.Name, differ, len(fens))
	}
	if captures < len(fens)/10 || kingCaptures < 100 || crossings < 10 || diag && diagonals < 1000 {
		t.Errorf("%s: only %d captures, %d by a king, %d crossing a square emptied, %d diagonal moves: the test exercises too little",
			v.Name, captures, kingCaptures, crossings, diagonals)
	}
	t.Logf("%s: %d positions, %d captures, %d by a king, %d crossing a square emptied, %d diagonal moves",
		v.Name, len(fens), captures, kingCaptures, crossings, diagonals)
}

// crossesTaken reports whether a capture passes over or lands on the square of a piece it
// took earlier in the same move (possible only because pieces leave at once).
func crossesTaken(m trkMove) bool {
	at := m.from
	for i, land := range m.path {
		d := trkSquare{sign(land.row - at.row), sign(land.col - at.col)}
		for s := at.plus(d); ; s = s.plus(d) {
			if slices.Contains(m.captured[:i], s) {
				return true
			}
			if s == land {
				break
			}
		}
		at = land
	}
	return false
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// trkPerftCases are the perft runs compared between both generators, at every depth up to
// the one given, in both conventions: the start position, and the positions of
// corpus/perft/turkish.tsv and armenian.tsv marked rafle+reference.
var trkPerftCases = []struct {
	variant     string
	fen         string
	depth, deep int // the quick depth (go test) and the full one (-refdeep)
}{
	{"turkish", "", 5, 7},
	{"turkish", trkKings, 4, 6},
	{"turkish", trkCrossing, 4, 6},
	{"turkish", trkTurn, 5, 7},
	{"armenian", "", 4, 5},
	{"armenian", trkKings, 3, 5},
	{"armenian", trkCrossing, 3, 5},
	{"armenian", trkTurn, 4, 6},
}

// The positions of corpus/perft/turkish.tsv and armenian.tsv.
const (
	trkKings    = "W:WKe8,c4,e4,a3,b3,c3,d3,f3,g3,b2,d2,e2,f2,g2:Bc7,d7,e7,f7,b6,c6,d6,e6,h6,b5,Ke1" // kings
	trkCrossing = "W:We6,g4,b3,c3,d3,e3,g3,c2,g2,Kh2:Bf7,Ke1"                                        // kings crossing emptied squares
	trkTurn     = "W:WKd4,a2:Bd6,d2,b7,Kh8"                                                          // the 180-degree turn
)

// TestReferenceTurkishPerft compares perft counts of both generators, unique and paths.
func TestReferenceTurkishPerft(t *testing.T) {
	for _, c := range trkPerftCases {
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
			rp, err := parseTrkFEN(fen, v.DiagonalSteps)
			if err != nil {
				t.Fatal(err)
			}
			p, err := v.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for d := 1; d <= depth; d++ {
				for _, dup := range []engine.Duplicates{engine.Unique, engine.Paths} {
					want := rp.perft(d, dup == engine.Paths)
					got, err := v.Perft(context.Background(), p, d, engine.PerftOptions{Duplicates: dup})
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%s: Perft(%q, %d, %s) = %d, reference %d", v.Name, fen, d, dup, got, want)
					}
					t.Logf("%s\t%s\t%d\t%s\t%d", v.Name, fen, d, dup, want)
				}
			}
		})
	}
}
