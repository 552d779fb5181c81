package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

// optional are the benchmarks of packages that older revisions lack (see suite_tune.go);
// they come last in Suite.
var optional []Benchmark

// ErrSkip is wrapped by Setup errors that skip a benchmark (missing data, missing API)
// rather than fail the run.
var ErrSkip = errors.New("skipped")

// Config selects the workloads.
type Config struct {
	// Short selects the smaller workloads of the short (CI) mode.
	Short bool
	// CorpusDir is the shared PDN corpus (see DefaultCorpusDirs); empty skips the PDN
	// benchmarks.
	CorpusDir string
}

// Workload runs one fixed amount of work and returns how much it did, in the unit of
// its benchmark's figure before the "/s" (leaves, MB, nodes, games).
type Workload func(ctx context.Context) (work float64, err error)

// Benchmark is one entry of the suite.
type Benchmark struct {
	// Name is "group/variant" or "group/what", e.g. "perft/english".
	Name string
	// Unit is the unit of the figure, e.g. "leaves/s".
	Unit string
	// Short marks the benchmarks of the short mode.
	Short bool
	// Doc says what the workload is.
	Doc string
	// Setup prepares the workload outside the measurement. An error wrapping ErrSkip
	// skips the benchmark.
	Setup func(cfg Config) (Workload, error)
}

// Perft depths, full and short: about 0.1 to 0.4 s of CPU time per run (full) and 0.05 to
// 0.15 s (short) on the shared 2-core machine (docs/benchmarks.md).
var (
	perftDepth = map[string][2]int{
		"english": {10, 10}, "international": {9, 8}, "russian": {10, 9}, "brazilian": {10, 9},
	}
	perftHashDepth = map[string][2]int{
		"english": {12, 11}, "international": {10, 9}, "russian": {11, 10}, "brazilian": {11, 10},
	}
)

// autoDepth returns the perft depth of a variant without an entry in perftDepth: the
// smallest depth whose leaf count from the start position reaches leaves (at most 12).
// Leaf counts do not depend on the machine, so the workload stays fixed.
func autoDepth(v *engine.Variant, leaves uint64) int {
	d := 1
	for ; d < 12; d++ {
		n, err := v.Perft(context.Background(), v.Start(), d, engine.PerftOptions{Duplicates: v.PerftDuplicates, HashMB: 16})
		if err != nil || n >= leaves {
			break
		}
	}
	return d
}

// Suite returns every benchmark, in report order.
func Suite() []Benchmark {
	var bs []Benchmark
	for _, v := range engine.Variants() {
		d := perftDepth[v.Name]
		bs = append(bs, Benchmark{
			Name: "perft/" + v.Name, Unit: "leaves/s", Short: v.Name == "english" || v.Name == "international",
			Doc:   fmt.Sprintf("perft of the start position to %s, bulk counting, 1 thread, no hash", depthDoc(d, 0)),
			Setup: perftSetup(v, d, 0),
		})
	}
	bs = append(bs,
		Benchmark{Name: "perft/international-10", Unit: "leaves/s",
			Doc:   "perft of the international start position to depth 10 (258,895,763 leaves), bulk counting, 1 thread, no hash",
			Setup: perftSetup(engine.MustLookup("international"), [2]int{10, 10}, 0)},
		Benchmark{Name: "perft/international-suite", Unit: "leaves/s", Short: true,
			Doc: fmt.Sprintf("perft of the published international test positions (corpus/perft: %s), bulk counting, "+
				"1 thread, no hash, each count checked", suiteDoc()),
			Setup: perftSuiteSetup},
	)
	for _, v := range engine.Variants() {
		d := perftHashDepth[v.Name]
		bs = append(bs, Benchmark{
			Name: "perft-hash/" + v.Name, Unit: "leaves/s", Short: v.Name == "international",
			Doc:   fmt.Sprintf("perft of the start position to %s, bulk counting, 1 thread, %d MiB hash", depthDoc(d, 1), perftHashMB),
			Setup: perftSetup(v, d, perftHashMB),
		})
	}
	bs = append(bs,
		Benchmark{Name: "pdn/read", Unit: "MB/s", Short: true,
			Doc:   "pdn.Reader over " + CorpusFile + " (11.5 MB, 22,621 games) held in memory",
			Setup: pdnReadSetup},
		Benchmark{Name: "pdn/validate", Unit: "MB/s", Short: true,
			Doc:   "archive.Validate as pdn validate -j 1 runs it: syntax, then every move played with pkg/engine, the variant inferred as it goes, over " + CorpusFile,
			Setup: pdnValidateSetup},
		Benchmark{Name: "pdn/json", Unit: "MB/s", Short: true,
			Doc:   "pdn convert --to json on one worker: pdn.Reader and pdn.JSONWriter over " + CorpusFile + ", output discarded",
			Setup: pdnJSONSetup},
	)
	for _, v := range engine.Variants() {
		set := fmt.Sprintf("the %d signature positions", len(Positions[v.Name]))
		if len(Positions[v.Name]) == 0 {
			set = "the start position"
		}
		bs = append(bs, Benchmark{
			Name: "search/" + v.Name, Unit: "nodes/s", Short: v.Name == "english" || v.Name == "international",
			Doc:   fmt.Sprintf("search of %s to depth %d (short %d), 16 MiB hash, cleared per position", set, searchDepth[0], searchDepth[1]),
			Setup: searchSetup(v),
		})
	}
	for _, name := range []string{"english", "international"} {
		bs = append(bs, Benchmark{
			Name: "selfplay/" + name, Unit: "games/s", Short: name == "english",
			Doc:   fmt.Sprintf("match.Run, easy against easy, %d games (short %d), random 4-ply openings, at most 200 plies, 1 worker", selfplayGames[0], selfplayGames[1]),
			Setup: selfplaySetup(name),
		})
	}
	bs = append(bs, memoryBenchmarks()...)
	return append(bs, optional...)
}

