package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/internal/golden"
	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/book"
)

func runPDN(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"pdn"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestSnapshots compares help texts and error messages with the files in
// testdata/snapshots (go test -update rewrites them).
func TestSnapshots(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"help", []string{"--help"}, 0},
		{"validate-help", []string{"validate", "--help"}, 0},
		{"validate-replay", []string{"validate", "-j", "1", "testdata/games.pdn"}, 1},
		{"unknown-flag", []string{"convert", "--bogus"}, 2},
		{"bad-to", []string{"convert", "--to", "xml", "testdata/games.pdn"}, 2},
		{"missing-file", []string{"stats", "testdata/no-such-file.pdn"}, 1},
		{"convert-help", []string{"convert", "--help"}, 0},
		{"filter-help", []string{"filter", "--help"}, 0},
		{"dedupe-help", []string{"dedupe", "--help"}, 0},
		{"stats-help", []string{"stats", "--help"}, 0},
		{"split-help", []string{"split", "--help"}, 0},
		{"book-help", []string{"book", "--help"}, 0},
		{"merge-help", []string{"merge", "--help"}, 0},
		{"annotate-help", []string{"annotate", "--help"}, 0},
		{"bad-fen", []string{"filter", "--fen", "nonsense", "testdata/games.pdn"}, 1}, // bad data, not a bad command line
		{"bad-variant", []string{"validate", "-v", "20,W,0,0,N2,0", "testdata/games.pdn"}, 2},
		{"stats-errors", []string{"stats", "testdata/games.pdn", "testdata/bad.pdn"}, 1},
		{"validate-bad", []string{"validate", "--max-errors", "1", "testdata/bad.pdn", "testdata/no-such-file.pdn"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runPDN(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("pdn %v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, errOut)
			}
			got := "$ pdn " + strings.Join(tc.args, " ") + "\n--- stdout\n" + out + "--- stderr\n" + errOut
			golden.Check(t, filepath.Join("testdata", "snapshots", tc.name+".txt"), []byte(got))
		})
	}
}

