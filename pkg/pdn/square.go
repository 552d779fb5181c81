package pdn

import (
	"fmt"
	"strconv"
)

// Square is a square as written in movetext: a number (1-based PDN
// numbering) or an algebraic coordinate such as c3. The syntax layer does
// not know the board, so it does not convert one form into the other.
// The zero Square is "no square".
type Square uint16

const algebraicBit = 0x8000

// MaxSquareNumber is the largest square number the reader accepts.
const MaxSquareNumber = 99

// NumSquare returns the numeric square n (1 <= n <= MaxSquareNumber).
// It panics for other n.
func NumSquare(n int) Square {
	if n < 1 || n > MaxSquareNumber {
		panic(fmt.Sprintf("pdn: NumSquare(%d) out of range", n))
	}
	return Square(n)
}

// AlgSquare returns the algebraic square with file 'a'..'z' and rank
// 1..99. It panics for other values.
func AlgSquare(file byte, rank int) Square {
	if file < 'a' || file > 'z' || rank < 1 || rank > 99 {
		panic(fmt.Sprintf("pdn: AlgSquare(%q, %d) out of range", file, rank))
	}
	return Square(algebraicBit | uint16(file-'a')<<8 | uint16(rank))
}

// IsAlgebraic reports whether s is written as file and rank.
func (s Square) IsAlgebraic() bool { return s&algebraicBit != 0 }

// Num returns the square number, or 0 for an algebraic square.
func (s Square) Num() int {
	if s.IsAlgebraic() {
		return 0
	}
	return int(s)
}

// File returns the file letter 'a'.., or 0 for a numeric square.
func (s Square) File() byte {
	if !s.IsAlgebraic() {
		return 0
	}
	return 'a' + byte(s>>8&0x1f)
}

// Rank returns the rank 1.., or 0 for a numeric square.
func (s Square) Rank() int {
	if !s.IsAlgebraic() {
		return 0
	}
	return int(s & 0xff)
}

var numSquareText [MaxSquareNumber + 1]string

func init() {
	for i := 1; i <= MaxSquareNumber; i++ {
		numSquareText[i] = strconv.Itoa(i)
	}
}

// String returns the canonical spelling: "32" or "c3".
func (s Square) String() string {
	if s == 0 {
		return ""
	}
	if !s.IsAlgebraic() {
		if int(s) <= MaxSquareNumber {
			return numSquareText[s]
		}
		return strconv.Itoa(int(s))
	}
	return string(s.appendTo(nil))
}

// appendSquares appends the squares joined by sep (nothing when sep is 0).
func appendSquares(b []byte, sq []Square, sep Sep) []byte {
	for i, q := range sq {
		if i > 0 && sep != 0 {
			b = append(b, byte(sep))
		}
		b = q.appendTo(b)
	}
	return b
}

func (s Square) appendTo(b []byte) []byte {
	if s.IsAlgebraic() {
		b = append(b, s.File())
		return strconv.AppendInt(b, int64(s.Rank()), 10)
	}
	if s < 10 {
		return append(b, '0'+byte(s))
	}
	if s < 100 {
		return append(b, '0'+byte(s/10), '0'+byte(s%10))
	}
	return strconv.AppendInt(b, int64(s), 10)
}

// ParseSquare parses "32", "07" or "c3" (case-insensitive letters).
func ParseSquare(t string) (Square, error) {
	if t == "" {
		return 0, fmt.Errorf("pdn: invalid square %q", t)
	}
	c := t[0] | 0x20
	if c >= 'a' && c <= 'z' {
		r, err := strconv.Atoi(t[1:])
		if err != nil || r < 1 || r > 99 || t[1] == '0' {
			return 0, fmt.Errorf("pdn: invalid square %q", t)
		}
		return AlgSquare(c, r), nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 1 || n > MaxSquareNumber || t[0] == '+' {
		return 0, fmt.Errorf("pdn: invalid square %q", t)
	}
	return Square(n), nil
}

// MarshalJSON writes a numeric square as a number and an algebraic one as
// a string.
func (s Square) MarshalJSON() ([]byte, error) {
	if s.IsAlgebraic() {
		return append(s.appendTo([]byte{'"'}), '"'), nil
	}
	return strconv.AppendInt(nil, int64(s), 10), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *Square) UnmarshalJSON(b []byte) error {
	t := string(b)
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		t = t[1 : len(t)-1]
	}
	q, err := ParseSquare(t)
	if err != nil {
		return err
	}
	*s = q
	return nil
}
