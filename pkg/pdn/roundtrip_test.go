package pdn

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// stripped returns a copy of g without positions and warnings, for
// comparing games read from different sources.
func stripped(g *Game) *Game {
	c := *g
	c.Pos = Pos{}
	c.Warnings = nil
	c.Moves = stripNodes(g.Moves)
	if g.Tags != nil {
		c.Tags = make([]Tag, len(g.Tags))
		for i, t := range g.Tags {
			t.Pos = Pos{}
			c.Tags[i] = t
		}
	}
	return &c
}

func stripNodes(ns []Node) []Node {
	if ns == nil {
		return nil
	}
	out := make([]Node, len(ns))
	for i, n := range ns {
		n.Pos = Pos{}
		n.Variation = stripNodes(n.Variation)
		out[i] = n
	}
	return out
}

// writeGame writes g as canonical PDN.
func writeGame(t testing.TB, g *Game) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewWriter(&b)
	if err := w.Write(g); err != nil {
		t.Fatalf("Write(%+v): %v", g, err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readOne reads exactly one game from p without error.
func readOne(t testing.TB, p []byte) *Game {
	t.Helper()
	r := NewReader(bytes.NewReader(p))
	g, err := r.Next()
	if err != nil {
		t.Fatalf("reading back %q: %v", p, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("reading back %q: more than one game (%v)", p, err)
	}
	return g
}

// checkRoundTrip checks PDN -> Game -> PDN -> Game and Game -> JSON -> Game.
func checkRoundTrip(t testing.TB, g *Game, where string) {
	t.Helper()
	p1 := writeGame(t, g)
	g2 := readOne(t, p1)
	had := map[WarningKind]bool{}
	for _, w := range g.Warnings {
		had[w.Kind] = true
	}
	for _, w := range g2.Warnings {
		if w.Kind.Strict() && !had[w.Kind] {
			t.Errorf("%s: canonical output %q reads with warning %v", where, p1, w)
		}
	}
	if !reflect.DeepEqual(stripped(g), stripped(g2)) {
		t.Errorf("%s: PDN round trip changed the game\nwritten: %q\nbefore: %+v\nafter:  %+v", where, p1, stripped(g), stripped(g2))
	}
	if p2 := writeGame(t, g2); !bytes.Equal(p1, p2) {
		t.Errorf("%s: canonical PDN not stable:\nfirst:  %q\nsecond: %q", where, p1, p2)
	}
	var jb bytes.Buffer
	jw := NewJSONWriter(&jb)
	jw.Positions = true
	if err := jw.Write(g); err != nil {
		t.Fatalf("%s: JSON write: %v", where, err)
	}
	jw.Flush()
	if n := bytes.Count(jb.Bytes(), []byte{'\n'}); n != 1 {
		t.Errorf("%s: JSON has %d lines, want 1", where, n)
	}
	jg, err := NewJSONReader(&jb).Next()
	if err != nil {
		t.Fatalf("%s: JSON read back %q: %v", where, jb.Bytes(), err)
	}
	if !reflect.DeepEqual(normJSON(g), normJSON(jg)) {
		t.Errorf("%s: JSON round trip changed the game\njson:   %s\nbefore: %+v\nafter:  %+v", where, jb.Bytes(), g, jg)
	}
	if p3 := writeGame(t, jg); !bytes.Equal(p1, p3) {
		t.Errorf("%s: PDN from JSON differs:\nfrom PDN:  %q\nfrom JSON: %q", where, p1, p3)
	}
}

// normJSON makes empty slices nil, as JSON omitempty reads them back.
func normJSON(g *Game) *Game {
	c := *g
	if len(c.Tags) == 0 {
		c.Tags = nil
	}
	if len(c.Warnings) == 0 {
		c.Warnings = nil
	}
	c.Moves = normNodes(c.Moves)
	return &c
}

func normNodes(ns []Node) []Node {
	if len(ns) == 0 {
		return nil
	}
	out := make([]Node, len(ns))
	for i, n := range ns {
		n.Variation = normNodes(n.Variation)
		if n.Move != nil {
			m := *n.Move
			if len(m.Squares) == 0 {
				m.Squares = nil
			}
			n.Move = &m
		}
		out[i] = n
	}
	return out
}

func TestRoundTripSamples(t *testing.T) {
	inputs := []string{
		"1. 32-28 19-23 2. 28x19 14x23 *",
		"[Event \"a \\\" \\\\ b\"]\n[Site \"\"]\n{start} 1. 32-28! {x} (1. 33-28? (1. 31-27 $2) {y}) 19-23 $1 $2 2... 23x32x41(!?) 1-1",
		"1. ... 7-12 2... c3:e5 a3b4 1/2-1/2",
		"[FEN \"W:W31:B1\"] *",
		"1. 32-28* 19-23 *",
		"32-28 () {} /FEN \"W:W1:B2\"/ 0-0",
		"1. 01-06 " + strings.Repeat("33-28 {a long comment that will need wrapping} ", 10) + "2-0",
		"{multi\nline\ncomment} 32-28 *",
	}
	for i, in := range inputs {
		gs, errs := readString(t, in, nil)
		if len(errs) > 0 || len(gs) != 1 {
			t.Fatalf("read %q: %d games, errors %v", in, len(gs), errs)
		}
		checkRoundTrip(t, gs[0], fmt.Sprintf("sample %d %q", i, in))
	}
}

// TestCorpusRoundTrip reads every .pdn file of the shared corpus
// leniently and checks, for each game, PDN -> JSON -> PDN and the
// stability of canonical PDN. It logs game and warning counts.
func TestCorpusRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus round trip skipped in -short mode")
	}
	files := corpusFiles(t)
	games, errCount := 0, 0
	kinds := map[WarningKind]int{}
	for _, path := range files {
		eachSampledGame(t, path, false, func(r *Reader, g *Game, err error) {
			if err != nil {
				errCount++
				t.Logf("%s: %v", path, err)
			}
			games++
			for _, w := range g.Warnings {
				kinds[w.Kind]++
			}
			checkRoundTrip(t, g, fmt.Sprintf("%s game %d", path, r.Games()))
			if t.Failed() {
				t.FailNow()
			}
		})
	}
	t.Logf("%d files, %d games, %d games with errors", len(files), games, errCount)
	var ks []string
	for k, n := range kinds {
		ks = append(ks, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(ks)
	t.Logf("warnings: %s", strings.Join(ks, " "))
}

// TestOCA checks the game count of the Open Checkers Archive.
func TestOCA(t *testing.T) {
	path := corpusPath(t, "mzuluaga__checkers/OCA_2.0.pdn")
	gs, errs := readFile(t, path, false)
	// 22,621 games: SOURCES.md counts 22,621 [Event tags and terminators.
	if len(gs) != 22621 || len(errs) != 0 {
		t.Fatalf("read %s: %d games, %d errors; want 22621 games, 0 errors", path, len(gs), len(errs))
	}
	_, errs = readFile(t, path, true)
	if len(errs) != 0 {
		t.Errorf("strict read of %s: %d errors, first %v", path, len(errs), errs[0])
	}
}
