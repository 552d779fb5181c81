package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/testcorpus"
	"github.com/rafle/rafle/internal/testengines"
)

// annotateGames are small games of two variants, with comments and a variation to keep.
const annotateGames = `[Event "a"]
[White "Alpha"]
[Black "Beta"]
[Result "2-0"]
[GameType "20"]

1. 32-27 16-21 2. 27x16 19-23 {kept} (2... 21x32 $2) 3. 38-32 20-25 4. 33-29
23-28 5. 32x23 25-30 6. 34x25 17-22 7. 31-26 12-17 8. 23x21 11-17 2-0

[Event "b"]
[White "Gamma"]
[Black "Alpha"]
[Result "1-0"]
[GameType "21"]

1. 10-14 24-20 2. 12-16 28-24 3. 6-10 23-19 4. 16x23 27x18 5. 14x23 26x19 6.
9-14 20-16 7. 11x27 32x23 1-0

[Event "c"]
[White "Beta"]
[Black "Gamma"]
[Result "0-2"]
[GameType "20"]

1. 31-27 17-22 2. 27x18 12x23 0-2

[Event "d"]
[White "Beta"]
[Black "Alpha"]
[Result "1-1"]
[GameType "20"]

1. 32-27 20-25 2. 38-32 18-22 3. 27x18 13x22 4. 42-38 17-21 5. 33-28 22x42 6.
47x38 8-13 1-1
`

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnnotateSameEverywhere: at a fixed node count, the annotated games and the summary
// are the same on two runs, with -j 1 and -j 2, and as two shards merged; game c (an
// illegal move) is named on stderr and makes the exit status 1 in each.
func TestAnnotateSameEverywhere(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "games.pdn"), annotateGames)
	base := []string{"annotate", "--nodes", "3000", in}
	type result struct{ games, summary string }
	runTo := func(name string, extra ...string) result {
		out := filepath.Join(dir, name)
		code, stdout, stderr := runPDN(t, "", append(append(base, extra...), "-o", out)...)
		if code != 1 || !strings.Contains(stderr, "game 3: line 25, column 19: move 2 (white) 27x18: illegal move") ||
			!strings.Contains(stderr, "1 of 4 games have errors") {
			t.Fatalf("%s: exit %d, stderr %q; want 1 and game 3's illegal move", name, code, stderr)
		}
		if _, err := os.Stat(out + ".journal"); err == nil {
			t.Errorf("%s: the journal is left after a complete run", name)
		}
		return result{readFile(t, out), stdout}
	}
	one := runTo("one.pdn", "-j", "1")
	for _, want := range []string{"[%eval ", "{kept}", "(2... 21x32 $2)", "[GameType \"21\"]", "BLUNDERS", "Alpha"} {
		if !strings.Contains(strings.Join(strings.Fields(one.games+one.summary), " "), want) { // lines wrap anywhere
			t.Errorf("-j 1: the output lacks %q:\n%s\n%s", want, one.games, one.summary)
		}
	}
	if again := runTo("again.pdn", "-j", "1"); again != one {
		t.Errorf("two runs differ:\n%s\n---\n%s", one.games, again.games)
	}
	if two := runTo("two.pdn", "-j", "2"); two != one {
		t.Errorf("-j 2 differs from -j 1:\n%s\n---\n%s", one.games, two.games)
	}
	var shards []string
	for k := range 2 {
		code, _, stderr := runPDN(t, "", append(base, "--shard", []string{"0/2", "1/2"}[k], "-o", filepath.Join(dir, "sh.pdn"))...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
		shards = append(shards, filepath.Join(dir, []string{"sh.shard-0-of-2.jsonl", "sh.shard-1-of-2.jsonl"}[k]))
	}
	merged := filepath.Join(dir, "merged.pdn")
	code, stdout, stderr := runPDN(t, "", "merge", "-o", merged, shards[1], shards[0])
	if code != 1 || !strings.Contains(stderr, "illegal move") {
		t.Fatalf("merge: exit %d, stderr %q; want 1 and the illegal move", code, stderr)
	}
	if got := (result{readFile(t, merged), stdout}); got != one {
		t.Errorf("two shards merged differ from one run:\n%s\n%s\n---\n%s\n%s", one.games, one.summary, got.games, got.summary)
	}
	code, _, stderr = runPDN(t, "", "merge", shards[0])
	if code != 1 || !strings.Contains(stderr, "shards [1] of 2 are missing") {
		t.Errorf("merge of one shard of two: exit %d, stderr %q; want the missing shard named", code, stderr)
	}
}

