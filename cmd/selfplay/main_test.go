package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/match"
)

func runArgs(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"selfplay"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	badFEN := filepath.Join(dir, "bad.fen")
	os.WriteFile(badFEN, []byte("B:W21-32:B1-12\nB:W21-32:B1-12,40\n"), 0o644)
	pdnOut := filepath.Join(dir, "out.pdn")
	tests := []struct {
		name string
		args []string
		code int
		want string // in the one-line error
	}{
		{"unknown player", []string{"--players", "hard,grandmaster"}, 2, "grandmaster"},
		{"one player", []string{"--players", "hard"}, 2, "two players"},
		{"bad sprt", []string{"--players", "easy,medium", "--sprt", "elo0=0,elo1=x"}, 2, "elo1=x"},
		{"sprt three players", []string{"--players", "easy,medium,hard", "--sprt", "elo0=0,elo1=5"}, 2, "two players"},
		{"unknown variant", []string{"--players", "easy,medium", "--variant", "chess"}, 2, "chess"},
		{"unreadable openings", []string{"--players", "easy,medium", "--openings", filepath.Join(dir, "missing.fen")}, 1, "missing.fen"},
		{"invalid openings", []string{"--players", "easy,medium", "--openings", badFEN}, 1, "bad.fen:2"},
		{"unknown opening set", []string{"--players", "easy,medium", "--opening-set", "5move"}, 2, "5move"},
		{"opening set for another variant", []string{"--players", "easy,medium", "-v", "russian", "--opening-set", "2move"}, 2, "russian"},
		{"random plies and a set", []string{"--players", "easy,medium", "--opening-set", "2move", "--random-plies", "4"}, 2, "--random-plies"},
		{"bad anchor", []string{"--players", "easy,medium,hard", "--anchor", "nobody=0"}, 2, "nobody"},
		{"anchor without elo", []string{"--players", "easy,medium,hard", "--anchor", "easy"}, 2, "NAME=ELO"},
		{"rounds without a swiss", []string{"--players", "easy,medium", "--rounds", "3"}, 2, "rounds"},
		{"resume without journal", []string{"--players", "easy,medium", "--resume"}, 2, "--resume"},
		{"bad games", []string{"--players", "easy,medium", "--games", "0"}, 2, "--games"},
		{"absurd concurrency", []string{"--players", "easy,medium", "--concurrency", "99999999999"}, 2, "--jobs"},
		{"tables beyond memory", []string{"--players", "easy:hash=65536,medium", "-j", "32"}, 2, "memory"},
		{"bad format", []string{"--players", "easy,medium", "--format", "xml"}, 2, `--format "xml"`},
		{"bad --jobs", []string{"--players", "easy,medium", "--jobs", "0"}, 2, "--jobs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append(tc.args, "--pdn", pdnOut, "--games", "2")
			if tc.name == "bad games" || tc.name == "resume without journal" {
				args = tc.args
			}
			code, stdout, stderr := runArgs(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if code != tc.code || !strings.Contains(last, tc.want) || !strings.HasPrefix(last, "selfplay: ") {
				t.Errorf("selfplay %v: exit %d, stderr %q; want exit %d and an error naming %q", args, code, stderr, tc.code, tc.want)
			}
			if strings.Contains(stderr, "seed") || stdout != "" {
				t.Errorf("selfplay %v: a match started (stdout %q, stderr %q)", args, stdout, stderr)
			}
			if _, err := os.Stat(pdnOut); err == nil {
				t.Errorf("selfplay %v: wrote %s", args, pdnOut)
				os.Remove(pdnOut)
			}
		})
	}
}

