package book

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// ocaPath is the Open Checkers Archive in the shared corpus (see its SOURCES.md); tests
// that need it skip when it is absent. It is never copied into the repository.
var ocaPath = filepath.Join("..", "..", "..", "shared", "pdn", "corpus", "mzuluaga__checkers", "OCA_2.0.pdn")

func fileJob(names ...string) archive.Job {
	var job archive.Job
	for _, name := range names {
		job.Inputs = append(job.Inputs, archive.Input{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(name) }})
	}
	return job
}

func build(t *testing.T, opt BuildOptions, names ...string) (*Book, BuildStats) {
	t.Helper()
	b, st, err := Build(context.Background(), fileJob(names...), opt)
	if err != nil {
		t.Fatalf("Build(%v): %v", names, err)
	}
	return b, st
}

func position(t *testing.T, b *Book, moves string) engine.Position {
	t.Helper()
	p, err := PlayLine(b.Variant, b.Root, moves)
	if err != nil {
		t.Fatalf("PlayLine(%q): %v", moves, err)
	}
	return p
}

func stat(t *testing.T, b *Book, moves, move string) MoveStat {
	t.Helper()
	p := position(t, b, moves)
	e := b.Lookup(&p)
	if e == nil {
		t.Fatalf("position after %q not in the book", moves)
	}
	for _, m := range e.Moves {
		if b.Text(e, m.Move) == move {
			return m
		}
	}
	t.Fatalf("after %q: no book move %s", moves, move)
	return MoveStat{}
}

func TestTranspositionsMerge(t *testing.T) {
	en := engine.MustLookup("english")
	b, st := build(t, BuildOptions{Variant: en, MaxPly: 6}, "testdata/transpose.pdn")
	if st.Read != 4 || st.Used != 3 || st.Bad != 1 {
		t.Errorf("stats = %+v, want 4 read, 3 used, 1 bad", st)
	}
	if !strings.Contains(st.FirstError, "game 4") {
		t.Errorf("FirstError = %q, want it to name game 4", st.FirstError)
	}
	a := position(t, b, "12-16 21-17 9-13 24-20")
	c := position(t, b, "9-13 24-20 12-16 21-17")
	if a != c {
		t.Fatalf("the two move orders reach different positions")
	}
	e := b.Lookup(&a)
	if e == nil || e.Games() != 2 || len(e.Moves) != 2 {
		t.Fatalf("transposed position: %+v, want 2 games and 2 moves", e)
	}
	// Black (the first mover) is to move: 1-0 is a win for it, 0-1 a loss.
	if m := stat(t, b, "12-16 21-17 9-13 24-20", "5-9"); m.Games != 1 || m.Wins != 1 || m.Losses != 0 {
		t.Errorf("5-9 = %+v, want 1 game, 1 win", m)
	}
	if m := stat(t, b, "9-13 24-20 12-16 21-17", "6-9"); m.Games != 1 || m.Losses != 1 {
		t.Errorf("6-9 = %+v, want 1 game, 1 loss", m)
	}
	// White to move after 12-16: the 1-0 and 1/2-1/2 games are a loss and a draw for it.
	if m := stat(t, b, "12-16", "21-17"); m.Games != 2 || m.Wins != 0 || m.Draws != 1 || m.Losses != 1 {
		t.Errorf("21-17 = %+v, want 2 games, =1 -1", m)
	}
	if m := stat(t, b, "", "12-16"); m.Games != 2 || m.Wins != 1 || m.Draws != 1 {
		t.Errorf("12-16 = %+v, want 2 games +1 =1", m)
	}
	if e.Ply != 4 {
		t.Errorf("Ply = %d, want 4", e.Ply)
	}
}

func TestMinGames(t *testing.T) {
	en := engine.MustLookup("english")
	full, _ := build(t, BuildOptions{Variant: en, MaxPly: 6}, "testdata/transpose.pdn")
	b, _ := build(t, BuildOptions{Variant: en, MaxPly: 6, MinGames: 2}, "testdata/transpose.pdn")
	if b.MinGames != 2 {
		t.Errorf("MinGames = %d, want 2", b.MinGames)
	}
	for _, e := range b.Entries() {
		if len(e.Moves) == 0 {
			t.Errorf("%s: kept without moves", en.FEN(e.Position))
		}
		for _, m := range e.Moves {
			if m.Games < 2 {
				t.Errorf("%s %s: %d games kept", en.FEN(e.Position), b.Text(e, m.Move), m.Games)
			}
		}
	}
	// Root keeps 12-16 (2 games) and drops 9-13 (1); the line 12-16 21-17 9-13 stays.
	root := b.Lookup(&b.Root)
	if root == nil || len(root.Moves) != 1 || b.Text(root, root.Moves[0].Move) != "12-16" {
		t.Fatalf("root after pruning = %+v", root)
	}
	if got, want := len(b.Lines(10)), 1; got != want {
		t.Errorf("Lines = %d, want %d", got, want)
	}
	if b.Len() >= full.Len() || b.Len() != 3 {
		t.Errorf("pruned book has %d positions (full %d), want 3", b.Len(), full.Len())
	}
}

