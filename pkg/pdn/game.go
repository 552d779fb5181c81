package pdn

import (
	"fmt"
	"strconv"
	"strings"
)

// Game is one PDN game as written: nothing is interpreted beyond syntax.
// A game read by Reader can be written back by Writer and read again with
// the same content (positions and warnings aside).
type Game struct {
	// Tags holds the tag pairs in file order. Duplicates are kept.
	Tags []Tag `json:"tags,omitempty"`
	// Moves is the movetext: moves, comments, NAGs, setup commands and
	// variations in file order.
	Moves []Node `json:"moves,omitempty"`
	// Result is the token that ended the game: "*" or a result such as
	// "1-0", "2-0", "1-1", "1/2-1/2", "0-0". A game that had no terminator
	// gets "*" and a WarnMissingTerminator warning.
	Result string `json:"result"`
	// Warnings lists the leniencies used to read this game.
	Warnings []Warning `json:"warnings,omitempty"`
	// Pos is where the game starts in the input.
	Pos Pos `json:"pos,omitzero"`

	// read is what a game replayed while read keeps of the main line it
	// does not hold (see Reader.SetReplayer), nil for the others.
	read *readInfo
}

// Tag is one tag pair. Value is unescaped and UTF-8.
type Tag struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Pos is where the tag's '[' is in the input (zero when unknown).
	Pos Pos `json:"pos,omitzero"`
}

// NodeKind says what a Node holds.
type NodeKind uint8

// Node kinds.
const (
	MoveNode      NodeKind = iota + 1 // a move (Node.Move)
	CommentNode                       // a {comment} (Node.Text)
	NAGNode                           // a $n annotation glyph (Node.NAG)
	VariationNode                     // a (variation) (Node.Variation)
	SetupNode                         // a /setup/ command (Node.Text, without the slashes)
)

var nodeKindNames = [...]string{"", "move", "comment", "nag", "variation", "setup"}

// String returns "move", "comment", "nag", "variation" or "setup".
func (k NodeKind) String() string {
	if int(k) < len(nodeKindNames) && k > 0 {
		return nodeKindNames[k]
	}
	return "NodeKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText writes the kind's name ("move", "comment", ...).
func (k NodeKind) MarshalText() ([]byte, error) {
	if k == 0 || int(k) >= len(nodeKindNames) {
		return nil, fmt.Errorf("pdn: invalid node kind %d", k)
	}
	return []byte(nodeKindNames[k]), nil
}

// UnmarshalText reads a name written by MarshalText.
func (k *NodeKind) UnmarshalText(b []byte) error {
	for i := 1; i < len(nodeKindNames); i++ {
		if nodeKindNames[i] == string(b) {
			*k = NodeKind(i)
			return nil
		}
	}
	return fmt.Errorf("pdn: unknown node kind %q", b)
}

// Node is one element of movetext. Exactly the field that belongs to Kind
// is set.
type Node struct {
	Kind      NodeKind `json:"kind"`
	NAG       int32    `json:"nag,omitempty"`
	Move      *Move    `json:"move,omitempty"`
	Text      string   `json:"text,omitempty"`
	Variation []Node   `json:"variation,omitempty"`
	Pos       Pos      `json:"pos,omitzero"`
}

// Move is one move as written, without any check of legality.
type Move struct {
	// Number is the move number written before the move, 0 if none.
	Number int `json:"number,omitempty"`
	// Text is the move in canonical spelling: squares without leading
	// zeros, lower-case letters, and the separator Sep. For a "..."
	// placeholder it is "...".
	Text string `json:"text"`
	// Squares lists the squares as written: from, [intermediate...], to.
	// It is empty for a placeholder.
	Squares []Square `json:"squares,omitempty"`
	// Strength is the move-strength mark written after the move, such as
	// "!", "?!", "(?)".
	Strength string `json:"strength,omitempty"`
	// Continuation is true when the number was written "N..." (the move
	// is the second player's).
	Continuation bool `json:"continuation,omitempty"`
	// Sep is the separator used: '-' (move), 'x' or ':' (capture), or 0
	// for an algebraic move written without one ("a3b4").
	Sep Sep `json:"sep"`
}

// IsCapture reports whether the move was written as a capture.
func (m *Move) IsCapture() bool { return m.Sep == 'x' || m.Sep == ':' }

// IsPlaceholder reports whether the move is the "..." placeholder.
func (m *Move) IsPlaceholder() bool { return len(m.Squares) == 0 }

// From returns the first square, or the zero Square for a placeholder.
func (m *Move) From() Square {
	if len(m.Squares) == 0 {
		return 0
	}
	return m.Squares[0]
}

// To returns the last square, or the zero Square for a placeholder.
func (m *Move) To() Square {
	if len(m.Squares) == 0 {
		return 0
	}
	return m.Squares[len(m.Squares)-1]
}

// Tag returns the value of the first tag with the given name.
func (g *Game) Tag(name string) (string, bool) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			return g.Tags[i].Value, true
		}
	}
	return "", false
}

// Get is Tag without the ok result: it returns "" for a missing tag.
func (g *Game) Get(name string) string {
	v, _ := g.Tag(name)
	return v
}

// Set sets the first tag with the given name, or appends it.
func (g *Game) Set(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{Name: name, Value: value})
}

// Mainline returns the moves of the main line (variations excluded), in
// order, placeholders included.
func (g *Game) Mainline() []*Move {
	ms := make([]*Move, 0, len(g.Moves))
	for i := range g.Moves {
		if g.Moves[i].Kind == MoveNode {
			ms = append(ms, g.Moves[i].Move)
		}
	}
	return ms
}

// Plies returns the number of real (non-placeholder) moves in the main line.
func (g *Game) Plies() int {
	if g.read != nil {
		return g.read.plies
	}
	n := 0
	for i := range g.Moves {
		if g.Moves[i].Kind == MoveNode && !g.Moves[i].Move.IsPlaceholder() {
			n++
		}
	}
	return n
}

// GameResult returns the game's result: the terminator if it is a result,
// else the Result tag if it holds a known result, else "*".
func (g *Game) GameResult() string {
	if g.Result != "" && g.Result != "*" {
		return g.Result
	}
	if v, ok := g.Tag("Result"); ok {
		v = strings.TrimSpace(v)
		if IsResult(v) {
			return v
		}
	}
	return "*"
}

// IsResult reports whether s is one of the result tokens of PDN 3.0:
// 1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 (and not "*").
func IsResult(s string) bool {
	switch s {
	case "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0":
		return true
	}
	return false
}

// Sep is a move separator: '-', 'x', ':' or 0.
type Sep byte

// MarshalText writes the separator as a one-character string ("" for 0).
func (s Sep) MarshalText() ([]byte, error) {
	if s == 0 {
		return []byte{}, nil
	}
	return []byte{byte(s)}, nil
}

// UnmarshalText reads a separator written by MarshalText.
func (s *Sep) UnmarshalText(b []byte) error {
	switch string(b) {
	case "":
		*s = 0
	case "-", "x", ":":
		*s = Sep(b[0])
	default:
		return &SyntaxError{Err: ErrInvalidMove}
	}
	return nil
}
