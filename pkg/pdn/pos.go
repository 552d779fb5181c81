package pdn

import "fmt"

// Pos is a position in the input. Offset is the 0-based byte offset, Line
// and Column are 1-based; Column counts bytes, and a tab counts as one.
// The zero Pos means "no position" (for example in a game read from JSON
// without positions).
type Pos struct {
	Offset int64 `json:"offset"`
	Line   int   `json:"line"`
	Column int   `json:"column"`
}

// IsValid reports whether p is a real position (Line > 0).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as "line:column".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }
