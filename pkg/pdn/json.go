package pdn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// GameReader is anything that yields games one at a time, like Reader and
// JSONReader: Next returns io.EOF after the last game.
type GameReader interface {
	Next() (*Game, error)
}

// GameWriter is anything that writes games, like Writer and JSONWriter.
type GameWriter interface {
	Write(g *Game) error
	Flush() error
}

// JSONWriter writes games as JSON lines: one JSON object per game, with
// the fields of Game in this order (empty ones left out but "result"):
//
//	{"tags":{"Event":"Open","Result":"2-0"},
//	 "moves":[{"kind":"move","move":{"number":1,"text":"32-28","squares":[32,28],"sep":"-"}},
//	          {"kind":"comment","text":"a comment"}, ...],
//	 "result":"2-0",
//	 "warnings":[{"kind":"move-syntax","pos":{"offset":70,"line":3,"column":8},"text":"..."}]}
//
// Tags form an object whose members are in file order. A game that has
// two tags of the same name (PDN allows it) writes its tags as an array
// of {"name":...,"value":...} objects instead, in file order, so that
// nothing is lost; such a game also has a duplicate-tag warning. Node and
// move fields are those of Node and Move as encoding/json writes them.
//
// Source positions ("pos": offset, line, column) of the game, its tags
// and its movetext nodes are written only with Positions set; warnings
// always have theirs. With Positions the tags are always the array, whose
// objects have room for a "pos". JSONReader reads both forms; the array
// form with positions everywhere is also that of earlier versions, and
// what encoding/json makes of a Game.
type JSONWriter struct {
	// Positions adds the source positions of games, tags and nodes.
	// Set it before the first Write.
	Positions bool

	w   *bufio.Writer
	buf []byte
}

// NewJSONWriter returns a JSONWriter writing to w. Call Flush when done.
func NewJSONWriter(w io.Writer) *JSONWriter {
	return &JSONWriter{w: bufio.NewWriterSize(w, writeBufSize)}
}

// Write writes g as one line of JSON.
func (w *JSONWriter) Write(g *Game) error {
	w.buf = w.appendGame(w.buf[:0], g)
	_, err := w.w.Write(w.buf)
	return err
}

// Flush writes any buffered data to the underlying writer.
func (w *JSONWriter) Flush() error { return w.w.Flush() }

// WriteFormatted writes p, the lines that another JSONWriter with the same
// settings wrote for some games, as Write would have written them.
func (w *JSONWriter) WriteFormatted(p []byte) error {
	_, err := w.w.Write(p)
	return err
}

// AppendGame appends to b the bytes Write writes for g, its JSON line,
// and returns the extended slice. AppendGame and WriteFormatted let games
// be formatted in several goroutines and written in order.
func (w *JSONWriter) AppendGame(b []byte, g *Game) []byte { return w.appendGame(b, g) }

// appendGame appends the JSON line of g (with its line break) to b.
func (w *JSONWriter) appendGame(b []byte, g *Game) []byte {
	b = append(b, '{')
	if len(g.Tags) > 0 {
		b = append(b, `"tags":`...)
		b = append(w.appendTags(b, g.Tags), ',')
	}
	if len(g.Moves) > 0 {
		b = append(b, `"moves":`...)
		b = append(w.appendNodes(b, g.Moves), ',')
	}
	b = append(b, `"result":`...)
	b = appendJSONString(b, g.Result)
	if len(g.Warnings) > 0 {
		b = append(b, `,"warnings":[`...)
		for i := range g.Warnings {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendWarning(b, &g.Warnings[i])
		}
		b = append(b, ']')
	}
	if w.Positions && g.Pos != (Pos{}) {
		b = append(b, `,"pos":`...)
		b = appendPos(b, g.Pos)
	}
	return append(b, '}', '\n')
}