func TestJSONRoundTrip(t *testing.T) {
	en := engine.MustLookup("english")
	b, _ := build(t, BuildOptions{Variant: en, MaxPly: 6}, "testdata/transpose.pdn")
	var first bytes.Buffer
	if err := b.WriteJSON(&first); err != nil {
		t.Fatal(err)
	}
	r, err := ReadJSON(bytes.NewReader(first.Bytes()), "first")
	if err != nil {
		t.Fatalf("ReadJSON: %v\n%s", err, first.String())
	}
	var second bytes.Buffer
	if err := r.WriteJSON(&second); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("round trip differs:\n%s\nthen\n%s", first.String(), second.String())
	}
	if r.Len() != b.Len() || r.Games != b.Games || r.MaxPly != 6 {
		t.Errorf("read %d positions, %d games, max ply %d; want %d, %d, 6", r.Len(), r.Games, r.MaxPly, b.Len(), b.Games)
	}
	for _, bad := range []struct{ name, text string }{
		{"not json", "hello"},
		{"format", `{"format":"other","version":1,"variant":"english"}`},
		{"version", `{"format":"rafle-book","version":99,"variant":"english"}`},
		{"illegal move", `{"format":"rafle-book","version":1,"variant":"english","maxPly":1,"positions":1}` + "\n" +
			`{"fen":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","moves":[{"move":"11-19","games":1}]}`},
		{"truncated", `{"format":"rafle-book","version":1,"variant":"english","maxPly":1,"positions":2}`},
	} {
		if _, err := ReadJSON(strings.NewReader(bad.text), bad.name); err == nil {
			t.Errorf("ReadJSON(%s) = nil error", bad.name)
		}
	}
	if _, err := ReadJSON(strings.NewReader("x"), "x"); !errors.Is(err, ErrFormat) {
		t.Errorf("ReadJSON(garbage) = %v, want ErrFormat", err)
	}
}

func TestPDNOutput(t *testing.T) {
	en := engine.MustLookup("english")
	b, _ := build(t, BuildOptions{Variant: en, MaxPly: 6}, "testdata/transpose.pdn")
	var buf bytes.Buffer
	w := pdn.NewWriter(&buf)
	if err := w.Write(b.PDN()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	g, err := pdn.NewReader(strings.NewReader(text)).Next()
	if err != nil {
		t.Fatalf("reading the book's PDN: %v\n%s", err, text)
	}
	main := g.Mainline()
	if len(main) < 2 || main[0].Text != "12-16" || main[1].Text != "21-17" {
		t.Errorf("main line starts %v, want 12-16 21-17\n%s", main, text)
	}
	for _, want := range []string{"{2 games +1 =1 -0 75.0%}", "(1. 9-13 {1 game +0 =0 -1 0.0%}", "1... 21-17",
		"transposes to 1. 12-16 21-17 2. 9-13 24-20})"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDN lacks %q:\n%s", want, text)
		}
	}
}