// TestAnnotateSkipBad: without --skip-bad a game that does not replay is analysed as far
// as it replays, written, named, and the exit status is 1; with it the game is left out
// and the status is 0.
func TestAnnotateSkipBad(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "games.pdn"), annotateGames)
	code, out, stderr := runPDN(t, "", "annotate", "--depth", "2", in)
	if code != 1 || strings.Count(out, "[Event ") != 4 || !strings.Contains(out, "1. 31-27 {[%eval ") {
		t.Errorf("without --skip-bad: exit %d, %d games; want 1 and 4 games, game c analysed to its error:\n%s\n%s", code, strings.Count(out, "[Event "), out, stderr)
	}
	code, out, stderr = runPDN(t, "", "annotate", "--depth", "2", "--skip-bad", in)
	if code != 0 || strings.Count(out, "[Event ") != 3 || strings.Contains(out, `[Event "c"]`) ||
		!strings.Contains(stderr, "illegal move") || !strings.Contains(stderr, "left out 1 game with errors (--skip-bad)") {
		t.Errorf("with --skip-bad: exit %d, %d games; want 0 and 3, game c named and left out:\n%s\n%s", code, strings.Count(out, "[Event "), out, stderr)
	}
}

// TestAnnotateResume: a run stopped after one game (its journal cut there) and resumed
// gives the output of a run that was not stopped; a journal of other settings is refused.
func TestAnnotateResume(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "games.pdn"), annotateGames)
	journal := filepath.Join(dir, "j.jsonl")
	args := []string{"annotate", "--nodes", "2000", "--skip-bad", in}
	code, whole, stderr := runPDN(t, "", append(args, "--journal", journal)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// keep the header and the first game, and tear the second game's line
	f, err := os.Open(journal)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	f.Close()
	if len(lines) != 5 { // header, four games
		t.Fatalf("journal of %d lines, want 5: %q", len(lines), lines)
	}
	writeFile(t, journal, lines[0]+"\n"+lines[1]+"\n"+lines[2][:len(lines[2])/2])
	out := filepath.Join(dir, "out.pdn")
	code, _, stderr = runPDN(t, "", append(args, "--journal", journal, "--resume", "-o", out)...)
	if code != 0 || !strings.Contains(stderr, "1 games analysed before, resumed") {
		t.Fatalf("resume: exit %d, stderr %q", code, stderr)
	}
	if got := readFile(t, out); got != whole {
		t.Errorf("resumed output differs from the whole run:\n%s\n---\n%s", got, whole)
	}
	code, _, stderr = runPDN(t, "", "annotate", "--nodes", "999", "--skip-bad", in, "--journal", journal, "--resume")
	if code == 0 || !strings.Contains(stderr, "journal belongs to another analysis") {
		t.Errorf("resume with other settings: exit %d, stderr %q; want a refusal", code, stderr)
	}
	code, _, stderr = runPDN(t, "", append(args, "--journal", journal)...)
	if code == 0 || !strings.Contains(stderr, "journal already holds games") {
		t.Errorf("a journal with games without --resume: exit %d, stderr %q; want a refusal", code, stderr)
	}
}

// TestAnnotateCorpus: a few games of the OCA sample give the same file with -j 1 and
// -j 2 at a fixed node count.
func TestAnnotateCorpus(t *testing.T) {
	path := corpusFile(t, "mzuluaga__checkers/OCA_2.0.pdn")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sample := string(testcorpus.Sample(data))
	// the first 12 games of the sample
	k, n := 0, 0
	for n < 13 {
		i := strings.Index(sample[k+1:], "[Event ")
		if i < 0 {
			break
		}
		k += i + 1
		n++
	}
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "oca.pdn"), sample[:k])
	var outs []string
	for _, j := range []string{"1", "2"} {
		code, out, stderr := runPDN(t, "", "annotate", "--nodes", "500", "--skip-bad", "-j", j, in)
		if code != 0 {
			t.Fatalf("-j %s: exit %d: %s", j, code, stderr)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] || strings.Count(outs[0], "[%eval ") < 100 {
		t.Errorf("OCA sample: -j 1 and -j 2 differ, or few evals (%d)", strings.Count(outs[0], "[%eval "))
	}
}

