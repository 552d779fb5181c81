package cliutil

import "testing"

func TestParseShard(t *testing.T) {
	for s, want := range map[string]Shard{"0/1": {0, 1}, "2/3": {2, 3}, "0/100": {0, 100}} {
		if got, err := ParseShard(s); err != nil || got != want || got.String() != s {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "1", "3/3", "-1/3", "0/0", "a/3", "1/b", "1/3/4"} {
		if got, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) = %v, accepted", s, got)
		}
	}
}

func TestShardPath(t *testing.T) {
	for _, tc := range []struct {
		path  string
		shard Shard
		all   bool
		want  string
	}{
		{"games.pdn", Shard{3, 8}, false, "games.shard-3-of-8.pdn"},
		{"d/oca", Shard{0, 2}, false, "d/oca.shard-0-of-2"},
		{"games.pdn", Shard{0, 1}, false, "games.pdn"},
		{"games.pdn", Shard{0, 1}, true, "games.shard-0-of-1.pdn"},
		{"games.pdn", Shard{}, true, "games.pdn"},
		{"g-{shard}.pdn", Shard{5, 8}, false, "g-5.pdn"},
		{"", Shard{1, 2}, true, ""},
	} {
		if got := ShardPath(tc.path, tc.shard, tc.all); got != tc.want {
			t.Errorf("ShardPath(%q, %v, %v) = %q, want %q", tc.path, tc.shard, tc.all, got, tc.want)
		}
	}
}
