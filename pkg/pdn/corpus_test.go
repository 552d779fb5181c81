package pdn

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// corpusDir is the shared PDN corpus (see /work/shared/pdn/corpus/SOURCES.md).
// It is not part of the repository; tests that need it skip when it is absent.
const corpusDir = "../../../shared/pdn/corpus"

func corpusPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(corpusDir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared PDN corpus not found at %s (CI has it): %v", p, err)
	}
	return p
}

// readFile reads every game of a file and returns the games and the
// errors Next returned alongside them.
func readFile(t testing.TB, path string, strict bool) ([]*Game, []error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	r.Strict = strict
	var games []*Game
	var errs []error
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		var ge *GameError
		if err != nil && !errors.As(err, &ge) {
			t.Fatalf("%s: Next: %v", path, err)
		}
		if err != nil {
			errs = append(errs, err)
		}
		games = append(games, g)
	}
	return games, errs
}

func pdnFiles(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.pdn"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .pdn files in %s: %v", dir, err)
	}
	sort.Strings(files)
	return files
}

// TestConformance checks strict mode against the PDN 3.0 conformance set
// (wiegerw/pdn games/succeed and games/fail): every succeed file must be
// accepted and every fail file rejected with a position.
func TestConformance(t *testing.T) {
	games := corpusPath(t, "wiegerw__pdn/games")
	for _, path := range pdnFiles(t, filepath.Join(games, "succeed")) {
		t.Run("succeed/"+filepath.Base(path), func(t *testing.T) {
			gs, errs := readFile(t, path, true)
			if len(errs) > 0 {
				t.Errorf("strict read of %s: got %d errors, want none; first: %v", path, len(errs), errs[0])
			}
			if len(gs) == 0 {
				t.Errorf("strict read of %s: no games", path)
			}
		})
	}
	for _, path := range pdnFiles(t, filepath.Join(games, "fail")) {
		t.Run("fail/"+filepath.Base(path), func(t *testing.T) {
			_, errs := readFile(t, path, true)
			if len(errs) == 0 {
				t.Fatalf("strict read of %s: no error, want rejection", path)
			}
			var ge *GameError
			if !errors.As(errs[0], &ge) || ge.Pos.Line == 0 || ge.Pos.Column == 0 {
				t.Fatalf("strict read of %s: error %v has no position", path, errs[0])
			}
			t.Logf("rejected: %v", errs[0])
		})
	}
}
