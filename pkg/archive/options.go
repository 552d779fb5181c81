package archive

import (
	"fmt"
	"strings"
)

// Notation is how a replayed move is written (ReplayCopy.Notation,
// PositionWriter.Notation).
type Notation uint8

// Notations. The flag values are their String forms.
const (
	NotationKeep      Notation = iota // as written (the variant's own, for a move Captures rewrites)
	NotationNumeric                   // square numbers: 32-28, 28x19
	NotationAlgebraic                 // coordinates: c3-d4, c3:e5 (russian, brazilian) or c3xe5
)

var notationNames = []string{"", "numeric", "algebraic"}

// ParseNotation returns the Notation named s: "numeric", "algebraic", or
// "" for NotationKeep.
func ParseNotation(s string) (Notation, error) {
	return parseName[Notation]("notation", s, notationNames)
}

// String returns the name ParseNotation takes ("" for NotationKeep).
func (n Notation) String() string { return notationNames[n] }

// Captures is how a replayed capture is written (ReplayCopy.Captures,
// PositionWriter.Captures).
type Captures uint8

// Capture styles. The flag values are their String forms.
const (
	CapturesKeep  Captures = iota // as written
	CapturesShort                 // from and to squares, the whole path only when that is ambiguous
	CapturesFull                  // every landing square: 28x19x10
)

var capturesNames = []string{"", "short", "full"}

// ParseCaptures returns the Captures named s: "short", "full", or "" for
// CapturesKeep.
func ParseCaptures(s string) (Captures, error) {
	return parseName[Captures]("captures", s, capturesNames)
}

// String returns the name ParseCaptures takes ("" for CapturesKeep).
func (c Captures) String() string { return capturesNames[c] }

// Format is a format Copy writes games in: PDN and JSON lines (pdn.Writer,
// pdn.JSONWriter), or the positions of the replayed games (PositionWriter).
type Format uint8

// Formats. The flag values are their String forms.
const (
	FormatPDN  Format = iota // PDN 3.0
	FormatJSON               // JSON lines
	FormatCSV                // one CSV row per position, with a header
	FormatFEN                // one line per position, the FEN first
)

var formatNames = []string{"pdn", "json", "csv", "fen"}

// ParseFormat returns the Format named s: "pdn", "json", "csv" or "fen".
func ParseFormat(s string) (Format, error) { return parseName[Format]("format", s, formatNames) }

// String returns the name ParseFormat takes.
func (f Format) String() string { return formatNames[f] }

// parseName returns the value whose name is s; the error names what is
// parsed and lists the names, without the "" of a default value.
func parseName[T ~uint8](what, s string, names []string) (T, error) {
	for i, n := range names {
		if s == n {
			return T(i), nil
		}
	}
	var valid []string
	for _, n := range names {
		if n != "" {
			valid = append(valid, n)
		}
	}
	list := strings.Join(valid[:len(valid)-1], ", ") + " or " + valid[len(valid)-1]
	return 0, fmt.Errorf("archive: %s %q: want %s", what, s, list)
}
