package hub

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func kv(k, v string) Arg { return Arg{Key: k, Value: v, HasValue: true} }
func fl(k string) Arg    { return Arg{Key: k} }

func TestParse(t *testing.T) {
	tests := []struct {
		line string
		want Message
	}{
		{"hub", Message{Command: "hub"}},
		{"  go think  ", Message{Command: "go", Args: []Arg{fl("think")}}},
		// lines Scan 3.1 writes (protocol.txt and a run of scan hub)
		{`id name=Scan version=3.1 author="Fabien Letouzey" country=France`, Message{Command: "id",
			Args: []Arg{kv("name", "Scan"), kv("version", "3.1"), kv("author", "Fabien Letouzey"), kv("country", "France")}}},
		{`param name=variant value=normal type=enum values="normal killer bt frisian losing"`, Message{Command: "param",
			Args: []Arg{kv("name", "variant"), kv("value", "normal"), kv("type", "enum"), kv("values", "normal killer bt frisian losing")}}},
		{`info depth=2 mean-depth=4.2 score=0.00 nodes=36 pv="28x19x23 14x23x19 31-27"`, Message{Command: "info",
			Args: []Arg{kv("depth", "2"), kv("mean-depth", "4.2"), kv("score", "0.00"), kv("nodes", "36"), kv("pv", "28x19x23 14x23x19 31-27")}}},
		{"done move=32-28 ponder=17-22", Message{Command: "done", Args: []Arg{kv("move", "32-28"), kv("ponder", "17-22")}}},
		{`error message="bad position"`, Message{Command: "error", Args: []Arg{kv("message", "bad position")}}},
		{"level moves=9 time=291.587", Message{Command: "level", Args: []Arg{kv("moves", "9"), kv("time", "291.587")}}},
		// an empty value must be quoted; blanks may surround '=' (Scan's reader skips them)
		{`set-param name=x value=""`, Message{Command: "set-param", Args: []Arg{kv("name", "x"), kv("value", "")}}},
		{"set-param name = book\tvalue= false\r", Message{Command: "set-param", Args: []Arg{kv("name", "book"), kv("value", "false")}}},
		{`pos start moves="32-28 19-23"`, Message{Command: "pos", Args: []Arg{fl("start"), kv("moves", "32-28 19-23")}}},
		{`a b="=x y" c`, Message{Command: "a", Args: []Arg{kv("b", "=x y"), fl("c")}}},
		{"naïve clé=été", Message{Command: "naïve", Args: []Arg{kv("clé", "été")}}},
	}
	for _, tc := range tests {
		got, err := Parse(tc.line)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tc.line, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		line string
		col  int
		msg  string
	}{
		{"", 1, "missing command"},
		{"   ", 4, "missing command"},
		{"=x", 1, "missing command"},
		{`"hub"`, 1, "missing command"},
		{`pos pos="Wbbb`, 9, "unterminated quoted value"},
		{"level depth=", 13, "missing value"},
		{"level depth= time=1", 18, "missing argument name"}, // blanks after '=' are skipped: depth=time
		{"level =3", 7, "missing argument name"},
		{`info pv=x"y`, 10, "missing argument name"},
		{"go \x01think", 4, "missing argument name"},
		{"info pv=\"a\nb\"", 11, "line break inside a quoted value"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.line)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a *SyntaxError", tc.line, err)
			continue
		}
		if se.Column != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q): column %d, %q; want column %d, %q", tc.line, se.Column, se.Msg, tc.col, tc.msg)
		}
	}
}

func TestMessageString(t *testing.T) {
	tests := []struct {
		m    Message
		want string
	}{
		{Message{Command: "go", Args: []Arg{fl("think")}}, "go think"},
		{newMessage("id", "name", "rafle", "author", "The rafle authors"), `id name=rafle author="The rafle authors"`},
		{newMessage("set-param", "name", "x", "value", ""), `set-param name=x value=""`},
		{newMessage("a", "b", "x=y", "c", "tab\there"), `a b="x=y" c="tab	here"`},
		// no escape exists for '"' in a quoted value, nor a line break on a line
		{newMessage("error", "message", "bad move \"1-2\"\nend"), `error message="bad move '1-2' end"`},
	}
	for _, tc := range tests {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%#v.String() = %q, want %q", tc.m, got, tc.want)
		}
	}
}

func TestMessageGetHas(t *testing.T) {
	m, err := Parse(`pos start pos=Wee moves="" pos=second`)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := m.Get("pos"); !ok || v != "Wee" {
		t.Errorf("Get(pos) = %q, %v; want the first, Wee", v, ok)
	}
	if v, ok := m.Get("moves"); !ok || v != "" {
		t.Errorf("Get(moves) = %q, %v; want empty, true", v, ok)
	}
	if v, ok := m.Get("start"); !ok || v != "" {
		t.Errorf("Get(start) = %q, %v; want empty, true (a flag)", v, ok)
	}
	if m.Has("level") || !m.Has("start") {
		t.Errorf("Has(level) = %v, Has(start) = %v; want false, true", m.Has("level"), m.Has("start"))
	}
}

// FuzzParse checks that Parse never panics and that what it accepts is written back by
// String to a line that parses to the same message.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"hub", `id name=Scan version=3.1 author="Fabien Letouzey" country=France`,
		`pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="32-28 19-23"`,
		`info depth=21 score=-0.01 pv="32-28 17-22"`, "go think", `a ="" b c=d`, `x "`, "=", "\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(m.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, whose String %q does not parse: %v", s, m, m.String(), err)
		}
		if !reflect.DeepEqual(again, m) {
			t.Fatalf("Parse(%q) = %#v; Parse(String()) = %#v", s, m, again)
		}
	})
}
