package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/perftshard"
	"github.com/rafle/rafle/pkg/shard"
)

const shardHelp = "A count too long for one machine splits into shards: with --split-depth D --shard K/N,\n" +
	"perft numbers the move sequences of D plies from the root 0, 1, 2, ... in the order of move\n" +
	"generation, depth first (with --duplicates keep, one per capture order, as perft counts\n" +
	"them), counts perft(depth-D) below those whose number is K modulo N, and prints one result\n" +
	"(--json for the file `perft merge` reads). `perft merge SHARD.json...` checks that the N\n" +
	"shards are all there, once each, of the same count, and prints their sum."

// shardFlags are the flags of a sharded count.
func shardFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "split-depth", Usage: "split the count at this many plies (1 to depth-1); needs --shard"},
		&cli.StringFlag{Name: "shard", Usage: "K/N: count the subtrees whose number is K modulo N (0 <= K < N)"},
	}
}

func shardAction(c *cli.Context, cfg config) error {
	if !c.IsSet("split-depth") || !c.IsSet("shard") {
		return cliutil.Usagef("--split-depth and --shard go together")
	}
	split := c.Int("split-depth")
	if split < 1 || split >= cfg.depth {
		return cliutil.Usagef("--split-depth %d: out of range (1 to depth-1 = %d)", split, cfg.depth-1)
	}
	sh, err := shard.Parse(c.String("shard"))
	if err != nil {
		return cliutil.Usagef("--shard: %v", err)
	}
	r, err := perftshard.Count(c.Context, cfg.variant, cfg.pos, cfg.fen, cfg.depth, split, sh, cfg.opt)
	if err != nil {
		return err
	}
	if cfg.json {
		return json.NewEncoder(c.App.Writer).Encode(r)
	}
	_, err = fmt.Fprintf(c.App.Writer, "shard %d/%d: %d of %d subtrees at split depth %d, nodes %d (%s, depth %d, duplicates %s, %.3f s)\n",
		r.Shard, r.Shards, r.Subtrees, r.Positions, split, r.Nodes, r.Variant, r.Depth, r.Duplicates, r.Seconds)
	return err
}

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "add up the shards of a count (perft --split-depth D --shard K/N --json)",
		UsageText: "perft merge [--json] SHARD.json...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json (one object)"},
			&cli.BoolFlag{Name: "json", Usage: "the same as --format json"},
		},
		Action:       mergeAction,
		OnUsageError: cliutil.OnUsageError,
	}
}

func mergeAction(c *cli.Context) error {
	files := c.Args().Slice()
	if len(files) == 0 {
		return cliutil.Usagef("no shard files")
	}
	asJSON, err := cliutil.JSONOutput(c)
	if err != nil {
		return err
	}
	m, err := perftshard.MergeFiles(c.Context, files)
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(c.App.Writer).Encode(m)
	}
	_, err = fmt.Fprintf(c.App.Writer, "nodes %d (%s, depth %d, split depth %d, duplicates %s, %d shards, %d subtrees)\n",
		m.Nodes, m.Variant, m.Depth, m.SplitDepth, m.Duplicates, m.Shards, m.Subtrees)
	return err
}
