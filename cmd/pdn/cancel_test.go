package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ocaPath is the Open Checkers Archive of the shared corpus (22,621 games).
const ocaPath = "../../../shared/pdn/corpus/mzuluaga__checkers/OCA_2.0.pdn"

const ocaGames = 22621 // games in ocaPath (pkg/pdn's BenchmarkRead counts them too)

// cancelAfter reads r and cancels a context once more than n bytes have been read, and
// goes on reading: the command must stop by itself.
type cancelAfter struct {
	r      io.Reader
	n      int64
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= int64(k); c.n < 0 {
		c.cancel()
	}
	return k, err
}

// TestCancel runs every subcommand that reads games over the OCA repeated four times
// (90,484 games), cancelling the context after 1 MB of input: each must stop with an
// error that says it was interrupted and how many games it had read, having read far
// fewer than all.
func TestCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 46 MB")
	}
	oca, err := os.ReadFile(ocaPath)
	if err != nil {
		t.Skipf("shared corpus not found: %v", err)
	}
	const copies = 4
	total := copies * ocaGames
	big := bytes.Repeat(oca, copies)
	dir := t.TempDir()
	count := func(re string) func(out, errOut string) int {
		return func(out, errOut string) int {
			m := regexp.MustCompile(re).FindStringSubmatch(out + errOut)
			if m == nil {
				return -1
			}
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	jsonGames := func(out, _ string) int {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var sum struct{ Total struct{ Games int } }
		if json.Unmarshal([]byte(lines[len(lines)-1]), &sum) != nil {
			return -1
		}
		return sum.Total.Games
	}
	for _, tc := range []struct {
		args  []string
		games func(out, errOut string) int
	}{
		// -v english: standard input is read once (no inference), the games replayed.
		{[]string{"validate", "-j", "1", "--json", "-v", "english"}, jsonGames},
		{[]string{"validate", "-j", "2", "--json", "-v", "english"}, jsonGames},
		// Without, standard input is copied to a temporary file first, to be read twice:
		// stopped there, before the first game.
		{[]string{"validate", "-j", "2"}, count(`after (\d+) games`)},
		{[]string{"validate", "-j", "1", "--syntax-only", "--json"}, jsonGames},
		{[]string{"validate", "-j", "2", "--syntax-only", "--json"}, jsonGames},
		{[]string{"convert", "-j", "1", "--to", "json"}, func(out, _ string) int { return strings.Count(out, "\n") }},
		{[]string{"convert", "-j", "2", "--to", "json"}, func(out, _ string) int { return strings.Count(out, "\n") }},
		{[]string{"convert", "-j", "2", "--to", "csv", "-v", "english"}, count(`after (\d+) games`)},
		{[]string{"filter", "-j", "1", "--min-plies", "1"}, count(`of (\d+) games`)},
		{[]string{"dedupe", "-j", "2"}, count(`of (\d+)\n`)},
		{[]string{"stats", "-j", "1", "--format", "json"}, count(`after (\d+) games`)},
		{[]string{"stats", "-j", "2", "--format", "json"}, count(`after (\d+) games`)},
		{[]string{"split", "-j", "2", "--every", "1000", "--out", filepath.Join(dir, "part-")}, count(`wrote (\d+) games`)},
		{[]string{"book", "-j", "2", "--variant", "english"}, count(`after (\d+) games`)},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			in := &cancelAfter{r: bytes.NewReader(big), n: 1 << 20, cancel: cancel}
			var out, errb bytes.Buffer
			code := run(ctx, append([]string{"pdn"}, tc.args...), in, &out, &errb)
			n := tc.games(out.String(), errb.String())
			if code == 0 || !strings.Contains(errb.String(), "interrupted") || n < 0 || n >= total/2 {
				t.Errorf("exit %d, %d games of %d, stderr %q; want a non-zero exit, \"interrupted\" and fewer than half the games read",
					code, n, total, tail(errb.String()))
			}
		})
	}
	// split leaves complete files only: every part it lists has its 1000 games, and
	// nothing else is in the folder.
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.HasSuffix(f, ".pdn") || bytes.Count(b, []byte("[Event ")) != 1000 {
			t.Errorf("split left %s (%d games, %v); want only complete parts", f, bytes.Count(b, []byte("[Event ")), err)
		}
	}
}

// tail returns the last lines of s.
func tail(s string) string {
	if len(s) > 400 {
		return "..." + s[len(s)-400:]
	}
	return s
}
