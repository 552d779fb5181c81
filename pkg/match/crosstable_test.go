package match

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestCrosstable: the crosstable holds each pairing's games from both sides, the LOS
// matrix is complementary and agrees in direction with the ratings, and the tables show
// both; two players have neither.
func TestCrosstable(t *testing.T) {
	cfg := randomMatch(t, "")
	cfg.JournalPath, cfg.PDNPath = "", ""
	cfg.Players[1] = Engine("d1", mustSpec(t, "depth=1:random=0.5"))
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, p := range res.Players {
		idx[p] = i
	}
	for _, p := range res.Pairings {
		a, b := idx[p.Player], idx[p.Opponent]
		ab, ba := res.Crosstable[a][b], res.Crosstable[b][a]
		if ab.Games != p.Games || ba.Games != p.Games || ab.Points != float64(p.Wins)+float64(p.Draws)/2 || ab.Points+ba.Points != float64(p.Games) {
			t.Errorf("%s vs %s: crosstable %+v, %+v; pairing %d games %d/%d/%d", p.Player, p.Opponent, ab, ba, p.Games, p.Wins, p.Draws, p.Losses)
		}
	}
	if len(res.Ratings) != 3 || len(res.LOS) != 3 {
		t.Fatalf("ratings %+v, LOS %v (%s)", res.Ratings, res.LOS, res.RatingsError)
	}
	for i := range 3 {
		for j := range 3 {
			if i == j {
				continue
			}
			l := res.LOS[i][j]
			if math.Abs(l+res.LOS[j][i]-1) > 1e-9 || (l > 0.5) != (res.Ratings[i].Elo > res.Ratings[j].Elo) {
				t.Errorf("LOS[%d][%d] = %v, LOS[%d][%d] = %v, ratings %v, %v", i, j, l, j, i, res.LOS[j][i], res.Ratings[i].Elo, res.Ratings[j].Elo)
			}
		}
	}
	ct, lt := res.CrosstableTable(), res.LOSTable()
	if len(ct.Rows) != 3 || len(ct.Header) != 5 || !strings.HasSuffix(ct.Rows[0][4], "/16") || len(lt.Rows) != 3 || lt.Rows[0][1] != "" {
		t.Errorf("tables %v, %v", ct, lt)
	}

	cfg.Players = cfg.Players[:2]
	res, err = Run(context.Background(), cfg)
	if err != nil || res.Crosstable != nil || res.LOS != nil {
		t.Errorf("two players: %v, crosstable %v, LOS %v", err, res.Crosstable, res.LOS)
	}
}
