package archive

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// egdbGames are english games (GameType 21) and what StatsOptions.EGDB finds in them:
// whether the database checks the game, and whether its result contradicts the value. The
// first number of a result is the first mover's: Black's in english.
var egdbGames = []struct {
	fen, moves, result string
	checked, wrong     bool
}{
	{"W:WK1,K3:BK32", "", "0-1", true, false},            // white wins in 33
	{"W:WK1,K3:BK32", "", "1/2-1/2", true, true},         // drawn by the players, not by the value
	{"W:WK14:BK6,K28", "14-9", "1-0", true, false},       // white loses in 10 (its move makes it 2)
	{"W:WK18:BK14", "18x9", "0-2", true, false},          // a win in 1 (0-2: PDN's 0-1)
	{"B:WK18:BK14", "", "0-2", true, true},               // Black to move wins in 1
	{"W:WK15:BK10,K32", "", "0-1", true, true},           // a draw
	{"W:WK5,K23:B24", "23-27", "1/2-1/2", true, true},    // white wins in 17, 23-27 draws: the first position counts
	{"W:WK15:BK10,K32", "", "*", false, false},           // no result
	{"", "11-15 22-18 15x22 25x18", "1-0", false, false}, // no position in the database
	{"", "11-15 22-18 15x22 25x18 8-11", "1/2-1/2", false, false},
}

// TestStatsEGDB: CollectStats with a database counts the games of its variant replayed to
// the end that reach a position it holds, lists those whose result is not its value there
// (file and game number, in order), read in one goroutine or in pieces, and through the
// shards' JSON.
func TestStatsEGDB(t *testing.T) {
	dir := t.TempDir()
	v := engine.MustLookup("english")
	if _, err := egdb.Build(context.Background(), v, egdb.BuildOptions{Dir: dir, Pieces: 3}); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir, v, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	var want []int
	checked := 0
	for i, g := range egdbGames {
		b.WriteString("[GameType \"21\"]\n")
		if g.fen != "" {
			fmt.Fprintf(&b, "[FEN \"%s\"]\n", g.fen)
		}
		fmt.Fprintf(&b, "[Result \"%s\"]\n\n%s %s\n\n", g.result, g.moves, g.result)
		if g.checked {
			checked++
		}
		if g.wrong {
			want = append(want, i+1)
		}
	}
	text := []byte(b.String())
	for _, jobs := range []int{1, 3} {
		job := jobOf(text, text)
		job.Jobs, job.pieceSize = jobs, 256
		st, err := CollectStats(context.Background(), job, StatsOptions{Jobs: jobs, Replay: &pdn.Replayer{}, EGDB: db})
		if err != nil {
			t.Fatal(err)
		}
		bs, err := json.Marshal(st) // the shards' way
		if err != nil {
			t.Fatal(err)
		}
		back := NewStats()
		if err := json.Unmarshal(bs, back); err != nil {
			t.Fatal(err)
		}
		for _, st := range []*Stats{st, back} {
			r := st.Report(0).EGDB
			if r == nil {
				t.Fatal("no EGDB report")
			}
			var got []string
			for _, g := range r.Games {
				got = append(got, fmt.Sprintf("%s:%d", g.File, g.Game))
			}
			var wantGames []string
			for _, in := range []string{"in0", "in1"} {
				for _, n := range want {
					wantGames = append(wantGames, fmt.Sprintf("%s:%d", in, n))
				}
			}
			if r.Variant != "english" || r.Checked != 2*checked || r.Contradictions != len(wantGames) || fmt.Sprint(got) != fmt.Sprint(wantGames) {
				t.Errorf("jobs %d: %+v, want %d checked and %v", jobs, r, 2*checked, wantGames)
			}
			if g := r.Games[0]; g.Value != "win in 33" || g.Expected != "0-1" || g.Result != "1/2-1/2" || g.FEN != "W:WK1,K3:BK32" || g.Ply != 0 {
				t.Errorf("first contradiction %+v", g)
			}
		}
	}
	// without a database: no report
	st, err := CollectStats(context.Background(), jobOf(text), StatsOptions{Replay: &pdn.Replayer{}})
	if err != nil || st.Report(0).EGDB != nil {
		t.Errorf("without a database: %v, %+v", err, st.Report(0).EGDB)
	}
}
