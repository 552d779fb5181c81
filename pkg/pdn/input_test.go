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
