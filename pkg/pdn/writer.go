package pdn

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DefaultWidth is the line width the Writer wraps movetext at.
const DefaultWidth = 80

// Writer writes games as canonical PDN: one tag per line, a blank line,
// the movetext wrapped at Width columns, and the game's terminator. The
// output is fixed by the game alone, so writing a game, reading it back and
// writing it again gives the same bytes.
//
// The output follows the PDN 3.0 reading grammar and the writing rules
// (no leading zeros, lower-case squares, no spaces inside moves). Two
// things are kept as the game has them because changing them would lose
// information: a result written as the game terminator (the writing
// grammar wants '*' and the result in the Result tag only; set StarOnly
// for that) and ':' as capture separator (PDN 3.0 lists it for Russian).
type Writer struct {
	// Width is the column to wrap movetext at; 0 means DefaultWidth and a
	// negative value means no wrapping.
	Width int
	// StarOnly ends every game with '*', as the PDN 3.0 writing grammar
	// requires. The result is then only in the Result tag.
	StarOnly bool

	w      *bufio.Writer
	n      int
	col    int
	noWrap bool // the last token was a move with the '*' strength
	err    error
	buf    []byte // a move's spelling
}

// writeBufSize is the buffer of a Writer or JSONWriter: a game of JSON
// takes about 4 KB, so that bufio's default of 4 KB made one write call
// per game.
const writeBufSize = 64 << 10

// NewWriter returns a Writer writing to w. Call Flush when done.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, writeBufSize)}
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}

// Write writes one game. It returns an error wrapping ErrInvalidTag or
// ErrInvalidMove (and writes nothing) when the game cannot be written as
// PDN that reads back the same, for example a tag name that is not an
// identifier or a comment containing '}'.
func (w *Writer) Write(g *Game) error {
	if w.err != nil {
		return w.err
	}
	if err := checkGame(g); err != nil {
		return err
	}
	if w.n > 0 {
		w.w.WriteByte('\n')
	}
	w.n++
	w.game(g)
	if err := w.w.WriteByte('\n'); err != nil {
		w.err = err
		return err
	}
	return nil
}

// WriteFormatted writes p, the bytes of one game formatted by another
// Writer with the same settings (Format), as Write would have written the
// game. Format and WriteFormatted let games be formatted in several
// goroutines and written in order.
func (w *Writer) WriteFormatted(p []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.n > 0 {
		w.w.WriteByte('\n')
	}
	w.n++
	if _, err := w.w.Write(p); err != nil {
		w.err = err
		return err
	}
	return nil
}

// Format writes g as Write does, without the blank line that separates it
// from the game before: the bytes that WriteFormatted takes.
func (w *Writer) Format(g *Game) error {
	if err := checkGame(g); err != nil {
		return err
	}
	w.game(g)
	return w.w.WriteByte('\n')
}

// game writes g's tags, movetext and terminator, without the line break
// that ends it.
func (w *Writer) game(g *Game) {
	for _, t := range g.Tags {
		w.w.WriteByte('[')
		w.w.WriteString(t.Name)
		w.w.WriteString(` "`)
		writeEscaped(w.w, t.Value)
		w.w.WriteString("\"]\n")
	}
	if len(g.Tags) > 0 {
		w.w.WriteByte('\n')
	}
	w.col = 0
	w.noWrap = false
	w.nodes(g.Moves, false)
	res := g.Result
	if res == "" || w.StarOnly {
		res = "*"
	}
	w.emit(res, false)
}

func writeEscaped(b *bufio.Writer, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
}

func (w *Writer) width() int {
	if w.Width == 0 {
		return DefaultWidth
	}
	return w.Width
}

// emit writes one token, preceded by a space (or a line break when the
// line is full) unless glue is set.
func (w *Writer) emit(tok string, glue bool) {
	w.space(len(tok), glue)
	w.w.WriteString(tok)
	if i := strings.LastIndexByte(tok, '\n'); i >= 0 {
		w.col = len(tok) - i - 1
	} else {
		w.col += len(tok)
	}
}

// space writes what precedes a token of n bytes, as emit does.
func (w *Writer) space(n int, glue bool) {
	if w.col > 0 && !glue {
		if wd := w.width(); wd > 0 && w.col+1+n > wd && !w.noWrap {
			w.w.WriteByte('\n')
			w.col = 0
		} else {
			w.w.WriteByte(' ')
			w.col++
		}
	}
	w.noWrap = false
}

func (w *Writer) nodes(ns []Node, glueFirst bool) {
	for i := range ns {
		n := &ns[i]
		glue := glueFirst && i == 0
		switch n.Kind {
		case MoveNode:
			// emit, without making a string of the move (no line break in it)
			w.buf = appendMove(w.buf[:0], n.Move)
			w.space(len(w.buf), glue)
			w.w.Write(w.buf)
			w.col += len(w.buf)
			w.noWrap = n.Move.Strength == "*"
		case CommentNode:
			w.emit("{"+n.Text+"}", glue)
		case NAGNode:
			w.emit("$"+strconv.Itoa(int(n.NAG)), glue)
		case SetupNode:
			w.emit("/"+n.Text+"/", glue)
		case VariationNode:
			w.emit("(", glue)
			w.nodes(n.Variation, true)
			w.emit(")", len(n.Variation) > 0)
		}
	}
}

