package pdn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
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

// JSONWriter writes games as JSON lines: one JSON object per game, holding
// every field of Game (tags in order, movetext nodes, result, warnings and
// source positions).
type JSONWriter struct {
	w   *bufio.Writer
	enc *json.Encoder
}

// NewJSONWriter returns a JSONWriter writing to w. Call Flush when done.
func NewJSONWriter(w io.Writer) *JSONWriter {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &JSONWriter{w: bw, enc: enc}
}

// Write writes g as one line of JSON.
func (w *JSONWriter) Write(g *Game) error { return w.enc.Encode(g) }

// Flush writes any buffered data to the underlying writer.
func (w *JSONWriter) Flush() error { return w.w.Flush() }

// JSONReader reads games written by JSONWriter.
type JSONReader struct {
	dec  *json.Decoder
	game int
}

// NewJSONReader returns a JSONReader reading JSON lines from r.
func NewJSONReader(r io.Reader) *JSONReader {
	return &JSONReader{dec: json.NewDecoder(bufio.NewReader(r))}
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
	g := new(Game)
	if err := r.dec.Decode(g); err != nil {
		if _, ok := err.(*json.UnmarshalTypeError); ok {
			return g, &GameError{Game: r.game, Err: fmt.Errorf("json: %w", err)}
		}
		return nil, fmt.Errorf("pdn: json: game %d: %w", r.game, err)
	}
	return g, nil
}
