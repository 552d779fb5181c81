package shard

import "testing"

func TestParse(t *testing.T) {
	for s, want := range map[string]Shard{"0/1": {0, 1}, "2/3": {2, 3}, "0/100": {0, 100}} {
		if got, err := Parse(s); err != nil || got != want || got.String() != s {
			t.Errorf("Parse(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "1", "3/3", "-1/2", "0/0", "a/b", "1/2/3", " 0/1"} {
		if got, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) = %v, accepted", s, got)
		}
	}
}

// TestHasLen: the shards of a job hold every item once, and Len counts what Has holds.
func TestHasLen(t *testing.T) {
	for count := 0; count <= 5; count++ {
		for n := 0; n <= 13; n++ {
			held := make([]int, n)
			for k := range max(count, 1) {
				s := Shard{Index: k, Count: count}
				got := 0
				for i := range n {
					if s.Has(i) {
						held[i]++
						got++
					}
				}
				if s.Len(n) != got {
					t.Errorf("%v.Len(%d) = %d, Has holds %d", s, n, s.Len(n), got)
				}
			}
			for i, h := range held {
				if h != 1 {
					t.Errorf("count %d, n %d: item %d held by %d shards", count, n, i, h)
				}
			}
		}
	}
	if s := (Shard{Index: 1, Count: 3}); s.Has(0) || !s.Has(1) || s.Has(2) || !s.Has(4) {
		t.Errorf("1/3 holds the wrong items")
	}
}

func TestPath(t *testing.T) {
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
		if got := tc.shard.Path(tc.path, tc.all); got != tc.want {
			t.Errorf("%v.Path(%q, %v) = %q, want %q", tc.shard, tc.path, tc.all, got, tc.want)
		}
	}
}