// appendMove appends the canonical spelling of m, with its number and
// strength.
func appendMove(b []byte, m *Move) []byte {
	if m.Number > 0 {
		b = strconv.AppendInt(b, int64(m.Number), 10)
		if m.Continuation {
			b = append(b, "... "...)
		} else {
			b = append(b, ". "...)
		}
	}
	b = appendMoveText(b, m)
	return append(b, m.Strength...)
}

// appendMoveText appends the canonical spelling of m's squares.
func appendMoveText(b []byte, m *Move) []byte {
	sq := m.Squares
	if len(sq) == 0 {
		return append(b, "..."...)
	}
	if m.Sep == '-' && len(sq) > 1 && sq[0] == 1 && sq[1] == 1 {
		// "1-1" would read as a result; the reading grammar allows "01".
		b = append(b, '0')
	}
	return appendSquares(b, sq, m.Sep)
}

// CanonicalText returns the canonical spelling of m's squares and
// separator (what Move.Text holds for a game read by Reader).
func (m *Move) CanonicalText() string { return string(appendMoveText(nil, m)) }

func checkGame(g *Game) error {
	for _, t := range g.Tags {
		if !isIdent(t.Name) {
			return fmt.Errorf("pdn: cannot write tag name %q: %w", t.Name, ErrInvalidTag)
		}
	}
	if g.Result != "" && g.Result != "*" && !IsResult(g.Result) {
		return fmt.Errorf("pdn: cannot write result %q: %w", g.Result, ErrUnexpectedToken)
	}
	if n := len(g.Moves); n > 0 && g.Moves[n-1].Kind == MoveNode && g.Moves[n-1].Move.Strength == "*" {
		return fmt.Errorf("pdn: cannot write '*' strength on the last move: %w", ErrInvalidMove)
	}
	return checkNodes(g.Moves, 0)
}

func checkNodes(ns []Node, depth int) error {
	if depth > DefaultMaxDepth {
		return fmt.Errorf("pdn: cannot write variations: %w", ErrTooDeep)
	}
	for i := range ns {
		n := &ns[i]
		switch n.Kind {
		case MoveNode:
			if err := checkMove(n.Move); err != nil {
				return err
			}
		case CommentNode:
			if strings.IndexByte(n.Text, '}') >= 0 {
				return fmt.Errorf("pdn: cannot write comment containing '}': %w", ErrUnexpectedToken)
			}
		case SetupNode:
			if strings.ContainsAny(n.Text, "/\r\n") {
				return fmt.Errorf("pdn: cannot write setup command %q: %w", n.Text, ErrUnexpectedToken)
			}
		case NAGNode:
			if n.NAG < 0 || n.NAG > 999999999 {
				return fmt.Errorf("pdn: cannot write NAG %d: %w", n.NAG, ErrUnexpectedToken)
			}
		case VariationNode:
			if err := checkNodes(n.Variation, depth+1); err != nil {
				return err
			}
		default:
			return fmt.Errorf("pdn: cannot write node of kind %d: %w", n.Kind, ErrUnexpectedToken)
		}
	}
	return nil
}

func checkMove(m *Move) error {
	if m == nil {
		return fmt.Errorf("pdn: cannot write nil move: %w", ErrInvalidMove)
	}
	bad := func(why string) error {
		return fmt.Errorf("pdn: cannot write move %q: %s: %w", m.Text, why, ErrInvalidMove)
	}
	if m.Number < 0 {
		return bad("negative move number")
	}
	if m.Strength != "" && !validStrength(m.Strength) {
		return bad("bad move strength")
	}
	if len(m.Squares) == 0 {
		return nil // placeholder
	}
	if len(m.Squares) == 1 {
		return bad("one square")
	}
	alg := m.Squares[0].IsAlgebraic()
	for _, q := range m.Squares {
		if q == 0 || q.IsAlgebraic() != alg || (!alg && int(q) > MaxSquareNumber) {
			return bad("bad square")
		}
		if alg && (q.Rank() < 1 || q.File() == 'x') {
			return bad("bad square")
		}
	}
	switch m.Sep {
	case '-', 'x', ':':
	case 0:
		if !alg || len(m.Squares) != 2 {
			return bad("no separator")
		}
	default:
		return bad("bad separator")
	}
	return nil
}

func validStrength(s string) bool {
	if s == "*" {
		return true
	}
	in := s
	if len(s) >= 3 && s[0] == '(' && s[len(s)-1] == ')' {
		in = s[1 : len(s)-1]
	}
	if in == "" {
		return false
	}
	for i := 0; i < len(in); i++ {
		if in[i] != '!' && in[i] != '?' {
			return false
		}
	}
	return true
}
