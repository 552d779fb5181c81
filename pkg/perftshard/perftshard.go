package perftshard

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/shard"
)

// Result is the count of one shard: the output of `perft --shard K/N --json`, and what
// Read reads and Merge adds up.
type Result struct {
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

// Count counts shard sh of perft(depth) of p, whose FEN is fen, split at split plies (1 to
// depth-1): perft(depth-split) with opt below each move sequence of split plies whose
// number is sh.Index modulo sh.Count.
func Count(ctx context.Context, v *engine.Variant, p engine.Position, fen string, depth, split int, sh shard.Shard, opt engine.PerftOptions) (Result, error) {
	start := time.Now()
	r := Result{Variant: v.Name, FEN: fen, Depth: depth, SplitDepth: split,
		Duplicates: opt.Duplicates.String(), Shard: sh.Index, Shards: sh.Count}
	err := walk(v, p, split, opt.Duplicates, func(p engine.Position) error {
		i := r.Positions
		r.Positions++
		if i%uint64(sh.Count) != uint64(sh.Index) {
			return ctx.Err()
		}
		nodes, err := v.Perft(ctx, p, depth-split, opt)
		r.Subtrees++
		r.Nodes += nodes
		return err
	})
	if err != nil {
		return r, fmt.Errorf("shard %d/%d: %w", sh.Index, sh.Count, err)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// walk calls visit with each position plies moves below p, depth first in the order of
// move generation: once per move sequence, as perft counts them (with Keep, once per
// capture order). It stops at visit's first error.
func walk(v *engine.Variant, p engine.Position, plies int, dup engine.Duplicates, visit func(engine.Position) error) error {
	if plies == 0 {
		return visit(p)
	}
	for _, m := range v.GenerateDup(nil, &p, dup) {
		if err := walk(v, p.Play(m), plies-1, dup, visit); err != nil {
			return err
		}
	}
	return nil
}

// Sum is the sum of the shards of one count: the output of `perft merge --json`.
type Sum struct {
	Variant    string `json:"variant"`
	FEN        string `json:"fen"`
	Depth      int    `json:"depth"`
	SplitDepth int    `json:"split_depth"`
	Duplicates string `json:"duplicates"`
	Shards     int    `json:"shards"`
	Subtrees   uint64 `json:"subtrees"`
	Nodes      uint64 `json:"nodes"`
}

// MergeFiles reads the shard files (Read) and adds them up (Merge).
func MergeFiles(ctx context.Context, files []string) (Sum, error) {
	shards := make([]Result, len(files))
	for i, name := range files {
		var err error
		if shards[i], err = Read(ctx, name); err != nil {
			return Sum{}, err
		}
	}
	return Merge(files, shards)
}

// Read reads one shard file: one JSON object of `perft --shard K/N --json`.
func Read(ctx context.Context, name string) (Result, error) {
	var r Result
	if err := ctx.Err(); err != nil {
		return r, err
	}
	f, err := os.Open(name)
	if err != nil {
		return r, err
	}
	defer f.Close()
	const maxShardFile = 1 << 20 // a shard is a few hundred bytes
	d := json.NewDecoder(io.LimitReader(f, maxShardFile))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return r, fmt.Errorf("%s: not a shard: %v", name, err)
	}
	if d.More() {
		return r, fmt.Errorf("%s: not a shard: more than one JSON object", name)
	}
	if r.Shards < 1 || r.Shard < 0 || r.Shard >= r.Shards {
		return r, fmt.Errorf("%s: shard %d/%d: want 0 <= K < N", name, r.Shard, r.Shards)
	}
	return r, nil
}

// Merge checks that shards, read from files (named in its errors), are the N shards of
// one count, each once, and returns their sum.
func Merge(files []string, shards []Result) (Sum, error) {
	if len(shards) == 0 {
		return Sum{}, fmt.Errorf("no shards")
	}
	first := shards[0]
	m := Sum{Variant: first.Variant, FEN: first.FEN, Depth: first.Depth, SplitDepth: first.SplitDepth,
		Duplicates: first.Duplicates, Shards: first.Shards}
	seen := map[int]string{} // the file of each shard
	for i, s := range shards {
		if s.count() != first.count() {
			return m, fmt.Errorf("%s is another count than %s: %s, not %s", files[i], files[0], s.describe(), first.describe())
		}
		if f, ok := seen[s.Shard]; ok {
			return m, fmt.Errorf("shard %d/%d twice: %s and %s", s.Shard, s.Shards, f, files[i])
		}
		seen[s.Shard] = files[i]
		m.Subtrees += s.Subtrees
		m.Nodes += s.Nodes
	}
	if len(seen) < first.Shards {
		return m, missing(seen, first.Shards)
	}
	if m.Subtrees != first.Positions {
		return m, fmt.Errorf("the shards counted %d subtrees of %d", m.Subtrees, first.Positions)
	}
	return m, nil
}

// count is what the shards of one count share.
type count struct {
	variant, fen, duplicates string
	depth, split, shards     int
	positions                uint64
}

func (r Result) count() count {
	return count{r.Variant, r.FEN, r.Duplicates, r.Depth, r.SplitDepth, r.Shards, r.Positions}
}

// describe names the count r is a shard of.
func (r Result) describe() string {
	return fmt.Sprintf("%s %q depth %d, split depth %d, duplicates %s, %d shards, %d positions",
		r.Variant, r.FEN, r.Depth, r.SplitDepth, r.Duplicates, r.Shards, r.Positions)
}

// missing is the error that names the shards of n not seen.
func missing(seen map[int]string, n int) error {
	const maxListed = 10 // n comes from the files: name the first few missing only
	var names []string
	for k := 0; k < n && len(names) < maxListed; k++ {
		if _, ok := seen[k]; !ok {
			names = append(names, fmt.Sprintf("%d/%d", k, n))
		}
	}
	more := ""
	if left := n - len(seen) - len(names); left > 0 {
		more = fmt.Sprintf(" and %d more", left)
	}
	return fmt.Errorf("missing shards: %s%s", strings.Join(names, ", "), more)
}
