package archive

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/pdn"
)

// corpusDir is the shared PDN corpus (see /work/shared/pdn/corpus/SOURCES.md).
// It is not part of the repository; tests that need it skip when it is absent.
const corpusDir = "../../../shared/pdn/corpus"

// pdnTestdata holds the PDN test files of package pdn, which these tests
// read too.
const pdnTestdata = "../pdn/testdata"

func corpusPath(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(corpusDir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared PDN corpus not found at %s (CI has it): %v", p, err)
	}
	return p
}

func loadOCA(b testing.TB) []byte {
	path := corpusPath(b, "mzuluaga__checkers/OCA_2.0.pdn")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// readFile returns the games of the file at path and the game errors Next
// returned with them; any other error fails the test.
func readFile(t testing.TB, path string) ([]*pdn.Game, []error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := pdn.NewReader(f)
	var games []*pdn.Game
	var errs []error
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, errs
		}
		if err != nil {
			if !isGameError(err) {
				t.Fatalf("%s: %v", path, err)
			}
			errs = append(errs, err)
		}
		games = append(games, g)
	}
}

func canon(t *testing.T, gs []*pdn.Game) string {
	t.Helper()
	var b strings.Builder
	w := pdn.NewWriter(&b)
	w.Width = -1
	for _, g := range gs {
		if err := w.Write(g); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}
