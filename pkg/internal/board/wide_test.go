package board

import (
	"context"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"slices"
	"testing"
)

// toBig returns b as a big.Int.
func (b wide) toBig() *big.Int {
	x := new(big.Int).SetUint64(b.hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(b.lo))
}

// fromBig returns the low 128 bits of x (x >= 0).
func fromBig(x *big.Int) wide {
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))
	lo := new(big.Int).And(x, mask).Uint64()
	hi := new(big.Int).And(new(big.Int).Rsh(x, 64), mask).Uint64()
	return wide{lo, hi}
}

// TestWideOps checks each operation of wide against math/big on random sets, including
// sets with only one word used and the empty set.
func TestWideOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mod := new(big.Int).Lsh(big.NewInt(1), 128)
	random := func() wide {
		b := wide{rng.Uint64(), rng.Uint64()}
		switch rng.IntN(4) {
		case 0:
			b.hi = 0
		case 1:
			b.lo = 0
		case 2:
			b = wide{rng.Uint64() & rng.Uint64(), rng.Uint64() & rng.Uint64() & rng.Uint64()}
		}
		return b
	}
	norm := func(x *big.Int) wide { return fromBig(new(big.Int).Mod(x, mod)) }
	for range 20000 {
		a, b := random(), random()
		x, y := a.toBig(), b.toBig()
		n := uint(rng.IntN(128))
		check := func(op string, got, want wide) {
			t.Helper()
			if got != want {
				t.Fatalf("%s of %#v, %#v (n=%d): %#v, want %#v", op, a, b, n, got, want)
			}
		}
		check("And", a.And(b), fromBig(new(big.Int).And(x, y)))
		check("Or", a.Or(b), fromBig(new(big.Int).Or(x, y)))
		check("Xor", a.Xor(b), fromBig(new(big.Int).Xor(x, y)))
		check("AndNot", a.AndNot(b), fromBig(new(big.Int).AndNot(x, y)))
		check("Not", a.Not(), norm(new(big.Int).Sub(new(big.Int).Sub(mod, x), big.NewInt(1))))
		check("Shl", a.Shl(n), norm(new(big.Int).Lsh(x, n)))
		check("Shr", a.Shr(n), fromBig(new(big.Int).Rsh(x, n)))
		check("Sub", a.Sub(b), norm(new(big.Int).Sub(x, y)))
		check("Add", a.Add(b), norm(new(big.Int).Add(x, y)))
		if a.IsZero() != (x.Sign() == 0) {
			t.Fatalf("IsZero of %#v", a)
		}
		if a.Count() != countBits(x) {
			t.Fatalf("Count of %#v: %d", a, a.Count())
		}
		if !a.IsZero() {
			check("ClearFirst", a.ClearFirst(), norm(new(big.Int).And(x, new(big.Int).Sub(x, big.NewInt(1)))))
			if first := a.First(); x.Bit(int(first)) != 1 || x.TrailingZeroBits() != uint(first) {
				t.Fatalf("First of %#v: %d", a, first)
			}
		}
		if i := Index(n); a.Has(i) != (x.Bit(int(i)) == 1) {
			t.Fatalf("Has(%d) of %#v", i, a)
		}
	}
}

func countBits(x *big.Int) int {
	n := 0
	for _, w := range x.Bits() {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

// widenVariant returns the wide instance of a variant whose board fits 64 bits: the same
// rules and squares, played by the generated code.
func widenVariant(v *Variant) *wideVariant { return newWideVariant(v) }

// isWide reports whether v plays on the wide instance.
func isWide(v *Variant) bool {
	_, ok := v.k.(*wideVariant)
	return ok
}

// TestWideInstanceMatchesNarrow plays the generated wide code against the hand-written
// narrow code on every variant that fits 64 bits: the same moves in the same order, the
// same counts, capture paths, quiet moves and perft, on positions of random
// games. A difference is a fault of widegen or of the wide type.
func TestWideInstanceMatchesNarrow(t *testing.T) {
	for _, v := range Variants() {
		if isWide(v) {
			continue
		}
		w := widenVariant(v)
		if got, want := w.start.narrow(), v.start; got != want {
			t.Fatalf("%s: start %v, want %v", v.Name, got, want)
		}
		rng := rand.New(rand.NewPCG(3, uint64(v.GameType)))
		positions := 0
		for game := 0; game < 40; game++ {
			p := v.Start()
			for ply := 0; ply < 150; ply++ {
				positions++
				wp := p.widen()
				var g capGen
				var wg wideCapGen
				for _, dup := range []Duplicates{Unique, Keep} {
					want := v.generate(&g, nil, &p, dup)
					got := narrowMoves(nil, w.generate(&wg, nil, &wp, dup))
					if !slices.Equal(got, want) {
						t.Fatalf("%s %s (%s): wide moves %v, narrow %v", v.Name, v.FEN(p), dup, got, want)
					}
					if n := w.count(&wg, &wp, dup, nil); n != len(want) {
						t.Fatalf("%s %s (%s): wide count %d, want %d", v.Name, v.FEN(p), dup, n, len(want))
					}
				}
				moves := v.legalMoves(nil, &p)
				if w.hasCaptureIn(&wp) != v.hasCaptureIn(&p) || w.hasMoves(&wp) != v.hasMoves(&p) {
					t.Fatalf("%s %s: hasCapture/hasMoves differ", v.Name, v.FEN(p))
				}
				for _, m := range moves {
					if m.IsCapture() {
						if got, want := w.paths(&wp, m.widen()), v.paths(&p, m); !slices.EqualFunc(got, want, slices.Equal) {
							t.Fatalf("%s %s %v: wide paths %v, narrow %v", v.Name, v.FEN(p), m, got, want)
						}
					} else if got, ok := w.quietMove(&wp, m.From, m.To); !ok || got.narrow() != m {
						t.Fatalf("%s %s %v: wide quiet move %v %v", v.Name, v.FEN(p), m, got, ok)
					}
					c, wc := p.Play(m), wp
					wc.apply(m.widen())
					if wc.narrow() != c {
						t.Fatalf("%s %s %v: wide apply %v, narrow %v", v.Name, v.FEN(p), m, wc.narrow(), c)
					}
				}
				if len(moves) == 0 {
					break
				}
				if ply%25 == 0 {
					want, _ := v.divide(context.Background(), p, 3, PerftOptions{})
					got, _ := w.divide(context.Background(), wp, 3, PerftOptions{})
					if len(got) != len(want) {
						t.Fatalf("%s %s: wide divide %d moves, narrow %d", v.Name, v.FEN(p), len(got), len(want))
					}
					for i := range got {
						if got[i].Move.narrow() != want[i].Move || got[i].Nodes != want[i].Nodes {
							t.Fatalf("%s %s: wide divide %v, narrow %v", v.Name, v.FEN(p), got[i], want[i])
						}
					}
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
		t.Logf("%s: %d positions", v.Name, positions)
	}
}

// TestWideGenUpToDate runs widegen (as go generate does, see wide.go) in check mode:
// wide_gen.go must be what the hot code's source generates.
func TestWideGenUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs widegen")
	}
	out, err := exec.Command("go", "run", "../widegen", "-config", "widegen.conf", "-check").CombinedOutput()
	if err != nil {
		t.Fatalf("wide_gen.go is stale (run go generate in pkg/internal/board): %v\n%s", err, out)
	}
}