// TestAnnotateEngine: an external Hub engine analyses the games (one process per worker),
// the same with -j 1 and -j 2; an engine that crashes stops the run with its name and no
// output file; a clock is refused.
func TestAnnotateEngine(t *testing.T) {
	fake := testengines.Hub(t)
	dir := t.TempDir()
	games := strings.SplitAfter(annotateGames, "1-0\n")[0] // the international and english games
	in := writeFile(t, filepath.Join(dir, "games.pdn"), games)
	spec := "name=fake,cmd=" + fake
	var outs []string
	for _, j := range []string{"1", "2"} {
		code, out, stderr := runPDN(t, "", "annotate", "--engine", spec+`,args="-variants normal,english"`, "--depth", "1", "-j", j, in)
		if code != 0 || strings.Count(out, "[%eval 0.25/1]")+strings.Count(out, "[%eval -0.25/1]") < 20 {
			t.Fatalf("-j %s: exit %d, stderr %q, out:\n%s", j, code, stderr, out)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("-j 1 and -j 2 differ:\n%s\n---\n%s", outs[0], outs[1])
	}
	out := filepath.Join(dir, "out.pdn")
	code, _, stderr := runPDN(t, "", "annotate", "--engine", spec+`,args="-variants normal,english -crash-at 5"`, "--depth", "1", "-o", out, in)
	if code != 1 || !strings.Contains(stderr, "engine fake") {
		t.Errorf("crashing engine: exit %d, stderr %q; want 1 and the engine named", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("crashing engine: %s written", out)
	}
	code, _, stderr = runPDN(t, "", "annotate", "--engine", spec+",tc=40/60", in)
	if code != 2 || !strings.Contains(stderr, "no limit per position") {
		t.Errorf("a clock: exit %d, stderr %q; want a usage error", code, stderr)
	}
	code, _, stderr = runPDN(t, "", "annotate", "--engine", "name=d,proto=dxp,tc=60", in)
	if code != 2 || !strings.Contains(stderr, "analysis needs a Hub engine") {
		t.Errorf("a DXP engine: exit %d, stderr %q; want a usage error", code, stderr)
	}
}

// TestAnnotateReport: --report writes a page with the players' table and the worst moves,
// each opening its game at the position before the move; not with a shard.
func TestAnnotateReport(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "games.pdn"), annotateGames)
	rep := filepath.Join(dir, "rep")
	code, _, stderr := runPDN(t, "", "annotate", "--nodes", "3000", "--skip-bad", "--top", "10", "--report", rep, "-o", filepath.Join(dir, "out.pdn"), in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page := readFile(t, filepath.Join(rep, "index.html"))
	for _, want := range []string{"<h2>Players</h2>", "<h2>Worst moves</h2>", "<th>Rank</th>", `"at":[`, "Alpha", "chunk-0",
		"of the worst moves are of other variants than"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	code, _, stderr = runPDN(t, "", "annotate", "--shard", "0/2", "--report", rep+"2", "-o", filepath.Join(dir, "sh"), in)
	if code != 2 || !strings.Contains(stderr, "--report: not with a shard") {
		t.Errorf("--report with a shard: exit %d, stderr %q", code, stderr)
	}
}

// termBuffer is a stderr that says it is a terminal, to get the progress bar.
type termBuffer struct{ bytes.Buffer }

func (*termBuffer) IsTerminal() bool { return true }

// TestAnnotateProgress: on a terminal a bar counts the positions searched, out of the
// positions the games hold; the games written are the same as without it.
func TestAnnotateProgress(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, filepath.Join(dir, "games.pdn"), annotateGames)
	var out bytes.Buffer
	var errb termBuffer
	code := run(context.Background(), []string{"pdn", "annotate", "--depth", "2", "--skip-bad", in}, strings.NewReader(""), &out, &errb)
	_, plain, _ := runPDN(t, "", "annotate", "--depth", "2", "--skip-bad", in)
	// 3 good games of 16, 14 and 12 plies, and game c (left out) of 4 plies: 50 positions
	if code != 0 || !strings.Contains(errb.String(), "positions") || !strings.Contains(errb.String(), "(0/50)") || out.String() != plain {
		t.Errorf("exit %d; stderr %q; the same games: %v", code, errb.String(), out.String() == plain)
	}
}
