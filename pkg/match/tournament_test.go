package match

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// TestPairings: a round robin pairs every two players, a gauntlet the first with each
// other, in the schedule's order; an unknown kind is refused by the match.
func TestPairings(t *testing.T) {
	for _, tt := range []struct {
		kind string
		n    int
		want string
	}{
		{"", 4, "[[0 1] [0 2] [0 3] [1 2] [1 3] [2 3]]"},
		{RoundRobin, 3, "[[0 1] [0 2] [1 2]]"},
		{Gauntlet, 4, "[[0 1] [0 2] [0 3]]"},
		{Gauntlet, 2, "[[0 1]]"},
	} {
		if got := fmt.Sprint(Pairings(tt.kind, tt.n)); got != tt.want {
			t.Errorf("Pairings(%q, %d) = %s, want %s", tt.kind, tt.n, got, tt.want)
		}
	}
	cfg := randomMatch(t, "")
	cfg.Tournament = "ladder"
	if _, err := Run(context.Background(), cfg); err == nil {
		t.Error("a ladder tournament ran")
	}
	if Pairings(Swiss, 4) != nil || Pairings(Knockout, 4) != nil {
		t.Error("a Swiss or knockout has pairings before its results")
	}
}

// TestGauntletSchedule: every game of a gauntlet has the first player, its pairings play
// in pairs with colours reversed, every pairing of a round plays the round's opening, and
// every opponent plays as many pairs.
func TestGauntletSchedule(t *testing.T) {
	cfg := randomMatch(t, "")
	cfg.Players = append(cfg.Players, Random("r4"))
	cfg.Tournament, cfg.Games = Gauntlet, 6
	games := Schedule(&cfg)
	if len(games) != 3*6 {
		t.Fatalf("%d games, want 18", len(games))
	}
	pairs := map[int]int{}
	for k := 0; 2*k < len(games); k++ {
		g0, g1 := games[2*k], games[2*k+1]
		if g0.A != 0 || g0.B != k%3+1 || g1.A != 0 || g1.B != g0.B || g0.First != 0 || g1.First != g0.B {
			t.Errorf("pair %d: %+v, %+v: want player 0 against %d, colours reversed", k, g0, g1, k%3+1)
		}
		if g0.Opening != g1.Opening || g0.Opening != games[2*(k/3)*3].Opening {
			t.Errorf("pair %d: opening %d, not its round's", k, g0.Opening)
		}
		pairs[g0.B]++
	}
	if !reflect.DeepEqual(pairs, map[int]int{1: 3, 2: 3, 3: 3}) {
		t.Errorf("pairs per opponent %v, want 3 each", pairs)
	}
}

// TestGauntletMatch: a gauntlet plays only the first player's pairings, rates every
// player from them, resumes only as a gauntlet, and its shards merge into the one-machine
// result.
func TestGauntletMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := randomMatch(t, dir)
	cfg.Players = append(cfg.Players, Random("r4"))
	cfg.Tournament = Gauntlet
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range res.Pairings {
		got = append(got, p.Player+"-"+p.Opponent)
	}
	if fmt.Sprint(got) != "[r1-r2 r1-r3 r1-r4]" || res.Games != 24 {
		t.Errorf("pairings %v, %d games; want r1 against the others, 24 games", got, res.Games)
	}
	if len(res.Ratings) != 4 || res.RatingsError != "" {
		t.Errorf("ratings %+v (%s): want four", res.Ratings, res.RatingsError)
	}

	// the journal is the gauntlet's: a round robin does not resume it
	rr := cfg
	rr.Tournament, rr.Resume = RoundRobin, true
	if _, err := Run(context.Background(), rr); !errors.Is(err, ErrJournalMismatch) {
		t.Errorf("a round robin resumed a gauntlet's journal: %v", err)
	}
	again := cfg
	again.Resume = true
	res2, err := Run(context.Background(), again)
	if err != nil || res2.Resumed != 24 || !reflect.DeepEqual(summary(res2), summary(res)) {
		t.Errorf("resumed gauntlet: %v, %d resumed, %+v", err, res2.Resumed, summary(res2))
	}

	// the statistics of a journal (report, merge) know the tournament
	one, err := Merge([]string{cfg.JournalPath})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	cfg.Concurrency = 1
	whole, shards := playShards(t, cfg, 2)
	merged, err := Merge(shards)
	if err != nil {
		t.Fatal(err)
	}
	defer merged.Close()
	w, err := Merge([]string{whole})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	a, _ := json.Marshal(w.Result(0, 0))
	b, _ := json.Marshal(merged.Result(0, 0))
	c, _ := json.Marshal(one.Result(0, 0))
	if !bytes.Equal(a, b) || !bytes.Equal(a, c) || len(merged.Result(0, 0).Pairings) != 3 {
		t.Errorf("merged gauntlet differs from one run:\n%s\n%s\n%s", a, b, c)
	}
}
