package core

import (
	"math/rand"
	"testing"

	"github.com/rafle/rafle/pkg/internal/board"
)

// TestEvaluateIntegerWeights: with integer weights the searcher's evaluation takes the
// integer path (evaluateInt), which must give exactly what rounding the float sum gives,
// for fixed and random weights up to the limit of intWeights, in every variant.
func TestEvaluateIntegerWeights(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, v := range board.Variants() {
		if _, wide := board.WideVariantOf(v); wide {
			continue // the same code, generated: TestWideSearchMatchesNarrow
		}
		ps := randomGamePositions(v, rng, 400)
		for trial := 0; trial < 6; trial++ {
			w := testWeights(v)
			for name := range w {
				switch trial {
				case 0: // the fixed weights
				case 5:
					w[name] = float64(rng.Int63n(1<<32) - 1<<31)
				default:
					w[name] = float64(rng.Intn(2001) - 1000)
				}
			}
			s := NewSearcher(v, w, nil, 1).k.(*searcher)
			if !s.intW {
				t.Fatalf("%s: integer weights %v not taken as integers", v.Name, w)
			}
			for i := range ps {
				sum := s.t.evaluate(v, &s.w, &ps[i])
				if sum >= 0 {
					sum += 0.5
				} else {
					sum -= 0.5
				}
				const bound = EvalBound
				want := max(-bound, min(bound, int(sum)))
				if got := s.evaluate(&ps[i]); got != want {
					t.Fatalf("%s %s weights %v: Evaluate %d, float sum rounds to %d", v.Name, v.FEN(ps[i]), w, got, want)
				}
			}
		}
	}
	w := testWeights(board.MustLookup("english"))
	w["man"] = 100.5
	if NewSearcher(board.MustLookup("english"), w, nil, 1).k.(*searcher).intW {
		t.Error("a fractional weight taken as an integer")
	}
}

// testWeights returns integer weights for every feature of v, of the sizes of the default
// ones (pkg/search/weights): a man 100, a king 250, the positional terms 1 to 30.
func testWeights(v *board.Variant) map[string]float64 {
	w := map[string]float64{}
	for i, name := range FeatureNames(v) {
		w[name] = float64(1 + 7*i%30)
	}
	w["man"] = 100
	if _, ok := w["king"]; ok {
		w["king"] = 250
	}
	return w
}

// randomGamePositions returns n positions of random games of v.
func randomGamePositions(v *board.Variant, rng *rand.Rand, n int) []board.Position {
	var out []board.Position
	var moves []board.Move
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
