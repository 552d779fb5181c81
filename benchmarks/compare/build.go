package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rafle/rafle/benchmarks/bench"
)

// ErrNoBase is returned by Build when the base revision is not in the repository (the
// first commit, a shallow clone).
var ErrNoBase = errors.New("no base")

// ErrBaseBuild is returned by Build when the base revision does not build with the
// current benchmarks (an API the benchmarks use is newer than the base).
var ErrBaseBuild = errors.New("base does not build with the current benchmarks")

// Builds are the two benchmark binaries of a comparison.
type Builds struct {
	Base, New string
	// BaseCommit is the full hash of the base revision.
	BaseCommit string
	// BaseCmds and NewCmds are the directories of the commands that the peak-memory
	// benchmarks run, built from the same trees by BuildCommands; "none" (bench.CmdsEnv:
	// the benchmarks skip) until then, or when a tree does not build them.
	BaseCmds, NewCmds string
	// Reduced is set when the base only built with -tags notune (without the benchmarks
	// of pkg/tune, which it predates).
	Reduced  bool
	dir      string
	root     string
	worktree string
}

// Build builds the benchmark binary (the package ./benchmarks) twice into a new
// temporary directory: from the working tree at root, and from revision rev checked out
// in a temporary git worktree, with the working tree's benchmarks/ directory copied over
// the base's (built with -tags notune if it does not build otherwise). Both binaries thus run the same workloads with the same code; only the
// packages they measure differ. Call Close to remove the worktree and the binaries.
// Commands' output goes to log.
func Build(ctx context.Context, root, rev string, log io.Writer) (*Builds, error) {
	out, err := gitOutput(ctx, root, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("compare: %s: %w", rev, ErrNoBase)
	}
	dir, err := os.MkdirTemp("", "rafle-compare-")
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	b := &Builds{Base: filepath.Join(dir, "base"), New: filepath.Join(dir, "new"), BaseCommit: out, dir: dir, root: root,
		BaseCmds: "none", NewCmds: "none"}
	fail := func(err error) (*Builds, error) {
		b.Close()
		return nil, err
	}
	if err := goBuild(ctx, root, b.New, log); err != nil {
		return fail(fmt.Errorf("compare: building the working tree: %w", err))
	}
	b.worktree = filepath.Join(dir, "src")
	if err := run(ctx, root, log, "git", "worktree", "add", "--detach", "--quiet", b.worktree, out); err != nil {
		b.worktree = ""
		return fail(fmt.Errorf("compare: git worktree add %s: %w", rev, err))
	}
	dst := filepath.Join(b.worktree, "benchmarks")
	if err := os.RemoveAll(dst); err != nil {
		return fail(fmt.Errorf("compare: %w", err))
	}
	if err := copyGo(filepath.Join(root, "benchmarks"), dst); err != nil {
		return fail(fmt.Errorf("compare: %w", err))
	}
	if err := goBuild(ctx, b.worktree, b.Base, log); err != nil {
		// a base older than an optional package: build without its benchmarks
		if err2 := goBuild(ctx, b.worktree, b.Base, log, "-tags", "notune"); err2 != nil {
			return fail(fmt.Errorf("compare: %s: %w: %v", rev, ErrBaseBuild, err))
		}
		b.Reduced = true
	}
	return b, nil
}

// BuildCommands builds the commands of the peak-memory benchmarks (bench.BuildCommands)
// from both trees into BaseCmds and NewCmds. A tree that does not build them keeps "none";
// the error says which.
func (b *Builds) BuildCommands(ctx context.Context) error {
	var errs []error
	build := func(tree, name string, out *string) {
		dir := filepath.Join(b.dir, name)
		if err := bench.BuildCommands(ctx, tree, dir); err != nil {
			errs = append(errs, fmt.Errorf("compare: %s: %w", name, err))
			return
		}
		*out = dir
	}
	build(b.root, "new-cmds", &b.NewCmds)
	build(b.worktree, "base-cmds", &b.BaseCmds)
	return errors.Join(errs...)
}

// Close removes the worktree and the binaries.
func (b *Builds) Close() error {
	var err error
	if b.worktree != "" {
		err = run(context.Background(), b.root, io.Discard, "git", "worktree", "remove", "--force", b.worktree)
		b.worktree = ""
	}
	if b.dir != "" {
		if e := os.RemoveAll(b.dir); err == nil {
			err = e
		}
		b.dir = ""
	}
	return err
}

func goBuild(ctx context.Context, dir, out string, log io.Writer, flags ...string) error {
	// -trimpath keeps the build cache shared between the two trees
	args := append([]string{"build", "-trimpath", "-o", out}, flags...)
	return run(ctx, dir, log, "go", append(args, "./benchmarks")...)
}

func run(ctx context.Context, dir string, log io.Writer, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout = io.MultiWriter(log, &buf)
	cmd.Stderr = io.MultiWriter(log, &buf)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(buf.String()))
	}
	return nil
}

func gitOutput(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// copyGo copies the Go sources and embedded data of src into dst (not the history).
func copyGo(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel == "history" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
}

// ExecRunner returns a Runner that runs the binaries of b with the arguments
// "exec --bench NAME" followed by args, in directory dir, and reads the sample the binary
// prints as JSON. env, if not nil, adds environment variables per side (the tests plant
// a slowdown with it).
func ExecRunner(bins [2]string, dir string, args []string, env map[Side][]string) Runner {
	return func(ctx context.Context, side Side, name string) (bench.Sample, error) {
		cmd := exec.CommandContext(ctx, bins[side], append([]string{"exec", "--bench", name}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env[side]...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return bench.Sample{}, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
		var res ExecResult
		if err := json.Unmarshal(out, &res); err != nil {
			return bench.Sample{}, fmt.Errorf("reading %q: %w", out, err)
		}
		if res.Skipped != "" {
			return bench.Sample{}, fmt.Errorf("%s: %w", res.Skipped, bench.ErrSkip)
		}
		return res.Sample, nil
	}
}

// ExecResult is what the exec subcommand prints: one sample, or why it was skipped.
type ExecResult struct {
	Name string `json:"name"`
	bench.Sample
	Skipped string `json:"skipped,omitempty"`
}