// Select returns the benchmarks of Suite whose name matches one of the patterns (a
// pattern matches a name equal to it or starting with it and a slash, or with
// filepath.Match), or the short set when short and no pattern is given, or all of them.
func Select(short bool, patterns ...string) []Benchmark {
	var out []Benchmark
	for _, b := range Suite() {
		if len(patterns) == 0 {
			if !short || b.Short {
				out = append(out, b)
			}
			continue
		}
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, b.Name); ok || p == b.Name || len(b.Name) > len(p) && b.Name[:len(p)] == p && b.Name[len(p)] == '/' {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

const perftHashMB = 32

// depthDoc describes perft depths d, or the automatic depth (plus extra) when d is zero.
func depthDoc(d [2]int, extra int) string {
	if d[0] == 0 {
		plus := ""
		if extra > 0 {
			plus = fmt.Sprintf(" plus %d", extra)
		}
		return "the smallest depth with 15M leaves (short 4M)" + plus
	}
	return fmt.Sprintf("depth %d (short %d)", d[0], d[1])
}

// perftSetup returns the setup of a perft benchmark to depths (full, short); zero depths
// are chosen by autoDepth (plus one with a hash table).
func perftSetup(v *engine.Variant, depths [2]int, hashMB int) func(Config) (Workload, error) {
	return func(cfg Config) (Workload, error) {
		depth := depths[0]
		if cfg.Short {
			depth = depths[1]
		}
		if depth == 0 {
			leaves := uint64(15e6)
			if cfg.Short {
				leaves = 4e6
			}
			depth = autoDepth(v, leaves)
			if hashMB > 0 {
				depth++
			}
		}
		opt := engine.PerftOptions{Duplicates: v.PerftDuplicates, Threads: 1, HashMB: hashMB}
		return func(ctx context.Context) (float64, error) {
			n, err := v.Perft(ctx, v.Start(), depth, opt)
			return float64(n), err
		}, nil
	}
}

// CorpusFile is the PDN file of the pdn and tune benchmarks, relative to the corpus
// directory.
const CorpusFile = "mzuluaga__checkers/OCA_2.0.pdn"

// DefaultCorpusDirs are where the shared PDN corpus is looked for, relative to the root of
// the repository (or of its main worktree, from a linked git worktree): CI has it at
// ../shared/pdn/corpus.
var DefaultCorpusDirs = []string{"../shared/pdn/corpus"}

// FindCorpus returns the first of dirs (relative to root unless absolute) that holds the
// corpus file of the pdn benchmarks, as an absolute path, or "" when none does.
func FindCorpus(root string, dirs ...string) string {
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			d = filepath.Join(root, d)
		}
		if _, err := os.Stat(filepath.Join(d, CorpusFile)); err == nil {
			if abs, err := filepath.Abs(d); err == nil {
				return abs
			}
			return d
		}
	}
	return ""
}

func loadCorpus(cfg Config) ([]byte, error) {
	if cfg.CorpusDir == "" {
		return nil, fmt.Errorf("no PDN corpus (looked in %v): %w", DefaultCorpusDirs, ErrSkip)
	}
	data, err := os.ReadFile(filepath.Join(cfg.CorpusDir, CorpusFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no %s in %s: %w", CorpusFile, cfg.CorpusDir, ErrSkip)
	}
	return data, err
}

func pdnReadSetup(cfg Config) (Workload, error) {
	data, err := loadCorpus(cfg)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (float64, error) {
		r := pdn.NewReader(bytes.NewReader(data))
		var ge *pdn.GameError
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil && !errors.As(err, &ge) {
				return 0, err
			}
		}
		return float64(len(data)) / 1e6, nil
	}, nil
}

