package pdn

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestNewGameReader(t *testing.T) {
	const src = "[Event \"E\"]\n1. 32-28 19-23 *\n"
	var js bytes.Buffer
	jw := NewJSONWriter(&js)
	g, _ := NewReader(strings.NewReader(src)).Next()
	jw.Write(g)
	jw.Flush()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(src))
	zw.Close()
	tests := []struct {
		name string
		in   []byte
		kind string
	}{
		{"pdn", []byte(src), "*pdn.Reader"},
		{"pdn starting with a comment", []byte("{\"tags\" in a comment} [Event \"E\"] 1. 32-28 19-23 *"), "*pdn.Reader"},
		{"json lines", js.Bytes(), "*pdn.JSONReader"},
		{"gzip", gz.Bytes(), "*pdn.Reader"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gr, err := NewGameReader(bytes.NewReader(tc.in), ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := typeName(gr); got != tc.kind {
				t.Errorf("NewGameReader(%q) = %s, want %s", tc.in, got, tc.kind)
			}
			g, err := gr.Next()
			if err == nil && len(g.Tags) == 0 { // the leading comment is a game of its own
				g, err = gr.Next()
			}
			if err != nil || g.Get("Event") != "E" || g.Plies() != 2 {
				t.Errorf("NewGameReader(%q).Next() = %+v, %v; want the game", tc.in, g, err)
			}
			if _, err := gr.Next(); err != io.EOF {
				t.Errorf("second Next: %v, want io.EOF", err)
			}
		})
	}
}

func typeName(v any) string {
	switch v.(type) {
	case *Reader:
		return "*pdn.Reader"
	case *JSONReader:
		return "*pdn.JSONReader"
	}
	return "other"
}

func TestJSONReaderErrors(t *testing.T) {
	in := `{"result":"*","tags":[{"name":"A","value":"b"}]}
{"result":"*","moves":[{"kind":"move","move":{"text":"1-1","squares":["zz"],"sep":"-"}}]}
{"result":"*","nag":"not a number","moves":"x"}
{"result":`
	r := NewJSONReader(strings.NewReader(in))
	g, err := r.Next()
	if err != nil || g.Get("A") != "b" {
		t.Fatalf("game 1: %+v, %v", g, err)
	}
	if _, err := r.Next(); err == nil {
		t.Errorf("game 2 with a bad square: no error")
	}
	_, err = r.Next()
	var ge *GameError
	if !errors.As(err, &ge) || ge.Game != 3 {
		t.Errorf("game 3 with a type error: %v, want *GameError for game 3", err)
	} else if msg := err.Error(); !strings.HasPrefix(msg, "pdn: game 3: json: ") {
		t.Errorf("game 3 error %q, want prefix %q (no position, one package prefix)", msg, "pdn: game 3: json: ")
	}
	if _, err := r.Next(); err == nil || err == io.EOF {
		t.Errorf("truncated game 4: %v, want a syntax error", err)
	}
}

func TestTransformFilterDedupe(t *testing.T) {
	in := "[Event \"Club\"]\n[White \"Ann\"]\n1. 32-28! {c} $1 (1. 33-28 {v}) 19-23 2-0\n" +
		"[Event \"Open\"]\n{x} 1. 32-28 19-23 (1... 18-23) 0-2\n"
	gs, _ := readString(t, in, nil)
	if MoveHash(gs[0]) != MoveHash(gs[1]) {
		t.Errorf("MoveHash differs for games with the same moves")
	}
	var d Deduper
	if d.Duplicate(gs[0]) || !d.Duplicate(gs[1]) {
		t.Errorf("Deduper: want the second game to be a duplicate of the first")
	}
	Transform{DropComments: true, DropVariations: true, DropNAGs: true}.Apply(gs[0])
	if got := canon(t, gs[:1]); got != "[Event \"Club\"]\n[White \"Ann\"]\n\n1. 32-28 19-23 2-0" {
		t.Errorf("Transform: got %q", got)
	}
	Transform{DropComments: true}.Apply(gs[1])
	if got := canon(t, gs[1:]); got != "[Event \"Open\"]\n\n1. 32-28 19-23 (1... 18-23) 0-2" {
		t.Errorf("Transform DropComments: got %q", got)
	}
	tests := []struct {
		f    Filter
		want []bool
	}{
		{Filter{}, []bool{true, true}},
		{Filter{Tags: []TagMatch{mustMatch(t, "Event~^Cl")}}, []bool{true, false}},
		{Filter{Tags: []TagMatch{mustMatch(t, "White=Ann")}}, []bool{true, false}},
		{Filter{Results: []string{"0-2", "1-1"}}, []bool{false, true}},
		{Filter{MinPlies: 3}, []bool{false, false}},
		{Filter{MaxPlies: 2}, []bool{true, true}},
	}
	for i, tc := range tests {
		for j, g := range gs {
			if got := tc.f.Match(g); got != tc.want[j] {
				t.Errorf("filter %d %+v on game %d: %v, want %v", i, tc.f, j+1, got, tc.want[j])
			}
		}
	}
	if _, err := ParseTagMatch("Event~("); err == nil {
		t.Errorf("ParseTagMatch with a bad regexp: no error")
	}
}

func mustMatch(t *testing.T, s string) TagMatch {
	m, err := ParseTagMatch(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStatsReport(t *testing.T) {
	s := NewStats()
	for i, in := range []string{"32-28 *", "32-28 19-23 *", "33-28 19-23 28x19 *", "[GameType \"21\"] 9-13 22-18 18x9 5x14 1-0"} {
		gs, _ := readString(t, in, nil)
		s.Add(gs[0], nil)
		_ = i
	}
	r := s.Report(1)
	if r.Games != 4 || r.MinPlies != 1 || r.MedianPlies != 2 || r.MaxPlies != 4 {
		t.Errorf("plies min/median/max = %d/%d/%d over %d games, want 1/2/4 over 4", r.MinPlies, r.MedianPlies, r.MaxPlies, r.Games)
	}
	if len(r.FirstMoves) != 1 || r.FirstMoves[0] != (Count{"32-28", 2}) {
		t.Errorf("first moves = %v, want [{32-28 2}]", r.FirstMoves)
	}
	want := []Count{{"no GameType tag", 3}, {"21 (english)", 1}}
	if len(r.Variants) != 2 || r.Variants[0] != want[0] || r.Variants[1] != want[1] {
		t.Errorf("variants = %v, want %v", r.Variants, want)
	}
}
