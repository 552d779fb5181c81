package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testcorpus"
	"github.com/rafle/rafle/pkg/pdn"
)

// jobOf returns a job reading the given texts as inputs.
func jobOf(texts ...[]byte) Job {
	var j Job
	for i, t := range texts {
		t := t
		j.Inputs = append(j.Inputs, Input{Name: fmt.Sprintf("in%d", i), Size: int64(len(t)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(t)), nil }})
	}
	return j
}

// dump reads the job with Job.each and describes everything it hands on:
// game numbers, games as JSON (with warnings and positions), errors.
func dump(t testing.TB, j Job) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	err := j.Each(context.Background(), func(in *Input, n int, g *pdn.Game, gerr error) error {
		fmt.Fprintf(&b, "%s game %d: ", in.Name, n)
		if gerr != nil {
			fmt.Fprintf(&b, "error %v; ", gerr)
		}
		return enc.Encode(g)
	})
	fmt.Fprintf(&b, "end: %v\n", err)
	return b.String()
}

// checkParallel checks that reading texts with several goroutines, cut
// into pieces of the given sizes, gives what one Reader gives.
func checkParallel(t *testing.T, name string, strict bool, sizes []int, texts ...[]byte) {
	t.Helper()
	checkParallelJobs(t, name, strict, sizes, []int{2, 3}, texts...)
}

