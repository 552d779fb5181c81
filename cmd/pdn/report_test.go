package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStatsReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	// (--skip-bad: game 3 has an illegal move, which would make the exit status 1.)
	code, out, errOut := runPDN(t, "", "stats", "--report", dir, "--skip-bad", "testdata/games.pdn")
	if code != 0 || !strings.Contains(out, "games") {
		t.Fatalf("stats --report: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"rafle pdn stats: testdata/games.pdn", `id="plot-lengths"`, `id="plot-results"`} {
		if !strings.Contains(string(page), s) {
			t.Errorf("the report lacks %s", s)
		}
	}
}
