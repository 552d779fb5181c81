package egdb

import (
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestBetter: the order of results for the side to move, best first; a win without its
// distance (Plies -1) comes first among wins, as Better says.
func TestBetter(t *testing.T) {
	order := []Result{
		{Win, -1}, {Win, 1}, {Win, 7}, {Draw, -1}, {Loss, 9}, {Loss, 2}, {Loss, -1}, {Unknown, -1},
	}
	for i, r := range order {
		for j, s := range order {
			if got, want := r.Better(s), i < j; got != want {
				t.Errorf("%v.Better(%v) = %v, want %v", r, s, got, want)
			}
		}
	}
}

// TestMaxPiecesEmpty: a folder without the slices of 2 pieces has MaxPieces 0, as
// documented (it said 1).
func TestMaxPiecesEmpty(t *testing.T) {
	db, err := Open(t.TempDir(), engine.MustLookup("english"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := db.MaxPieces(); n != 0 {
		t.Errorf("MaxPieces of an empty folder = %d, want 0", n)
	}
}
