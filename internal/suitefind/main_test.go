package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

const shotFile = "testdata/shot.pdn"

// runFind runs the finder with args and returns its exit status and outputs.
func runFind(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := run(context.Background(), args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestFindShot: the position of shot-international-1 is found with its move, its source
// and its score; a shallow search deep enough to see the shot rejects it; the opening
// game has none.
func TestFindShot(t *testing.T) {
	args := []string{"--variant", "international", "--swing", "0", "--min-ply", "0", "--deep", "8", shotFile}
	code, out, errs := runFind(args...)
	want := `W:W20,25,36,37,39,40,43,44,46,47,49:B2,3,6,7,9,10,12,14,19,23 bm 20-15; id "shot-international-1"; ` +
		`c0 "testdata/shot.pdn game 1, before ply 1 (A - B, suitefind test: the position of shot-international-1 (corpus/suites/international.epd), 2025.02.07)"; ce 227; acd 8;` + "\n"
	if code != 0 || out != want || !strings.Contains(errs, "1 positions from 2 games") {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s\nstderr %s", code, out, want, errs)
	}
	code, out, errs = runFind(append([]string{"--shallow", "6"}, args...)...)
	if code != 0 || out != "" || !strings.Contains(errs, "shallow finds:1") {
		t.Errorf("--shallow 6: exit %d, stdout %q, stderr %s", code, out, errs)
	}
}

// TestFindUsage: bad flags and no file are usage errors; a file that cannot be read is
// reported and the others are still read.
func TestFindUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--variant", "nonesuch", shotFile}, {"--shallow", "10", "--deep", "8", shotFile}, {"--bogus"}} {
		if code, _, _ := runFind(args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
	code, out, errs := runFind("--variant", "international", "--swing", "0", "--min-ply", "0", "--deep", "8", "testdata/missing.pdn", shotFile)
	if code != 0 || !strings.Contains(out, "bm 20-15") || !strings.Contains(errs, "missing.pdn") {
		t.Errorf("a missing file: exit %d, stdout %q, stderr %s", code, out, errs)
	}
}
