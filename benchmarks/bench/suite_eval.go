package bench

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// The evaluation benchmarks: the static evaluation alone, and the search with the hand-set
// evaluation beside search/NAME (the default one), so that one run shows what the pattern
// evaluation costs (docs/evaluation.md).

// evalPositions is the number of positions of the evaluation benchmarks, and evalPasses the
// passes over them per run.
const (
	evalPositions = 4096
	evalPasses    = 256
)

func init() {
	for _, name := range []string{"english", "international", "russian", "brazilian"} {
		v, err := engine.Lookup(name)
		if err != nil {
			continue
		}
		short := name == "english" || name == "international"
		optional = append(optional,
			Benchmark{Name: "eval/" + name, Unit: "evals/s", Short: short,
				Doc:   fmt.Sprintf("Searcher.Evaluate with the default weights over %d positions of random games, %d passes", evalPositions, evalPasses),
				Setup: evalSetup(v, "")},
			Benchmark{Name: "eval-hand/" + name, Unit: "evals/s", Short: short,
				Doc:   "eval/" + name + " with the hand-set evaluation (eval=hand)",
				Setup: evalSetup(v, "eval=hand")},
			Benchmark{Name: "search-hand/" + name, Unit: "nodes/s", Short: short,
				Doc:   "search/" + name + " with the hand-set evaluation (eval=hand)",
				Setup: searchHandSetup(v)},
		)
	}
}

// specSearcher returns a searcher of v made from the player spec "depth=1:"+opt (the
// default weights when opt is empty); an option the revision lacks skips the benchmark.
func specSearcher(v *engine.Variant, opt string) (*search.Searcher, error) {
	if opt == "" {
		return search.New(v, nil, 16), nil
	}
	ps, err := search.ParsePlayer("depth=1:hash=16:" + opt)
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrSkip)
	}
	p, err := ps.New(v, 1)
	if err != nil {
		return nil, err
	}
	return p.Searcher(), nil
}

// randomGamePositions returns n positions of random games of v, the same on every run.
func randomGamePositions(v *engine.Variant, n int) []engine.Position {
	rng := rand.New(rand.NewPCG(2026, 32))
	out := make([]engine.Position, 0, n)
	for len(out) < n {
		p := v.Start()
		for ply := 0; ply < 100 && len(out) < n; ply++ {
			moves := v.Generate(nil, &p)
			if len(moves) == 0 {
				break
			}
			p = p.Play(moves[rng.IntN(len(moves))])
			out = append(out, p)
		}
	}
	return out
}

func evalSetup(v *engine.Variant, opt string) func(Config) (Workload, error) {
	return func(Config) (Workload, error) {
		s, err := specSearcher(v, opt)
		if err != nil {
			return nil, err
		}
		ps := randomGamePositions(v, evalPositions)
		return func(ctx context.Context) (float64, error) {
			sum := 0
			for range evalPasses {
				for i := range ps {
					sum += s.Evaluate(&ps[i])
				}
			}
			sink = sum
			return float64(evalPasses * len(ps)), ctx.Err()
		}, nil
	}
}

// sink keeps the evaluations from being optimised away.
var sink int

func searchHandSetup(v *engine.Variant) func(Config) (Workload, error) {
	return func(cfg Config) (Workload, error) {
		s, err := specSearcher(v, "eval=hand")
		if err != nil {
			return nil, err
		}
		ps, err := parsePositions(v)
		if err != nil {
			return nil, err
		}
		depth := searchDepth[0]
		if cfg.Short {
			depth = searchDepth[1]
		}
		return func(ctx context.Context) (float64, error) {
			return float64(searchNodes(ctx, v, s, ps, depth)), ctx.Err()
		}, nil
	}
}
