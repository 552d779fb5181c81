package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSplitNeverOverwrites: split refuses a file that exists (an earlier run's) unless
// --force, and never writes over its input, even with --force: the same name, a symbolic
// link, a hard link (issue 33, items 2 and 3).
func TestSplitNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "part-0001.pdn")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("part-0001.pdn", filepath.Join(dir, "link-0001.pdn"))
	os.Link(in, filepath.Join(dir, "hard-0001.pdn"))
	for _, prefix := range []string{"part-", "link-", "hard-"} {
		for _, force := range []bool{false, true} {
			args := []string{"split", "--every", "1", "--out", filepath.Join(dir, prefix), in}
			if force {
				args = append(args, "--force")
			}
			code, _, stderr := runPDN(t, "", args...)
			if code != 1 || !strings.Contains(stderr, "0001.pdn") {
				t.Errorf("pdn %v: exit %d, stderr %q; want exit 1 naming the file", args, code, stderr)
			}
			if got, _ := os.ReadFile(in); string(got) != string(data) {
				t.Fatalf("pdn %v wrote over its input", args)
			}
		}
	}
	out := filepath.Join(dir, "out", "x-")
	if code, _, stderr := runPDN(t, "", "split", "--every", "2", "--out", out, in); code != 0 {
		t.Fatalf("split: exit %d, %s", code, stderr)
	}
	code, _, stderr := runPDN(t, "", "split", "--every", "2", "--out", out, in)
	if code != 1 || !strings.Contains(stderr, "x-0001.pdn exists") || !strings.Contains(stderr, "--force") {
		t.Errorf("split again: exit %d, stderr %q; want the existing file named and --force", code, stderr)
	}
	code, stdout, stderr := runPDN(t, "", "split", "--every", "2", "--out", out, "--force", in)
	if code != 0 || strings.Count(stdout, "\n") != 2 {
		t.Errorf("split again --force: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if st, err := os.Stat(out + "0002.pdn"); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("split's file: %v, want mode 0644", err)
	}
}

// TestReportNotAnInput: stats --report DIR refuses a DIR whose index.html or PNG file is
// one of its inputs (issue 33, item 2).
func TestReportNotAnInput(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "plies.png"} {
		in := filepath.Join(dir, name)
		if err := os.WriteFile(in, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runPDN(t, "", "stats", "--report", dir, in)
		if got, _ := os.ReadFile(in); code != 2 || string(got) != string(data) || !strings.Contains(stderr, "refusing to write over an input") {
			t.Errorf("stats --report DIR DIR/%s: exit %d, stderr %q, input kept %v", name, code, stderr, string(got) == string(data))
		}
		os.Remove(in)
	}
}

// TestNotPDNInputs: a file that is not PDN is an error, and so is a truncated last game,
// unless --skip-bad leaves it out (issue 33, item 14: pdn stats go.mod exited 0 with one
// game).
func TestNotPDNInputs(t *testing.T) {
	dir := t.TempDir()
	notPDN := filepath.Join(dir, "go.mod")
	os.WriteFile(notPDN, []byte("module example.com/x\n\ngo 1.26\n"), 0o644)
	data, _ := os.ReadFile("testdata/games.pdn")
	cut := filepath.Join(dir, "cut.pdn")
	os.WriteFile(cut, append(append([]byte{}, data...), "\n[Event \"cut\"]\n[Bla"...), 0o644)
	for _, args := range [][]string{{"stats"}, {"validate"}, {"convert"}, {"stats", "--syntax-only", "-j", "2"}} {
		code, _, stderr := runPDN(t, "", append(args, notPDN)...)
		if code != 1 || !strings.Contains(stderr, "go.mod: line 1, column 1: not PDN") {
			t.Errorf("pdn %v go.mod: exit %d, stderr %q; want exit 1, not PDN", args, code, stderr)
		}
	}
	code, _, stderr := runPDN(t, "", "stats", cut)
	if code != 1 || !strings.Contains(stderr, "truncated") && !strings.Contains(stderr, "ends in the middle of a game") {
		t.Errorf("stats on a cut file: exit %d, stderr %q; want exit 1, truncated", code, stderr)
	}
	code, stdout, stderr := runPDN(t, "", "stats", "--skip-bad", "--format", "csv", cut)
	// (games.pdn's game 3 has an illegal move: two games left out.)
	if code != 0 || !strings.Contains(stdout, "games left out,with errors (--skip-bad),2") || !strings.Contains(stderr, "game 4: line 26, column 5: the input ends in the middle") {
		t.Errorf("stats --skip-bad on a cut file: exit %d, stdout %q, stderr %q; want the cut game left out", code, stdout, stderr)
	}
}

// TestStdoutNotAnInput: standard output redirected to one of the inputs (pdn convert
// a.pdn >> a.pdn) is refused before anything is read or written (issue 33, item 2).
func TestStdoutNotAnInput(t *testing.T) {
	dir := t.TempDir()
	data, _ := os.ReadFile("testdata/games.pdn")
	in := filepath.Join(dir, "a.pdn")
	os.WriteFile(in, data, 0o644)
	for _, args := range [][]string{{"convert"}, {"filter", "--min-plies", "1"}, {"dedupe"}, {"stats"}, {"book", "--skip-bad"}} {
		out, err := os.OpenFile(in, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		var errb strings.Builder
		code := run(context.Background(), append(append([]string{"pdn"}, args...), in), strings.NewReader(""), out, &errb)
		out.Close()
		if got, _ := os.ReadFile(in); code != 2 || string(got) != string(data) || !strings.Contains(errb.String(), "refusing to write over an input") {
			t.Errorf("pdn %v a.pdn >> a.pdn: exit %d, stderr %q, input kept %v", args, code, errb.String(), string(got) == string(data))
		}
	}
}
