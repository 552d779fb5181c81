package main

import (
	"context"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
)

// outputFlag is --output/-o (--out): the output file of a whole run, or the shard file of
// a shard (shardOf).
func outputFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: cliutil.OutputAliases,
		Usage: "write the output to `FILE` instead of stdout (a new file, or a FIFO or device); with a shard, to FILE.shard-K-of-N.EXT (or {shard} in FILE becomes K); never over a file"}
}

// plainKey marks the context of a command whose --output is the file of a whole run.
type plainKey struct{}

// plainRun reports whether the command runs whole with its output in --output's file
// (toOutput), rather than a shard.
func plainRun(c *cli.Context) bool {
	plain, _ := c.Context.Value(plainKey{}).(bool)
	return plain
}

// toOutput runs action with its standard output in the file --output names, when the
// command runs whole: no --shard, and no shard from the environment (Slurm, Kubernetes).
// The file is new, written under a temporary name and linked when complete, and kept when
// the command fails for bad games (the others are in it, as on stdout); a FIFO or a
// character device (/dev/stdout) is written in place. An existing regular file, or one of
// the inputs, is refused: pdn never writes over a file.
func toOutput(action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if !c.IsSet("output") || c.IsSet("shard") || c.IsSet("shards") {
			return action(c)
		}
		sh, err := cliutil.ReadShard(c)
		if err != nil {
			return err
		}
		if sh.Count > 0 {
			return action(c) // a shard from the environment
		}
		path := c.String("output")
		if err := cliutil.NotAnInput(path, c.Args().Slice()...); err != nil {
			return err
		}
		c.Context = context.WithValue(c.Context, plainKey{}, true)
		saved := c.App.Writer
		defer func() { c.App.Writer = saved }()
		run := func(w io.Writer) error {
			c.App.Writer = w
			return action(c)
		}
		st, err := os.Stat(path)
		switch {
		case err != nil:
			return createFile(path, run, keepDataErrors)
		case st.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) != 0:
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			werr := run(f)
			if err := f.Close(); err != nil && werr == nil {
				werr = &cliutil.WriteError{Name: path, Err: err}
			}
			return werr
		default:
			return cliutil.Usagef("--output %s: the file exists (pdn never writes over a file)", path)
		}
	}
}
