package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rafle/rafle/benchmarks/bench"
	"github.com/rafle/rafle/benchmarks/compare"
)

// cmdHistory records results of older revisions in benchmarks/history: each revision is
// built as compare builds its base (the current benchmarks over the revision's packages)
// and runs the suite.
func cmdHistory(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("history", stderr)
	revs := fs.String("revs", "", "comma-separated `REV`isions, oldest first")
	short := fs.Bool("short", false, "short workloads and set")
	reps := fs.Int("reps", 5, "repetitions per benchmark")
	sel := fs.String("bench", "", "comma-separated benchmark names or prefixes")
	corpus := fs.String("corpus", "auto", "PDN corpus `DIR`")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *revs == "" {
		return fmt.Errorf("%w: --revs is required", errUsage)
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	corpusDir, err := corpusDir(root, *corpus)
	if err != nil {
		return err
	}
	for _, rev := range splitList(*revs) {
		fmt.Fprintf(stderr, "%s: building...\n", rev)
		b, err := compare.Build(ctx, root, rev, io.Discard)
		if err != nil {
			return err
		}
		if err := b.BuildCommands(ctx); err != nil {
			fmt.Fprintf(stderr, "%s: %v (its memory benchmarks are skipped)\n", rev, err)
		}
		label := b.BaseCommit[:12]
		if b.Reduced {
			label += "-notune"
		}
		runArgs := []string{"run", "--commit", label, "--reps", strconv.Itoa(*reps), "--bench", *sel,
			"--corpus", corpusDir, "--history", "--quiet"}
		if *short {
			runArgs = append(runArgs, "--short")
		}
		fmt.Fprintf(stderr, "%s: running...\n", rev)
		cmd := exec.CommandContext(ctx, b.Base, runArgs...)
		cmd.Dir, cmd.Stdout, cmd.Stderr = root, stdout, stderr
		cmd.Env = append(os.Environ(), bench.CmdsEnv+"="+b.BaseCmds)
		err = cmd.Run()
		b.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", rev, err)
		}
	}
	return nil
}

// repoRoot returns the directory holding go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}

