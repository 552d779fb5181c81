package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestGameWriter: Run's writing stage alone writes games that finish out of order in game
// order, skips the games of other shards, and writes what still waits on close.
func TestGameWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pdn")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Variant: engine.MustLookup("english"), Shard: Shard{Index: 1, Count: 2}}
	g := newGameWriter(cfg, 12, &pdnFile{f: f, path: path})
	rec := func(i int) *Record {
		return &Record{Game: i, White: "a", Black: "b", Moves: []string{"11-15"}, Reason: "max-plies", Date: "2026.01.01"}
	}
	// shard 1/2 holds games 2, 3, 6, 7, 10, 11; game 10 never finishes
	for _, i := range []int{6, 3, 2, 11, 7} {
		if err := g.write(rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rounds []string
	for _, m := range regexp.MustCompile(`\[Round "([^"]*)"\]`).FindAllSubmatch(b, -1) {
		rounds = append(rounds, string(m[1]))
	}
	if want := []string{"3", "4", "7", "8", "12"}; !slices.Equal(rounds, want) {
		t.Errorf("rounds %v, want %v (games 2, 3, 6, 7, then 11 on close)", rounds, want)
	}
}

// TestCollect: Run's collecting stage alone counts the games, and the first error ends
// the match: collect cancels and returns it, and drains the rest.
func TestCollect(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := &Config{Variant: engine.MustLookup("english")}
	sched := schedule{}
	agg := newAggregator(cfg, &sched)
	results := make(chan outcome, 4)
	boom := errors.New("boom")
	results <- outcome{rec: &Record{Game: 0, White: "a", Black: "b"}}
	results <- outcome{err: boom}
	results <- outcome{rec: &Record{Game: 1, White: "a", Black: "b"}}
	close(results)
	finished, err := collect(ctx, cfg, results, cancel, nil, newGameWriter(cfg, 2, nil), agg, 0, 2)
	if finished != 1 || !errors.Is(err, boom) || ctx.Err() == nil {
		t.Errorf("finished %d, error %v, cancelled %v; want 1, boom, cancelled", finished, err, ctx.Err() != nil)
	}
}
