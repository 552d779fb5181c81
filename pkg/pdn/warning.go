package pdn

import "fmt"

// WarningKind classifies a leniency the reader applied.
type WarningKind uint8

// Warning kinds. Unless noted, strict mode (Reader.Strict) turns the warning
// into the game's error because the PDN 3.0 reading grammar rejects the
// construct. The kinds marked "note" are accepted in strict mode too.
const (
	WarnBOM               WarningKind = iota + 1 // note: UTF-8 byte order mark skipped
	WarnEncoding                                 // note: text converted from Latin-1 or CP1251
	WarnInvalidUTF8                              // note: invalid UTF-8 read as the fallback 8-bit encoding
	WarnLoneCR                                   // note: bare CR used as a line break
	WarnLiteralCR                                // the two characters `\r` (or `\n`) read as a line break
	WarnLineComment                              // ';' comment to end of line (PDN 1.0)
	WarnTagName                                  // tag name repaired: entities decoded, spaces or bad characters replaced
	WarnLocalizedTag                             // note: localised tag name mapped to the standard one
	WarnTagSyntax                                // tag without value or without ']' etc.
	WarnDuplicateTag                             // note: the same tag twice in one header
	WarnMissingTerminator                        // game not ended by '*' or a result
	WarnResultMismatch                           // note: terminator differs from the Result tag
	WarnEmptyGame                                // terminator with nothing before it
	WarnMoveSyntax                               // move repaired: upper case, 'X', mixed or odd separators, no separator
	WarnUnknownMove                              // '-' or '--' standing for an unknown move, dropped
	WarnMoveNumber                               // move number not followed by a move, or '..'
	WarnStrayToken                               // token the grammar does not allow here, skipped
	WarnStrayText                                // text outside braces kept as a comment
	WarnStrength                                 // move strength not after a move, or '*' glued to a move
	WarnUnbalanced                               // ')' without '(' dropped, or '(' closed at game end
	WarnNoTerminatorAtEnd                        // note: the last game of the input has no terminator
	WarnTagValue                                 // GameType value outside its syntax or with the wrong board size, empty FEN
	WarnTooMany                                  // note: more warnings than Reader keeps for one game; Text says how many were dropped
	numWarningKinds
)

var warningInfo = [numWarningKinds]struct {
	name   string
	strict bool // rejected in strict mode
	err    error
}{
	WarnBOM:               {"bom", false, ErrEncoding},
	WarnEncoding:          {"encoding", false, ErrEncoding},
	WarnInvalidUTF8:       {"invalid-utf8", false, ErrEncoding},
	WarnLoneCR:            {"lone-cr", false, ErrUnexpectedToken},
	WarnLiteralCR:         {"literal-cr", true, ErrUnexpectedToken},
	WarnLineComment:       {"line-comment", true, ErrUnexpectedToken},
	WarnTagName:           {"tag-name", true, ErrInvalidTag},
	WarnLocalizedTag:      {"localized-tag", false, ErrInvalidTag},
	WarnTagSyntax:         {"tag-syntax", true, ErrInvalidTag},
	WarnDuplicateTag:      {"duplicate-tag", false, ErrInvalidTag},
	WarnMissingTerminator: {"missing-terminator", true, ErrMissingTerminator},
	WarnResultMismatch:    {"result-mismatch", false, ErrUnexpectedToken},
	WarnEmptyGame:         {"empty-game", true, ErrEmptyGame},
	WarnMoveSyntax:        {"move-syntax", true, ErrInvalidMove},
	WarnUnknownMove:       {"unknown-move", true, ErrInvalidMove},
	WarnMoveNumber:        {"move-number", true, ErrUnexpectedToken},
	WarnStrayToken:        {"stray-token", true, ErrUnexpectedToken},
	WarnStrayText:         {"stray-text", true, ErrUnexpectedToken},
	WarnStrength:          {"strength", true, ErrUnexpectedToken},
	WarnUnbalanced:        {"unbalanced", true, ErrUnbalanced},
	WarnNoTerminatorAtEnd: {"no-terminator-at-end", false, ErrMissingTerminator},
	WarnTagValue:          {"tag-value", true, ErrInvalidTag},
	WarnTooMany:           {"too-many-warnings", false, ErrUnexpectedToken},
}

// String returns the kind's short name, e.g. "missing-terminator".
func (k WarningKind) String() string {
	if k > 0 && k < numWarningKinds {
		return warningInfo[k].name
	}
	return fmt.Sprintf("WarningKind(%d)", uint8(k))
}

// Strict reports whether strict mode rejects input that produces this kind.
func (k WarningKind) Strict() bool {
	return k > 0 && k < numWarningKinds && warningInfo[k].strict
}

// Err returns the sentinel error that a strict-mode rejection of this kind
// unwraps to.
func (k WarningKind) Err() error {
	if k > 0 && k < numWarningKinds {
		return warningInfo[k].err
	}
	return ErrUnexpectedToken
}

// MarshalText implements encoding.TextMarshaler using the short name.
func (k WarningKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *WarningKind) UnmarshalText(b []byte) error {
	kk, err := ParseWarningKind(string(b))
	if err != nil {
		return err
	}
	*k = kk
	return nil
}

// ParseWarningKind returns the kind with the given short name.
func ParseWarningKind(s string) (WarningKind, error) {
	for k := WarningKind(1); k < numWarningKinds; k++ {
		if warningInfo[k].name == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("pdn: unknown warning kind %q", s)
}

// WarningKinds returns every warning kind in order.
func WarningKinds() []WarningKind {
	ks := make([]WarningKind, 0, numWarningKinds-1)
	for k := WarningKind(1); k < numWarningKinds; k++ {
		ks = append(ks, k)
	}
	return ks
}

// Warning records one leniency applied while reading a game.
type Warning struct {
	Kind WarningKind `json:"kind"`
	Pos  Pos         `json:"pos,omitzero"`
	Text string      `json:"text,omitempty"` // detail, e.g. the offending token
}

// String formats w as "line 3, column 7: missing-terminator: detail".
func (w Warning) String() string {
	s := fmt.Sprintf("line %d, column %d: %s", w.Pos.Line, w.Pos.Column, w.Kind)
	if w.Text != "" {
		s += ": " + w.Text
	}
	return s
}

// err returns the strict-mode error for w.
func (w Warning) err() error {
	var e error
	if w.Text != "" {
		e = fmt.Errorf("%w: %s (%s)", w.Kind.Err(), w.Text, w.Kind)
	} else {
		e = fmt.Errorf("%w (%s)", w.Kind.Err(), w.Kind)
	}
	return &SyntaxError{Pos: w.Pos, Err: e}
}
