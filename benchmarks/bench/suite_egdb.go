//go:build !notune

// The benchmarks of pkg/egdb. Like pkg/tune's (suite_tune.go), -tags notune leaves them out,
// so that the current benchmarks build against revisions older than the package.

package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// egdbPieces is the size of the egdb benchmarks' database: english up to 3 pieces
// (16 slices, 199,520 positions with White to move, about 0.1-0.2 s of CPU to build).
const egdbPieces = 3

// egdbProbes is the number of probes of a warm-cache run.
const egdbProbes = 400_000

func init() {
	optional = append(optional,
		Benchmark{Name: "egdb/build", Unit: "positions/s", Short: true,
			Doc:   fmt.Sprintf("egdb.Build of english up to %d pieces (199,520 positions) into a new directory, 1 thread", egdbPieces),
			Setup: egdbBuildSetup},
		Benchmark{Name: "egdb/probe", Unit: "probes/s", Short: true,
			Doc:   fmt.Sprintf("DB.Probe of %d random positions of english's slices of %d pieces, both sides to move, cache warm", egdbProbes, egdbPieces),
			Setup: egdbProbeSetup(false)},
		Benchmark{Name: "egdb/probe-cold", Unit: "probes/s",
			Doc:   fmt.Sprintf("DB.Probe of one position per block of every slice of english up to %d pieces, a DB opened anew (files opened, checksums read, each block read and decompressed)", egdbPieces),
			Setup: egdbProbeSetup(true)},
	)
}

func egdbBuildSetup(Config) (Workload, error) {
	v := engine.MustLookup("english")
	return func(ctx context.Context) (float64, error) {
		dir, err := os.MkdirTemp("", "rafle-bench-egdb-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(dir)
		rs, err := egdb.Build(ctx, v, egdb.BuildOptions{Dir: dir, Pieces: egdbPieces, Jobs: 1})
		if err != nil {
			return 0, err
		}
		var n uint64
		for _, r := range rs {
			n += r.Positions
		}
		return float64(n), nil
	}, nil
}

// egdbDir builds the probe benchmarks' database afresh, in one folder of the temporary
// directory that every run reuses (so that runs leave no more behind).
func egdbDir(v *engine.Variant) (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("rafle-bench-egdb-%s-%d", v.Name, os.Getuid()))
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	_, err := egdb.Build(context.Background(), v, egdb.BuildOptions{Dir: dir, Pieces: egdbPieces, Jobs: 1})
	return dir, err
}

func egdbProbeSetup(cold bool) func(Config) (Workload, error) {
	return func(Config) (Workload, error) {
		v := engine.MustLookup("english")
		dir, err := egdbDir(v)
		if err != nil {
			return nil, err
		}
		db, err := egdb.Open(dir, v, egdb.Options{CacheMB: 16})
		if err != nil {
			return nil, err
		}
		var ps []engine.Position
		rng := rand.New(rand.NewPCG(1, 2))
		slices := egdb.SlicesOf(v, egdbPieces)
		if cold {
			for _, s := range db.Slices() {
				for i := uint64(0); i < db.Size(s); i += egdb.BlockPositions {
					p, err := db.Position(s, i, engine.White)
					if err != nil {
						return nil, err
					}
					ps = append(ps, p)
				}
			}
		} else {
			for range egdbProbes {
				s := slices[rng.IntN(len(slices))]
				p, err := db.Position(s, rng.Uint64N(db.Size(s)), engine.Color(rng.IntN(2)))
				if err != nil {
					return nil, err
				}
				ps = append(ps, p)
			}
			for i := range ps { // warm the cache
				if _, err := db.Probe(&ps[i]); err != nil {
					return nil, err
				}
			}
		}
		return func(ctx context.Context) (float64, error) {
			d := db
			if cold {
				if d, err = egdb.Open(dir, v, egdb.Options{CacheMB: 1}); err != nil {
					return 0, err
				}
				defer d.Close()
			}
			for i := range ps {
				r, err := d.Probe(&ps[i])
				if err != nil {
					return 0, err
				}
				if r.Value == egdb.Unknown {
					return 0, fmt.Errorf("egdb: %s not in the benchmark's database", v.FEN(ps[i]))
				}
			}
			return float64(len(ps)), nil
		}, nil
	}
}
