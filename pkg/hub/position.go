package hub

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// Positions. "The position format is one character for the side to move ('W' or 'B') + one
// character per square in standard order, so 51 in total.  For each square: 'w': white
// man, 'b': black man, 'W': white king, 'B': black king, 'e': empty" (protocol.txt, "1)
// position"). Hub was written for 10x10 boards; rafle writes every board the same way, one
// character per playable square in PDN square-number order: 33 characters on 8x8, 51 on
// 10x10, 73 on 12x12.
//
// The letters are colours, not turns: 'W' and 'w' are rafle's White, 'B' and 'b' rafle's
// Black, whatever the variant's first mover. In english, where Black moves first, the start
// position is "B" followed by twelve 'b', eight 'e' and twelve 'w'.

// FormatPosition writes p in Hub's position format.
func FormatPosition(v *engine.Variant, p *engine.Position) string {
	var b strings.Builder
	b.Grow(1 + v.Squares())
	if p.Side == engine.White {
		b.WriteByte('W')
	} else {
		b.WriteByte('B')
	}
	for sq := engine.Square(1); int(sq) <= v.Squares(); sq++ {
		i, _ := v.Index(sq)
		c, king, ok := p.At(i)
		switch {
		case !ok:
			b.WriteByte('e')
		case c == engine.White && king:
			b.WriteByte('W')
		case c == engine.White:
			b.WriteByte('w')
		case king:
			b.WriteByte('B')
		default:
			b.WriteByte('b')
		}
	}
	return b.String()
}

// ParsePosition reads a position in Hub's format for v. The side to move may also be given
// in lower case, as Scan 2.0 (Hub-1) writes it. Pieces are checked as in a FEN: no man
// stands on the row where it would have been crowned.
func ParsePosition(v *engine.Variant, s string) (engine.Position, error) {
	bad := func(format string, args ...any) (engine.Position, error) {
		return engine.Position{}, fmt.Errorf("hub: position %q: %s", s, fmt.Sprintf(format, args...))
	}
	if want := 1 + v.Squares(); len(s) != want {
		return bad("%d characters, want %d (side to move and %d squares of %s)", len(s), want, v.Squares(), v.Name)
	}
	var fen strings.Builder
	switch s[0] {
	case 'W', 'w':
		fen.WriteString("W")
	case 'B', 'b':
		fen.WriteString("B")
	default:
		return bad("side to move %q, want W or B", s[0])
	}
	var white, black []string
	for k := 1; k < len(s); k++ {
		sq := strconv.Itoa(k)
		switch s[k] {
		case 'e':
		case 'w':
			white = append(white, sq)
		case 'W':
			white = append(white, "K"+sq)
		case 'b':
			black = append(black, sq)
		case 'B':
			black = append(black, "K"+sq)
		default:
			return bad("square %d: %q, want one of w b W B e", k, s[k])
		}
	}
	fen.WriteString(":W" + strings.Join(white, ",") + ":B" + strings.Join(black, ","))
	p, err := v.ParseFEN(fen.String())
	if err != nil {
		var fe *engine.FENError
		if errors.As(err, &fe) {
			return bad("square %s: %s", fe.Token, fe.Msg)
		}
		return bad("%v", err)
	}
	return p, nil
}

// Moves. "The move format is the same as standard notation for quiet moves, for example
// "32-28".  For captures, all the captured pieces (but not the pivots) are included in any
// order like this: from x to x captured x captured ... without any spaces.  For example
// "28x19x23"" (protocol.txt, "1) position"). Squares are PDN numbers on every board, also
// where rafle writes algebraic squares (russian, brazilian). Scan 2.0 and 3.x write the
// captured squares in increasing order, and read a capture only with all of them (a move
// without them is "illegal move" to Scan 3.1): FormatMove writes them all, in that order.

// FormatMove writes m, a legal move of p, in Hub notation.
func FormatMove(v *engine.Variant, p *engine.Position, m engine.Move) string {
	from, to := v.Square(m.From), v.Square(m.To)
	if !m.IsCapture() {
		return strconv.Itoa(int(from)) + "-" + strconv.Itoa(int(to))
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(from)) + "x" + strconv.Itoa(int(to)))
	for _, sq := range captured(v, p, m) {
		b.WriteString("x" + strconv.Itoa(int(sq)))
	}
	return b.String()
}

