package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/hub"
	"github.com/rafle/rafle/pkg/match"
)

// buildEGDB builds the database of variant up to pieces pieces in a temporary folder.
func buildEGDB(t *testing.T, variant string, pieces int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), variant)
	if _, err := egdb.Build(context.Background(), engine.MustLookup(variant), egdb.BuildOptions{Dir: dir, Pieces: pieces}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSelfplayEGDB: with --egdb, games end as soon as the database holds the position
// (termination egdb, its value as the result), counted in the tables, the JSON, the PDN and
// the report; a folder without a database is refused in one line.
func TestSelfplayEGDB(t *testing.T) {
	db := buildEGDB(t, "english", 3)
	dir := t.TempDir()
	openings := filepath.Join(dir, "endings.fen")
	// 4-piece endings (the first capture brings them into the database) and 3-piece ones
	// (in it from the start)
	fens := "W:W22,23:B9,10\nB:W21,30:B3,12\nW:WK14,27:B6,K28\nW:WK1,K3:BK32\n"
	if err := os.WriteFile(openings, []byte(fens), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-v", "english", "--players", "easy,medium", "--games", "8", "--seed", "3", "--openings", openings,
		"--egdb", db, "--max-plies", "200", "-q"}
	code, stdout, stderr := runArgs(t, append(args, "--json", "--output", filepath.Join(dir, "m.pdn"), "--report", filepath.Join(dir, "report"))...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "endgame database "+db+": english up to 3 pieces") {
		t.Errorf("stderr %q: no line naming the database", stderr)
	}
	var res match.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	egdbGames := 0
	for _, x := range res.Terminations {
		if x.Reason == match.ReasonEGDB {
			egdbGames = x.Games
		}
	}
	if egdbGames < 4 || res.Games != 8 {
		t.Errorf("%d games, %d ended by the database (terminations %+v): want 8, at least the 4 from 3-piece openings", res.Games, egdbGames, res.Terminations)
	}
	pdnText, err := os.ReadFile(filepath.Join(dir, "m.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(pdnText), `[Termination "egdb"]`); n != egdbGames {
		t.Errorf("%d games with Termination egdb in the PDN, %d in the result", n, egdbGames)
	}
	if !strings.Contains(string(pdnText), "{endgame database: white to move: win in 33 (W:WK1,K3:BK32)}") {
		t.Errorf("the PDN has no comment with the database's value of W:WK1,K3:BK32:\n%s", pdnText)
	}
	page, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
	if err != nil || !strings.Contains(string(page), "egdb") {
		t.Errorf("report: %v, egdb in the page: %v", err, strings.Contains(string(page), "egdb"))
	}
	// the tables
	code, stdout, stderr = runArgs(t, args...)
	if code != 0 || !strings.Contains(stdout, "egdb") {
		t.Errorf("exit %d, stdout %q, stderr %q: want the egdb termination in the tables", code, stdout, stderr)
	}
	// not a database
	empty := t.TempDir()
	for _, bad := range []string{empty, filepath.Join(dir, "missing")} {
		code, stdout, stderr = runArgs(t, "-v", "english", "--players", "easy,medium", "--games", "2", "--egdb", bad)
		if code != 1 || stdout != "" || !strings.Contains(stderr, "--egdb "+bad) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("--egdb %s: exit %d, stdout %q, stderr %q: want exit 1 and one line", bad, code, stdout, stderr)
		}
	}
}

// TestEngineEGDB: selfplay engine --egdb plays a position the database holds from it: in
// a Hub session of english, the only move of the shortest win, found without a search (no
// depth in the info line).
func TestEngineEGDB(t *testing.T) {
	dir := buildEGDB(t, "english", 3)
	v := engine.MustLookup("english")
	db, err := egdb.Open(dir, v, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, _ := v.ParseFEN("W:WK5,K23:B24") // a win in 17 plies by 23-19 only (the other moves: 21 plies or more, or a draw)
	moves, err := db.Moves(&p)
	if err != nil {
		t.Fatal(err)
	}
	var best []string // the moves of the shortest win
	for _, m := range moves {
		if m.Result == moves[0].Result {
			best = append(best, hub.FormatMove(v, &p, m.Move))
		}
	}
	var info, move string
	for _, line := range hubEngine(t, []string{"--variant", "english", "--player", "depth=1", "--egdb", dir},
		"hub\ninit\npos pos="+hub.FormatPosition(v, &p)+"\nlevel depth=1\ngo think\n") {
		if strings.HasPrefix(line, "info") {
			info = line
		}
		if strings.HasPrefix(line, "done") {
			move = line
		}
	}
	played := strings.TrimPrefix(strings.Fields(move + " x")[1], "move=")
	if len(best) != 1 || played != best[0] || strings.Contains(info, "depth=") {
		t.Errorf("played %q (%q, %q), want %v without a search", played, move, info, best)
	}
}