// commit returns the short hash of HEAD, with "-dirty" when tracked files differ from it.
func commit(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if exec.Command("git", "-C", root, "diff", "--quiet", "HEAD").Run() != nil {
		c += "-dirty"
	}
	return c
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// corpusDir resolves the --corpus flag: "auto" looks for bench.DefaultCorpusDirs relative
// to root and, in a linked git worktree, to the root of the main worktree, and gives ""
// when there is none (the PDN benchmarks are skipped); "" or "none" means no corpus; a
// directory (relative to the working directory) must hold bench.CorpusFile.
func corpusDir(root, flag string) (string, error) {
	switch flag {
	case "", "none":
		return "", nil
	case "auto":
		if d := bench.FindCorpus(root, bench.DefaultCorpusDirs...); d != "" {
			return d, nil
		}
		if main := mainWorktree(root); main != "" {
			return bench.FindCorpus(main, bench.DefaultCorpusDirs...), nil
		}
		return "", nil
	}
	abs, err := filepath.Abs(flag)
	if err == nil {
		if d := bench.FindCorpus(root, abs); d != "" {
			return d, nil
		}
	}
	return "", fmt.Errorf("%w: --corpus %s: no %s there", errUsage, flag, bench.CorpusFile)
}

// mainWorktree returns the root of the main worktree of the git repository at root, or ""
// when git does not say (no git, no repository, a bare one).
func mainWorktree(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "--path-format=absolute", "--git-common-dir").Output()
	common := strings.TrimSpace(string(out))
	if err != nil || filepath.Base(common) != ".git" {
		return ""
	}
	return filepath.Dir(common)
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	short := fs.Bool("short", false, "smaller workloads and only the short set (CI)")
	reps := fs.Int("reps", 5, "measured repetitions per benchmark (after one warm-up)")
	sel := fs.String("bench", "", "comma-separated benchmark names or prefixes (perft, search/english); default all")
	out := fs.String("out", "", "write the result as JSON to `FILE`")
	history := fs.Bool("history", false, "also write the result to benchmarks/history/")
	corpus := fs.String("corpus", "auto", "PDN corpus `DIR` (auto: ../shared/pdn/corpus from the repository root or its main worktree; none: no PDN benchmarks)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	label := fs.String("commit", "", "commit `LABEL` of the result (default: HEAD, with -dirty for changes)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *reps < 1 {
		return fmt.Errorf("%w: --reps %d: want at least 1", errUsage, *reps)
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	bs := bench.Select(*short, splitList(*sel)...)
	if len(bs) == 0 {
		return fmt.Errorf("%w: --bench %q matches no benchmark (see list)", errUsage, *sel)
	}
	dir, err := corpusDir(root, *corpus)
	if err != nil {
		return err
	}
	slow, err := bench.SlowdownFromEnv()
	if err != nil {
		return err
	}
	if *label == "" {
		*label = commit(root)
	}
	res := bench.NewResult(*label, *short, *reps)
	cfg := bench.Config{Short: *short, CorpusDir: dir}
	opt := bench.RunOptions{Reps: *reps, Slowdown: slow}
	if !*quiet {
		opt.Progress = func(b *bench.Benchmark) { fmt.Fprintf(stderr, "%s...\n", b.Name) }
	}
	res.Figures, err = bench.Run(ctx, bs, cfg, opt)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	} else if err := writeRunTable(stdout, res); err != nil {
		return err
	}
	if *out != "" {
		if err := bench.WriteResult(*out, res); err != nil {
			return err
		}
	}
	if *history {
		path := filepath.Join(root, "benchmarks", "history", bench.HistoryName(res))
		if err := bench.WriteResult(path, res); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", path)
	}
	return nil
}

func writeRunTable(w io.Writer, r *bench.Result) error {
	mode := "full"
	if r.Short {
		mode = "short"
	}
	fmt.Fprintf(w, "commit %s, %s, %s/%s, %d CPUs, load %.1f, %s workloads, median of %d runs per %s second\n\n",
		r.Commit, r.GoVersion, r.GOOS, r.GOARCH, r.NumCPU, r.Load, mode, r.Reps, r.Clock)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "benchmark\tmedian\tunit\t±\tmin\tmax\twall median\twork/run\t")
	for _, f := range r.Figures {
		if f.Skipped != "" {
			fmt.Fprintf(tw, "%s\t-\t%s\t\t\t\t\t\t  skipped: %s\n", f.Name, f.Unit, f.Skipped)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f%%\t%s\t%s\t%s\t%s\t\n", f.Name, bench.SI(f.Median), f.Unit, 100*f.Spread(),
			bench.SI(f.Min), bench.SI(f.Max), bench.SI(f.WallMedian), bench.SI(f.Work))
	}
	return tw.Flush()
}

func cmdList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tunit\tshort\tworkload")
	for _, b := range bench.Suite() {
		s := ""
		if b.Short {
			s = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Name, b.Unit, s, b.Doc)
	}
	return tw.Flush()
}