// checkParallelJobs is checkParallel with these numbers of goroutines.
func checkParallelJobs(t *testing.T, name string, strict bool, sizes, jobCounts []int, texts ...[]byte) {
	t.Helper()
	j := jobOf(texts...)
	j.Reader.Strict = strict
	want := dump(t, j)
	for _, mode := range []string{"jump", "exact", "naive"} {
		for _, size := range sizes {
			for _, jobs := range jobCounts {
				pj := j
				pj.Jobs, pj.pieceSize, pj.naiveCuts, pj.exactCuts = jobs, size, mode == "naive", mode == "exact"
				if got := dump(t, pj); got != want {
					t.Fatalf("%s: strict %v, %s cuts, piece size %d, %d jobs:\n%s", name, strict, mode, size, jobs, firstDiff(got, want))
				}
			}
		}
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %.600s\nwant %.600s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("got %d lines, want %d", len(g), len(w))
}

// tricky holds inputs that a cheap look at the text could cut in the
// wrong place.
var tricky = []string{
	"[Event \"a\"]\n1. 11-15 22-18 1-0\n\n[Event \"b\"]\n1. 9-13 0-1\n",
	"1. 11-15 22-18 1-0\n1. 9-13 24-20 *\n1. 10-14 2-0\n",                                  // no tags
	"[Event \"a\"]\n1. 11-15 22-18\n[Event \"b\"]\n1. 9-13\n[Event \"c\"]\n1. 10-14 1-0\n", // no terminators
	"1. 11-15 {a comment\n[Event \"not a tag\"]\n\n1-0\n} 22-18 1-0\n[Event \"b\"]\n1. 9-13 0-1\n",
	"1. 11-15 22-18 1-0\n{\n[Event \"x\"]\n1-0\n}\n[Event \"b\"]\n1. 9-13 0-1\n",
	"[Event \"a \\\"quoted\\\" \n1-0\n[x\"]\n1. 11-15 1-0\n[Event \"b\"]\n1. 9-13 0-1\n",
	"1. 11-15 ; line comment {\n22-18 1-0\n% escape {\n[Event \"b\"]\n1. 9-13 0-1\n",
	"1. 11-15 22-18 1-0 ; 1-0\n1. 9-13 %x\n1-0\n[Event \"c\"]\n1. 10-14 0-1\n",
	"1. 11-15 22-18*\n1. 9-13 *\n*\n1-0\n[Event \"d\"]\n",
	"[Event \"a\"]\n1. 11-15 1-0\n[Event \"bad\" \n1. 32-28 ((((( 1-0\n[Event \"c\"]\n1. 10-14 0-1\n",
	"1. 11-15 22-18 1-0\r\n[Event \"cr\"]\r1. 9-13\r0-1\r\r[E \"f\"]\r\n1. 1-5 1/2-1/2\n1-1\n1-10 0-0\n",
	"\xef\xbb\xbf[Event \"bom\"]\n1. 11-15 1-0\n[Event \"b\"]\n1. 9-13 0-1\n",
	"[Event \"Caf\xe9\"]\n1. 11-15 1-0\n[Event \"\xe9t\xe9\"]\n1. 9-13 0-1\n{\xe9}\n",
	"1. 11-15 /FEN \"W:W1\"/ 1-0\n1. 9-13 / not a setup\n1-0\n[Event \"x\"]/\n1-0\n",
	"[Event\n1-0\n\"x\"]\n1. 11-15 1-0\n[\n]\n1. 9-13 0-1\n[Ev{ent \"y\"]\n1-0\n",
	"1. 11-15 \\r\\n 1-0\n\\n[Event \"lit\"]\n1. 9-13 0-1\n",
	"1. 11-15 {unterminated\n[Event \"b\"]\n1. 9-13 0-1\n",
	"[Event \"unterminated\n1. 11-15 1-0\n[Event \"b\"]\n1. 9-13 0-1\n",
	"1. 11-15 22-18 1-0\n]\n\"stray\"\n[Event \"b\"]\n1. 9-13 0-1\n1. 5-9",
	"",
	"\n\n1-0\n\n*\n",
}

func TestParallelTricky(t *testing.T) {
	for i, s := range tricky {
		for _, strict := range []bool{false, true} {
			checkParallel(t, fmt.Sprintf("tricky[%d]", i), strict, []int{1, 2, 3, 5, 8, 13, 30, 64, 1 << 20}, []byte(s))
		}
	}
	var all []byte
	for _, s := range tricky {
		all = append(all, s...)
	}
	checkParallel(t, "tricky concatenated", false, []int{1, 7, 40}, all)
	ins := make([][]byte, len(tricky))
	for i, s := range tricky {
		ins[i] = []byte(s)
	}
	checkParallel(t, "tricky as several inputs", false, []int{1, 16}, ins...)
}

// TestParallelEveryCut cuts inputs at every piece size.
func TestParallelEveryCut(t *testing.T) {
	for i, s := range tricky[:12] {
		sizes := make([]int, len(s)+1)
		for k := range sizes {
			sizes[k] = k + 1
		}
		checkParallel(t, fmt.Sprintf("tricky[%d]", i), false, sizes, []byte(s))
	}
}

// TestParallelGzip reads compressed input in pieces.
func TestParallelGzip(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for range 200 {
		zw.Write([]byte(tricky[0] + tricky[2] + tricky[3]))
	}
	zw.Close()
	checkParallel(t, "gzip", false, []int{100, 1000}, b.Bytes())
}

// TestParallelCorpus reads the files of the shared corpus in pieces (a sample of the Open
// Checkers Archive, the one file over 1 MB, unless RAFLE_FULL_CORPUS is set: testcorpus).
func TestParallelCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("shared PDN corpus not found at %s: the corpus part of this test is skipped: %v", corpusDir, err)
	}
	var files []string
	filepath.WalkDir(corpusDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	sizes := []int{1 << 10, 64 << 10}
	if testing.Short() {
		sizes = sizes[1:]
	}
	for i, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		data = testcorpus.Sample(data)
		// A piece as large as the file is the file read by one worker: the tests above
		// have that case, and most corpus files are under 64 KiB.
		sz := slices.DeleteFunc(slices.Clone(sizes), func(s int) bool { return s >= len(data) })
		if len(sz) == 0 {
			sz = sizes[:1]
		}
		// 2 goroutines for one file, 3 for the next: the tests above try both on every input
		checkParallelJobs(t, path, false, sz, []int{2 + i%2}, data)
	}
}

// failingReader returns its data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data[:min(len(r.data), 100)])
	r.data = r.data[n:]
	return n, nil
}

