package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// samplePositions returns the start position and positions reached in seeded random games
// (so that kings, long captures and crowning all occur).
func samplePositions(v *engine.Variant, games int) []engine.Position {
	out := []engine.Position{v.Start()}
	rng := rand.New(rand.NewPCG(7, uint64(len(v.Name))))
	for g := 0; g < games; g++ {
		p := v.Start()
		for ply := 0; ply < 120; ply++ {
			moves := v.Generate(nil, &p)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
			if ply%15 == 14 {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestInvariants walks the move tree below sample positions and checks, at every node:
// the FEN round trip, the incremental hash against a fresh one, Count against the length of
// the generated list in both conventions, HasMoves and HasCapture against the list, and
// that every move is written and read back as itself.
func TestInvariants(t *testing.T) {
	for _, v := range engine.Variants() {
		nodes := 0
		var walk func(p engine.Position, depth int)
		walk = func(p engine.Position, depth int) {
			nodes++
			if back, err := v.ParseFEN(v.FEN(p)); err != nil || back != p {
				t.Fatalf("%s: FEN round trip of %s: %v, %v", v.Name, v.FEN(p), back, err)
			}
			if p.Hash != p.ComputeHash() {
				t.Fatalf("%s %s: incremental hash %x, recomputed %x", v.Name, v.FEN(p), p.Hash, p.ComputeHash())
			}
			moves := v.Generate(nil, &p)
			for _, dup := range []engine.Duplicates{engine.Keep, engine.Unique} {
				list := v.GenerateDup(nil, &p, dup)
				if n := v.Count(&p, dup, make([]engine.Move, 0, 256)); n != len(list) {
					t.Fatalf("%s %s: Count(%s) = %d, generated %d", v.Name, v.FEN(p), dup, n, len(list))
				}
			}
			if v.HasMoves(&p) != (len(moves) > 0) {
				t.Fatalf("%s %s: HasMoves = %v with %d moves", v.Name, v.FEN(p), v.HasMoves(&p), len(moves))
			}
			if len(moves) > 0 && v.HasCapture(&p) != moves[0].IsCapture() {
				t.Fatalf("%s %s: HasCapture = %v, first move %v", v.Name, v.FEN(p), v.HasCapture(&p), moves[0])
			}
			for _, m := range moves {
				text := v.FormatMove(&p, m, false)
				if back, err := v.ParseMove(&p, text); err != nil || back != m {
					t.Fatalf("%s %s: %s reads back as %v, %v", v.Name, v.FEN(p), text, back, err)
				}
				if depth > 1 {
					walk(p.Play(m), depth-1)
				}
			}
		}
		// The positions of 400 random games, each with its children: 5,700 (frysk) to
		// 42,000 (canadian) nodes a variant, 4.8 s in all. It was the positions of 200
		// games and two plies below them: 16,600 to 277,000 nodes, 17 s; the same checks,
		// on the positions of twice the games.
		for _, p := range samplePositions(v, 400) {
			walk(p, 2)
		}
		t.Logf("%s: %d nodes checked", v.Name, nodes)
	}
}

// TestPlayQuiet wants PlayQuiet to play what QuietMove finds, and to leave the position
// as it is otherwise, for every pair of squares in sample positions of every variant.
func TestPlayQuiet(t *testing.T) {
	for _, v := range engine.Variants() {
		played := 0
		for _, p := range samplePositions(v, 10) {
			for f := 1; f <= v.Squares(); f++ {
				from, _ := v.Index(engine.Square(f))
				for s := 1; s <= v.Squares(); s++ {
					to, _ := v.Index(engine.Square(s))
					q := p
					ok := v.PlayQuiet(&q, from, to)
					m, want := v.QuietMove(&p, from, to)
					switch {
					case ok != want:
						t.Fatalf("%s %s: PlayQuiet %d-%d = %v, QuietMove %v", v.Name, v.FEN(p), f, s, ok, want)
					case ok && q != p.Play(m), !ok && q != p:
						t.Fatalf("%s %s: PlayQuiet %d-%d gives %s", v.Name, v.FEN(p), f, s, v.FEN(q))
					}
					if ok {
						played++
					}
				}
			}
		}
		if played == 0 {
			t.Fatalf("%s: no quiet move played", v.Name)
		}
	}
}

// TestPlayJump wants PlayJump, when it plays a move, to play the only move MovesFromTo
// gives from-to, a capture, for every pair of squares in every position of random games of
// every variant; and english (men capture forward, free choice) to have it play captures,
// crowning ones among them.
func TestPlayJump(t *testing.T) {
	for _, v := range engine.Variants() {
		played, crowned := 0, 0
		rng := rand.New(rand.NewPCG(11, uint64(len(v.Name))))
		for g := 0; g < 20; g++ {
			p := v.Start()
			for ply := 0; ply < 150; ply++ {
				for f := 1; f <= v.Squares(); f++ {
					from, _ := v.Index(engine.Square(f))
					for s := 1; s <= v.Squares(); s++ {
						to, _ := v.Index(engine.Square(s))
						q := p
						if !v.PlayJump(&q, from, to) {
							if q != p {
								t.Fatalf("%s %s: PlayJump %d-%d refused, and changed the position", v.Name, v.FEN(p), f, s)
							}
							continue
						}
						ms := v.MovesFromTo(nil, &p, from, to)
						if len(ms) != 1 || !ms[0].IsCapture() || q != p.Play(ms[0]) {
							t.Fatalf("%s %s: PlayJump %d-%d gives %s, MovesFromTo %v", v.Name, v.FEN(p), f, s, v.FEN(q), ms)
						}
						played++
						if ms[0].Promotes() {
							crowned++
						}
					}
				}
				moves := v.Generate(nil, &p)
				if len(moves) == 0 {
					break
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
		if v.Name == "english" && (played == 0 || crowned == 0) {
			t.Fatalf("english: PlayJump played %d captures, %d crowning", played, crowned)
		}
		t.Logf("%s: %d captures played", v.Name, played)
	}
}

// TestPlayPath wants PlayPath, when it plays a path, to play the move ParseMove finds for
// the path written in full, a capture that has that path among its Paths, and to leave the
// position as it is otherwise. It tries every path of every capture, and every beginning
// of it, in every position of random games of every variant, and every path of two jumps
// from each square in sample positions; in english (men capture forward, free choice) it
// must play every path of a man's capture, some of several jumps.
func TestPlayPath(t *testing.T) {
	for _, v := range engine.Variants() {
		played, long := 0, 0
		try := func(p engine.Position, path []engine.Square) bool {
			idx := make([]engine.Index, len(path))
			for i, s := range path {
				idx[i], _ = v.Index(s)
			}
			q := p
			if !v.PlayPath(&q, idx) {
				if q != p {
					t.Fatalf("%s %s: PlayPath %v refused, and changed the position", v.Name, v.FEN(p), path)
				}
				return false
			}
			m, err := v.ParseMove(&p, v.FormatPath(path))
			if err != nil || !m.IsCapture() || q != p.Play(m) ||
				!slices.ContainsFunc(v.Paths(&p, m), func(w []engine.Square) bool { return slices.Equal(w, path) }) {
				t.Fatalf("%s %s: PlayPath %v gives %s; ParseMove %v, %v", v.Name, v.FEN(p), path, v.FEN(q), m, err)
			}
			played++
			if len(path) > 2 {
				long++
			}
			return true
		}
		rng := rand.New(rand.NewPCG(13, uint64(len(v.Name))))
		for g := 0; g < 20; g++ {
			p := v.Start()
			for ply := 0; ply < 150; ply++ {
				moves := v.Generate(nil, &p)
				if len(moves) == 0 {
					break
				}
				for _, m := range moves {
					_, king, _ := p.At(m.From)
					for _, path := range v.Paths(&p, m) {
						for n := 2; n <= len(path); n++ {
							if !try(p, path[:n]) && n == len(path) && !king && v.Name == "english" {
								t.Fatalf("english %s: PlayPath %v refused", v.FEN(p), path)
							}
						}
					}
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
		for _, p := range samplePositions(v, 10) {
			n := engine.Square(v.Squares())
			for a := engine.Square(1); a <= n; a++ {
				if c, _, ok := p.At(mustIndex(t, v, a)); !ok || c != p.Side {
					continue
				}
				for b := engine.Square(1); b <= n; b++ {
					for c := engine.Square(1); c <= n; c++ {
						try(p, []engine.Square{a, b, c})
					}
				}
			}
		}
		if v.Name == "english" && long == 0 {
			t.Fatalf("english: PlayPath played %d captures, none of several jumps", played)
		}
		t.Logf("%s: %d paths played, %d of several jumps", v.Name, played, long)
	}
}

// TestPlaySquares wants PlaySquares to play what PlayQuiet (a quiet move) or PlayJump (a
// capture) plays on the squares' indices, and nothing for a number that is not a square,
// for every pair of numbers in sample positions of every variant.
func TestPlaySquares(t *testing.T) {
	for _, v := range engine.Variants() {
		played := 0
		for _, p := range samplePositions(v, 10) {
			for f := engine.Square(0); f <= engine.Square(v.Squares()+1); f++ {
				from, ok1 := v.Index(f)
				for s := engine.Square(0); s <= engine.Square(v.Squares()+1); s++ {
					to, ok2 := v.Index(s)
					for _, capture := range []bool{false, true} {
						q, want := p, p
						ok := v.PlaySquares(&q, f, s, capture)
						wantOK := ok1 && ok2 && (!capture && v.PlayQuiet(&want, from, to) || capture && v.PlayJump(&want, from, to))
						if ok != wantOK || q != want {
							t.Fatalf("%s %s: PlaySquares %d-%d (capture %v) = %v, %s; want %v, %s", v.Name, v.FEN(p), f, s, capture, ok, v.FEN(q), wantOK, v.FEN(want))
						}
						if ok {
							played++
						}
					}
				}
			}
		}
		if played == 0 {
			t.Fatalf("%s: PlaySquares played nothing", v.Name)
		}
	}
}

// TestMovesFromTo wants MovesFromTo to give, for every pair of squares, the moves Generate
// gives between them, in sample positions of every variant and the positions one move
// after them.
func TestMovesFromTo(t *testing.T) {
	for _, v := range engine.Variants() {
		var idx []engine.Index
		for s := 1; s <= v.Squares(); s++ {
			i, _ := v.Index(engine.Square(s))
			idx = append(idx, i)
		}
		checked := 0
		for _, p := range samplePositions(v, 10) {
			moves := v.Generate(nil, &p)
			ps := []engine.Position{p}
			for _, m := range moves {
				ps = append(ps, p.Play(m))
			}
			for _, p := range ps {
				all := v.Generate(nil, &p)
				for _, from := range idx {
					for _, to := range idx {
						var want []engine.Move
						for _, m := range all {
							if m.From == from && m.To == to {
								want = append(want, m)
							}
						}
						got := v.MovesFromTo(nil, &p, from, to)
						if len(got) != len(want) || !sameMoves(got, want) {
							t.Fatalf("%s %s: MovesFromTo %d-%d = %v, Generate gives %v", v.Name, v.FEN(p),
								v.Square(from), v.Square(to), got, want)
						}
						checked += len(got)
					}
				}
			}
		}
		if checked == 0 {
			t.Fatalf("%s: no move checked", v.Name)
		}
	}
}

// sameMoves reports whether a and b hold the same moves, in any order.
func sameMoves(a, b []engine.Move) bool {
	for _, m := range a {
		if !slices.Contains(b, m) {
			return false
		}
	}
	for _, m := range b {
		if !slices.Contains(a, m) {
			return false
		}
	}
	return true
}

// TestPlaySquarePairs wants PlaySquarePairs to play a run of moves as PlaySquares plays
// them one by one, up to the first PlaySquares does not play, and to say how many it
// played: the moves of random games of every variant, some of them written with a square
// off the board or a wrong separator, from every ply of the game on.
func TestPlaySquarePairs(t *testing.T) {
	for _, v := range engine.Variants() {
		rng := rand.New(rand.NewPCG(13, uint64(len(v.Name))))
		played := 0
		for g := 0; g < 10; g++ {
			var starts []engine.Position
			var pairs []engine.SquarePair
			p := v.Start()
			for ply := 0; ply < 150; ply++ {
				moves := v.Generate(nil, &p)
				if len(moves) == 0 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				sp := engine.SquarePair{From: uint8(v.Square(m.From)), To: uint8(v.Square(m.To)), Capture: m.IsCapture()}
				switch rng.IntN(40) {
				case 0:
					sp.Capture = !sp.Capture
				case 1:
					sp.From = 0
				case 2:
					sp.To = uint8(v.Squares() + 1)
				}
				starts, pairs = append(starts, p), append(pairs, sp)
				p = p.Play(m)
			}
			for i, start := range starts {
				q := start
				n := v.PlaySquarePairs(&q, pairs[i:])
				want, r := 0, start
				for _, sp := range pairs[i:] {
					if !v.PlaySquares(&r, engine.Square(sp.From), engine.Square(sp.To), sp.Capture) {
						break
					}
					want++
				}
				if n != want || q != r {
					t.Fatalf("%s %s: PlaySquarePairs %v played %d, to %s; PlaySquares played %d, to %s",
						v.Name, v.FEN(start), pairs[i:], n, v.FEN(q), want, v.FEN(r))
				}
				played += n
			}
		}
		if played == 0 {
			t.Fatalf("%s: PlaySquarePairs played nothing", v.Name)
		}
	}
}
