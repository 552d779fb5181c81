package board

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidFEN is the sentinel every FEN error unwraps to.
var ErrInvalidFEN = errors.New("invalid FEN")

// FENError is a FEN that cannot be read; Token is the offending part.
type FENError struct {
	FEN   string
	Token string
	Msg   string
}

// Error describes the FEN, the offending token and the problem.
func (e *FENError) Error() string {
	if e.Token == "" {
		return fmt.Sprintf("engine: FEN %q: %s", e.FEN, e.Msg)
	}
	return fmt.Sprintf("engine: FEN %q: %q: %s", e.FEN, e.Token, e.Msg)
}

// Unwrap returns ErrInvalidFEN.
func (e *FENError) Unwrap() error { return ErrInvalidFEN }

// ParseFEN reads a PDN FEN in any of the forms real files use: "W:W31-50:B1-20", squares one
// by one or as ranges, kings marked K, the colour blocks in either order, a trailing ".",
// clock suffixes such as ":H0:F1" (ignored), and algebraic squares ("Wa1,c1") on boards
// that use them. Pieces are checked: a square is known and holds one piece, and no man
// stands on the row where it would have been crowned. As PDN 3.0's grammar says, a FEN has
// at least one colour block, which may be empty ("W:W:B1,2"); "W", "W:" and "W::" are
// errors, not an empty board. Empty fields (a trailing ':') are skipped.
func (v *Variant) ParseFEN(fen string) (Position, error) {
	s := strings.TrimSpace(fen)
	s = strings.Trim(s, `"`)
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	bad := func(tok, format string, args ...any) (Position, error) {
		return Position{}, &FENError{FEN: fen, Token: tok, Msg: fmt.Sprintf(format, args...)}
	}
	fields := strings.Split(s, ":")
	side := strings.TrimSpace(fields[0])
	var p Position
	switch strings.ToUpper(side) {
	case "W":
		p.Side = White
	case "B":
		p.Side = Black
	default:
		return bad(side, "side to move must be W or B")
	}
	seen := [2]bool{}
	for _, f := range fields[1:] {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var c Color
		switch f[0] {
		case 'W', 'w':
			c = White
		case 'B', 'b':
			c = Black
		case 'H', 'h', 'F', 'f': // half-move clock, move number: not part of the position
			if _, err := strconv.Atoi(f[1:]); err == nil {
				continue
			}
			return bad(f, "unknown field")
		default:
			return bad(f, "unknown field (want W or B followed by squares)")
		}
		if seen[c] {
			return bad(f, "second %s block", c)
		}
		seen[c] = true
		for _, item := range strings.Split(f[1:], ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			king := false
			if item[0] == 'K' || item[0] == 'k' {
				king = true
				item = strings.TrimSpace(item[1:])
			}
			lo, hi := item, item
			if i := strings.IndexByte(item, '-'); i > 0 {
				lo, hi = item[:i], strings.TrimPrefix(strings.TrimPrefix(item[i+1:], "K"), "k")
			}
			a, problem := v.parseSquare(lo)
			if problem != "" {
				return bad(item, "%s", problem)
			}
			b, problem := v.parseSquare(hi)
			if problem != "" {
				return bad(item, "%s", problem)
			}
			if b < a {
				return bad(item, "range runs backwards")
			}
			for sq := a; sq <= b; sq++ {
				i := v.idx[sq]
				if _, _, ok := p.At(i); ok {
					return bad(v.SquareName(sq), "two pieces on one square")
				}
				if !king && v.onPromotionRow(c, sq) {
					return bad(v.SquareName(sq), "a %s man on its own crowning row", c)
				}
				p.put(i, c, king)
			}
		}
	}
	if !seen[White] && !seen[Black] {
		// PDN 3.0: Turn ':' Color Squares (':' Color Squares)*, so at least one list
		return bad("", "no piece list (want W or B followed by squares, as in W:W31-50:B1-20)")
	}
	p.Hash = p.ComputeHash()
	return p, nil
}

// FEN writes p in the canonical form: side to move, then White's and Black's pieces square
// by square, kings marked K, in the variant's notation: by increasing number, or for
// russian and brazilian as algebraic squares by file and rank.
func (v *Variant) FEN(p Position) string {
	var b strings.Builder
	if p.Side == White {
		b.WriteByte('W')
	} else {
		b.WriteByte('B')
	}
	for c := White; c <= Black; c++ {
		b.WriteString(":")
		b.WriteString([]string{"W", "B"}[c])
		first := true
		for _, sq := range v.order {
			pc, king, ok := p.At(v.idx[sq])
			if !ok || pc != c {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			if king {
				b.WriteByte('K')
			}
			b.WriteString(v.SquareName(sq))
		}
	}
	return b.String()
}

// fenOrder lists the squares in the order FEN writes them: by number, or on algebraic
// boards by file and then rank (a1, a3, b2, ...).
func (v *Variant) fenOrder() []Square {
	order := make([]Square, 0, v.squares)
	if !v.Algebraic {
		for sq := Square(1); int(sq) <= v.squares; sq++ {
			order = append(order, sq)
		}
		return order
	}
	for f := 0; f < v.Width; f++ {
		for r := 1; r <= v.Height; r++ {
			if sq := v.squareAt(f, r); sq != 0 {
				order = append(order, sq)
			}
		}
	}
	return order
}

// ParseSquare reads a square as a PDN number (zero padding allowed) or, on any board, as
// algebraic coordinates ("c3").
func (v *Variant) ParseSquare(s string) (Square, error) {
	sq, problem := v.parseSquare(s)
	if problem != "" {
		return 0, errors.New("engine: " + problem)
	}
	return sq, nil
}

// parseSquare is ParseSquare with the problem as text, for callers that add context.
func (v *Variant) parseSquare(s string) (Square, string) {
	if s == "" {
		return 0, "empty square"
	}
	if s[0] >= '0' && s[0] <= '9' {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > v.squares {
			return 0, fmt.Sprintf("unknown square %q (1-%d)", s, v.squares)
		}
		return Square(n), ""
	}
	if c := s[0] | 0x20; c >= 'a' && c <= 'z' && len(s) >= 2 {
		if rank, err := strconv.Atoi(s[1:]); err == nil {
			if sq := v.squareAt(int(c-'a'), rank); sq != 0 {
				return sq, ""
			}
		}
	}
	return 0, fmt.Sprintf("unknown square %q", s)
}

// AlgebraicName returns the coordinates of s ("c3") on any board, whatever its notation.
func (v *Variant) AlgebraicName(s Square) string {
	f, r := v.coords(s)
	return string(rune('a'+f)) + strconv.Itoa(r)
}

// SquareName returns the name of s in the variant's notation: "c3" on algebraic boards,
// the PDN number otherwise.
func (v *Variant) SquareName(s Square) string {
	if v.Algebraic {
		return v.AlgebraicName(s)
	}
	return strconv.Itoa(int(s))
}