func (w *JSONWriter) appendTags(b []byte, tags []Tag) []byte {
	if !w.Positions && !hasDuplicateTag(tags) {
		b = append(b, '{')
		for i := range tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, tags[i].Name)
			b = append(b, ':')
			b = appendJSONString(b, tags[i].Value)
		}
		return append(b, '}')
	}
	b = append(b, '[')
	for i, t := range tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendJSONString(b, t.Name)
		b = append(b, `,"value":`...)
		b = appendJSONString(b, t.Value)
		if w.Positions && t.Pos != (Pos{}) {
			b = append(b, `,"pos":`...)
			b = appendPos(b, t.Pos)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// hasDuplicateTag reports whether two tags have the same name.
func hasDuplicateTag(tags []Tag) bool {
	if len(tags) > 32 {
		seen := make(map[string]bool, len(tags))
		for _, t := range tags {
			if seen[t.Name] {
				return true
			}
			seen[t.Name] = true
		}
		return false
	}
	for i := range tags {
		for j := range i {
			if tags[j].Name == tags[i].Name {
				return true
			}
		}
	}
	return false
}

// kindJSON holds `{"kind":"NAME"` for each node kind ("" for none).
var kindJSON = func() (k [len(nodeKindNames)]string) {
	for i, name := range nodeKindNames {
		k[i] = `{"kind":` + string(appendJSONString(nil, name))
	}
	return k
}()

func (w *JSONWriter) appendNodes(b []byte, ns []Node) []byte {
	b = append(b, '[')
	for i := range ns {
		n := &ns[i]
		if i > 0 {
			b = append(b, ',')
		}
		if int(n.Kind) < len(kindJSON) {
			b = append(b, kindJSON[n.Kind]...)
		} else {
			b = append(b, kindJSON[0]...) // (a Game not made by a Reader)
		}
		if n.NAG != 0 {
			b = append(b, `,"nag":`...)
			b = strconv.AppendInt(b, int64(n.NAG), 10)
		}
		if m := n.Move; m != nil {
			b = append(b, `,"move":`...)
			b = appendJSONMove(b, m)
		}
		if n.Text != "" {
			b = append(b, `,"text":`...)
			b = appendJSONString(b, n.Text)
		}
		if len(n.Variation) > 0 {
			b = append(b, `,"variation":`...)
			b = w.appendNodes(b, n.Variation)
		}
		if w.Positions && n.Pos != (Pos{}) {
			b = append(b, `,"pos":`...)
			b = appendPos(b, n.Pos)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendJSONMove(b []byte, m *Move) []byte {
	if m.Number != 0 {
		b = append(b, `{"number":`...)
		b = appendInt(b, m.Number)
		b = append(b, `,"text":`...)
	} else {
		b = append(b, `{"text":`...)
	}
	b = appendJSONString(b, m.Text)
	if len(m.Squares) > 0 {
		b = append(b, `,"squares":[`...)
		for i, s := range m.Squares {
			if i > 0 {
				b = append(b, ',')
			}
			if s.IsAlgebraic() {
				b = append(s.appendTo(append(b, '"')), '"')
			} else {
				b = s.appendTo(b)
			}
		}
		b = append(b, ']')
	}
	if m.Strength != "" {
		b = append(b, `,"strength":`...)
		b = appendJSONString(b, m.Strength)
	}
	if m.Continuation {
		b = append(b, `,"continuation":true`...)
	}
	if m.Sep != 0 {
		return append(b, ',', '"', 's', 'e', 'p', '"', ':', '"', byte(m.Sep), '"', '}')
	}
	return append(b, `,"sep":""}`...)
}

// appendInt appends n in decimal.
func appendInt(b []byte, n int) []byte {
	if n >= 0 && n < 100 {
		if n < 10 {
			return append(b, '0'+byte(n))
		}
		return append(b, '0'+byte(n/10), '0'+byte(n%10))
	}
	return strconv.AppendInt(b, int64(n), 10)
}

func appendWarning(b []byte, w *Warning) []byte {
	b = append(b, `{"kind":`...)
	b = appendJSONString(b, w.Kind.String())
	if w.Pos != (Pos{}) {
		b = append(b, `,"pos":`...)
		b = appendPos(b, w.Pos)
	}
	if w.Text != "" {
		b = append(b, `,"text":`...)
		b = appendJSONString(b, w.Text)
	}
	return append(b, '}')
}

func appendPos(b []byte, p Pos) []byte {
	b = append(b, `{"offset":`...)
	b = strconv.AppendInt(b, p.Offset, 10)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(p.Line), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendInt(b, int64(p.Column), 10)
	return append(b, '}')
}

// appendJSONString appends s as a JSON string, escaped as encoding/json
// escapes it with SetEscapeHTML(false): '"', '\\', control characters,
// U+2028 and U+2029, and invalid UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			return appendJSONEscaped(append(append(b, '"'), s[:i]...), s[i:])
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// jsonPlain tells the bytes that a JSON string holds as they are: ASCII
// but control characters, '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONEscaped is appendJSONString from the first byte of s that may
// need escaping, after the opening quote.
func appendJSONEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// JSONReader reads games written by JSONWriter, in its current form or
// the earlier one (see JSONWriter).
type JSONReader struct {
	dec  *json.Decoder
	game int
}

// NewJSONReader returns a JSONReader reading JSON lines from r.
func NewJSONReader(r io.Reader) *JSONReader {
	return &JSONReader{dec: json.NewDecoder(bufio.NewReader(r))}
}

// jsonGame is the JSON form of a Game as JSONReader decodes it.
type jsonGame struct {
	Tags     jsonTags  `json:"tags"`
	Moves    []Node    `json:"moves"`
	Result   string    `json:"result"`
	Warnings []Warning `json:"warnings"`
	Pos      Pos       `json:"pos"`
}

// jsonTags reads tags written as an object (in member order) or as an
// array of tag objects.
type jsonTags []Tag

// errJSONTags is the cause of a "tags" value of the wrong form.
var errJSONTags = errors.New(`"tags" is neither an object of strings nor an array of tags`)

func (ts *jsonTags) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return errJSONTags
	case b[0] == '[':
		var tags []Tag
		if err := json.Unmarshal(b, &tags); err != nil {
			return fmt.Errorf("%w: %v", errJSONTags, err)
		}
		*ts = tags
		return nil
	case b[0] == 'n': // null
		*ts = nil
		return nil
	case b[0] != '{':
		return errJSONTags
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token() // '{'
	var tags []Tag
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return err
		}
		var value string
		if err := dec.Decode(&value); err != nil {
			return fmt.Errorf("%w: tag %v: %v", errJSONTags, name, err)
		}
		tags = append(tags, Tag{Name: name.(string), Value: value})
	}
	*ts = tags
	return nil
}

// Next returns the next game, or io.EOF at the end. A value that is not a
// game is reported as a *GameError; a JSON syntax error ends the stream.
func (r *JSONReader) Next() (*Game, error) {
	if !r.dec.More() {
		// More is false at EOF and before a stray closing delimiter.
		if _, err := r.dec.Token(); err != nil && err != io.EOF {
			return nil, fmt.Errorf("pdn: json: %w", err)
		}
		return nil, io.EOF
	}
	r.game++
	var jg jsonGame
	err := r.dec.Decode(&jg)
	g := &Game{Tags: jg.Tags, Moves: jg.Moves, Result: jg.Result, Warnings: jg.Warnings, Pos: jg.Pos}
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) || errors.Is(err, errJSONTags) {
			return g, &GameError{Game: r.game, Err: fmt.Errorf("json: %w", err)}
		}
		return nil, fmt.Errorf("pdn: json: game %d: %w", r.game, err)
	}
	return g, nil
}
