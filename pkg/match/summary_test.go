package match

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/stats"
)

// Summarize counts a journal's games as the match that wrote it counted them.
func TestSummarizeJournal(t *testing.T) {
	for _, players := range []int{2, 3} {
		cfg := Config{Variant: english, Games: 6, Openings: testOpenings(t, 3), Seed: 4, MaxPlies: 60, Concurrency: 2,
			JournalPath: filepath.Join(t.TempDir(), "j")}
		for i := range players {
			cfg.Players = append(cfg.Players, Random(string(rune('a'+i))))
		}
		if players == 2 {
			cfg.SPRT = &stats.SPRT{Elo0: 0, Elo1: 300, Alpha: 0.2, Beta: 0.2}
		}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(cfg.JournalPath)
		if err != nil {
			t.Fatal(err)
		}
		h, recs, err := ReadJournal(f, cfg.JournalPath)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Summarize(h, recs)
		if err != nil {
			t.Fatal(err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(res)
		if string(gj) != string(wj) {
			t.Errorf("%d players: Summarize = %s\nRun = %s", players, gj, wj)
		}
		white := recs[0].White
		recs[0].White = "z"
		if _, err := Summarize(h, recs); err == nil || !strings.Contains(err.Error(), "schedule gives it") {
			t.Errorf("a game of another player: %v", err)
		}
		recs[0].White = white
		recs = append(recs, recs[len(recs)-1])
		if _, err := Summarize(h, recs); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("a game twice: %v", err)
		}
	}
}

// TestFloatStringNoNegativeZero: a match of 1-1 pairs printed "Elo -0.0" (issue 33 item 17).
func TestFloatStringNoNegativeZero(t *testing.T) {
	for _, x := range []float64{math.Copysign(0, -1), 0, -0.04, 0.04} {
		if got := Float(x).String(); got != "+0.0" {
			t.Errorf("Float(%v).String() = %q, want +0.0", x, got)
		}
	}
	if got := Float(-1.5).String(); got != "-1.5" {
		t.Errorf("Float(-1.5).String() = %q, want -1.5", got)
	}
}
