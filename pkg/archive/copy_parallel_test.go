package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/testcorpus"
	"github.com/rafle/rafle/pkg/pdn"
)

// bigCopyInput makes a file of many games (several batches and pieces):
// duplicates, games that the filter drops, games read with an error and
// games with an illegal move.
func bigCopyInput(games int) []byte {
	black := []string{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
	white := []string{"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}
	results := []string{"1-0", "0-1", "1/2-1/2", "*", "2-0"}
	var b bytes.Buffer
	for i := range games {
		fmt.Fprintf(&b, "[Event \"game %d\"]\n[Round \"%d\"]\n", i, i%5)
		if i%11 == 0 {
			fmt.Fprintf(&b, "[Result \"%s\"]\n", results[i%4])
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, "1. %s %s", black[i%7], white[i/7%7])
		switch {
		case i%17 == 0:
			b.WriteString(" 2. 30-26") // illegal
		case i%23 == 0:
			b.WriteString(" " + strings.Repeat("(", pdn.DefaultMaxDepth+5)) // read error
		case i%5 == 0:
			b.WriteString(" {a comment} $1 (1... 22-18)")
		}
		fmt.Fprintf(&b, " %s\n\n", results[i/49%5])
	}
	return b.Bytes()
}

// failAfter accepts n bytes, then fails.
type failAfter struct {
	buf bytes.Buffer
	n   int
}

var errFull = errors.New("device full")

func (w *failAfter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.n {
		k := w.n - w.buf.Len()
		w.buf.Write(p[:k])
		return k, errFull
	}
	return w.buf.Write(p)
}

// copyRun runs Copy and describes its output, result, OnError calls and
// error.
func copyRun(t *testing.T, j Job, jobs int, out, failAt int, opt func() CopyOptions) string {
	t.Helper()
	j.Jobs = jobs
	fw := &failAfter{n: failAt}
	if failAt < 0 {
		fw.n = 1 << 40
	}
	var dst pdn.GameWriter
	switch out {
	case 0:
		dst = pdn.NewJSONWriter(fw)
	case 1:
		dst = pdn.NewWriter(fw)
	case 2:
		w := pdn.NewWriter(fw)
		w.StarOnly, w.Width = true, 40
		dst = w
	case 3:
		dst = NewPositionWriter(fw, FormatCSV)
	case 4:
		pw := NewPositionWriter(fw, FormatFEN)
		pw.Notation = NotationAlgebraic
		dst = pw
	}
	o := opt()
	if out >= 3 && o.Replay == nil {
		o.Replay = &ReplayCopy{}
	}
	var calls strings.Builder
	o.OnError = func(err error) { fmt.Fprintf(&calls, "onerror: %v\n", err) }
	res, err := Copy(context.Background(), j, dst, o)
	ferr := dst.Flush()
	return fmt.Sprintf("%s%+v\nerr: %v\nflush: %v\noutput:\n%s", calls.String(), res, err, ferr, fw.buf.String())
}

// TestCopyParallel checks that Copy writes the same bytes, counts, errors
// and OnError calls whatever Jobs is.
func TestCopyParallel(t *testing.T) {
	type input struct {
		name  string
		data  []byte
		piece int
	}
	var ins []input
	for _, pat := range []string{pdnTestdata + "/*.pdn", pdnTestdata + "/replay/*.pdn"} {
		names, _ := filepath.Glob(pat)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, input{name, data, 0})
		}
	}
	if len(ins) < 5 {
		t.Fatalf("only %d testdata files", len(ins))
	}
	big := bigCopyInput(3000)
	ins = append(ins, input{"big", big, 0}, input{"big, small pieces", big, 4 << 10})
	options := map[string]func() CopyOptions{
		"plain": func() CopyOptions { return CopyOptions{} },
		"filter, dedupe, transform": func() CopyOptions {
			return CopyOptions{Filter: &Filter{Results: []string{"1-0", "*", "0-1"}, MinPlies: 2},
				Dedupe: &Deduper{}, Transform: Transform{DropComments: true, DropNAGs: true}}
		},
		"skip bad, replay": func() CopyOptions {
			return CopyOptions{SkipBad: true, Dedupe: &Deduper{}, Replay: &ReplayCopy{Notation: NotationAlgebraic, Captures: CapturesFull}}
		},
		"replay": func() CopyOptions {
			return CopyOptions{Replay: &ReplayCopy{Captures: CapturesShort}}
		},
	}
	for _, in := range ins {
		j := jobOf(in.data)
		j.pieceSize = in.piece
		for oname, opt := range options {
			for out := range 5 {
				for _, failAt := range []int{-1, 0, 5000} {
					if failAt >= 0 && in.piece != 0 {
						continue
					}
					want := copyRun(t, j, 1, out, failAt, opt)
					// 2 and 5 goroutines, the ends of the range this test tried (2 to 5:
					// 13 s; TestCopyPiecesCorpus tries 3)
					for _, jobs := range []int{2, 5} {
						if got := copyRun(t, j, jobs, out, failAt, opt); got != want {
							t.Fatalf("%s, %s, writer %d, fail at %d, %d jobs:\n%s", in.name, oname, out, failAt, jobs, firstDiff(got, want))
						}
					}
				}
			}
		}
	}
	// The big input goes through several batches, with every kind of game.
	s := copyRun(t, jobOf(big), 1, 0, -1, options["skip bad, replay"])
	for _, want := range []string{"Duplicates:", "illegal move", "nested too deep"} {
		if !strings.Contains(s, want) || strings.Count(s, "\n") < 3*copyBatchSize {
			t.Fatalf("big input: no %q, or few lines:\n%.3000s", want, s)
		}
	}
	t.Logf("big input: %.200s", s[strings.Index(s, "{Read"):])
}

