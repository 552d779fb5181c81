package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/pkg/engine"
)

// published returns the published count of the start position of variant at depth under
// dup, from the suite in corpus/perft.
func published(t *testing.T, variant string, depth int, dup engine.Duplicates) uint64 {
	t.Helper()
	cases, err := corpus.PerftSuite(engine.MustLookup(variant))
	if err != nil {
		t.Fatal(err)
	}
	for _, pc := range cases {
		if pc.Position == "start" && pc.Depth == depth && slices.Contains(pc.Conventions(), dup) {
			return pc.Nodes
		}
	}
	t.Fatalf("corpus/perft has no %s start depth %d %s", variant, depth, dup)
	return 0
}

// writeShards runs the n shards of a count with args, writes each to a file in dir whose
// name starts with prefix, and returns the files.
func writeShards(t *testing.T, dir, prefix string, n int, args ...string) []string {
	t.Helper()
	var files []string
	for k := 0; k < n; k++ {
		a := append(slices.Clone(args), "--shard", fmt.Sprintf("%d/%d", k, n), "--json")
		code, out, stderr := runPerft(t, a...)
		if code != 0 {
			t.Fatalf("perft %v: exit %d, %s", a, code, stderr)
		}
		name := filepath.Join(dir, fmt.Sprintf("%s%d.json", prefix, k))
		if err := os.WriteFile(name, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return files
}

// TestShardSums: the shards of a count add up to the published count, whatever the number
// of shards and the split depth, and together count every position at the split depth
// once (the published perft of the split depth).
func TestShardSums(t *testing.T) {
	for _, row := range []struct {
		variant string
		depth   int
		dup     engine.Duplicates
		splits  []int
	}{
		{"english", 8, engine.Keep, nil},
		{"international", 7, engine.Unique, nil},
		// russian depth 8 differs by duplicate convention: 929905 keep, 929899 unique
		{"russian", 8, engine.Keep, nil},
		{"russian", 8, engine.Unique, nil},
		{"canadian", 6, engine.Unique, nil}, // 12x12: the wide instance
		// frisian differs from depth 4 (3880 keep, 3874 unique): split at 4 and 5, the
		// duplicates are among the subtrees' roots
		{"frisian", 6, engine.Keep, []int{1, 4, 5}},
		{"frisian", 6, engine.Unique, []int{1, 4, 5}},
	} {
		want := published(t, row.variant, row.depth, row.dup)
		splits := row.splits
		if splits == nil {
			splits = []int{1, 2, 3}
		}
		for _, split := range splits {
			positions := published(t, row.variant, split, row.dup)
			for _, n := range []int{1, 3, 7} {
				args := []string{"-v", row.variant, "-d", fmt.Sprint(row.depth), "--duplicates", row.dup.String(),
					"--split-depth", fmt.Sprint(split), "-t", "2", "--hash", fmt.Sprint(split % 3)}
				files := writeShards(t, t.TempDir(), "shard", n, args...)
				var sum uint64
				for _, f := range files {
					var r shardResult
					data, err := os.ReadFile(f)
					if err == nil {
						err = json.Unmarshal(data, &r)
					}
					if err != nil {
						t.Fatalf("%s: %v", f, err)
					}
					sum += r.Nodes
				}
				code, out, stderr := runPerft(t, append([]string{"merge", "--json"}, files...)...)
				var m mergeResult
				if code != 0 || json.Unmarshal([]byte(out), &m) != nil {
					t.Fatalf("%v, %d shards: merge: exit %d, %s%s", args, n, code, out, stderr)
				}
				if sum != want || m.Nodes != want || m.Subtrees != positions || m.Shards != n {
					t.Errorf("%v, %d shards: sum %d, merged %+v; want %d nodes, %d subtrees", args, n, sum, m, want, positions)
				}
			}
		}
	}
}

// TestMergeRefuses: merge names a missing, doubled, foreign or broken shard, and exits 1.
func TestMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	files := writeShards(t, dir, "a", 3, "-v", "english", "-d", "5", "--split-depth", "2")
	deeper := writeShards(t, dir, "deeper", 3, "-v", "english", "-d", "6", "--split-depth", "2")
	other := writeShards(t, dir, "russian", 3, "-v", "russian", "-d", "5", "--split-depth", "2")
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(`{"variant":"english","depth":5`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		files []string
		want  string
	}{
		{files[:2], "missing shards: 2/3"},
		{files[1:], "missing shards: 0/3"},
		{[]string{files[0], files[1], files[1], files[2]}, "shard 1/3 twice: " + files[1] + " and " + files[1]},
		{[]string{files[0], files[1], deeper[2]}, deeper[2] + " is another count than " + files[0]},
		{[]string{files[0], files[1], other[2]}, other[2] + " is another count than " + files[0]},
		{[]string{files[0], files[1], broken}, broken + ": not a shard"},
		{[]string{files[0], filepath.Join(dir, "none.json")}, "none.json: no such file"},
	} {
		code, out, stderr := runPerft(t, append([]string{"merge"}, c.files...)...)
		if code != 1 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, stdout %q, stderr %q; want 1 and %q", c.files, code, out, stderr, c.want)
		}
	}
	code, out, _ := runPerft(t, append([]string{"merge"}, files...)...)
	// published: english perft(5) = 7361 (corpus/perft/english.tsv)
	if code != 0 || !strings.HasPrefix(out, "nodes 7361 ") {
		t.Errorf("merge of the three shards: exit %d, %q", code, out)
	}
}

// TestShardUsage: a bad split depth or shard is a usage error.
func TestShardUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-d", "4", "--split-depth", "0", "--shard", "0/2"},
		{"-d", "4", "--split-depth", "4", "--shard", "0/2"},
		{"-d", "4", "--split-depth", "5", "--shard", "0/2"},
		{"-d", "4", "--split-depth", "2", "--shard", "2/2"},
		{"-d", "4", "--split-depth", "2", "--shard", "-1/2"},
		{"-d", "4", "--split-depth", "2", "--shard", "0/0"},
		{"-d", "4", "--split-depth", "2", "--shard", "1"},
		{"-d", "4", "--split-depth", "2", "--shard", "a/b"},
		{"-d", "4", "--split-depth", "2"},
		{"-d", "4", "--shard", "0/2"},
		{"merge"},
	} {
		code, out, stderr := runPerft(t, args...)
		if code != 2 || out != "" || stderr == "" {
			t.Errorf("perft %v: exit %d, stdout %q, stderr %q; want a usage error", args, code, out, stderr)
		}
	}
}
