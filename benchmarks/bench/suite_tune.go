//go:build !notune

// The benchmarks of pkg/tune. Build with -tags notune to leave them out, so that the
// current benchmarks build against revisions older than pkg/tune (compare does so when the
// base does not build otherwise).

package bench

import (
	"bytes"
	"context"
	"fmt"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/tune"
)

func init() {
	optional = append(optional,
		Benchmark{Name: "pdn/replay", Unit: "MB/s", Short: true,
			Doc:   fmt.Sprintf("tune.Dataset.ReadPDN (read, replay every move with pkg/engine, features of quiet positions) over %s (short: its first %d games)", CorpusFile, tuneGames),
			Setup: replaySetup},
		Benchmark{Name: "tune/fit", Unit: "positions/s", Short: true,
			Doc: fmt.Sprintf("tune.Fit, logistic loss, K fixed, %d L-BFGS iterations (short %d), over the quiet positions of the first %d games of %s; "+
				"positions/s counts each position once per loss evaluation", tuneIterations[0], tuneIterations[1], tuneGames, CorpusFile),
			Setup: tuneSetup},
	)
}

func replaySetup(cfg Config) (Workload, error) {
	data, err := loadCorpus(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Short {
		data = firstGames(data, tuneGames)
	}
	v, err := engine.Lookup("english")
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrSkip)
	}
	return func(ctx context.Context) (float64, error) {
		d := tune.NewDataset(v)
		if err := d.ReadPDN(ctx, bytes.NewReader(data), CorpusFile, tune.Filter{SkipPlies: 8}); err != nil {
			return 0, err
		}
		return float64(len(data)) / 1e6, nil
	}, nil
}

// tuneGames is the number of corpus games of the tune benchmark's data set, and
// tuneIterations its L-BFGS iterations: full, short.
var (
	tuneGames      = 4000
	tuneIterations = [2]int{40, 20}
)

func tuneSetup(cfg Config) (Workload, error) {
	data, err := loadCorpus(cfg)
	if err != nil {
		return nil, err
	}
	v, err := engine.Lookup("english")
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrSkip)
	}
	d := tune.NewDataset(v)
	if err := d.ReadPDN(context.Background(), bytes.NewReader(firstGames(data, tuneGames)), CorpusFile, tune.Filter{SkipPlies: 8}); err != nil {
		return nil, err
	}
	iters := tuneIterations[0]
	if cfg.Short {
		iters = tuneIterations[1]
	}
	tc := tune.Config{K: 1, MaxIterations: iters}
	return func(ctx context.Context) (float64, error) {
		res, err := tune.Fit(ctx, d, tc)
		if err != nil {
			return 0, err
		}
		return float64(res.Train.Positions) * float64(res.Evaluations), nil
	}, nil
}