// cmdExec measures one run of one benchmark and prints it as JSON: the protocol between
// compare and the binaries it builds.
func cmdExec(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("exec", stderr)
	name := fs.String("bench", "", "benchmark name")
	short := fs.Bool("short", false, "short workload")
	corpus := fs.String("corpus", "auto", "PDN corpus `DIR`")
	if err := parse(fs, args); err != nil {
		return err
	}
	root, err := repoRoot()
	if err != nil {
		root = "."
	}
	dir, err := corpusDir(root, *corpus)
	if err != nil {
		return err
	}
	var b *bench.Benchmark
	for _, c := range bench.Suite() {
		if c.Name == *name {
			b = &c
		}
	}
	if b == nil {
		// compare runs every benchmark on both builds; one built with fewer (-tags notune)
		// skips the others
		return json.NewEncoder(stdout).Encode(compare.ExecResult{Name: *name, Skipped: "not in this build"})
	}
	slow, err := bench.SlowdownFromEnv()
	if err != nil {
		return err
	}
	res := compare.ExecResult{Name: b.Name}
	w, err := b.Setup(bench.Config{Short: *short, CorpusDir: dir})
	switch {
	case errors.Is(err, bench.ErrSkip):
		res.Skipped = strings.TrimSuffix(err.Error(), ": "+bench.ErrSkip.Error())
	case err != nil:
		return err
	default:
		if res.Sample, err = bench.Measure(ctx, w, slow); err != nil {
			return err
		}
	}
	return json.NewEncoder(stdout).Encode(res)
}

func cmdSignature(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("signature", stderr)
	check := fs.Bool("check", false, "fail when a signature differs from the committed one")
	update := fs.Bool("update", false, "rewrite the committed signatures (after a deliberate change)")
	file := fs.String("file", "", "signatures `FILE` (default benchmarks/signatures.json)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *check && *update {
		return fmt.Errorf("%w: --check and --update exclude each other", errUsage)
	}
	if *file == "" {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		*file = filepath.Join(root, "benchmarks", "signatures.json")
	}
	got, err := bench.ComputeSignatures(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "variant\tsignature (nodes, depth %d)\t\n", got.Depth)
	for _, v := range slices.Sorted(maps.Keys(got.Nodes)) {
		fmt.Fprintf(tw, "%s\t%d\t\n", v, got.Nodes[v])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	switch {
	case *update:
		if err := got.Write(*file); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", *file)
	case *check:
		want, err := bench.ReadSignatures(*file)
		if err != nil {
			return err
		}
		if diff := want.Diff(got); len(diff) > 0 {
			fmt.Fprintf(stderr, "benchmarks signature: the bench signatures differ from %s:\n", *file)
			for _, d := range diff {
				fmt.Fprintf(stderr, "  %s\n", d)
			}
			fmt.Fprintf(stderr, "The search or evaluation behaves differently. If that is intended, run\n"+
				"  go run ./benchmarks signature --update\nand commit benchmarks/signatures.json, saying why in the commit message.\n")
			return errFailed
		}
		fmt.Fprintf(stdout, "signatures match %s\n", *file)
	}
	return nil
}

func cmdPlot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plot", stderr)
	dir := fs.String("history", "", "history `DIR` (default benchmarks/history)")
	out := fs.String("out", "", "SVG `FILE` (default DIR/history.svg)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		root, err := repoRoot()
		if err != nil {
			return err
		}
		*dir = filepath.Join(root, "benchmarks", "history")
	}
	if *out == "" {
		*out = filepath.Join(*dir, "history.svg")
	}
	rs, err := bench.ReadHistory(*dir)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return fmt.Errorf("no results in %s (write one with: go run ./benchmarks --history)", *dir)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := bench.PlotHistory(f, rs); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := writeHistoryTable(stdout, rs); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", *out)
	return nil
}

// writeHistoryTable prints one row per benchmark and one column per result: the median.
func writeHistoryTable(w io.Writer, rs []*bench.Result) error {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, f := range r.Figures {
			if !seen[f.Name] {
				seen[f.Name] = true
				names = append(names, f.Name)
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "benchmark (median per CPU second)\t")
	for _, r := range rs {
		c := strings.TrimSuffix(r.Commit, "-notune")
		if len(c) > 7 {
			c = c[:7]
		}
		if r.Short {
			c += " (short)"
		}
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintln(tw)
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
		for _, r := range rs {
			cell := "-"
			for _, f := range r.Figures {
				if f.Name == n && f.Median > 0 {
					cell = bench.SI(f.Median)
				}
			}
			fmt.Fprintf(tw, "%s\t", cell)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
