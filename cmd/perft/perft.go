package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/pkg/engine"
)

// depthResult is one line of `perft` output.
type depthResult struct {
	Variant    string  `json:"variant"`
	FEN        string  `json:"fen"`
	Depth      int     `json:"depth"`
	Nodes      uint64  `json:"nodes"`
	Duplicates string  `json:"duplicates"`
	Seconds    float64 `json:"seconds"`
	NPS        float64 `json:"nps"`
	Threads    int     `json:"threads"`
	HashMB     int     `json:"hash_mb"`
	// Setup is the time spent making or clearing the table before the count, which
	// Seconds leaves out.
	Setup float64 `json:"setup_seconds"`
}

func perftAction(c *cli.Context) error {
	if c.Args().Present() {
		return cliutil.Usagef("unexpected argument %q (subcommands: divide, verify, diff, merge)", c.Args().First())
	}
	w := c.App.Writer
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	if c.IsSet("split-depth") || c.IsSet("shard") {
		return shardAction(c, cfg)
	}
	if !cfg.json {
		fmt.Fprintf(w, "# %s %s, duplicates %s, %d threads, hash %d MiB", cfg.variant.Name, cfg.fen, cfg.opt.Duplicates, cfg.opt.Threads, cfg.opt.HashMB)
		if cfg.opt.Table != nil {
			fmt.Fprintf(w, " (set up in %.3f s, not counted below)", cfg.setup)
		}
		fmt.Fprintf(w, "\n%5s %22s %10s %14s\n", "depth", "nodes", "seconds", "nodes/s")
	}
	for d := 1; d <= cfg.depth; d++ {
		setup := cfg.setup
		if d > 1 {
			// each depth is timed as a count of its own, without the clearing of the table
			t := now()
			fresh(cfg.opt)
			setup = now().Sub(t).Seconds()
		}
		start := now()
		n, err := cfg.variant.Perft(c.Context, cfg.pos, d, cfg.opt)
		if err != nil {
			return fmt.Errorf("depth %d: %w", d, err) // the lines above are the depths done
		}
		r := depthResult{Variant: cfg.variant.Name, FEN: cfg.fen, Depth: d, Nodes: n, Duplicates: cfg.opt.Duplicates.String(),
			Seconds: now().Sub(start).Seconds(), Threads: cfg.opt.Threads, HashMB: cfg.opt.HashMB, Setup: setup}
		if r.Seconds > 0 {
			r.NPS = float64(n) / r.Seconds
		}
		if err := writeResult(w, cfg.json, r); err != nil {
			return err
		}
	}
	return nil
}

func writeResult(w io.Writer, asJSON bool, r depthResult) error {
	if asJSON {
		return json.NewEncoder(w).Encode(r)
	}
	_, err := fmt.Fprintf(w, "%5d %22d %10.3f %14.0f\n", r.Depth, r.Nodes, r.Seconds, r.NPS)
	return err
}

// divideLine is one line of `perft divide --json`.
type divideLine struct {
	Move  string `json:"move"`
	Nodes uint64 `json:"nodes"`
}

// divideNotation names the root moves of a divide: in the variant's notation, with the full
// path where the short form would be ambiguous, and one line per capture order when
// duplicates are kept.
func divideNotation(v *engine.Variant, p *engine.Position, entries []engine.DivideEntry) []string {
	names := make([]string, len(entries))
	seen := map[engine.Move]int{}
	for i, e := range entries {
		k := seen[e.Move]
		seen[e.Move]++
		if k == 0 {
			names[i] = v.FormatMove(p, e.Move, false)
			continue
		}
		// a second capture order of the same move: show its own path
		paths := v.Paths(p, e.Move)
		names[i] = v.FormatMove(p, e.Move, true)
		if k < len(paths) {
			names[i] = v.FormatPath(paths[k])
		}
	}
	return names
}

func divideAction(c *cli.Context) error {
	cfg, err := readConfig(c)
	if err != nil {
		return err
	}
	start := now()
	entries, err := cfg.variant.Divide(c.Context, cfg.pos, cfg.depth, cfg.opt)
	if err != nil {
		return fmt.Errorf("divide depth %d: %w", cfg.depth, err)
	}
	elapsed := now().Sub(start).Seconds()
	names := divideNotation(cfg.variant, &cfg.pos, entries)
	w := c.App.Writer
	var total uint64
	for i, e := range entries {
		total += e.Nodes
		if cfg.json {
			if err := json.NewEncoder(w).Encode(divideLine{names[i], e.Nodes}); err != nil {
				return err
			}
		} else {
			fmt.Fprintf(w, "%-12s %d\n", names[i], e.Nodes)
		}
	}
	r := depthResult{Variant: cfg.variant.Name, FEN: cfg.fen, Depth: cfg.depth, Nodes: total, Duplicates: cfg.opt.Duplicates.String(),
		Seconds: elapsed, Threads: cfg.opt.Threads, HashMB: cfg.opt.HashMB, Setup: cfg.setup}
	if elapsed > 0 {
		r.NPS = float64(total) / elapsed
	}
	if cfg.json {
		return json.NewEncoder(w).Encode(struct {
			depthResult
			Moves int `json:"moves"`
		}{r, len(entries)})
	}
	_, err = fmt.Fprintf(w, "\nmoves %d, nodes %d (%s, depth %d, duplicates %s, %.3f s)\n", len(entries), total, cfg.variant.Name, cfg.depth, cfg.opt.Duplicates, elapsed)
	return err
}
