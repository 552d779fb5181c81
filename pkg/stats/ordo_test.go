package stats

import (
	"math"
	"testing"
)

// TestRateMatchesOrdo: the ratings of a Swiss tournament's games (an incomplete table:
// each player met four of the five others) equal, within 0.01 Elo, those Ordo computed
// from the same 96 games. The games: `selfplay --players
// depth=1,depth=2,depth=3,depth=4,easy,medium --tournament swiss --rounds 4 --games 8
// --seed 31 --max-plies 100` (english), their PDN turned into bare PGN (tags White, Black,
// Result); the numbers: Ordo (github.com/michiguel/Ordo, commit 17eec774f2e4, built
// locally) run as `ordo -p swiss.pgn -a 0 -A depth=1 -z 200.24 -N 3` (-z 200.24: the
// logistic Elo difference at a 76% expected score, 400·log10(0.76/0.24), rafle's scale;
// the same with -M, maximum likelihood forced). Written in docs/selfplay.md.
func TestRateMatchesOrdo(t *testing.T) {
	players := []string{"depth=1", "depth=2", "depth=3", "depth=4", "easy", "medium"}
	table := make([][]WDL, len(players))
	for i := range table {
		table[i] = make([]WDL, len(players))
	}
	for _, g := range []struct {
		a, b    int
		w, d, l int // a's wins, draws, losses against b
	}{
		{0, 1, 0, 5, 3}, {0, 3, 0, 2, 6}, {0, 4, 4, 3, 1}, {0, 5, 0, 3, 5},
		{1, 2, 0, 6, 2}, {1, 3, 0, 4, 4}, {1, 4, 8, 0, 0}, {2, 3, 0, 6, 2},
		{2, 4, 8, 0, 0}, {2, 5, 0, 6, 2}, {3, 5, 3, 2, 3}, {4, 5, 0, 0, 8},
	} {
		table[g.a][g.b] = WDL{Wins: g.w, Draws: g.d, Losses: g.l}
	}
	// Ordo's RATING column, anchored at depth=1 = 0
	ordo := []float64{0, 184.775, 277.847, 359.100, -269.118, 348.161}
	got, err := Rate(table, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if math.Abs(r.Elo-ordo[i]) > 0.01 {
			t.Errorf("%s: %.3f, Ordo %.3f", players[i], r.Elo, ordo[i])
		}
	}
}
