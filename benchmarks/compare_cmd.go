package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/rafle/rafle/benchmarks/bench"
	"github.com/rafle/rafle/benchmarks/compare"
)

func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	base := fs.String("base", "HEAD~1", "base `REV`ision")
	short := fs.Bool("short", false, "CI mode: the short set and workloads, 6 rounds (about 3 minutes on 2 cores)")
	rounds := fs.Int("rounds", 0, "pairs of runs per benchmark (default 10, 6 with --short)")
	threshold := fs.Float64("threshold", 0.10, "fail when a benchmark is slower by more than this fraction, with confidence")
	conf := fs.Float64("confidence", 0.95, "wanted coverage of the intervals")
	sel := fs.String("bench", "", "comma-separated benchmark names or prefixes (default: the full or short set)")
	wall := fs.Bool("wall", false, "compare wall-time throughput instead of CPU time")
	corpus := fs.String("corpus", "auto", "PDN corpus `DIR` (auto: ../shared/pdn/corpus from the repository root or its main worktree; none: no PDN benchmarks)")
	baseBin := fs.String("base-bin", "", "use this benchmark binary as the base instead of building --base")
	newBin := fs.String("new-bin", "", "use this benchmark binary as the new side instead of building the working tree")
	plant := fs.Float64("plant-slowdown", 1, "testing aid: make every run of the new side cost this factor more CPU time")
	verbose := fs.Bool("v", false, "print every run on stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *rounds == 0 {
		*rounds = 10
		if *short {
			*rounds = 6
		}
	}
	if *rounds < 1 || *threshold <= 0 || *threshold >= 1 || *conf <= 0 || *conf >= 1 || *plant < 1 {
		return fmt.Errorf("%w: want --rounds >= 1, 0 < --threshold < 1, 0 < --confidence < 1, --plant-slowdown >= 1", errUsage)
	}
	if (*baseBin == "") != (*newBin == "") {
		return fmt.Errorf("%w: --base-bin and --new-bin go together", errUsage)
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	bs := bench.Select(*short, splitList(*sel)...)
	if len(bs) == 0 {
		return fmt.Errorf("%w: --bench %q matches no benchmark (see list)", errUsage, *sel)
	}
	corpusDir, err := corpusDir(root, *corpus)
	if err != nil {
		return err
	}
	bins := [2]string{*baseBin, *newBin}
	cmds := [2]string{"none", "none"} // the commands of the memory benchmarks: built with the binaries only
	baseName := *base
	if *baseBin == "" {
		fmt.Fprintf(stderr, "building %s and the working tree...\n", *base)
		b, err := compare.Build(ctx, root, *base, io.Discard)
		switch {
		case errors.Is(err, compare.ErrNoBase):
			fmt.Fprintf(stdout, "no base (%s is not in this clone), skipped\n", *base)
			return nil
		case errors.Is(err, compare.ErrBaseBuild):
			fmt.Fprintf(stdout, "base %s does not build with the current benchmarks/, skipped:\n%v\n", *base, err)
			return nil
		case err != nil:
			return err
		}
		defer b.Close()
		if slices.ContainsFunc(bs, func(b bench.Benchmark) bool { return bench.LowerIsBetter(b.Unit) }) {
			if err := b.BuildCommands(ctx); err != nil {
				fmt.Fprintf(stderr, "%v\n(the memory benchmarks of that side are skipped)\n", err)
			}
		}
		bins, cmds = [2]string{b.Base, b.New}, [2]string{b.BaseCmds, b.NewCmds}
		baseName = fmt.Sprintf("%s (%.12s)", *base, b.BaseCommit)
		if b.Reduced {
			baseName += ", built with -tags notune"
		}
	}
	execArgs := []string{"--corpus", corpusDir}
	if *short {
		execArgs = append(execArgs, "--short")
	}
	env := map[compare.Side][]string{compare.Base: {bench.CmdsEnv + "=" + cmds[compare.Base]}, compare.New: {bench.CmdsEnv + "=" + cmds[compare.New]}}
	if *plant > 1 {
		env[compare.New] = append(env[compare.New], bench.SlowdownEnv+"="+strconv.FormatFloat(*plant, 'g', -1, 64))
	}
	cfg := compare.Config{Benchmarks: bs, Rounds: *rounds, Threshold: *threshold, Confidence: *conf, Wall: *wall}
	if *verbose {
		cfg.Progress = func(round int, side compare.Side, name string, s bench.Sample) {
			fmt.Fprintf(stderr, "round %d %-4s %-28s cpu %8.3fs wall %8.3fs\n", round+1, side, name, s.CPU.Seconds(), s.Wall.Seconds())
		}
	}
	clock := "CPU"
	if *wall {
		clock = "wall"
	}
	fmt.Fprintf(stderr, "comparing %d benchmarks over %d rounds (ABBA), load %.1f...\n", len(bs), *rounds, bench.LoadAverage())
	rep, err := compare.Run(ctx, cfg, compare.ExecRunner(bins, root, execArgs, env))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "new: working tree; base: %s; throughput per %s second (MiB: peak memory, lower is better), medians; new/base: median of paired ratios\n\n", baseName, clock)
	if err := rep.WriteTable(stdout); err != nil {
		return err
	}
	regs := rep.Regressions()
	if len(regs) == 0 {
		fmt.Fprintf(stdout, "\nno regression beyond %.0f%%\n", 100**threshold)
		return nil
	}
	fmt.Fprintln(stdout)
	for _, r := range regs {
		if bench.LowerIsBetter(r.Unit) {
			fmt.Fprintf(stdout, "REGRESSION: %s is %.0f%% more than base (new/base %.3f, %.0f%% interval [%.3f, %.3f], above %.2f)\n",
				r.Name, 100*(r.Ratio.Ratio-1), r.Ratio.Ratio, 100*r.Confidence, r.Lo, r.Hi, 1+*threshold)
			continue
		}
		fmt.Fprintf(stdout, "REGRESSION: %s is %.0f%% slower than base (new/base %.3f, %.0f%% interval [%.3f, %.3f], below %.2f)\n",
			r.Name, 100*(1-r.Ratio.Ratio), r.Ratio.Ratio, 100*r.Confidence, r.Lo, r.Hi, 1-*threshold)
	}
	return errFailed
}
