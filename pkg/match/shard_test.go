package match

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/stats"
)

func TestShardGames(t *testing.T) {
	for n := 2; n <= 40; n += 2 {
		for count := 1; count <= 7; count++ {
			sum := 0
			for k := range count {
				s := Shard{Index: k, Count: count}
				has := 0
				for i := range n {
					if hasGame(s, i) {
						has++
					}
					if hasGame(s, i) != hasGame(s, i^1) {
						t.Errorf("shard %s splits the pair of game %d", s, i)
					}
				}
				if got := shardGames(s, n); got != has {
					t.Errorf("shard %s of %d games: shardGames %d, hasGame %d", s, n, got, has)
				}
				sum += has
			}
			if sum != n {
				t.Errorf("%d shards of %d games hold %d", count, n, sum)
			}
		}
	}
}

// shardedMatch plays cfg whole and in count shards, and returns the journals.
func playShards(t *testing.T, cfg Config, count int) (whole string, shards []string) {
	t.Helper()
	dir := t.TempDir()
	cfg.PDNPath = filepath.Join(dir, "whole.pdn")
	cfg.JournalPath = cfg.PDNPath + ".journal"
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	for k := range count {
		c := cfg
		c.Shard = Shard{Index: k, Count: count}
		c.PDNPath = filepath.Join(dir, "shard"+string(rune('0'+k))+".pdn")
		c.JournalPath = c.PDNPath + ".journal"
		if _, err := Run(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, c.JournalPath)
	}
	return cfg.JournalPath, shards
}

func TestMergeEqualsOneRun(t *testing.T) {
	for _, withSPRT := range []bool{false, true} {
		cfg := randomMatch(t, "")
		cfg.Games = 10
		if withSPRT {
			cfg.Players = cfg.Players[:2]
			cfg.Players[1] = Engine("weak", mustSpec(t, "depth=1:random=0.9"))
			cfg.Players[0] = Engine("strong", mustSpec(t, "depth=3"))
			cfg.Games = 60
			sprt := stats.SPRT{Elo0: 0, Elo1: 200, Alpha: 0.05, Beta: 0.05}
			cfg.SPRT = &sprt
		}
		whole, shards := playShards(t, cfg, 3)
		one, err := Merge([]string{whole})
		if err != nil {
			t.Fatal(err)
		}
		merged, err := Merge([]string{shards[2], shards[0], shards[1]})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(one.Result(0, 0))
		b, _ := json.Marshal(merged.Result(0, 0))
		if !bytes.Equal(a, b) {
			t.Errorf("sprt %v: merged statistics differ from the one-machine run:\n%s\n%s", withSPRT, a, b)
		}
		res, err := Run(context.Background(), func() Config { c := cfg; c.Concurrency, c.JournalPath, c.PDNPath = 1, "", ""; return c }())
		if err != nil {
			t.Fatal(err)
		}
		res.Resumed = 0
		if withSPRT && (res.SPRT == nil || res.SPRT.Decision == "continue" || res.Games >= 60) {
			t.Fatalf("the SPRT did not stop the match early: %+v, %d games", res.SPRT, res.Games)
		}
		c, _ := json.Marshal(res)
		if withSPRT && !bytes.Equal(c, b) {
			t.Errorf("merged statistics differ from Run's:\n%s\n%s", c, b)
		}
		var pa, pb bytes.Buffer
		if err := one.WritePDN(&pa, "e", "s"); err != nil {
			t.Fatal(err)
		}
		if err := merged.WritePDN(&pb, "e", "s"); err != nil {
			t.Fatal(err)
		}
		// with an SPRT, the shards played on past the decision, the one machine did not
		if !withSPRT && pa.String() != pb.String() || pa.Len() == 0 {
			t.Errorf("sprt %v: merged PDN differs from the one-machine PDN", withSPRT)
		}
		one.Close()
		merged.Close()
	}
}

func TestMergeRefuses(t *testing.T) {
	cfg := randomMatch(t, "")
	cfg.Games = 6
	_, shards := playShards(t, cfg, 2)
	other := cfg
	other.Seed++
	_, foreign := playShards(t, other, 2)
	dir := t.TempDir()
	// a shard whose last game is lost (a crash before its journal line was written)
	data, _ := os.ReadFile(shards[1])
	lines := strings.SplitAfter(strings.TrimSpace(string(data)), "\n")
	short := filepath.Join(dir, "short.journal")
	os.WriteFile(short, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{shards[0]}, "shard 1/2 is missing"},
		{[]string{shards[0], shards[0]}, "are both shard 0/2"},
		{[]string{shards[0], foreign[1]}, "seed"},
		{[]string{shards[0], short}, "games missing: game"},
		{[]string{shards[0], filepath.Join(dir, "nothing.journal")}, "no such file"},
	} {
		m, err := Merge(tc.paths)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Merge(%v): %v, want an error naming %q", tc.paths, err, tc.want)
		}
		if m != nil {
			t.Errorf("Merge(%v) returned a match with its error", tc.paths)
		}
		if strings.Contains(tc.want, "shard") && !errors.Is(err, ErrShards) {
			t.Errorf("Merge(%v): %v does not wrap ErrShards", tc.paths, err)
		}
	}
}

func mustSpec(t *testing.T, s string) search.PlayerSpec {
	t.Helper()
	ps, err := search.ParsePlayer(s)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}
