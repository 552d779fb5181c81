package pdn

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/testcorpus"
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

// eachGame calls fn with every game of the file at path and the error
// Next returned alongside it (nil or a *GameError). Any other error fails
// the test.
func eachGame(t testing.TB, path string, strict bool, fn func(r *Reader, g *Game, err error)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	eachGameIn(t, path, f, strict, fn)
}

// eachSampledGame is eachGame over testcorpus.Sample of the file: a sample of 1 MB of the
// Open Checkers Archive (the one file over 1 MB) unless RAFLE_FULL_CORPUS is set, every
// other file whole.
func eachSampledGame(t testing.TB, path string, strict bool, fn func(r *Reader, g *Game, err error)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	eachGameIn(t, path, bytes.NewReader(testcorpus.Sample(data)), strict, fn)
}

// eachGameIn is eachGame over in, the content of the file at path.
func eachGameIn(t testing.TB, path string, in io.Reader, strict bool, fn func(r *Reader, g *Game, err error)) {
	t.Helper()
	r := NewReader(in)
	r.Strict = strict
	for {
		g, err := r.Next()
		if err == io.EOF {
			return
		}
		var ge *GameError
		if err != nil && !errors.As(err, &ge) {
			t.Fatalf("%s: Next: %v", path, err)
		}
		fn(r, g, err)
	}
}

// readFile reads every game of a file and returns the games and the
// errors Next returned alongside them.
func readFile(t testing.TB, path string, strict bool) ([]*Game, []error) {
	t.Helper()
	var games []*Game
	var errs []error
	eachGame(t, path, strict, func(_ *Reader, g *Game, err error) {
		if err != nil {
			errs = append(errs, err)
		}
		games = append(games, g)
	})
	return games, errs
}

// corpusFiles returns the .pdn files of the whole corpus, in walk order.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(corpusPath(t, "."), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".pdn") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no .pdn files in the corpus")
	}
	return files
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