func pdnJSONSetup(cfg Config) (Workload, error) {
	data, err := loadCorpus(cfg)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (float64, error) {
		r := pdn.NewReader(bytes.NewReader(data))
		w := pdn.NewJSONWriter(io.Discard)
		var ge *pdn.GameError
		for {
			g, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil && !errors.As(err, &ge) {
				return 0, err
			}
			if err := w.Write(g); err != nil {
				return 0, err
			}
		}
		return float64(len(data)) / 1e6, w.Flush()
	}, nil
}

func pdnValidateSetup(cfg Config) (Workload, error) {
	data, err := loadCorpus(cfg)
	if err != nil {
		return nil, err
	}
	job := archive.Job{Inputs: []archive.Input{{Name: CorpusFile, Size: int64(len(data)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}}}
	return func(ctx context.Context) (float64, error) {
		if _, err := archive.Validate(ctx, job, archive.ValidateOptions{Jobs: 1, Replay: &pdn.Replayer{}, Infer: true}); err != nil {
			return 0, err
		}
		return float64(len(data)) / 1e6, nil
	}, nil
}

// searchDepth is the depth of the search benchmarks: full, short.
var searchDepth = [2]int{8, 8}

func searchSetup(v *engine.Variant) func(Config) (Workload, error) {
	return func(cfg Config) (Workload, error) {
		depth := searchDepth[0]
		if cfg.Short {
			depth = searchDepth[1]
		}
		ps, err := parsePositions(v)
		if err != nil {
			return nil, err
		}
		s := search.New(v, nil, 16)
		return func(ctx context.Context) (float64, error) {
			return float64(searchNodes(ctx, v, s, ps, depth)), ctx.Err()
		}, nil
	}
}

// selfplayGames is the number of games of the self-play benchmarks: full, short.
var selfplayGames = [2]int{64, 64}

func selfplaySetup(name string) func(Config) (Workload, error) {
	return func(cfg Config) (Workload, error) {
		v, err := engine.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", err, ErrSkip)
		}
		ops, err := match.RandomOpenings(v, 4, 8, 1, nil)
		if err != nil {
			return nil, err
		}
		ps, ok := search.Level("easy")
		if !ok {
			return nil, fmt.Errorf("no easy level: %w", ErrSkip)
		}
		games := selfplayGames[0]
		if cfg.Short {
			games = selfplayGames[1]
		}
		mc := match.Config{Variant: v, Players: []match.Entrant{match.Engine("easy", ps), match.Engine("easy#2", ps)},
			Games: games, Openings: ops, MaxPlies: 200, Concurrency: 1, Seed: 1}
		return func(ctx context.Context) (float64, error) {
			res, err := match.Run(ctx, mc)
			if err != nil {
				return 0, err
			}
			return float64(res.Games), nil
		}, nil
	}
}

// firstGames returns the prefix of the PDN data that holds its first n games (each
// starting with an Event tag).
func firstGames(data []byte, n int) []byte {
	end := 0
	for range n {
		i := bytes.Index(data[end+1:], []byte("\n[Event "))
		if i < 0 {
			return data
		}
		end += i + 1
	}
	return data[:end+1]
}

// perftSuite are the published international test positions of perftSuiteSetup and their
// depths: full and short.
var perftSuite = []struct {
	position string
	depths   [2]int
}{{"Woldouby", [2]int{13, 12}}, {"FrontRows", [2]int{11, 10}}}

func suiteDoc() string {
	var parts []string
	for _, p := range perftSuite {
		parts = append(parts, fmt.Sprintf("%s depth %d (short %d)", p.position, p.depths[0], p.depths[1]))
	}
	return strings.Join(parts, ", ")
}

// perftSuiteSetup counts the positions of perftSuite, each in the duplicate convention of
// its published count, and fails when a count differs from it.
func perftSuiteSetup(cfg Config) (Workload, error) {
	v := engine.MustLookup("international")
	cases, err := corpus.PerftSuite(v)
	if err != nil {
		return nil, err
	}
	type run struct {
		pc  engine.PerftCase
		pos engine.Position
	}
	var runs []run
	for _, want := range perftSuite {
		depth := want.depths[0]
		if cfg.Short {
			depth = want.depths[1]
		}
		found := false
		for _, pc := range cases {
			if pc.Position == want.position && pc.Depth == depth {
				p, err := v.ParseFEN(pc.FEN)
				if err != nil {
					return nil, err
				}
				runs, found = append(runs, run{pc, p}), true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("corpus/perft: no %s depth %d: %w", want.position, depth, ErrSkip)
		}
	}
	return func(ctx context.Context) (float64, error) {
		var total uint64
		for _, r := range runs {
			opt := engine.PerftOptions{Duplicates: r.pc.Conventions()[0], Threads: 1}
			n, err := v.Perft(ctx, r.pos, r.pc.Depth, opt)
			if err != nil {
				return 0, err
			}
			if n != r.pc.Nodes {
				return 0, fmt.Errorf("perft %s depth %d: %d leaves, published %d", r.pc.Position, r.pc.Depth, n, r.pc.Nodes)
			}
			total += n
		}
		return float64(total), nil
	}, nil
}