func TestValidate(t *testing.T) {
	code, out, _ := runPDN(t, "", "validate", "--syntax-only", "testdata/games.pdn")
	if code != 0 || !strings.Contains(out, "testdata/games.pdn") {
		t.Errorf("validate games.pdn: exit %d, output %q; want exit 0 and a row for the file", code, out)
	}
	code, out, errOut := runPDN(t, "", "validate", "--syntax-only", "--json", "-j", "2", "testdata/games.pdn", "testdata/bad.pdn")
	if code != 1 || !strings.Contains(errOut, "1 of 5 games have errors") {
		t.Fatalf("validate bad.pdn: exit %d, stderr %q; want exit 1 and a count", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var probs []archive.Problem
	for _, l := range lines[:len(lines)-1] {
		var p archive.Problem
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("problem line %q: %v", l, err)
		}
		probs = append(probs, p)
	}
	want := []archive.Problem{
		{File: "testdata/bad.pdn", Game: 1, Line: 4, Column: 16, Level: "warning", Kind: "move-number"},
		{File: "testdata/bad.pdn", Game: 2, Line: 8, Column: 1, Level: "warning", Kind: "no-terminator-at-end"},
		{File: "testdata/bad.pdn", Game: 2, Line: 7, Column: 10, Level: "error", Kind: "unterminated-comment"},
	}
	if len(probs) != len(want) {
		t.Fatalf("validate --json: %d problems %+v, want %d", len(probs), probs, len(want))
	}
	for i, p := range probs {
		p.Message = ""
		if p != want[i] {
			t.Errorf("problem %d = %+v, want %+v", i, p, want[i])
		}
	}
	var sum struct {
		Files []archive.Summary
		Total archive.Summary
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil || sum.Total.Games != 5 || sum.Total.Moves != 17 || len(sum.Files) != 2 {
		t.Errorf("summary line %q (%v): want 5 games, 17 moves, 2 files", lines[len(lines)-1], err)
	}
	// Strict: the dangling move number becomes an error.
	code, out, _ = runPDN(t, "", "validate", "--syntax-only", "--strict", "--json", "testdata/bad.pdn")
	if code != 1 || !strings.Contains(out, `"game":1,"line":4,"column":16,"level":"error","kind":"move-number"`) {
		t.Errorf("validate --strict: exit %d, output %q; want the move number as an error", code, out)
	}
}

func TestConvertRoundTrip(t *testing.T) {
	src, err := os.ReadFile("testdata/games.pdn")
	if err != nil {
		t.Fatal(err)
	}
	code, jsonOut, errOut := runPDN(t, string(src), "convert", "--to", "json")
	if code != 0 || strings.Count(jsonOut, "\n") != 3 {
		t.Fatalf("convert --to json: exit %d, %d lines, stderr %q; want 3 lines", code, strings.Count(jsonOut, "\n"), errOut)
	}
	code, pdn1, _ := runPDN(t, jsonOut, "convert", "--to", "pdn")
	if code != 0 {
		t.Fatalf("convert json to pdn: exit %d", code)
	}
	code, pdn2, _ := runPDN(t, string(src), "convert")
	if code != 0 || pdn1 != pdn2 {
		t.Errorf("PDN from JSON differs from PDN from PDN:\n%s\n---\n%s", pdn1, pdn2)
	}
	if pdn2 != string(src) {
		t.Errorf("convert of canonical games.pdn changed it:\n%s", pdn2)
	}
	code, out, _ := runPDN(t, string(src), "convert", "--drop-comments", "--drop-variations", "--drop-nags", "-")
	if code != 0 || strings.ContainsAny(out, "{($") {
		t.Errorf("convert --drop-*: exit %d, output still has comments, variations or NAGs:\n%s", code, out)
	}
	code, _, errOut = runPDN(t, "", "convert", "testdata/bad.pdn")
	if code != 1 || !strings.Contains(errOut, "unterminated comment") {
		t.Errorf("convert bad.pdn: exit %d, stderr %q; want exit 1 and the error", code, errOut)
	}
}

func TestFilterDedupe(t *testing.T) {
	tests := []struct {
		args  []string
		games int
	}{
		{[]string{"filter", "--tag", "Event~^Club", "testdata/games.pdn"}, 2},
		{[]string{"filter", "--tag", "White=Beta", "testdata/games.pdn"}, 1},
		{[]string{"filter", "--result", "2-0", "--result", "0-2", "testdata/games.pdn"}, 2},
		{[]string{"filter", "--min-plies", "5", "testdata/games.pdn"}, 2},
		{[]string{"filter", "--max-plies", "4", "testdata/games.pdn"}, 1},
		// Games 1 and 2 have the same moves: only games 1 and 3 are kept.
		{[]string{"dedupe", "testdata/games.pdn", "testdata/games.pdn"}, 2},
	}
	for _, tc := range tests {
		code, out, errOut := runPDN(t, "", tc.args...)
		if got := strings.Count(out, "[Event "); code != 0 || got != tc.games {
			t.Errorf("pdn %v: exit %d, %d games (stderr %q), want %d", tc.args, code, got, errOut, tc.games)
		}
	}
	_, _, errOut := runPDN(t, "", "dedupe", "testdata/games.pdn", "testdata/games.pdn")
	if !strings.Contains(errOut, "dropped 4 duplicate games of 6") {
		t.Errorf("dedupe stderr %q, want the dropped count", errOut)
	}
	// Tag values with commas (every OCA name has one): --tag is repeated, never split.
	names := "[White \"Tinsley, M.F.\"]\n[Black \"Long, A.\"]\n\n1. 11-15 *\n\n[White \"Other\"]\n\n1. 9-13 *\n"
	var code int
	var out string
	code, out, errOut = runPDN(t, names, "filter", "--tag", "White=Tinsley, M.F.", "--tag", "Black~^Long, A")
	if code != 0 || strings.Count(out, "[White ") != 1 || !strings.Contains(out, "Tinsley, M.F.") {
		t.Errorf("filter --tag with commas: exit %d, output %q, stderr %q; want the Tinsley game", code, out, errOut)
	}
	if code, _, _ := runPDN(t, "", "filter", "--tag", "NoOperator", "testdata/games.pdn"); code != 2 {
		t.Errorf("filter --tag NoOperator: exit %d, want 2", code)
	}
}

// TestStats: stats replays the games (game 3 of games.pdn has an illegal move, which
// validate reports too), counts them by the variant they were replayed with, says which
// games have errors on stderr and exits 1, unless --skip-bad leaves them out.
func TestStats(t *testing.T) {
	code, out, errOut := runPDN(t, "", "stats", "--format", "json", "testdata/games.pdn")
	var r archive.StatsReport
	if err := json.Unmarshal([]byte(out), &r); code != 1 || err != nil || !strings.Contains(errOut, "game 3: line 23, column 19: move 2 (white) 27x18: illegal move") {
		t.Fatalf("stats --format json: exit %d, %v, stderr %q; want exit 1 and the illegal move", code, err, errOut)
	}
	if r.Games != 3 || r.Errors != 1 || r.Replayed != 2 || r.MinPlies != 4 || r.MedianPlies != 5 || r.MaxPlies != 5 ||
		len(r.FirstMoves) == 0 || r.FirstMoves[0] != (archive.Count{Value: "32-28", N: 2}) ||
		len(r.Variants) != 1 || r.Variants[0] != (archive.Count{Value: "international (GameType tag)", N: 3}) || len(r.Results) != 3 {
		t.Errorf("stats = %+v", r)
	}
	code, out, errOut = runPDN(t, "", "stats", "--format", "json", "--skip-bad", "testdata/games.pdn")
	r = archive.StatsReport{}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Games != 2 || r.Skipped != 1 || r.Errors != 0 ||
		!strings.Contains(errOut, "left out 1 game with errors") {
		t.Errorf("stats --skip-bad: exit %d, %v, stderr %q, stats %+v; want exit 0, 2 games, 1 left out", code, err, errOut, r)
	}
	// --syntax-only: nothing replayed, variants from the GameType tags, and the table says so.
	code, out, _ = runPDN(t, "", "stats", "--syntax-only", "testdata/games.pdn", "testdata/bad.pdn")
	for _, want := range []string{"no (--syntax-only)", "20 (international)", "no GameType tag"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("stats --syntax-only: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = runPDN(t, "", "stats", "--format", "csv", "--skip-bad", "testdata/games.pdn")
	if code != 0 || !strings.HasPrefix(out, "section,value,count\n") || !strings.Contains(out, "player,Alpha,2\n") {
		t.Errorf("stats --format csv: exit %d, output %q", code, out)
	}
}

func TestSplit(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runPDN(t, "", "split", "--every", "2", "--out", filepath.Join(dir, "part-"), "testdata/games.pdn")
	if code != 0 || strings.Count(out, "\n") != 2 {
		t.Fatalf("split --every 2: exit %d, files %q, stderr %q", code, out, errOut)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "part-0002.pdn"))
	if strings.Count(string(b), "[Event ") != 1 {
		t.Errorf("part-0002.pdn = %q, want 1 game", b)
	}
	code, out, _ = runPDN(t, "", "split", "--by-tag", "Event", "--out", filepath.Join(dir, "ev-"), "testdata/games.pdn")
	b, _ = os.ReadFile(filepath.Join(dir, "ev-Club_2024.pdn"))
	if code != 0 || strings.Count(string(b), "[Event ") != 2 {
		t.Errorf("split --by-tag Event: exit %d, files %q, Club file %q", code, out, b)
	}
	// --out in a folder that does not exist yet: split creates it.
	code, out, errOut = runPDN(t, "", "split", "--every", "5", "--out", filepath.Join(dir, "new", "sub", "x-"), "testdata/games.pdn")
	if b, _ := os.ReadFile(filepath.Join(dir, "new", "sub", "x-0001.pdn")); code != 0 || strings.Count(string(b), "[Event ") != 3 {
		t.Errorf("split --out new/sub/x-: exit %d, stdout %q, stderr %q, file %q", code, out, errOut, b)
	}
	// Values that make the same file name get names of their own, and stdout maps each
	// file to its value.
	tagged := ""
	for _, v := range []string{"A/B", "A_B", "A B", "a_b", "A/B", ""} {
		tagged += "[Event \"" + v + "\"]\n\n1. 11-15 *\n\n"
	}
	code, out, errOut = runPDN(t, tagged, "split", "--by-tag", "Event", "--out", filepath.Join(dir, "tag-"))
	want := []string{"tag-A_B.pdn\tA/B", "tag-A_B-2.pdn\tA_B", "tag-A_B-3.pdn\tA B", "tag-a_b-4.pdn\ta_b", "tag-none.pdn\t"}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimPrefix(lines[i], dir+string(filepath.Separator))
	}
	if code != 0 || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("split --by-tag with clashing names: exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "tag-A_B.pdn")); strings.Count(string(b), "[Event \"A/B\"]") != 2 || strings.Count(string(b), "[Event ") != 2 {
		t.Errorf("tag-A_B.pdn = %q, want the two A/B games", b)
	}
	if code, _, _ := runPDN(t, "", "split", "--out", "x", "testdata/games.pdn"); code != 2 {
		t.Errorf("split without --every or --by-tag: exit %d, want 2", code)
	}
}

// TestJobsBound: every -j of the pdn command is bounded by cliutil.CheckJobs (a huge
// value used to allocate channels of that size and die out of memory).
func TestJobsBound(t *testing.T) {
	for _, args := range [][]string{
		{"validate"}, {"validate", "--syntax-only"}, {"convert"}, {"filter"}, {"dedupe"}, {"stats"},
		{"split", "--every", "1", "--out", filepath.Join(t.TempDir(), "x-")},
		{"book", "--variant", "international"}, {"book", "--expand", "--variant", "english", "--nodes", "1", "--depth", "1"},
	} {
		for _, j := range []string{"1000", "99999999999", "0"} {
			a := append(append([]string(nil), args...), "-j", j, "testdata/games.pdn")
			if args[0] == "book" && args[1] == "--expand" {
				a = a[:len(a)-1]
			}
			code, _, errOut := runPDN(t, "", a...)
			if code != 2 || !strings.Contains(errOut, "-j "+j+":") {
				t.Errorf("pdn %v: exit %d, stderr %q; want 2 and a usage error naming -j %s", a, code, errOut, j)
			}
		}
	}
}

// TestExpandNodesBound: book --expand refuses a --nodes whose book would not fit in this
// machine's memory (it grew until the system killed it), before it expands anything.
func TestExpandNodesBound(t *testing.T) {
	avail, ok := cliutil.AvailableMiB()
	if !ok {
		t.Skip("the available memory cannot be read here")
	}
	nodes := strconv.FormatInt((avail+1)*(1<<20/book.ExpandBytesPerNode), 10)
	code, out, errOut := runPDN(t, "", "book", "--expand", "--variant", "english", "--nodes", nodes, "--depth", "1", "-j", "1")
	if code != 2 || out != "" || !strings.Contains(errOut, "--nodes") || !strings.Contains(errOut, "more memory than this machine has") {
		t.Errorf("book --expand --nodes %s: exit %d, stdout %q, stderr %q; want 2 and a usage error naming --nodes", nodes, code, out, errOut)
	}
}

// TestValidateListsProblems: in table mode validate prints each error and warning with its
// file, line, column and game, a move error with its move and position, at most
// --max-errors of each per file and then how many more there are.
func TestValidateListsProblems(t *testing.T) {
	code, out, _ := runPDN(t, "", "validate", "-j", "1", "testdata/games.pdn", "testdata/bad.pdn")
	for _, want := range []string{
		"testdata/games.pdn:23:19: game 3: error: illegal-move: move 2 (white) 27x18: illegal move",
		"; position W:W27,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,18,19,20,22\n",
		"testdata/bad.pdn:4:16: game 1: warning: move-number: ",
		"testdata/bad.pdn:7:10: game 2: error: unterminated-comment: unterminated comment\n",
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("validate: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	// Many errors: the first --max-errors, then a count.
	var many strings.Builder
	for i := 0; i < 30; i++ {
		many.WriteString("[Event \"x\"]\n[GameType \"21\"]\n\n1. 11-15 24-19 2. 15x24 99-1 *\n\n")
	}
	_, out, _ = runPDN(t, many.String(), "validate", "--max-errors", "5")
	if n := strings.Count(out, ": error: "); n != 5 || !strings.Contains(out, "-: 25 more errors not shown") {
		t.Errorf("validate --max-errors 5 of 30 errors: %d shown, output:\n%s", n, out)
	}
}

// TestSkipBad: every command that drops or alters a game read or replayed with an error
// names it on stderr and exits 1, unless --skip-bad, which leaves such games out, says how
// many, and exits 0.
func TestSkipBad(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string // in stderr, both ways
	}{
		{[]string{"convert", "testdata/bad.pdn"}, "testdata/bad.pdn: game 2: line 7, column 10: unterminated comment"},
		{[]string{"convert", "--to", "json", "-j", "2", "testdata/bad.pdn"}, "testdata/bad.pdn: game 2: line 7, column 10: unterminated comment"},
		{[]string{"convert", "--to", "csv", "testdata/games.pdn"}, "testdata/games.pdn: game 3: line 23, column 19: move 2 (white) 27x18: illegal move"},
		{[]string{"filter", "--min-plies", "1", "testdata/bad.pdn"}, "unterminated comment"},
		{[]string{"dedupe", "testdata/bad.pdn"}, "unterminated comment"},
		{[]string{"split", "--every", "10", "--out", filepath.Join(dir, "s-"), "testdata/bad.pdn"}, "testdata/bad.pdn: game 2: line 7, column 10: unterminated comment"},
		{[]string{"stats", "testdata/bad.pdn"}, "testdata/bad.pdn: game 2: line 7, column 10: unterminated comment"},
		{[]string{"book", "--max-ply", "6", bookGames}, "game 4: line 15, column 10: move 1 (white) 21-14: illegal move"},
	} {
		code, _, errOut := runPDN(t, "", tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "1 of ") {
			t.Errorf("pdn %v: exit %d, stderr %q; want exit 1, %q and a count", tc.args, code, errOut, tc.want)
		}
		args := append([]string{tc.args[0], "--skip-bad"}, tc.args[1:]...)
		if tc.args[0] == "split" {
			args = append(args, "--force") // over the files of the run without --skip-bad
		}
		code, _, errOut = runPDN(t, "", args...)
		if code != 0 || !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "left out 1 game with errors (--skip-bad)") {
			t.Errorf("pdn %v: exit %d, stderr %q; want exit 0, %q and the count left out", args, code, errOut, tc.want)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "s-0001.pdn"))
	if strings.Count(string(b), "[Event ") != 1 || !strings.Contains(string(b), "Broken") {
		t.Errorf("split --skip-bad bad.pdn wrote %q, want game 1 only", b)
	}
}

// TestBadInputs: a missing file gets no row of zeros, an empty input and binary data are
// errors, and none of them stops the other inputs.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.pdn")
	binary := filepath.Join(dir, "image.pdn")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(binary, append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00[Event \"x\"] 1. 11-15 *"), bytes.Repeat([]byte{0, 1, 2, 3}, 100)...), 0o644)
	missing := filepath.Join(dir, "missing.pdn")

	code, out, errOut := runPDN(t, "", "validate", missing)
	if code != 1 || strings.Contains(out, "missing.pdn") || !strings.Contains(errOut, "missing.pdn: no such file") {
		t.Errorf("validate missing.pdn: exit %d, stdout\n%s\nstderr %q; want exit 1, no row for it, the error", code, out, errOut)
	}
	code, out, errOut = runPDN(t, "", "validate", missing, "testdata/games.pdn")
	if code != 1 || strings.Contains(out, "missing.pdn") || !strings.Contains(out, "testdata/games.pdn │ 3") || !strings.Contains(errOut, "no such file") {
		t.Errorf("validate missing.pdn games.pdn: exit %d, stdout\n%s\nstderr %q", code, out, errOut)
	}
	for _, args := range [][]string{
		{"validate", empty}, {"validate", "--syntax-only", "-j", "2", empty}, {"convert", empty}, {"convert", "-j", "2", empty},
		{"stats", empty}, {"split", "--every", "1", "--out", filepath.Join(dir, "x-"), empty}, {"book", empty},
	} {
		code, _, errOut := runPDN(t, "", args...)
		if code != 1 || !strings.Contains(errOut, "empty.pdn: no games") {
			t.Errorf("pdn %v: exit %d, stderr %q; want exit 1 and \"empty.pdn: no games\"", args, code, errOut)
		}
	}
	if code, _, errOut := runPDN(t, "", "convert", "--skip-bad", empty); code != 0 || !strings.Contains(errOut, "empty.pdn: no games") {
		t.Errorf("convert --skip-bad empty.pdn: exit %d, stderr %q; want exit 0 and a warning", code, errOut)
	}
	for _, args := range [][]string{{"stats", binary}, {"validate", "-j", "2", binary}, {"convert", binary}} {
		code, out, errOut := runPDN(t, "", args...)
		if code != 1 || !strings.Contains(errOut, "image.pdn: binary data") || strings.Contains(out, "image.pdn") {
			t.Errorf("pdn %v: exit %d, stdout %q, stderr %q; want exit 1 and binary data named", args, code, out, errOut)
		}
	}
	// An input that cannot be read does not stop the others.
	for _, j := range []string{"1", "2"} {
		code, out, errOut = runPDN(t, "", "convert", "-j", j, missing, binary, "testdata/games.pdn")
		if code != 1 || strings.Count(out, "[Event ") != 3 || !strings.Contains(errOut, "no such file") || !strings.Contains(errOut, "binary") {
			t.Errorf("convert -j %s missing binary games.pdn: exit %d, %d games, stderr %q; want exit 1, the 3 games and both errors", j, code, strings.Count(out, "[Event "), errOut)
		}
	}
}

// TestJSONPositions: convert --to json writes where each game, tag and move is in the
// input only with --positions, which needs --to json.
func TestJSONPositions(t *testing.T) {
	_, plain, _ := runPDN(t, "", "convert", "--to", "json", "testdata/games.pdn")
	code, withPos, errOut := runPDN(t, "", "convert", "--to", "json", "--positions", "testdata/games.pdn")
	if _, seq, _ := runPDN(t, "", "convert", "--to", "json", "--positions", "-j", "1", "testdata/games.pdn"); seq != withPos {
		t.Errorf("convert --to json --positions: -j 1 and -j %d differ:\n%s\n---\n%s", runtime.NumCPU(), seq, withPos)
	}
	if strings.Contains(plain, `"pos"`) || code != 0 || !strings.Contains(withPos, `"pos":{"offset":0,"line":1,"column":1}`) ||
		!strings.Contains(withPos, `"name":"Event","value":"Club 2024","pos":{"offset":0,"line":1,"column":1}`) {
		t.Errorf("convert --to json [--positions]: exit %d, stderr %q\nwithout: %.200s\nwith: %.300s", code, errOut, plain, withPos)
	}
	// Both read back to the same PDN.
	_, a, _ := runPDN(t, plain, "convert")
	_, b, _ := runPDN(t, withPos, "convert")
	if a != b || !strings.Contains(a, "[Event \"Club 2024\"]") {
		t.Errorf("PDN from JSON without and with positions differ:\n%s\n---\n%s", a, b)
	}
	if code, _, errOut := runPDN(t, "", "convert", "--positions", "testdata/games.pdn"); code != 2 || !strings.Contains(errOut, "--positions") {
		t.Errorf("convert --positions (to pdn): exit %d, stderr %q; want a usage error", code, errOut)
	}
}