// captured returns the squares of the pieces m takes in p, in increasing order: those
// holding a piece of the side not to move before m and none after it.
func captured(v *engine.Variant, p *engine.Position, m engine.Move) []engine.Square {
	if !m.IsCapture() {
		return nil
	}
	q := p.Play(m)
	them := p.Side.Other()
	var out []engine.Square
	for sq := engine.Square(1); int(sq) <= v.Squares(); sq++ {
		i, _ := v.Index(sq)
		if c, _, ok := p.At(i); !ok || c != them {
			continue
		}
		if c, _, ok := q.At(i); !ok || c != them {
			out = append(out, sq)
		}
	}
	return out
}

// ParseMove resolves a move in Hub notation in p: "from-to" for a quiet move, "from x to x
// captured x ..." for a capture, with the captured squares in any order. It is lenient
// where Scan is: the separator ('-' or 'x') does not decide between a quiet move and a
// capture, and a capture may list only some of its captured pieces (or none) as long as
// one legal move fits. A text that is not a move gives an error wrapping
// engine.ErrInvalidMove; no legal move that fits, one wrapping ErrIllegalMove; several, one
// wrapping engine.ErrAmbiguousMove (which says "ambiguous") with the candidates written in
// full. The errors are *engine.MoveError values.
func ParseMove(v *engine.Variant, p *engine.Position, text string) (engine.Move, error) {
	fail := func(err error, detail string, cands []string) (engine.Move, error) {
		return engine.Move{}, &engine.MoveError{Text: text, Err: err, Detail: detail, Candidates: cands}
	}
	fields := strings.FieldsFunc(strings.TrimSpace(text), func(r rune) bool { return r == '-' || r == 'x' || r == 'X' })
	if len(fields) < 2 {
		return fail(engine.ErrInvalidMove, "want from-to or from x to x captured ...", nil)
	}
	squares := make([]engine.Square, len(fields))
	for k, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > v.Squares() || f[0] == '+' || f[0] == '-' {
			return fail(engine.ErrInvalidMove, fmt.Sprintf("%q is not a square (1-%d)", f, v.Squares()), nil)
		}
		squares[k] = engine.Square(n)
	}
	from, _ := v.Index(squares[0])
	to, _ := v.Index(squares[1])
	caps := squares[2:]
	var found, exact []engine.Move
	for _, m := range v.Generate(nil, p) {
		if m.From != from || m.To != to {
			continue
		}
		took := captured(v, p, m)
		if !containsAll(took, caps) {
			continue
		}
		found = append(found, m)
		if len(caps) > 0 && len(took) == len(caps) {
			exact = append(exact, m)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(exact) == 1:
		return exact[0], nil
	case len(found) == 0:
		return fail(ErrIllegalMove, "", nil)
	}
	cands := make([]string, len(found))
	for k, m := range found {
		cands[k] = FormatMove(v, p, m)
	}
	return fail(engine.ErrAmbiguousMove, "", cands)
}

// containsAll reports whether every square of sub is in set.
func containsAll(set, sub []engine.Square) bool {
	for _, s := range sub {
		if !slices.Contains(set, s) {
			return false
		}
	}
	return true
}

// Variant names. Scan 3.1 offers "variant" with the values "normal killer bt frisian
// losing" (protocol.txt, initialisation example; main.cpp, hub_loop) and also reads
// "breakthrough" for bt (var.cpp, update). rafle calls normal draughts "international";
// Scan's other names map to the names rafle gives (or will give) those variants.
var hubToRafle = map[string]string{
	"normal":       "international",
	"bt":           "breakthrough",
	"breakthrough": "breakthrough",
	"losing":       "antidraughts",
}

// VariantName returns the name Hub uses for v: "normal" for international, "bt" for
// breakthrough, "losing" for antidraughts, and rafle's own name for every other variant
// (frisian and killer are the same in both).
func VariantName(v *engine.Variant) string {
	switch v.Name {
	case "international":
		return "normal"
	case "breakthrough":
		return "bt"
	case "antidraughts":
		return "losing"
	}
	return v.Name
}

// LookupVariant returns the variant a Hub engine means by name: Scan's names (normal,
// killer, bt, frisian, losing) and, for the variants Scan does not play, rafle's names
// and aliases (engine.Lookup).
func LookupVariant(name string) (*engine.Variant, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	rafle, scan := hubToRafle[key]
	if !scan {
		rafle = key
	}
	v, err := engine.Lookup(rafle)
	if err != nil {
		if scan || key == "killer" {
			return nil, fmt.Errorf("hub: variant %q (rafle's %q) is not in rafle yet", name, rafle)
		}
		return nil, fmt.Errorf("hub: variant %q: %w", name, err)
	}
	return v, nil
}
