package archive

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// games returns n small games, numbered in their Event tag.
func games(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[Event \"g%d\"]\n[Result \"*\"]\n\n1. 11-15 23-19 *\n\n", i)
	}
	return []byte(b.String())
}

// countGames counts the games in the files named.
func countGames(t *testing.T, files []SplitFile) int {
	t.Helper()
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "[Event ")
	}
	return n
}

// TestSplitExisting: a file name that exists is refused, before anything is written,
// unless Force; Check is asked before each file; files are made 0644 (issue 33, item 3).
func TestSplitExisting(t *testing.T) {
	dir := t.TempDir()
	prefix := filepath.Join(dir, "p-")
	res, err := Split(context.Background(), jobOf(games(5)), SplitOptions{Every: 2, Prefix: prefix})
	if err != nil || len(res.Files) != 3 {
		t.Fatalf("Split: %v, %+v", err, res)
	}
	for _, f := range res.Files {
		if st, err := os.Stat(f.Name); err != nil || st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v (%v), want 0644", f.Name, st.Mode().Perm(), err)
		}
	}
	before, _ := os.ReadFile(prefix + "0001.pdn")
	res, err = Split(context.Background(), jobOf(games(3)), SplitOptions{Every: 1, Prefix: prefix})
	var ee *ExistsError
	if !errors.As(err, &ee) || !errors.Is(err, fs.ErrExist) || ee.Name != prefix+"0001.pdn" || len(res.Files) != 0 || res.Games != 0 {
		t.Errorf("Split over an earlier split: %v, %+v; want an ExistsError naming %s0001.pdn and nothing written", err, res, prefix)
	}
	if after, _ := os.ReadFile(prefix + "0001.pdn"); string(after) != string(before) {
		t.Errorf("the earlier file was changed")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// ByTag, the same.
	if _, err := Split(context.Background(), jobOf(games(2)), SplitOptions{ByTag: "Event", Prefix: prefix}); err != nil {
		t.Fatal(err)
	}
	if _, err := Split(context.Background(), jobOf(games(2)), SplitOptions{ByTag: "Event", Prefix: prefix}); !errors.As(err, &ee) {
		t.Errorf("Split --by-tag over an earlier one: %v, want an ExistsError", err)
	}
	// Force replaces; Check is still asked and can refuse.
	res, err = Split(context.Background(), jobOf(games(3)), SplitOptions{Every: 1, Prefix: prefix, Force: true})
	if err != nil || len(res.Files) != 3 || countGames(t, res.Files) != 3 {
		t.Errorf("Split with Force: %v, %+v", err, res)
	}
	refuse := errors.New("refused")
	var asked []string
	_, err = Split(context.Background(), jobOf(games(3)), SplitOptions{Every: 2, Prefix: prefix, Force: true,
		Check: func(name string) error {
			asked = append(asked, name)
			if strings.HasSuffix(name, "0002.pdn") {
				return refuse
			}
			return nil
		}})
	if !errors.Is(err, refuse) || strings.Join(asked, ",") != prefix+"0001.pdn,"+prefix+"0002.pdn" {
		t.Errorf("Split with Check: %v, asked %v", err, asked)
	}
}

// TestSplitInterruptedCount: a split stopped midway counts the games of the files it
// kept, not those of the unfinished file it removed (issue 33, item 12: 76,235 games
// reported, 76,000 on disk).
func TestSplitInterruptedCount(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	j := jobOf(games(100))
	n := 0
	j.Select = func(int) bool { // called once per game read, in order
		if n++; n == 36 {
			cancel()
		}
		return true
	}
	res, err := Split(ctx, j, SplitOptions{Every: 10, Prefix: filepath.Join(dir, "p-")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Split: %v, want context.Canceled", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 3 || len(res.Files) != 3 || res.Games != 30 || countGames(t, res.Files) != 30 || res.Read < 35 {
		t.Errorf("Split interrupted after game 36: %d files on disk, result %d files, %d games, %d read; want 3 files, 30 games",
			len(files), len(res.Files), res.Games, res.Read)
	}
}
