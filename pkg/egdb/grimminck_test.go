package egdb

import (
	"context"
	"flag"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// long4 runs TestInternationalLongestWins on 4 pieces too (a build of 42.8 M positions,
// half a minute of CPU), which the quick suite leaves out.
var long4 = flag.Bool("egdb.long", false, "check international's longest wins of 4 pieces too (builds 42.8 M positions)")

// grimminck are the longest wins of international draughts' slices with White to move, as
// published by Michel Grimminck ("statistics on longest wins in the international endgame
// databases", http://www.xs4all.nl/~mdgsoft/draughts/stats/index.html), each with a
// position that has it: the figures and positions as rhalbersma/dctl's egdb tests carry
// them (test/src/ai/search/egdb/international.cpp). The slice is written as white men,
// white kings, black men, black kings; the distance in plies.
var grimminck = []struct {
	slice Slice
	fen   string
	plies int
}{
	{Slice{1, 0, 1, 0}, "W:W33:B2", 17},
	{Slice{0, 1, 1, 0}, "W:WK42:B22", 7},
	{Slice{1, 0, 0, 1}, "W:W10:BK46", 3},
	{Slice{0, 1, 0, 1}, "W:WK10:BK5", 3},
	{Slice{2, 0, 1, 0}, "W:W40,44:B3", 23},
	{Slice{1, 1, 1, 0}, "W:WK2,11:B45", 11},
	{Slice{0, 2, 1, 0}, "W:WK7,K30:B45", 9},
	{Slice{2, 0, 0, 1}, "W:W6,7:BK45", 7},
	{Slice{1, 1, 0, 1}, "W:WK2,6:BK50", 9},
	{Slice{0, 2, 0, 1}, "W:WK1,K7:BK50", 7},
	{Slice{1, 0, 2, 0}, "W:W21:B3,4", 33},
	{Slice{0, 1, 2, 0}, "W:WK38:B4,18", 27},
	{Slice{1, 0, 1, 1}, "W:W18:B5,K23", 17},
	{Slice{0, 1, 1, 1}, "W:WK26:B23,K42", 9},
	{Slice{1, 0, 0, 2}, "W:W14:BK10,K46", 3},
	{Slice{0, 1, 0, 2}, "W:WK10:BK5,K23", 3},
	// 4 pieces (-egdb.long)
	{Slice{2, 0, 2, 0}, "W:W33,46:B4,5", 39},
	{Slice{1, 1, 2, 0}, "W:W8,K50:B3,32", 27},
	{Slice{0, 2, 2, 0}, "W:WK1,K23:B4,38", 25},
	{Slice{2, 0, 1, 1}, "W:W17,35:B3,K21", 23},
	{Slice{1, 1, 1, 1}, "W:WK1,12:B16,K50", 19},
	{Slice{0, 2, 1, 1}, "W:WK1,K16:BK17,26", 19},
	{Slice{2, 0, 0, 2}, "W:W6,12:BK7,K45", 7},
	{Slice{1, 1, 0, 2}, "W:W6,K22:BK17,K50", 9},
	{Slice{0, 2, 0, 2}, "W:WK6,K22:BK17,K50", 9},
	{Slice{3, 0, 1, 0}, "W:W12,13,16:B30", 23},
	{Slice{2, 1, 1, 0}, "W:WK4,16,18:B34", 21},
	{Slice{1, 2, 1, 0}, "W:WK8,11,K13:B44", 19},
	{Slice{0, 3, 1, 0}, "W:WK8,K20,K37:B43", 17},
	{Slice{3, 0, 0, 1}, "W:W6,10,49:BK40", 13},
	{Slice{2, 1, 0, 1}, "W:W6,K49,50:BK16", 29},
	{Slice{1, 2, 0, 1}, "W:WK40,K45,50:BK11", 31},
	{Slice{0, 3, 0, 1}, "W:WK6,K22,K27:BK49", 15},
	{Slice{1, 0, 3, 0}, "W:W6:B2,3,4", 43},
	{Slice{0, 1, 3, 0}, "W:WK1:B2,3,4", 43},
	{Slice{1, 0, 2, 1}, "W:W6:B3,4,K11", 33},
	{Slice{0, 1, 2, 1}, "W:WK14:B1,K10,12", 29},
	{Slice{1, 0, 1, 2}, "W:W8:B5,K13,K23", 17},
	{Slice{0, 1, 1, 2}, "W:WK1:BK18,24,K44", 9},
	{Slice{1, 0, 0, 3}, "W:W23:BK10,K19,K46", 3},
	{Slice{0, 1, 0, 3}, "W:WK49:BK23,K43,K46", 3},
}

// TestInternationalLongestWins checks, for each of Grimminck's slices, the longest win
// of the slice (its file's header) and the position given for it (a win in that many plies).
func TestInternationalLongestWins(t *testing.T) {
	n := 3
	if *long4 {
		n = 4
	}
	v := engine.MustLookup("international")
	dir := t.TempDir()
	if _, err := Build(context.Background(), v, BuildOptions{Dir: dir, Pieces: n}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// David and Goliath: a man against two, White to move wins in 29 plies (dctl's test,
	// same file)
	if p, err := v.ParseFEN("W:W23:B5,6"); err != nil {
		t.Fatal(err)
	} else if r, err := db.Probe(&p); err != nil || r != (Result{Win, 29}) {
		t.Errorf("international W:W23:B5,6 (David and Goliath): %v, %v; want win in 29", r, err)
	}
	for _, tc := range grimminck {
		if tc.slice.Pieces() > n {
			continue
		}
		st, err := db.Stats(tc.slice)
		if err != nil {
			t.Fatal(err)
		}
		p, err := v.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		r, err := db.Probe(&p)
		if err != nil {
			t.Fatal(err)
		}
		if st.LongestWin != tc.plies || r != (Result{Win, tc.plies}) {
			t.Errorf("international %s: longest win %d plies, %s: %v; want %d (Grimminck)", tc.slice, st.LongestWin, tc.fen, r, tc.plies)
		}
	}
}
