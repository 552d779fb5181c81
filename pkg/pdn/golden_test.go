package pdn

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/golden"
)

// TestGolden reads each testdata/*.pdn leniently and compares the
// canonical output, followed by the warnings, with the .golden file; the
// canonical part of the golden file must itself be canonical.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pdn")
	if len(files) == 0 {
		t.Fatal("no testdata/*.pdn")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			gs, errs := readFile(t, path, false)
			if len(errs) > 0 {
				t.Fatalf("%s: %v", path, errs)
			}
			var out bytes.Buffer
			w := NewWriter(&out)
			for _, g := range gs {
				if err := w.Write(g); err != nil {
					t.Fatal(err)
				}
			}
			w.Flush()
			canonical := out.String()
			out.WriteString("\n% warnings\n")
			for i, g := range gs {
				for _, wn := range g.Warnings {
					out.WriteString("% game " + itoa(i+1) + ": " + wn.String() + "\n")
				}
			}
			golden.Check(t, strings.TrimSuffix(path, ".pdn")+".golden", out.Bytes())
			// Writing the golden file's games again gives the same bytes.
			r := NewReader(strings.NewReader(canonical))
			var again bytes.Buffer
			w2 := NewWriter(&again)
			for {
				g, err := r.Next()
				if err != nil {
					break
				}
				w2.Write(g)
			}
			w2.Flush()
			if again.String() != canonical {
				t.Errorf("%s: canonical output is not stable:\nfirst:\n%s\nsecond:\n%s", path, canonical, again.String())
			}
		})
	}
}

func itoa(i int) string { return string(Square(i).appendTo(nil)) }
