package tune

import (
	"context"
	"math"
	"testing"
)

// Config.Iteration sees every iteration, in order, with losses that fall on the training
// set and end at the fit's (its weights unrounded), and a held-out loss.
func TestFitIteration(t *testing.T) {
	d := synthetic(t, 20_000, planted, 1.2, 3)
	var iters []int
	var train, held []float64
	res, err := Fit(context.Background(), d, Config{Holdout: 0.2, Seed: 1, K: 1.2, MaxIterations: 30,
		Iteration: func(i int, tr, h float64) { iters, train, held = append(iters, i), append(train, tr), append(held, h) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(iters) == 0 || len(iters) != res.Iterations {
		t.Fatalf("%d calls for %d iterations", len(iters), res.Iterations)
	}
	for i, n := range iters {
		if n != i+1 || math.IsNaN(held[i]) || (i > 0 && train[i] > train[0]) {
			t.Errorf("call %d: iteration %d, train %g (first %g), held out %g", i, n, train[i], train[0], held[i])
		}
	}
	if last := train[len(train)-1]; math.Abs(last-res.Train.After) > 1e-4 || last >= res.Train.Before {
		t.Errorf("last training loss %g, fit's %g (before %g)", last, res.Train.After, res.Train.Before)
	}
}