// spoilOCA returns the Open Checkers Archive with bad games here and
// there: variations nested too deep (a read error), a comment that is
// never closed (it swallows the games after it up to the next '}'), and
// a line of garbage between games; and comments with a line that ends
// with a result, which the finder takes for the end of a game (the piece
// is read wrong, and again by the merger).
//
// Unless RAFLE_FULL_CORPUS is set, it is a 1 MB sample of the archive (testcorpus), with
// the bad games ten times as dense as in the whole archive (every 97th game instead of
// 997th, ...): every kind of bad game still comes several times.
func spoilOCA(t *testing.T) []byte {
	oca, err := os.ReadFile(corpusPath(t, "mzuluaga__checkers/OCA_2.0.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	every := [4]int{997, 4001, 3001, 401}
	if sample := testcorpus.Sample(oca); len(sample) < len(oca) {
		oca, every = sample, [4]int{97, 401, 293, 41}
	}
	games := bytes.SplitAfter(oca, []byte("\n[Event "))
	var b bytes.Buffer
	for i, g := range games {
		switch {
		case i%every[0] == 5:
			if k := bytes.Index(g, []byte("\n1. ")); k >= 0 {
				g = append(append(g[:k+4:k+4], strings.Repeat("(", pdn.DefaultMaxDepth+3)...), g[k+4:]...)
			}
		case i%every[1] == 7:
			if k := bytes.Index(g, []byte("\n1. ")); k >= 0 {
				g = append(g[:k+1:k+1], append([]byte("{never closed "), g[k+1:]...)...)
			}
		case i%every[2] == 11:
			b.WriteString("%% garbage ]]] 1-0 {\n")
		case i%every[3] == 13:
			if k := bytes.Index(g, []byte("\n1. ")); k >= 0 {
				g = append(g[:k+1:k+1], append([]byte("{a line that ends with 1-0\n[Event \"not a tag\"]}\n"), g[k+1:]...)...)
			}
		}
		b.Write(g)
	}
	return b.Bytes()
}

// TestCopyPiecesCorpus checks that converting real files, with bad games
// among them, gives the same output, counts and errors whatever Jobs and
// the size of the pieces (Copy in pieces, and in batches with the
// deduper or a replay stage).
func TestCopyPiecesCorpus(t *testing.T) {
	bad := spoilOCA(t)
	tinsley, err := os.ReadFile(corpusPath(t, "eygilbert__CheckerBoard/games/tinsley.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	j := jobOf(bad, tinsley, nil, bigCopyInput(500))
	wrong := 0 // pieces read wrong in parallel, that the merger reads and formats itself
	j.readWrong = func() { wrong++ }
	options := map[string]func() CopyOptions{
		"plain":    func() CopyOptions { return CopyOptions{} },
		"skip bad": func() CopyOptions { return CopyOptions{SkipBad: true, Dedupe: &Deduper{}} },
	}
	pieces := []int{0, 5000}
	if testing.Short() {
		pieces = pieces[:1]
	}
	for oname, opt := range options {
		for out := range 2 {
			want := copyRun(t, j, 1, out, -1, opt)
			if n := strings.Count(want, "onerror:"); n < 20 {
				t.Fatalf("%s, writer %d: only %d errors:\n%.2000s", oname, out, n, want)
			}
			for _, size := range pieces {
				j.pieceSize = size
				for _, jobs := range []int{2, 3} {
					if got := copyRun(t, j, jobs, out, -1, opt); got != want {
						t.Fatalf("%s, writer %d, pieces of %d, %d jobs:\n%s", oname, out, size, jobs, firstDiff(got, want))
					}
				}
			}
			j.pieceSize = 0
		}
	}
	if wrong == 0 {
		t.Error("no piece was read wrong: the merger's own formatting is not tested")
	}
}
