package egdb

import (
	"context"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestEnglishKingAgainstKing checks the slice of a king against a king in english draughts
// with the side to move's figures published by Ed Trice ("The 2-piece database": king
// against king with White to move, 992 positions: 230 wins, 654 draws, 108 losses, the
// longest win 11 plies).
func TestEnglishKingAgainstKing(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("english")
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: 2, Jobs: 1}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := db.Stats(Slice{0, 1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != 992 || st.Wins != 230 || st.Draws != 654 || st.Losses != 108 || st.LongestWin != 11 {
		t.Errorf("english king against king: %+v, want 992 positions, 230 wins, 654 draws, 108 losses, longest win 11 (Ed Trice)", st)
	}
}
