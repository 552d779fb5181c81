package engine

import (
	"math/rand"
	"testing"
)

// TestEvaluateIntegerWeights: with integer weights the searcher's evaluation takes the
// integer path (evaluateInt), which must give exactly what rounding the float sum gives,
// for default and random weights up to the limit of intWeights, in every variant.
func TestEvaluateIntegerWeights(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, v := range Variants() {
		if isWide(v) {
			continue // the same code, generated: TestWideSearchMatchesNarrow
		}
		ps := randomGamePositions(v, rng, 400)
		for trial := 0; trial < 6; trial++ {
			w := DefaultWeights(v)
			for name := range w.Values {
				switch trial {
				case 0: // the defaults
				case 5:
					w.Values[name] = float64(rng.Int63n(1<<32) - 1<<31)
				default:
					w.Values[name] = float64(rng.Intn(2001) - 1000)
				}
			}
			s := NewSearcher(v, w, 1).k.(*searcher)
			if !s.intW {
				t.Fatalf("%s: integer weights %v not taken as integers", v.Name, w.Values)
			}
			for i := range ps {
				sum := s.t.evaluate(v, &s.w, &ps[i])
				if sum >= 0 {
					sum += 0.5
				} else {
					sum -= 0.5
				}
				const bound = MateScore - 2*MaxPly
				want := max(-bound, min(bound, int(sum)))
				if got := s.evaluate(&ps[i]); got != want {
					t.Fatalf("%s %s weights %v: Evaluate %d, float sum rounds to %d", v.Name, v.FEN(ps[i]), w.Values, got, want)
				}
			}
		}
	}
	w := DefaultWeights(MustLookup("english"))
	w.Values["man"] = 100.5
	if NewSearcher(MustLookup("english"), w, 1).k.(*searcher).intW {
		t.Error("a fractional weight taken as an integer")
	}
}

// randomGamePositions returns n positions of random games of v.
func randomGamePositions(v *Variant, rng *rand.Rand, n int) []Position {
	var out []Position
	var moves []Move
	for len(out) < n {
		p := v.Start()
		for ply := 0; ply < 120 && len(out) < n; ply++ {
			moves = v.Generate(moves[:0], &p)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.Intn(len(moves))])
			out = append(out, p)
		}
	}
	return out
}
