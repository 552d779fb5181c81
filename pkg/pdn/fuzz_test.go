package pdn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzReader checks that the reader never panics or loops, in lenient and
// strict mode, and that every game read without error survives
// write -> read unchanged, with stable canonical output.
func FuzzReader(f *testing.F) {
	seeds := []string{
		"[Event \"E\"]\n1. 32-28 19-23 2. 28x19 14x23 {c} (2... 13x24 $2) 1-1",
		"1. c3:e5 A3-B4 a3b4 01-06 3228 1-10 1/2-1/2",
		"\xEF\xBB\xBF[White \"L\xe9man\"]\\r\n1.\n32-28* 19-23(?) ; x\n% y\n*",
		"[Empty] [R&#x00e9;sultat \"1-1\"] 1. - - . } ) ( /FEN \"W:W1:B2\"/ 2-0",
		"{ nested { comment } } [[Event",
		// Damaged files (issue 15): a missing closing quote, an
		// unterminated comment before the next game, runs of '[', '*',
		// digits and one tag, binary bytes, a bad GameType, an empty FEN.
		"[Event \"a\"]\n[Result \"1-0]\n\n1. 11-15 1-0\n\n[Event \"b\"]\n[Date \"1965-07-01\"]\n1. 9-13 0-1\n",
		"[Event \"a\"]\n1. 11-15 { never closed\n22-18 1-0\n\n[Event \"b\"]\n1. 9-13 {c} 0-1\n",
		strings.Repeat("[", 300),
		strings.Repeat("*", 300),
		strings.Repeat("1", 600) + ".",
		strings.Repeat("[Event \"x\"]", 40),
		"\x00\xff\xfe[\x01\"\x80]{\x9f}\xc3(\x1b)1.\xe2\x80\xa8 *",
		"[GameType \"20,W,0,0,N,0\"]\n[FEN \"\"]\n1. 32-28 *",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if files, err := filepath.Glob(filepath.Join(corpusDir, "wiegerw__pdn/games/*/*.pdn")); err == nil {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil && len(b) < 2000 {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			r := NewReader(bytes.NewReader(data))
			r.Strict = strict
			r.MaxTokenSize = 4096
			for n := 0; ; n++ {
				if n > len(data)+1 {
					t.Fatalf("more games (%d) than input bytes (%d)", n, len(data))
				}
				g, err := r.Next()
				if err == io.EOF {
					break
				}
				if errors.Is(err, ErrNotPDN) {
					continue // (the whole input: io.EOF follows)
				}
				var ge *GameError
				if err != nil && !errors.As(err, &ge) {
					t.Fatalf("Next: unexpected error %v", err)
				}
				if g == nil {
					t.Fatalf("Next returned nil game with %v", err)
				}
				if err != nil || strict {
					continue
				}
				var b1 bytes.Buffer
				w := NewWriter(&b1)
				if werr := w.Write(g); werr != nil {
					t.Fatalf("Write of game read from %q: %v", data, werr)
				}
				w.Flush()
				r2 := NewReader(bytes.NewReader(b1.Bytes()))
				g2, err2 := r2.Next()
				if err2 != nil {
					t.Fatalf("reading back %q (from %q): %v", b1.Bytes(), data, err2)
				}
				if _, err3 := r2.Next(); err3 != io.EOF {
					t.Fatalf("reading back %q (from %q): more than one game", b1.Bytes(), data)
				}
				if !reflect.DeepEqual(stripped(g), stripped(g2)) {
					t.Fatalf("round trip of %q changed the game\nwritten: %q\nbefore: %+v\nafter:  %+v", data, b1.Bytes(), stripped(g), stripped(g2))
				}
				var b2 bytes.Buffer
				w2 := NewWriter(&b2)
				w2.Write(g2)
				w2.Flush()
				if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
					t.Fatalf("canonical output not stable for %q:\n%q\n%q", data, b1.Bytes(), b2.Bytes())
				}
			}
		}
	})
}
