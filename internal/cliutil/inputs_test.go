package cliutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestNotAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	other := filepath.Join(dir, "other.pdn")
	for _, f := range []string{in, other} {
		if err := os.WriteFile(f, []byte("1. 11-15 *\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.pdn")
	if err := os.Symlink("games.pdn", link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.pdn")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.pdn")
	if err := os.Symlink("nowhere.pdn", dangling); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out    string
		inputs []string
		clash  string // the input named in the error; "" for none
	}{
		{in, []string{in}, in},
		{in, []string{other, in}, in},
		{filepath.Join(dir, ".", "games.pdn"), []string{in}, in},
		{link, []string{in}, in},   // the output is a link to the input
		{in, []string{link}, link}, // the input is a link to the output
		{hard, []string{in}, in},
		{other, []string{in, link, hard}, ""},
		{filepath.Join(dir, "new.pdn"), []string{in}, ""},
		{dangling, []string{in}, ""},
		{"-", []string{"-"}, ""},
		{in, []string{"-", "", filepath.Join(dir, "missing.pdn")}, ""},
		{os.DevNull, []string{os.DevNull}, ""}, // not a regular file: nothing to lose
	} {
		err := NotAnInput(tc.out, tc.inputs...)
		var ie *InputError
		switch {
		case tc.clash == "" && err != nil:
			t.Errorf("NotAnInput(%q, %q) = %v, want nil", tc.out, tc.inputs, err)
		case tc.clash != "" && (!errors.As(err, &ie) || ie.Input != tc.clash || ie.Output != tc.out):
			t.Errorf("NotAnInput(%q, %q) = %v, want an InputError naming %q", tc.out, tc.inputs, err, tc.clash)
		}
	}
}
