package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// TestStatsEGDB: pdn stats --egdb counts the games whose result contradicts the endgame
// database at the first position it holds, lists them with --verbose and in the JSON, and
// refuses what it cannot do in one line.
func TestStatsEGDB(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "english") // the variant from the folder's name
	if _, err := egdb.Build(context.Background(), engine.MustLookup("english"), egdb.BuildOptions{Dir: dir, Pieces: 3}); err != nil {
		t.Fatal(err)
	}
	// english: the first number of a result is Black's (the first mover)
	games := `[GameType "21"]
[FEN "W:WK1,K3:BK32"]
0-1 *

[GameType "21"]
[FEN "W:WK1,K3:BK32"]
[Result "1/2-1/2"]
1-5 1/2-1/2

[GameType "21"]
[FEN "W:WK15:BK10,K32"]
[Result "1/2-1/2"]
1/2-1/2

[GameType "21"]
[Result "1-0"]
11-15 22-18 15x22 25x18 1-0
`
	games = strings.Replace(games, "0-1 *", "[Result \"0-1\"]\n\n1-5 0-1", 1)
	in := filepath.Join(tmp, "games.pdn")
	if err := os.WriteFile(in, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runPDN(t, "", "stats", "--egdb", dir, in)
	if code != 0 || !strings.Contains(stdout, "games checked (english)") || !regexpRow(stdout, "games checked (english)", "3") ||
		!regexpRow(stdout, "results contradicting it", "1") || strings.Contains(stdout, "egdb contradiction") {
		t.Errorf("stats --egdb: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	code, stdout, stderr = runPDN(t, "", "stats", "--egdb", dir, "--verbose", in)
	if code != 0 || !strings.Contains(stdout, "game 2, ply 0, W:WK1,K3:BK32: win in 33, result 1/2-1/2 (not 0-1)") {
		t.Errorf("stats --egdb --verbose: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
	code, stdout, stderr = runPDN(t, "", "stats", "--egdb", dir, "--format", "json", in)
	var r archive.StatsReport
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil || r.EGDB == nil || r.EGDB.Checked != 3 ||
		len(r.EGDB.Games) != 1 || r.EGDB.Games[0].Game != 2 || r.EGDB.Games[0].File != in {
		t.Errorf("stats --egdb --format json: exit %d, %v, %+v, stderr %s", code, err, r.EGDB, stderr)
	}
	rep := filepath.Join(tmp, "report")
	code, _, stderr = runPDN(t, "", "stats", "--egdb", dir, "--report", rep, in)
	html, err := os.ReadFile(filepath.Join(rep, "index.html"))
	if code != 0 || err != nil || !strings.Contains(string(html), "3 games reached a position the database holds; 1 of them") ||
		!strings.Contains(string(html), `<td class="text">W:WK1,K3:BK32</td>`) {
		t.Errorf("stats --egdb --report: exit %d, %v, stderr %s; the page has no endgame database section with the game", code, err, stderr)
	}
	other := filepath.Join(tmp, "db")
	os.Mkdir(other, 0o755)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--egdb", dir, "--syntax-only"}, 2, "--syntax-only"},
		{[]string{"--egdb", other}, 2, "give --variant"},
		{[]string{"--egdb", other, "--variant", "english"}, 1, "no endgame database of english"},
		{[]string{"--egdb", filepath.Join(tmp, "english2"), "--variant", "english"}, 1, "english2"},
		{[]string{"--verbose"}, 2, "--egdb"},
	} {
		code, stdout, stderr := runPDN(t, "", append(append([]string{"stats"}, tc.args...), in)...)
		if code != tc.code || stdout != "" || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("stats %v: exit %d, stdout %q, stderr %q; want exit %d and one line naming %q", tc.args, code, stdout, stderr, tc.code, tc.want)
		}
	}
}

// regexpRow reports whether the table out has a row with the value and the count.
func regexpRow(out, value, count string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, value) && strings.Contains(line, " "+count+" ") {
			return true
		}
	}
	return false
}
