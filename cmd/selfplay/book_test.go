package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bookFile is a small book: from the start, 12-16 (2 games) and 9-13 (1 game), which
// transpose after four plies; see pkg/book/testdata/transpose.pdn.
const bookFile = `{"format":"rafle-book","version":1,"variant":"english","gameType":21,"root":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","maxPly":2,"positions":2,"games":3}
{"hash":"0","fen":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","ply":0,"moves":[{"move":"12-16","games":2,"wins":1,"draws":1},{"move":"9-13","games":1,"losses":1}]}
{"hash":"0","fen":"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16","ply":1,"moves":[{"move":"21-17","games":2,"draws":1,"losses":1}]}
`

func TestBookOpenings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.json")
	if err := os.WriteFile(path, []byte(bookFile), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"--players", "depth=1,depth=1", "--seed", "1", "--max-plies", "20", "--book", path}
	code, _, stderr := runArgs(t, append(base, "--games", "4", "--book-mode", "all")...)
	if code != 0 || !strings.Contains(stderr, "all lines to 8 plies (2)") {
		t.Errorf("--book-mode all: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runArgs(t, append(base, "--games", "6", "--book-depth", "1")...)
	if code != 0 || !strings.Contains(stderr, "weighted lines to 1 plies (3)") {
		t.Errorf("--book-mode weighted: exit %d, stderr %q", code, stderr)
	}
	for _, bad := range [][]string{
		append(base, "--book-mode", "best"),
		append(base, "--book-depth", "0"),
		append(base, "--variant", "russian"),
		append(base, "--opening-set", "3move"),
	} {
		if code, _, stderr := runArgs(t, bad...); code != 2 {
			t.Errorf("selfplay %v: exit %d (%s), want 2", bad, code, stderr)
		}
	}
}
