package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/golden"
	"github.com/rafle/rafle/internal/testengines"
)

// TestSuiteHelp compares selfplay suite --help with testdata/suite-help.golden.
func TestSuiteHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "suite", "--help")
	if code != 0 || stderr != "" {
		t.Fatalf("selfplay suite --help: exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "suite-help.golden"), []byte(stdout))
}

const testSuite = "testdata/suite-english.epd"

// TestSuiteCommand: a player strong enough solves the suite (exit 0); a crippled one fails
// every position (exit 1), listed with its position, its move and the solution; --json is
// one object with every result. The players search full width (medium's, hard's) with the
// hand-set evaluation, so that the verdicts test the command, not the evaluation's strength.
func TestSuiteCommand(t *testing.T) {
	code, out, errs := runArgs(t, "suite", "--player", "medium:depth=6:eval=hand", testSuite)
	if code != 0 || errs != "" || !strings.Contains(out, "solved 3 of 3 (100.0%)") || strings.Contains(out, "FAIL") {
		t.Errorf("depth=6: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	// --depth replaces the level's limits
	code, out, errs = runArgs(t, "suite", "--player", "hard:eval=hand", "--depth", "1", testSuite)
	for _, want := range []string{
		"english, hard:eval=hand (depth=1): 3 positions\n",
		"solved 0 of 3 (0.0%)",
		"not solved:\ncrown-on-3 (testdata/suite-english.epd:4)\n  position W:W7,22:B4,24\n  played 7-2, wanted bm 7-3\n",
		"king-to-16 (testdata/suite-english.epd:5)\n  position B:W24,25:BK12,18\n  played 12-8, wanted bm 12-16; am 12-8\n",
		"wanted wm 2-7\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("depth=1: no %q in:\n%s", want, out)
		}
	}
	if code != 1 || errs != "selfplay: suite: hard:eval=hand solved 0 of 3 positions\n" {
		t.Errorf("depth=1: exit %d, stderr %q", code, errs)
	}

	code, out, _ = runArgs(t, "suite", "--player", "medium:depth=1:eval=hand", "--json", testSuite)
	var rep struct {
		Engine, Variant string
		Solved, Total   int
		Results         []struct {
			ID, FEN, Move, File string
			Line                int
			Solved              bool
			Best                []string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if code != 1 || rep.Engine != "medium:depth=1:eval=hand" || rep.Variant != "english" || rep.Solved != 0 || rep.Total != 3 || len(rep.Results) != 3 ||
		rep.Results[0].ID != "crown-on-3" || rep.Results[0].Move != "7-2" || rep.Results[0].Line != 4 || rep.Results[0].Best[0] != "7-3" {
		t.Errorf("json: exit %d, %+v", code, rep)
	}
}

// TestSuiteInputs: standard input, a bad line named by file and line on stderr while the
// other positions are still scored (exit 1 however they went), and the usage errors.
func TestSuiteInputs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.epd")
	os.WriteFile(bad, []byte("W:W7,22:B4,24 bm 7-3;\nW:W7,22:B4,24 bm 7-11;\nW:W7,22:B4 bm 7-3\n"), 0o644)
	code, out, errs := runArgs(t, "suite", "--player", "medium:depth=6:eval=hand", bad)
	if code != 1 || !strings.Contains(out, "solved 1 of 1") ||
		!strings.Contains(errs, "selfplay: match: "+bad+":2: bm 7-11 in W:W7,22:B4,24: ") ||
		!strings.Contains(errs, bad+":3:12: operation bm: no ';' at its end\n") ||
		!strings.HasSuffix(errs, "selfplay: suite: 2 lines could not be read (above)\n") {
		t.Errorf("bad lines: exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}

	var o, e bytes.Buffer
	data, _ := os.ReadFile(testSuite)
	code = run(context.Background(), []string{"selfplay", "suite", "--player", "medium:depth=6:eval=hand", "--json", "-"}, bytes.NewReader(data), &o, &e)
	if code != 0 || !strings.Contains(o.String(), `"solved": 3,`) || !strings.Contains(o.String(), `"file": "stdin",`) {
		t.Errorf("stdin: exit %d, stdout:\n%s\nstderr: %s", code, o.String(), e.String())
	}

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"suite", testSuite}, 2, "give one of --player and --engine"},
		{[]string{"suite", "--player", "hard", "--engine", "name=x,cmd=x,depth=1", testSuite}, 2, "give one of --player and --engine"},
		{[]string{"suite", "--player", "depth=0", testSuite}, 2, "--player: "},
		{[]string{"suite", "--player", "hard", "--depth", "0", testSuite}, 2, "--depth 0: out of range"},
		{[]string{"suite", "--player", "hard", "--engine-start", "0s", testSuite}, 2, "--engine-start 0s"},
		{[]string{"suite", "--player", "hard", "--format", "xml", testSuite}, 2, "--format"},
		{[]string{"suite", "--player", "hard", "-v", "nonesuch", testSuite}, 2, "--variant"},
		{[]string{"suite", "--engine", "name=d,proto=dxp", "--depth", "3", testSuite}, 2, "a DXP engine takes only a clock"},
		{[]string{"suite", "--player", "hard", filepath.Join(dir, "missing.epd")}, 1, "missing.epd"},
		{[]string{"suite", "--player", "hard", filepath.Join(dir)}, 1, "no position could be read"},
	} {
		code, _, errs := runArgs(t, tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tt.args, code, errs, tt.code, tt.want)
		}
	}
}

// TestSuiteEngine: a Hub engine scored through --engine, its own depth replaced by --depth.
func TestSuiteEngine(t *testing.T) {
	fake := testengines.Hub(t)
	code, out, errs := runArgs(t, "suite", "--engine", "name=fake,cmd="+fake+",args=\"-variants english\",tc=60", "--depth", "2", testSuite)
	// hubfake plays the first legal move: 7-2 (crown-on-3, not solved), 12-8 (king-to-16:
	// the move to avoid), 2-6 (not 2-7)
	if code != 1 || !strings.Contains(out, "english, fake (depth=2): 3 positions") || !strings.Contains(out, "solved 0 of 3") ||
		!strings.Contains(out, "played 7-2, wanted bm 7-3") || !strings.Contains(errs, "fake solved 0 of 3") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
}