func TestMatchEndToEnd(t *testing.T) {
	dir := t.TempDir()
	pdn := filepath.Join(dir, "games.pdn")
	args := []string{"--players", "easy,medium", "--games", "6", "--seed", "17", "--max-plies", "120",
		"--opening-set", "2move", "-j", "2", "--pdn", pdn}
	code, stdout, stderr := runArgs(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("selfplay %v: exit %d, stderr %q", args, code, stderr)
	}
	if !strings.Contains(stderr, "seed 17") {
		t.Errorf("stderr %q does not give the seed", stderr)
	}
	var res match.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, stdout)
	}
	p := res.Pairings[0]
	if res.Games != 6 || p.Games != 6 || p.Wins+p.Draws+p.Losses != 6 || p.Penta.Pairs() != 3 || p.Player != "easy" {
		t.Errorf("result %+v: want 6 games in 3 pairs of easy against medium", res)
	}
	sum := 0
	for _, tr := range res.Terminations {
		sum += tr.Games
	}
	if sum != 6 {
		t.Errorf("terminations %+v add up to %d games, want 6", res.Terminations, sum)
	}
	data, err := os.ReadFile(pdn)
	if err != nil || strings.Count(string(data), "[Event ") != 6 || !strings.Contains(string(data), `[GameType "21"]`) {
		t.Errorf("PDN file: %v, %d games", err, strings.Count(string(data), "[Event "))
	}

	// Running it again without --resume would overwrite the journal's games: refused.
	if code, _, stderr := runArgs(t, args...); code != 1 || !strings.Contains(stderr, "--resume") && !strings.Contains(stderr, "resume") {
		t.Errorf("rerun without --resume: exit %d, stderr %q; want 1 and a hint to resume", code, stderr)
	}
	// With --resume (and no --seed) the finished match is read back, and the table printed.
	resumeArgs := []string{"--players", "easy,medium", "--games", "6", "--max-plies", "120", "--opening-set", "2move", "--pdn", pdn, "--resume"}
	code, stdout, stderr = runArgs(t, resumeArgs...)
	if code != 0 || !strings.Contains(stderr, "seed 17") || !strings.Contains(stdout, "6 of 6 games (6 from the journal)") {
		t.Errorf("selfplay %v: exit %d\nstdout %s\nstderr %s", resumeArgs, code, stdout, stderr)
	}
	for _, col := range []string{"Elo", "LOS", "Pairs 0/½/1/1½/2", "Terminations", "Reason"} {
		if !strings.Contains(stdout, col) {
			t.Errorf("table output lacks %q:\n%s", col, stdout)
		}
	}
}

func TestSPRTCommand(t *testing.T) {
	args := []string{"--players", "medium,easy:random=1", "--games", "400", "--seed", "3", "--max-plies", "150",
		"--sprt", "elo0=0,elo1=100", "-q"}
	code, stdout, stderr := runArgs(t, args...)
	if code != 0 {
		t.Fatalf("selfplay %v: exit %d, stderr %q", args, code, stderr)
	}
	if !strings.Contains(stdout, "H1 accepted") || !strings.Contains(stdout, "LLR") || !strings.Contains(stdout, "bounds [-2.944, 2.944]") {
		t.Errorf("SPRT line missing:\n%s", stdout)
	}
}

// TestEqualPairs: a match whose pairs all split 1-1 printed "Elo -0.0 ±95% 0.0" (issue 33
// item 17): a zero-width interval from ten pairs, and a negative zero.
func TestEqualPairs(t *testing.T) {
	code, stdout, stderr := runArgs(t, "--players", "depth=1,depth=1", "--games", "20", "--seed", "1", "--max-plies", "1", "-j", "1", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "0/0/10/0/0") || !strings.Contains(stdout, "+0.0") || strings.Contains(stdout, "-0.0") {
		t.Errorf("ten 1-1 pairs:\n%s\nwant Elo +0.0, never -0.0", stdout)
	}
	if !strings.Contains(stdout, " 99.0 ") {
		t.Errorf("ten 1-1 pairs:\n%s\nwant the margin 99.0 (Wilson's bound on the unseen outcomes), not 0.0", stdout)
	}
}
