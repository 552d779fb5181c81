package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
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

// shardResult is the output of a sharded count, and what `perft merge` reads.
type shardResult struct {
	Variant    string `json:"variant"`
	FEN        string `json:"fen"`
	Depth      int    `json:"depth"`
	SplitDepth int    `json:"split_depth"`
	Duplicates string `json:"duplicates"`
	Shard      int    `json:"shard"`
	Shards     int    `json:"shards"`
	// Positions is the number of move sequences of SplitDepth plies, over all shards.
	Positions uint64 `json:"positions"`
	// Subtrees is the number of them this shard counted.
	Subtrees uint64  `json:"subtrees"`
	Nodes    uint64  `json:"nodes"`
	Seconds  float64 `json:"seconds"`
}

// parseShard reads --shard K/N.
func parseShard(s string) (k, n int, err error) {
	sh, err := shard.Parse(s)
	if err != nil {
		return 0, 0, cliutil.Usagef("--shard: %v", err)
	}
	return sh.Index, sh.Count, nil
}

func shardAction(c *cli.Context, cfg config) error {
	if !c.IsSet("split-depth") || !c.IsSet("shard") {
		return cliutil.Usagef("--split-depth and --shard go together")
	}
	split := c.Int("split-depth")
	if split < 1 || split >= cfg.depth {
		return cliutil.Usagef("--split-depth %d: out of range (1 to depth-1 = %d)", split, cfg.depth-1)
	}
	k, n, err := parseShard(c.String("shard"))
	if err != nil {
		return err
	}
	start := time.Now()
	r := shardResult{Variant: cfg.variant.Name, FEN: cfg.fen, Depth: cfg.depth, SplitDepth: split,
		Duplicates: cfg.opt.Duplicates.String(), Shard: k, Shards: n}
	err = splitWalk(cfg.variant, cfg.pos, split, cfg.opt.Duplicates, func(p engine.Position) error {
		i := r.Positions
		r.Positions++
		if i%uint64(n) != uint64(k) {
			return c.Context.Err()
		}
		nodes, err := cfg.variant.Perft(c.Context, p, cfg.depth-split, cfg.opt)
		r.Subtrees++
		r.Nodes += nodes
		return err
	})
	if err != nil {
		return fmt.Errorf("shard %d/%d: %w", k, n, err)
	}
	r.Seconds = time.Since(start).Seconds()
	if cfg.json {
		return json.NewEncoder(c.App.Writer).Encode(r)
	}
	_, err = fmt.Fprintf(c.App.Writer, "shard %d/%d: %d of %d subtrees at split depth %d, nodes %d (%s, depth %d, duplicates %s, %.3f s)\n",
		k, n, r.Subtrees, r.Positions, split, r.Nodes, r.Variant, r.Depth, r.Duplicates, r.Seconds)
	return err
}

// splitWalk calls visit with each position plies moves below p, depth first in the order
// of move generation: once per move sequence, as perft counts them (with Keep, once per
// capture order). It stops at visit's first error.
func splitWalk(v *engine.Variant, p engine.Position, plies int, dup engine.Duplicates, visit func(engine.Position) error) error {
	if plies == 0 {
		return visit(p)
	}
	for _, m := range v.GenerateDup(nil, &p, dup) {
		if err := splitWalk(v, p.Play(m), plies-1, dup, visit); err != nil {
			return err
		}
	}
	return nil
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

// mergeResult is the output of `perft merge --json`.
type mergeResult struct {
	Variant    string `json:"variant"`
	FEN        string `json:"fen"`
	Depth      int    `json:"depth"`
	SplitDepth int    `json:"split_depth"`
	Duplicates string `json:"duplicates"`
	Shards     int    `json:"shards"`
	Subtrees   uint64 `json:"subtrees"`
	Nodes      uint64 `json:"nodes"`
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
	shards := make([]shardResult, len(files))
	for i, name := range files {
		if err := readShard(c.Context, name, &shards[i]); err != nil {
			return err
		}
	}
	m, err := merge(files, shards)
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

// readShard reads one shard file: one JSON object of `perft --shard K/N --json`.
func readShard(ctx context.Context, name string, r *shardResult) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	const maxShardFile = 1 << 20 // a shard is a few hundred bytes
	d := json.NewDecoder(io.LimitReader(f, maxShardFile))
	d.DisallowUnknownFields()
	if err := d.Decode(r); err != nil {
		return fmt.Errorf("%s: not a shard: %v", name, err)
	}
	if d.More() {
		return fmt.Errorf("%s: not a shard: more than one JSON object", name)
	}
	if r.Shards < 1 || r.Shard < 0 || r.Shard >= r.Shards {
		return fmt.Errorf("%s: shard %d/%d: want 0 <= K < N", name, r.Shard, r.Shards)
	}
	return nil
}

// merge checks that shards, read from files, are the N shards of one count, each once, and
// returns their sum.
func merge(files []string, shards []shardResult) (mergeResult, error) {
	first := shards[0]
	m := mergeResult{Variant: first.Variant, FEN: first.FEN, Depth: first.Depth, SplitDepth: first.SplitDepth,
		Duplicates: first.Duplicates, Shards: first.Shards}
	type count struct {
		variant, fen, duplicates string
		depth, split, shards     int
		positions                uint64
	}
	key := func(s shardResult) count {
		return count{s.Variant, s.FEN, s.Duplicates, s.Depth, s.SplitDepth, s.Shards, s.Positions}
	}
	describe := func(s shardResult) string {
		return fmt.Sprintf("%s %q depth %d, split depth %d, duplicates %s, %d shards, %d positions",
			s.Variant, s.FEN, s.Depth, s.SplitDepth, s.Duplicates, s.Shards, s.Positions)
	}
	seen := map[int]string{} // the file of each shard
	for i, s := range shards {
		if key(s) != key(first) {
			return m, fmt.Errorf("%s is another count than %s: %s, not %s", files[i], files[0], describe(s), describe(first))
		}
		if f, ok := seen[s.Shard]; ok {
			return m, fmt.Errorf("shard %d/%d twice: %s and %s", s.Shard, s.Shards, f, files[i])
		}
		seen[s.Shard] = files[i]
		m.Subtrees += s.Subtrees
		m.Nodes += s.Nodes
	}
	if len(seen) < first.Shards {
		const maxListed = 10 // N comes from the files: name the first few missing only
		var missing []string
		for k := 0; k < first.Shards && len(missing) < maxListed; k++ {
			if _, ok := seen[k]; !ok {
				missing = append(missing, fmt.Sprintf("%d/%d", k, first.Shards))
			}
		}
		more := ""
		if n := first.Shards - len(seen) - len(missing); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		return m, fmt.Errorf("missing shards: %s%s", strings.Join(missing, ", "), more)
	}
	if m.Subtrees != first.Positions {
		return m, fmt.Errorf("the shards counted %d subtrees of %d", m.Subtrees, first.Positions)
	}
	return m, nil
}
