package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/golden"
	"github.com/rafle/rafle/internal/testengines"
)

// TestCheckHelp compares selfplay check --help with testdata/check-help.golden.
func TestCheckHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "check", "--help")
	if code != 0 || stderr != "" {
		t.Fatalf("selfplay check --help: exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "check-help.golden"), []byte(stdout))
}

// TestCheckCommand: a compliant engine exits 0 with every check passed; an engine that
// plays an illegal move exits 1 and prints the failure with its transcript; --format json
// is one object; a bad --engine is a usage error.
func TestCheckCommand(t *testing.T) {
	fake := testengines.Hub(t)
	spec := "name=fake,cmd=" + fake + ",depth=1"
	code, out, errs := runArgs(t, "check", "--engine", spec)
	if code != 0 || !strings.Contains(out, "PASS  handshake") || !strings.Contains(out, ", 0 failed\n") || strings.Contains(out, "FAIL") {
		t.Errorf("compliant engine: exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}

	code, out, errs = runArgs(t, "check", "--engine", spec+`,args="-illegal-at 2"`)
	for _, want := range []string{"FAIL  move  international  captures", "illegal move", "transcript:", "| ", "> go think"} {
		if !strings.Contains(out, want) {
			t.Errorf("illegal move: no %q in:\n%s", want, out)
		}
	}
	// the fake plays an illegal move at the second search of every process it runs (the
	// six positions of international, the last a move from a draw by repetition)
	if code != 1 || !strings.Contains(errs, "engine fake failed 4 of 13 checks") {
		t.Errorf("illegal move: exit %d, stderr %q", code, errs)
	}

	code, out, _ = runArgs(t, "check", "--engine", spec+`,args="-illegal-at 2"`, "--format", "json")
	var rep struct {
		Engine string
		Passed bool
		Checks []struct {
			Name, Position, Detail, Transcript string
			Passed                             bool
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	failed := 0
	for _, c := range rep.Checks {
		if !c.Passed {
			failed++
			if !strings.Contains(c.Detail, "illegal move") || c.Transcript == "" {
				t.Errorf("failed check %+v", c)
			}
		}
	}
	if code != 1 || rep.Passed || rep.Engine != "fake" || failed != 4 {
		t.Errorf("json: exit %d, passed %v, engine %q, %d failed", code, rep.Passed, rep.Engine, failed)
	}

	if code, _, errs := runArgs(t, "check", "--engine", "name=fake,cmd="+fake); code != 2 || !strings.Contains(errs, "needs a limit") {
		t.Errorf("engine without a limit: exit %d, stderr %q", code, errs)
	}
}

// TestMatchCheck: --check runs the check in the match's variant before the match: a
// compliant engine plays the match; one that fails a check stops it before any game, with
// the failures on stderr; an engine without the match's variant fails the variant check.
func TestMatchCheck(t *testing.T) {
	fake := testengines.Hub(t)
	dir := t.TempDir()
	pdn := filepath.Join(dir, "m.pdn")
	args := func(variant, fakeArgs string) []string {
		return []string{"-v", variant, "--players", "fake,depth=1", "--games", "2", "--max-plies", "20", "--seed", "1", "-q", "--check",
			"--pdn", pdn, "--engine", "name=fake,cmd=" + fake + `,depth=1,args="-variants normal,frisian ` + fakeArgs + `"`}
	}
	code, _, errs := runArgs(t, args("international", "")...)
	if code != 0 || !strings.Contains(errs, "--check: engine fake passed") {
		t.Fatalf("compliant engine: exit %d, stderr %q", code, errs)
	}
	os.Remove(pdn)
	os.Remove(pdn + ".journal")
	code, _, errs = runArgs(t, args("frisian", "-illegal-at 2")...)
	if code != 1 || !strings.Contains(errs, "FAIL  move  frisian  captures") || !strings.Contains(errs, "the match was not started") {
		t.Errorf("illegal move: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(pdn); err == nil {
		t.Error("a match whose engine failed the check wrote its PDN")
	}
	code, _, errs = runArgs(t, args("english", "")...)
	if code != 1 || !strings.Contains(errs, "does not offer english") {
		t.Errorf("variant not offered: exit %d, stderr %q", code, errs)
	}
}
