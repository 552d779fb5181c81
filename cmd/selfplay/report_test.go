package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport plays a match with --report, then writes the report again from its journal
// in two shards and from its PDN.
func TestReport(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-v", "english", "--players", "depth=1:random=0.5,depth=1", "--games", "4", "--seed", "3", "--max-plies", "40", "-q"}
	live := filepath.Join(dir, "live")
	code, stdout, stderr := runArgs(t, append(common, "--report", live)...)
	if code != 0 || !strings.Contains(stdout, "4 of 4 games") || !strings.Contains(stderr, "report written to "+filepath.Join(live, "index.html")) {
		t.Fatalf("--report: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runArgs(t, append(common, "--report", live, "--resume")...)
	if code != 0 || !strings.Contains(stdout, "4 from the journal") {
		t.Fatalf("--report --resume: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	journal := filepath.Join(live, reportJournal)
	pdnFile := filepath.Join(dir, "m.pdn")
	if code, _, stderr := runArgs(t, append(common, "--pdn", pdnFile)...); code != 0 {
		t.Fatalf("--pdn: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		say  string // in stderr
	}{
		{"journal", []string{journal}, 0, "report written"},
		{"pdn", []string{pdnFile}, 0, "read from PDN"},
		{"no file", nil, 2, "give the journals"},
		{"missing file", []string{filepath.Join(dir, "none.journal")}, 1, "none.journal"},
		{"mixed", []string{journal, pdnFile}, 1, "give one kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name)
			code, _, stderr := runArgs(t, append([]string{"report", "--out", out}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.say) {
				t.Fatalf("report %s: exit %d, stderr %q; want exit %d saying %q", tc.args, code, stderr, tc.code, tc.say)
			}
			if _, err := os.Stat(filepath.Join(out, "index.html")); (err == nil) != (code == 0) {
				t.Errorf("report %s: exit %d, index.html: %v", tc.args, code, err)
			}
		})
	}
	// the page is never written over an input (issue 33 item 1)
	self := filepath.Join(dir, "self")
	os.Mkdir(self, 0o755)
	games, _ := os.ReadFile(pdnFile)
	input := filepath.Join(self, "index.html")
	os.WriteFile(input, games, 0o644)
	code, _, stderr = runArgs(t, "report", "--out", self, input)
	if after, _ := os.ReadFile(input); code != 2 || !strings.Contains(stderr, "input") || string(after) != string(games) {
		t.Errorf("report --out DIR DIR/index.html: exit %d, stderr %q, input kept %v", code, stderr, string(after) == string(games))
	}
}
