package perftshard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/shard"
)

// TestCount: the shards of a count add up to the count made whole, and count every
// position at the split depth once; Merge adds them up.
func TestCount(t *testing.T) {
	ctx := context.Background()
	for _, row := range []struct {
		variant string
		depth   int
		split   int
		dup     engine.Duplicates
		shards  int
	}{
		{"english", 6, 2, engine.Keep, 3},
		{"russian", 5, 3, engine.Unique, 4},
		// frisian's counts differ by convention from depth 4 (3880 keep, 3874 unique:
		// corpus/perft/frisian.tsv): the duplicates are among the subtrees' roots
		{"frisian", 5, 4, engine.Keep, 2},
		{"frisian", 5, 4, engine.Unique, 5},
	} {
		v := engine.MustLookup(row.variant)
		p := v.Start()
		opt := engine.PerftOptions{Duplicates: row.dup}
		whole, err := v.Perft(ctx, p, row.depth, opt)
		if err != nil {
			t.Fatal(err)
		}
		positions, err := v.Perft(ctx, p, row.split, opt)
		if err != nil {
			t.Fatal(err)
		}
		var results []Result
		var files []string
		for k := range row.shards {
			r, err := Count(ctx, v, p, "start", row.depth, row.split, shard.Shard{Index: k, Count: row.shards}, opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Positions != positions || r.Shard != k || r.Shards != row.shards || r.Duplicates != row.dup.String() {
				t.Errorf("%s shard %d/%d: %+v; want %d positions", row.variant, k, row.shards, r, positions)
			}
			results = append(results, r)
			files = append(files, r.Variant+string(rune('a'+k)))
		}
		m, err := Merge(files, results)
		if err != nil || m.Nodes != whole || m.Subtrees != positions || m.Shards != row.shards {
			t.Errorf("%s: merged %+v, %v; want %d nodes, %d subtrees", row.variant, m, err, whole, positions)
		}
	}
}

// TestCountCancelled: a cancelled count stops and says which shard it was.
func TestCountCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v := engine.MustLookup("english")
	_, err := Count(ctx, v, v.Start(), "start", 6, 2, shard.Shard{Index: 1, Count: 2}, engine.PerftOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "shard 1/2: ") {
		t.Errorf("cancelled count: %v", err)
	}
}

// TestMergeRefuses: Merge names a missing, doubled or foreign shard, and shards that do
// not cover the count.
func TestMergeRefuses(t *testing.T) {
	shard := func(k, n int) Result {
		return Result{Variant: "english", FEN: "start", Depth: 5, SplitDepth: 2, Duplicates: "keep",
			Shard: k, Shards: n, Positions: 49, Subtrees: uint64(49/n + min(1, max(0, 49%n-k))), Nodes: 100}
	}
	deeper := shard(2, 3)
	deeper.Depth = 6
	short := shard(2, 3)
	short.Subtrees--
	var many []Result
	var manyFiles []string
	for k := range 15 {
		many = append(many, shard(k, 20))
		manyFiles = append(manyFiles, "m"+string(rune('a'+k)))
	}
	for _, c := range []struct {
		shards []Result
		files  []string
		want   string
	}{
		{[]Result{shard(0, 3), shard(1, 3)}, []string{"a", "b"}, "missing shards: 2/3"},
		{many, manyFiles, "missing shards: 15/20, 16/20, 17/20, 18/20, 19/20"},
		{[]Result{shard(0, 3), shard(1, 3), shard(1, 3), shard(2, 3)}, []string{"a", "b", "c", "d"}, "shard 1/3 twice: b and c"},
		{[]Result{shard(0, 3), shard(1, 3), deeper}, []string{"a", "b", "c"}, "c is another count than a: english \"start\" depth 6,"},
		{[]Result{shard(0, 3), shard(1, 3), short}, []string{"a", "b", "c"}, "the shards counted 48 subtrees of 49"},
		{nil, nil, "no shards"},
	} {
		if _, err := Merge(c.files, c.shards); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Merge %v: %v; want %q", c.files, err, c.want)
		}
	}
	if m, err := Merge([]string{"a", "b", "c"}, []Result{shard(2, 3), shard(0, 3), shard(1, 3)}); err != nil || m.Nodes != 300 || m.Subtrees != 49 {
		t.Errorf("Merge of three shards: %+v, %v", m, err)
	}
}

// TestRead: Read takes one shard object and refuses anything else, naming the file.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data, want string
	}{
		{"good", `{"variant":"english","depth":5,"split_depth":2,"shard":1,"shards":3,"nodes":7}`, ""},
		{"broken", `{"variant":"english","depth":5`, "broken: not a shard: "},
		{"unknown", `{"variant":"english","colour":"red"}`, "unknown: not a shard: "},
		{"two", `{"shards":1} {"shards":1}`, "two: not a shard: more than one JSON object"},
		{"range", `{"shard":3,"shards":3}`, "range: shard 3/3: want 0 <= K < N"},
	} {
		name := filepath.Join(dir, c.name)
		if err := os.WriteFile(name, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Read(context.Background(), name)
		switch {
		case c.want == "" && (err != nil || r.Shard != 1 || r.Shards != 3 || r.Nodes != 7):
			t.Errorf("%s: %+v, %v", c.name, r, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, c.want))):
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	if _, err := MergeFiles(context.Background(), []string{filepath.Join(dir, "good"), filepath.Join(dir, "none")}); err == nil || !os.IsNotExist(err) {
		t.Errorf("MergeFiles with a missing file: %v", err)
	}
}
