package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/book"
)

const bookGames = "../../pkg/book/testdata/transpose.pdn"

func TestBookBuildAndProbe(t *testing.T) {
	code, out, errs := runPDN(t, "", "book", "--variant", "english", "--max-ply", "6", "--skip-bad", bookGames)
	if code != 0 {
		t.Fatalf("pdn book = %d, stderr:\n%s", code, errs)
	}
	if !strings.HasPrefix(out, `{"format":"rafle-book","version":1,"variant":"english"`) {
		t.Errorf("book output starts %.80q", out)
	}
	for _, want := range []string{"4 games read, 3 used", "1 skipped", "game 4: line 15, column 10: move 1 (white) 21-14: illegal move"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	path := filepath.Join(t.TempDir(), "book.json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runPDN(t, "", "book", "--book", path, "--moves", "12-16 21-17 9-13 24-20")
	if code != 0 {
		t.Fatalf("probe = %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{": 2 games", "5-9", "6-9", "1/0/0", "0/0/1", "100.0%"} {
		if !strings.Contains(out, want) {
			t.Errorf("probe output lacks %q:\n%s", want, out)
		}
	}
	// a named position (issue 33 item 19); a position or moves that are not one are bad
	// data, exit status 1 (item 21)
	code, named, errs := runPDN(t, "", "book", "--book", path, "--probe", "start")
	code2, moves, _ := runPDN(t, "", "book", "--book", path, "--moves", "")
	if code != 0 || code2 != 0 || named != moves || !strings.Contains(named, "12-16") {
		t.Errorf("probe start = %d (%s):\n%s\nwant %d and the root's moves:\n%s", code, errs, named, code2, moves)
	}
	for _, args := range [][]string{{"--probe", "garbage"}, {"--probe", "W:W99:B1"}, {"--moves", "11-99"}} {
		code, _, errs := runPDN(t, "", append([]string{"book", "--book", path}, args...)...)
		if code != 1 || !strings.Contains(errs, args[1]) {
			t.Errorf("book %v = %d, stderr %q; want 1 naming it", args, code, errs)
		}
	}
	code, out, _ = runPDN(t, "", "book", "--book", path, "--probe", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
		"--eval", "2", "--format", "json")
	if code != 0 || !strings.Contains(out, `"move": "12-16"`) || !strings.Contains(out, `"eval":`) {
		t.Errorf("probe --format json --eval = %d:\n%s", code, out)
	}
	code, out, _ = runPDN(t, "", "book", "--variant", "english", "--format", "pdn", "--skip-bad", bookGames)
	if code != 0 || !strings.Contains(out, "1. 12-16 {2 games +1 =1 -0 75.0%}") {
		t.Errorf("pdn book --format pdn = %d:\n%s", code, out)
	}
}

func TestBookExpand(t *testing.T) {
	args := []string{"book", "--expand", "--variant", "russian", "--nodes", "6", "--depth", "2", "--max-ply", "4", "--seed", "5"}
	code, first, errs := runPDN(t, "", args...)
	if code != 0 {
		t.Fatalf("pdn book --expand = %d, stderr:\n%s", code, errs)
	}
	if !strings.Contains(errs, "seed 5") || !strings.Contains(first, `"positions":6`) {
		t.Errorf("expand: stderr %q, output %.200q", errs, first)
	}
	if _, second, _ := runPDN(t, "", args...); second != first {
		t.Errorf("expand is not deterministic")
	}
}

func TestBookUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"probe without book", []string{"book", "--probe", "B:W21:B1"}, "need --book"},
		{"expand without variant", []string{"book", "--expand"}, "needs --variant"},
		{"bad format", []string{"book", "--format", "csv", bookGames}, `--format "csv"`},
		{"probe and moves", []string{"book", "--book", "x.json"}, "one of --probe FEN or --moves"},
		{"bad variant", []string{"book", "--variant", "chess", bookGames}, "unknown variant"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runPDN(t, "", tc.args...)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Errorf("pdn %v = %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
			}
		})
	}
	code, _, errs := runPDN(t, "", "book", "--book", "/nonexistent.json", "--moves", "")
	if code != 1 {
		t.Errorf("missing book file = %d (%s), want 1", code, errs)
	}
}

// TestBookExpandBounds: --depth beyond book.MaxExpandDepth is refused at once (issue 33,
// item 22: --depth 99 ran until killed), and a signal stops a deep expansion.
func TestBookExpandBounds(t *testing.T) {
	code, _, errs := runPDN(t, "", "book", "--expand", "--variant", "english", "--depth", "99")
	if code != 2 || !strings.Contains(errs, "--depth 99: at most") {
		t.Errorf("--depth 99: exit %d, stderr %q; want exit 2 and the limit", code, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"pdn", "book", "--expand", "--variant", "international", "--depth",
			strconv.Itoa(book.MaxExpandDepth), "-j", "1"}, strings.NewReader(""), &out, &errb)
	}()
	cancel() // before or during the first search: either way the command stops
	if code := <-done; code != 1 || !strings.Contains(errb.String(), "context canceled") {
		t.Errorf("expand at depth %d, cancelled: exit %d, stderr %q", book.MaxExpandDepth, code, errb.String())
	}
}