// TestParallelErrors checks inputs that cannot be opened or end with a
// read error, in the middle of a game or between games.
func TestParallelErrors(t *testing.T) {
	text := strings.Repeat(tricky[0]+tricky[3], 30)
	for _, cut := range []int{0, 50, 1000, len(text) / 2, len(text) - 3, len(text)} {
		var j Job
		j.Inputs = []Input{
			{Name: "ok", Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(tricky[1])), nil }},
			{Name: "broken", Open: func() (io.ReadCloser, error) {
				return io.NopCloser(&failingReader{data: []byte(text[:cut]), err: errors.New("disk on fire")}), nil
			}},
			{Name: "missing", Open: func() (io.ReadCloser, error) { return nil, errors.New("no such file") }},
			{Name: "ok2", Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(tricky[2])), nil }},
		}
		want := dump(t, j)
		if !strings.Contains(want, "disk on fire") {
			t.Fatalf("cut %d: the read error is not reported:\n%s", cut, want)
		}
		for _, size := range []int{1, 64, 1 << 20} {
			pj := j
			pj.Jobs, pj.pieceSize = 2, size
			if got := dump(t, pj); got != want {
				t.Fatalf("cut %d, piece size %d:\n%s", cut, size, firstDiff(got, want))
			}
			// Validate goes on after an input's error and reports every one.
			ws, werr := Validate(context.Background(), j, ValidateOptions{Jobs: 1})
			gs, gerr := Validate(context.Background(), j, ValidateOptions{Jobs: 2})
			if fmt.Sprint(werr) != fmt.Sprint(gerr) || summaries(ws) != summaries(gs) {
				t.Fatalf("cut %d: Validate: got %v %s, want %v %s", cut, gerr, summaries(gs), werr, summaries(ws))
			}
		}
	}
}

func summaries(ss []*Summary) string {
	b, _ := json.Marshal(ss)
	return string(b)
}