func TestProbe(t *testing.T) {
	en := engine.MustLookup("english")
	b, _ := build(t, BuildOptions{Variant: en, MaxPly: 6}, "testdata/transpose.pdn")
	res, err := b.Probe(context.Background(), b.Root, ProbeOptions{EvalDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || res.Games != 3 || len(res.Moves) != 2 {
		t.Fatalf("Probe(root) = %+v, want 3 games, 2 moves", res)
	}
	m := res.Moves[0]
	if m.Move != "12-16" || m.Games != 2 || m.Score == nil || *m.Score != 75 || m.Eval == nil {
		t.Errorf("first move = %+v, want 12-16, 2 games, 75%%, an eval", m)
	}
	p := position(t, b, "10-14")
	if res, _ := b.Probe(context.Background(), p, ProbeOptions{}); res.Found || len(res.Moves) != 0 {
		t.Errorf("Probe(out of book) = %+v, want not found", res)
	}
}

func TestLines(t *testing.T) {
	en := engine.MustLookup("english")
	b, _ := build(t, BuildOptions{Variant: en, MaxPly: 6}, "testdata/transpose.pdn")
	all := b.Lines(4)
	// 12-16 21-17 9-13 {24-19, 24-20} (equal counts: notation order); 9-13 24-20 12-16 21-17 transposes into the first.
	if len(all) != 2 || all[0].Text != "12-16 21-17 9-13 24-19" || all[1].Text != "12-16 21-17 9-13 24-20" {
		t.Errorf("Lines(4) = %+v", all)
	}
	if got := len(b.Lines(1)); got != 2 {
		t.Errorf("Lines(1) = %d lines, want 2", got)
	}
	r1, r2 := b.RandomLines(20, 3, 7), b.RandomLines(20, 3, 7)
	if len(r1) != 20 {
		t.Fatalf("RandomLines = %d lines, want 20", len(r1))
	}
	counts := map[string]int{}
	for i := range r1 {
		if r1[i].Text != r2[i].Text {
			t.Fatalf("RandomLines not reproducible: %q vs %q", r1[i].Text, r2[i].Text)
		}
		counts[r1[i].Text]++
	}
	if len(counts) != 2 || counts["12-16 21-17 9-13"] == 0 || counts["9-13 24-20 12-16"] == 0 {
		t.Errorf("RandomLines drew %v", counts)
	}
}

func TestExpandDeterministic(t *testing.T) {
	en := engine.MustLookup("english")
	opt := ExpandOptions{Depth: 2, Nodes: 12, MaxPly: 6, Seed: 3, Jobs: 1}
	var outs [2]string
	for i := range outs {
		if i == 1 {
			opt.Jobs = 2
		}
		b, err := Expand(context.Background(), en, opt)
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() != 12 {
			t.Errorf("expanded %d positions, want 12", b.Len())
		}
		var buf bytes.Buffer
		if err := b.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		outs[i] = buf.String()
		for _, e := range b.Entries() {
			legal := en.Generate(nil, &e.Position)
			if len(e.Moves) != len(legal) {
				t.Errorf("%s: %d book moves, %d legal", en.FEN(e.Position), len(e.Moves), len(legal))
			}
			for _, m := range e.Moves {
				found := false
				for _, l := range legal {
					found = found || l == m.Move
				}
				if !found || m.Eval == nil {
					t.Errorf("%s: book move %s illegal or without eval", en.FEN(e.Position), b.Text(e, m.Move))
				}
			}
			if e.Eval == nil || *e.Eval != *e.Moves[0].Eval {
				t.Errorf("%s: position eval is not its best move's", en.FEN(e.Position))
			}
		}
		// The file reads back, and the lines of an expanded book follow expanded positions.
		r, err := ReadJSON(strings.NewReader(outs[i]), "expanded")
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Lines(6)) == 0 {
			t.Errorf("expanded book has no lines")
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("Expand depends on Jobs:\n%s\n%s", outs[0], outs[1])
	}
}

// TestOCAFirstMoves checks the book's root against an independent count of the first
// moves of the Open Checkers Archive.
func TestOCAFirstMoves(t *testing.T) {
	if _, err := os.Stat(ocaPath); err != nil {
		t.Skipf("OCA not available (%v); the shared corpus is outside the repository", err)
	}
	if testing.Short() {
		t.Skip("reads the whole archive")
	}
	f, err := os.Open(ocaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := map[string]int{}
	r := pdn.NewReader(f)
	games := 0
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		games++
		if err != nil || g.Get("FEN") != "" {
			continue
		}
		for _, m := range g.Mainline() {
			if !m.IsPlaceholder() {
				counts[m.Text]++
				break
			}
		}
	}
	top, topN := "", 0
	for text, n := range counts {
		if n > topN || n == topN && text < top {
			top, topN = text, n
		}
	}
	en := engine.MustLookup("english")
	b, st := build(t, BuildOptions{Variant: en, MaxPly: 2}, ocaPath)
	if st.Read != games || games != 22621 {
		t.Errorf("read %d games, independent count %d, want 22621", st.Read, games)
	}
	root := b.Lookup(&b.Root)
	if root == nil {
		t.Fatal("start position not in the book")
	}
	first := root.Moves[0]
	if got := b.Text(root, first.Move); got != top || first.Games != topN {
		t.Errorf("most played first move %s %d times, independent count %s %d times", got, first.Games, top, topN)
	}
	t.Logf("OCA: %s played %d times (+%d =%d -%d), %d games used, %d bad", top, topN, first.Wins, first.Draws, first.Losses, st.Used, st.Bad)
}

// TestReadJSONSaysWhere: a bad --book file gave errors that did not say which line (issue 33
// item 23). Each error names the file and the line of the value at fault.
func TestReadJSONSaysWhere(t *testing.T) {
	head := `{"format":"rafle-book","version":1,"variant":"english","maxPly":2,"positions":3}` + "\n"
	start := `{"fen":"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12","moves":[{"move":"11-15","games":1}]}` + "\n"
	for _, tc := range []struct{ name, text, want string }{
		{"torn header", `{"format":"rafle-book",`, "b.json:1: header"},
		{"illegal move", head + start + `{"fen":"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15","moves":[{"move":"11-19","games":1}]}` + "\n", "b.json:3: position 2"},
		{"syntax", head + start + "\n\n" + `{"fen": x}` + "\n", "b.json:5: position 2"},
		{"type", head + start + `{"fen":"W:W21:B1","ply":"two"}` + "\n", "b.json:3: position 2"},
		{"bad FEN", head + `{"fen":"Q:W21:B1"}` + "\n", "b.json:2: position 1"},
	} {
		_, err := ReadJSON(strings.NewReader(tc.text), "b.json")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ReadJSON = %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
}
