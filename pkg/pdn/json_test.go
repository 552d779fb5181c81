package pdn

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// writeJSON writes gs with a JSONWriter.
func writeJSON(t *testing.T, positions bool, gs ...*Game) string {
	t.Helper()
	var b bytes.Buffer
	w := NewJSONWriter(&b)
	w.Positions = positions
	for _, g := range gs {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// readJSON reads every game of JSON lines.
func readJSON(t *testing.T, in string) []*Game {
	t.Helper()
	r := NewJSONReader(strings.NewReader(in))
	var gs []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return gs
		}
		if err != nil {
			t.Fatalf("reading %s: %v", in, err)
		}
		gs = append(gs, g)
	}
}

// withoutPositions returns a copy of g without the positions that
// JSONWriter leaves out by default (those of warnings stay).
func withoutPositions(g *Game) *Game {
	c := *normJSON(g)
	c.Pos = Pos{}
	if c.Tags != nil {
		c.Tags = append([]Tag(nil), c.Tags...)
		for i := range c.Tags {
			c.Tags[i].Pos = Pos{}
		}
	}
	var strip func([]Node) []Node
	strip = func(ns []Node) []Node {
		for i := range ns {
			ns[i].Pos = Pos{}
			ns[i].Variation = strip(ns[i].Variation)
		}
		return ns
	}
	c.Moves = strip(c.Moves)
	return &c
}

func TestJSONForm(t *testing.T) {
	in := "[Event \"Open\"]\n[White \"A \\\"B\\\"\"]\n[Result \"2-0\"]\n1. 32-28 {c} (1. 33-28 $2) 19-23 2. C3-D4 2-0\n" +
		"[Event \"a\"]\n[Site \"s\"]\n[Event \"b\"]\n*\n"
	gs, errs := readString(t, in, nil)
	if len(gs) != 2 || len(errs) != 0 {
		t.Fatalf("read: %d games, errors %v", len(gs), errs)
	}
	got := writeJSON(t, false, gs...)
	want := `{"tags":{"Event":"Open","White":"A \"B\"","Result":"2-0"},"moves":[` +
		`{"kind":"move","move":{"number":1,"text":"32-28","squares":[32,28],"sep":"-"}},` +
		`{"kind":"comment","text":"c"},` +
		`{"kind":"variation","variation":[{"kind":"move","move":{"number":1,"text":"33-28","squares":[33,28],"sep":"-"}},{"kind":"nag","nag":2}]},` +
		`{"kind":"move","move":{"text":"19-23","squares":[19,23],"sep":"-"}},` +
		`{"kind":"move","move":{"number":2,"text":"c3-d4","squares":["c3","d4"],"sep":"-"}}],` +
		`"result":"2-0","warnings":[{"kind":"move-syntax","pos":{"offset":84,"line":4,"column":37},"text":"C3-D4: upper case"}]}` + "\n" +
		`{"tags":[{"name":"Event","value":"a"},{"name":"Site","value":"s"},{"name":"Event","value":"b"}],` +
		`"result":"*","warnings":[{"kind":"duplicate-tag","pos":{"offset":117,"line":7,"column":1},"text":"Event"}]}` + "\n"
	if got != want {
		t.Errorf("JSON:\n%s\nwant\n%s", got, want)
	}
	for i, g := range readJSON(t, got) {
		if !reflect.DeepEqual(g, withoutPositions(gs[i])) {
			t.Errorf("game %d read back as %+v, want %+v", i+1, g, withoutPositions(gs[i]))
		}
	}

	// With positions, everything comes back.
	full := writeJSON(t, true, gs...)
	if !strings.HasPrefix(full, `{"tags":[{"name":"Event","value":"Open","pos":{"offset":0,"line":1,"column":1}}`) {
		t.Errorf("JSON with positions starts %.80s", full)
	}
	for i, g := range readJSON(t, full) {
		if !reflect.DeepEqual(normJSON(g), normJSON(gs[i])) {
			t.Errorf("game %d with positions read back as %+v, want %+v", i+1, g, gs[i])
		}
	}
}

// TestJSONReaderEarlierForm checks that the form of earlier versions
// (encoding/json's of a Game) still reads.
func TestJSONReaderEarlierForm(t *testing.T) {
	gs, _ := readString(t, "[Event \"E\"]\n[Site \"S\"]\n1. 32-28 {c} (33-28) 19-23 *\n1. 33-28 1-0", nil)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, g := range gs {
		enc.Encode(g)
	}
	if !strings.HasPrefix(b.String(), `{"tags":[{"name":"Event","value":"E","pos":{"offset":0,"line":1,"column":1}}`) {
		t.Fatalf("encoding/json form is not the earlier form: %.80s", b.String())
	}
	got := readJSON(t, b.String())
	if len(got) != 2 {
		t.Fatalf("%d games, want 2", len(got))
	}
	for i := range got {
		if !reflect.DeepEqual(normJSON(got[i]), normJSON(gs[i])) {
			t.Errorf("game %d read back as %+v, want %+v", i+1, got[i], gs[i])
		}
	}
}

func TestJSONReaderBadTags(t *testing.T) {
	for _, in := range []string{`{"tags":{"Event":1},"result":"*"}`, `{"tags":"x","result":"*"}`, `{"tags":[1],"result":"*"}`} {
		r := NewJSONReader(strings.NewReader(in + "\n" + `{"result":"1-0"}`))
		g, err := r.Next()
		var ge *GameError
		if g == nil || !errors.As(err, &ge) || ge.Game != 1 {
			t.Errorf("%s: game %v, error %v; want a *GameError for game 1", in, g, err)
		}
		if g, err := r.Next(); err != nil || g.Result != "1-0" {
			t.Errorf("%s: next game %v, %v; want the game after it", in, g, err)
		}
	}
}

// TestJSONStrings checks that strings are escaped as encoding/json
// escapes them without HTML escaping.
func TestJSONStrings(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "tab\tnl\ncr\r\x00\x1f\x7f", "<&>", "Léman Первенство 中文",
		"bad \xff\xfe utf-8", "line\u2028para\u2029", "\xed\xa0\x80 surrogate"} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		want := strings.TrimSuffix(b.String(), "\n")
		if got := string(appendJSONString(nil, s)); got != want {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}