// TestParallelStop checks that a consumer that stops early leaves no
// goroutine behind.
func TestParallelStop(t *testing.T) {
	text := []byte(strings.Repeat(tricky[0], 5000))
	before := runtime.NumGoroutine()
	for _, stopAt := range []int{1, 2, 100, 3000} {
		j := jobOf(text, text)
		j.Jobs, j.pieceSize = 3, 512
		stop := errors.New("enough")
		n := 0
		err := j.Each(context.Background(), func(*Input, int, *pdn.Game, error) error {
			if n++; n == stopAt {
				return stop
			}
			return nil
		})
		if err != stop || n != stopAt {
			t.Fatalf("stop at %d: got %v after %d games", stopAt, err, n)
		}
	}
	for range 1000 { // up to 10 s, for a loaded machine: no wait when they are gone
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d goroutines left running (%d before)", runtime.NumGoroutine(), before)
}

// TestParallelValidate compares Validate with one and several goroutines,
// with and without replay, on several inputs at once.
func TestParallelValidate(t *testing.T) {
	ins := [][]byte{[]byte(strings.Repeat(tricky[0]+tricky[2], 300))}
	for _, s := range tricky {
		ins = append(ins, []byte(s))
	}
	for _, strict := range []bool{false, true} {
		for _, rp := range []*pdn.Replayer{nil, {}} {
			j := jobOf(ins...)
			j.Reader.Strict = strict
			run := func(jobs int) string {
				var b strings.Builder
				sums, err := Validate(context.Background(), j, ValidateOptions{Jobs: jobs, Replay: rp, Problem: func(p Problem) {
					fmt.Fprintf(&b, "%+v\n", p)
				}})
				fmt.Fprintf(&b, "%s %v\n", summaries(sums), err)
				return b.String()
			}
			want := run(1)
			for _, jobs := range []int{2, 5} {
				if got := run(jobs); got != want {
					t.Fatalf("strict %v, replay %v, %d jobs:\n%s", strict, rp != nil, jobs, firstDiff(got, want))
				}
			}
		}
	}
}

// TestParallelDamaged checks that damaged input reads the same in pieces
// with several goroutines as with one Reader.
func TestParallelDamaged(t *testing.T) {
	games := gamesText(12, "\n")
	games[3] = strings.Replace(games[3], `[Result "1-0"]`, `[Result "1-0]`, 1)
	games[7] = strings.Replace(games[7], "22-17", "22-17 { never closed", 1)
	games[9] = strings.Replace(games[9], `[Event "Game 10"]`, `[Event "Game 10`, 1)
	text := []byte(strings.Join(games, "") + "\"\n[[[")
	for _, strict := range []bool{false, true} {
		checkParallel(t, "damaged", strict, []int{1, 50, 300}, text)
	}
}

// TestParallelManyGames checks that an item of input with more games
// than a reading goroutine holds (maxItemGames) reads the same.
func TestParallelManyGames(t *testing.T) {
	text := []byte("1. 32-28 *\n" + strings.Repeat("*", maxItemGames+100) + "\n1. 33-28 *\n")
	checkParallel(t, "stars", false, []int{1 << 20}, text)
}

// gamesText returns n small games in the layout of the Open Checkers
// Archive: tags, a blank line, movetext with a comment over two lines, a
// blank line. sep goes between games instead of the blank line when set.
func gamesText(n int, sep string) []string {
	gs := make([]string, n)
	for i := range gs {
		gs[i] = fmt.Sprintf("[Event \"Game %d\"]\n[Date \"1965-07-%02d\"]\n[Result \"1-0\"]\n\n"+
			"1. 11-15 23-19 2. 8-11 {a comment\nover two lines, [with a bracket]} 22-17 3. 4-8 1-0\n%s",
			i+1, i%28+1, sep)
	}
	return gs
}

// TestJumpCuts: on archives as they are, the fast mode of the finder cuts
// only where a game ends: no piece is read wrong (and read again in
// order), with LF and CRLF line breaks and a byte order mark.
func TestJumpCuts(t *testing.T) {
	oca, err := os.ReadFile(corpusPath(t, "mzuluaga__checkers/OCA_2.0.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	oca = oca[:2<<20]
	crlf := bytes.ReplaceAll(bytes.ReplaceAll(oca, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	bom := append([]byte("\xef\xbb\xbf"), oca...)
	for name, text := range map[string][]byte{"lf": oca, "crlf": crlf, "bom": bom} {
		j := jobOf(text)
		want := dump(t, j)
		wrong := 0
		j.Jobs, j.pieceSize, j.readWrong = 2, 16<<10, func() { wrong++ }
		if got := dump(t, j); got != want || wrong != 0 {
			t.Errorf("%s: %d pieces read wrong; same games: %v", name, wrong, got == want)
		}
	}
}

// TestValidatePiecesCorpus checks that validating real files, with bad
// games among them, with replay and inferred variants, gives the same
// problems and counts whatever Jobs and the size of the pieces: games
// replayed by the goroutines that read them (numbered afterwards), and by
// the workers (pieces the merger read again itself, or read before their
// input's variant was known).
func TestValidatePiecesCorpus(t *testing.T) {
	bad := spoilOCA(t)
	tinsley, err := os.ReadFile(corpusPath(t, "eygilbert__CheckerBoard/games/tinsley.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	j := jobOf(bad, tinsley, nil, bigCopyInput(2000))
	wrong, inReader := 0, 0
	j.readWrong = func() { wrong++ }
	run := func(jobs int) string {
		var b strings.Builder
		sums, err := Validate(context.Background(), j, ValidateOptions{Jobs: jobs, Replay: &pdn.Replayer{Strict: j.Reader.Strict}, Infer: true,
			Problem: func(p Problem) { fmt.Fprintf(&b, "%+v\n", p) }, inReader: func() { inReader++ }})
		js, _ := json.Marshal(sums)
		fmt.Fprintf(&b, "%s\nerr %v\n", js, err)
		return b.String()
	}
	for _, strict := range []bool{false, true} {
		j.Reader.Strict = strict
		want := run(1)
		if n := strings.Count(want, "Level:error"); n < 20 {
			t.Fatalf("strict %v: only %d errors:\n%.2000s", strict, n, want)
		}
		for _, size := range []int{0, 5000} {
			j.pieceSize = size
			for _, jobs := range []int{2, 3} {
				if got := run(jobs); got != want {
					t.Fatalf("strict %v, pieces of %d, %d jobs:\n%s", strict, size, jobs, firstDiff(got, want))
				}
			}
		}
		j.pieceSize = 0
	}
	if wrong == 0 || inReader == 0 {
		t.Errorf("%d pieces read wrong, %d replayed by their reader: both ways are not tested", wrong, inReader)
	}
}
