package egdb

import (
	"context"
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestSuite: the suite's positions are distinct won positions, longest wins first, each
// with its winning moves checked against the database, the same for the same seed; a
// database without the slices of the pieces asked is refused.
func TestSuite(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("english")
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 3, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	entries, draws, err := Suite(context.Background(), db, 3, 8, 7)
	if err != nil || len(entries) != 8 || draws != 160 {
		t.Fatalf("Suite: %d entries, %d draws, %v; want 8 of 160", len(entries), draws, err)
	}
	seen := map[string]bool{}
	for i, e := range entries {
		p, err := v.ParseFEN(e.FEN)
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.Probe(&p)
		if err != nil || r.Value != Win || r.Plies != e.Plies || seen[e.FEN] {
			t.Errorf("%s: %+v, %v, seen %v; want a win in %d, once", e.ID, r, err, seen[e.FEN], e.Plies)
		}
		seen[e.FEN] = true
		if i > 0 && entries[i-1].Plies < e.Plies {
			t.Errorf("%s: a win in %d after one in %d", e.ID, e.Plies, entries[i-1].Plies)
		}
		if len(e.Best) == 0 || len(e.Winning) < len(e.Best) || e.Moves < len(e.Winning) {
			t.Errorf("%s: %d best, %d winning of %d moves", e.ID, len(e.Best), len(e.Winning), e.Moves)
		}
	}
	again, _, err := Suite(context.Background(), db, 3, 8, 7)
	if err != nil || !slices.EqualFunc(again, entries, func(a, b SuiteEntry) bool { return a.ID == b.ID && a.FEN == b.FEN }) {
		t.Errorf("the same seed drew another suite: %v", err)
	}
	if _, _, err := Suite(context.Background(), db, 4, 8, 7); err == nil {
		t.Errorf("a suite of 4 pieces from a database of 3: no error")
	}
}
