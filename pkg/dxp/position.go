package dxp

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// squares is the number of squares DXP numbers: fields "01" to "50" of the 10x10 board
// (emove.htm).
const squares = 50

// international is the variant whose board numbering FormatPosition and the defaults use.
var international = engine.MustLookup("international")

// variantOf returns v, or international for nil, and checks that its board is DXP's.
func variantOf(v *engine.Variant) (*engine.Variant, error) {
	if v == nil {
		return international, nil
	}
	if v.Squares() != squares {
		return nil, fmt.Errorf("dxp: variant %s has %d squares; DXP numbers the %d of the 10x10 board",
			v.Name, v.Squares(), squares)
	}
	return v, nil
}

// validPosition reports whether s is a colour to move ('W' or 'Z') and 50 squares of
// 'e' (empty), 'w', 'z' (white and black men), 'W', 'Z' (kings), as GAMEREQ writes a
// position (egamereq.htm).
func validPosition(s string) bool {
	if len(s) != 1+squares || s[0] != 'W' && s[0] != 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !strings.ContainsRune("ewzWZ", rune(s[i])) {
			return false
		}
	}
	return true
}

// FormatPosition writes p as GAMEREQ does: the colour to move ('W' or 'Z'), then squares
// 1 to 50 as 'e' (empty), 'w' or 'z' (a white or black man), 'W' or 'Z' (a king). p is a
// position of the 50-square board numbered as in international draughts.
func FormatPosition(p *engine.Position) string {
	b := make([]byte, 1, 1+squares)
	b[0] = colorByte(p.Side)
	for s := engine.Square(1); s <= squares; s++ {
		i, _ := international.Index(s)
		c, king, ok := p.At(i)
		switch {
		case !ok:
			b = append(b, 'e')
		case king:
			b = append(b, colorByte(c))
		default:
			b = append(b, colorByte(c)+'a'-'A') // 'w' or 'z'
		}
	}
	return string(b)
}

// ParsePosition reads a position written as FormatPosition writes it, on v's board (which
// must have 50 squares).
func ParsePosition(v *engine.Variant, s string) (engine.Position, error) {
	v, err := variantOf(v)
	if err != nil {
		return engine.Position{}, err
	}
	if !validPosition(s) {
		return engine.Position{}, fmt.Errorf("dxp: position %q is not W or Z and 50 of e, w, z, W, Z", s)
	}
	var fen [2][]string // the FEN's square lists for White and Black
	for i := 1; i < len(s); i++ {
		sq := strconv.Itoa(i)
		switch s[i] {
		case 'w':
			fen[engine.White] = append(fen[engine.White], sq)
		case 'W':
			fen[engine.White] = append(fen[engine.White], "K"+sq)
		case 'z':
			fen[engine.Black] = append(fen[engine.Black], sq)
		case 'Z':
			fen[engine.Black] = append(fen[engine.Black], "K"+sq)
		}
	}
	side := "W"
	if s[0] == 'Z' {
		side = "B"
	}
	p, err := v.ParseFEN(side + ":W" + strings.Join(fen[engine.White], ",") + ":B" + strings.Join(fen[engine.Black], ","))
	if fe := (*engine.FENError)(nil); errors.As(err, &fe) {
		// a well-formed position fails only for a man on its crowning row: name the square
		return engine.Position{}, &PositionError{Position: s, Square: fe.Token, Msg: fe.Msg}
	}
	if err != nil {
		return engine.Position{}, fmt.Errorf("dxp: position %q: %w", s, err)
	}
	return p, nil
}

// PositionError is a GAMEREQ position the rules do not allow (a man on its crowning row).
// It wraps engine.ErrInvalidFEN.
type PositionError struct {
	Position string // as in GAMEREQ
	Square   string // the offending square
	Msg      string
}

// Error describes the position and the problem.
func (e *PositionError) Error() string {
	return fmt.Sprintf("dxp: position %q: %s", e.Position, e.detail())
}

// detail is the problem without the position: "square 1: a white man on its crowning row".
func (e *PositionError) detail() string { return "square " + e.Square + ": " + e.Msg }

// Unwrap returns engine.ErrInvalidFEN.
func (e *PositionError) Unwrap() error { return engine.ErrInvalidFEN }

// MoveOf returns the legal move of p that m describes: the one with m's from and to
// squares and captured pieces. A MOVE that leaves out the captured pieces of a capture is
// taken when one legal move fits its squares. The error is an *Error wrapping ErrIllegalMove
// and an *engine.MoveError (engine.ErrIllegalMove, or engine.ErrAmbiguousMove when several
// moves fit).
func MoveOf(v *engine.Variant, p *engine.Position, m Move) (engine.Move, error) {
	illegal := func(kind error, detail string) (engine.Move, error) {
		return engine.Move{}, &Error{Kind: ErrIllegalMove, Text: string(Format(m)),
			Err: &engine.MoveError{Text: moveText(m), Err: kind, Detail: detail}}
	}
	v, err := variantOf(v)
	if err != nil {
		return engine.Move{}, err
	}
	from, _ := v.Index(m.From)
	to, _ := v.Index(m.To)
	var captured []engine.Index
	for _, s := range m.Captured {
		i, _ := v.Index(s)
		if slices.Contains(captured, i) {
			return illegal(engine.ErrIllegalMove, fmt.Sprintf("square %d captured twice", s))
		}
		captured = append(captured, i)
	}
	slices.Sort(captured)
	var fits []engine.Move
	for _, lm := range v.Generate(nil, p) {
		if lm.From != from || lm.To != to {
			continue
		}
		if slices.Equal(slices.Collect(lm.Captured()), captured) {
			return lm, nil
		}
		if len(m.Captured) == 0 {
			fits = append(fits, lm)
		}
	}
	switch len(fits) {
	case 0:
		return illegal(engine.ErrIllegalMove, "")
	case 1:
		return fits[0], nil
	}
	return illegal(engine.ErrAmbiguousMove, fmt.Sprintf("%d captures fit", len(fits)))
}

// moveText writes m for error messages: "32-28", or "28x17 (captured 22, 23)".
func moveText(m Move) string {
	if len(m.Captured) == 0 {
		return fmt.Sprintf("%d-%d", m.From, m.To)
	}
	caps := make([]string, len(m.Captured))
	for i, s := range m.Captured {
		caps[i] = strconv.Itoa(int(s))
	}
	return fmt.Sprintf("%dx%d (captured %s)", m.From, m.To, strings.Join(caps, ", "))
}

// NewMove returns the MOVE message of m, a legal move of p, played in elapsed (rounded to
// whole seconds, at most 9999). The captured squares are listed in increasing order. It
// panics if v's board has not 50 squares (a programming error).
func NewMove(v *engine.Variant, p *engine.Position, m engine.Move, elapsed time.Duration) Move {
	v, err := variantOf(v)
	if err != nil {
		panic(err)
	}
	seconds := min(max(int((elapsed+time.Second/2)/time.Second), 0), 9999)
	dm := Move{Seconds: seconds, From: v.Square(m.From), To: v.Square(m.To)}
	for i := range m.Captured() {
		dm.Captured = append(dm.Captured, v.Square(i))
	}
	slices.Sort(dm.Captured)
	return dm
}
