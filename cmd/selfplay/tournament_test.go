package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/match"
)

// TestGauntlet: --tournament gauntlet plays the first player against each other only,
// rates all four, and the report read back from the PDN alone finds the gauntlet; an
// unknown tournament is a usage error.
func TestGauntlet(t *testing.T) {
	dir := t.TempDir()
	pdn := filepath.Join(dir, "g.pdn")
	args := []string{"--players", "depth=1:eval=hand,depth=1:eval=hand:random=0.5,depth=1:eval=hand:random=0.9,depth=2:eval=hand", "--tournament", "gauntlet",
		"--games", "2", "--seed", "5", "--max-plies", "40", "-j", "2", "--pdn", pdn, "--json"}
	code, stdout, stderr := runArgs(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var res match.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Games != 6 || len(res.Pairings) != 3 || len(res.Ratings) != 4 {
		t.Fatalf("%d games, %d pairings, %d ratings; want 6, 3, 4", res.Games, len(res.Pairings), len(res.Ratings))
	}
	for _, p := range res.Pairings {
		if p.Player != "depth=1:eval=hand" {
			t.Errorf("pairing %s vs %s: not the first player's", p.Player, p.Opponent)
		}
	}
	journal, err := os.ReadFile(pdn + ".journal")
	if err != nil || !strings.Contains(string(journal), `"tournament":"gauntlet"`) {
		t.Errorf("journal header: %v, %.200s", err, journal)
	}
	// the report of the PDN alone (no journal) plots the gauntlet's pairings only
	if err := os.Remove(pdn + ".journal"); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	if code, _, stderr := runArgs(t, "report", "--output", out, pdn); code != 0 {
		t.Fatalf("report from the PDN: exit %d, stderr %q", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), ">depth=1:eval=hand vs depth=2:eval=hand</text>") || strings.Contains(string(page), ">depth=1:eval=hand:random=0.5 vs depth=1:eval=hand:random=0.9</text>") {
		t.Errorf("report: %v; want the pairings of depth=1 only", err)
	}

	if code, _, stderr := runArgs(t, "--players", "easy,medium", "--tournament", "ladder"); code != 2 || !strings.Contains(stderr, "roundrobin, gauntlet, swiss, knockout") {
		t.Errorf("--tournament ladder: exit %d, stderr %q", code, stderr)
	}
}

// TestSwiss: --tournament swiss --rounds 2 between five players prints the standings and
// the rounds, writes them in the JSON and the report; sharding it, an SPRT and --rounds
// without a Swiss are usage errors that say why.
func TestSwiss(t *testing.T) {
	dir := t.TempDir()
	pdn := filepath.Join(dir, "s.pdn")
	players := "depth=1,depth=1:random=0.5,depth=1:random=0.9,depth=2,depth=3"
	base := []string{"--players", players, "--games", "2", "--seed", "5", "--max-plies", "40", "-j", "2"}
	code, stdout, stderr := runArgs(t, append(base, "--tournament", "swiss", "--rounds", "2", "--pdn", pdn)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"Standings (by points, then Buchholz", "Rounds (points", "(bye)", "8 of 8 games"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, stdout, stderr = runArgs(t, "report", "--output", filepath.Join(dir, "r"), pdn+".journal")
	if code != 0 {
		t.Fatalf("report: exit %d, stderr %q", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "r", "index.html"))
	if err != nil || !strings.Contains(string(page), "Sonneborn-Berger") {
		t.Errorf("report: %v; want the standings", err)
	}
	code, stdout, stderr = runArgs(t, append(base, "--tournament", "knockout", "--json")...)
	var res match.Result
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil {
		t.Fatalf("knockout: exit %d, %v, stderr %q", code, err, stderr)
	}
	if res.Games != 8 || len(res.Rounds) != 3 || res.Standings[0].Reached != 3 {
		t.Errorf("knockout: %d games, %d rounds, standings %+v", res.Games, len(res.Rounds), res.Standings)
	}
	for _, bad := range [][]string{
		{"--tournament", "swiss", "--shard", "0/2", "--pdn", filepath.Join(dir, "x.pdn")},
		{"--tournament", "knockout", "--rounds", "2"},
		{"--tournament", "swiss", "--rounds", "6"},
	} {
		if code, _, stderr := runArgs(t, append(base, bad...)...); code != 2 || !strings.Contains(stderr, "round") {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}
