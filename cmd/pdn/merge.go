package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/annotate"
	"github.com/rafle/rafle/pkg/archive"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "join the shards of validate, stats, convert, filter, dedupe or annotate into the output of one run",
		UsageText: "pdn merge [--output FILE] SHARD...",
		Description: "Reads the files that the N shards of a command wrote (--shard K/N --output FILE) and prints\n" +
			"what the command run once on one machine prints, byte for byte: the problems and counts of\n" +
			"validate, the statistics of stats, the games of convert, filter and dedupe in input order\n" +
			"(dedupe keeps the first of equal games over all the shards), with the same messages on\n" +
			"stderr and the same exit status. It first checks that the files are the N shards of one\n" +
			"job, each once and complete: the same command and flags, the same inputs (names, sizes and\n" +
			"SHA-256), and that they read the same games; it refuses anything else, saying why, before\n" +
			"it prints anything (a file damaged inside stops it where the damage is; --output then keeps\n" +
			"no file). The inputs themselves are not read.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: cliutil.OutputAliases, Usage: "write the output to `FILE` (which must not exist) instead of stdout"},
		},
		OnUsageError: cliutil.OnUsageError,
		Action:       mergeAction,
	}
}

// mergeKey passes the shards being merged to the command's action through the context.
type mergeKey struct{}

// merging returns the shards the command merges instead of reading its inputs, if any.
func merging(c *cli.Context) *archive.ShardSet {
	m, _ := c.Context.Value(mergeKey{}).(*archive.ShardSet)
	return m
}

func mergeAction(c *cli.Context) error {
	names := c.Args().Slice()
	if len(names) == 0 {
		return cliutil.Usagef("merge: give the shard files (pdn COMMAND --shard K/N --output FILE writes them)")
	}
	out := c.String("out")
	if out != "" {
		if _, err := os.Lstat(out); err == nil {
			return cliutil.Usagef("--output %s: the file exists (merge never overwrites)", out)
		}
	}
	if annotate.IsJournal(names[0]) {
		return annotateMerge(c, names, out)
	}
	m, err := archive.OpenShards(c.Context, names)
	if err != nil {
		return err
	}
	defer m.Close()
	args := append([]string{"pdn", m.Header().Command}, m.Header().Flags...)
	args = append(args, "--")
	for _, in := range m.Header().Inputs {
		args = append(args, in.Name)
	}
	ctx := context.WithValue(c.Context, mergeKey{}, m)
	run := func(w io.Writer) error {
		app := newApp(w, c.App.ErrWriter)
		app.ExitErrHandler = func(*cli.Context, error) {}
		return app.RunContext(ctx, args)
	}
	if out == "" {
		return run(c.App.Writer)
	}
	return createFile(out, run, keepDataErrors)
}

// keepDataErrors says, of a command's error, that its output is still written when the
// error is about the data (as on standard output), not when the run was interrupted or the
// shards did not merge.
func keepDataErrors(err error) bool {
	return !archive.IsMergeError(err) && !errors.Is(err, context.Canceled)
}

// createFile writes the new file path with write: under a temporary name, linked to path
// when complete (never over an existing file). When write returns an error, the file is
// kept if keep says so of the error (an error about the data, the output of the rest
// complete), and left out otherwise (an interrupted or failed run leaves no file).
func createFile(path string, write func(io.Writer) error, keep func(error) bool) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name())
	}()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	werr := write(bw)
	if werr != nil && !keep(werr) {
		return werr
	}
	err = bw.Flush()
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &cliutil.WriteError{Name: path, Err: err}
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: written meanwhile by another run: not overwritten", path)
		}
		return err
	}
	return werr
}
