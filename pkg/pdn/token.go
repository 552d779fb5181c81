package pdn

import "strconv"

// TokenKind is the kind of a Token.
type TokenKind uint8

// Token kinds. The names follow the PDN 3.0 reading grammar.
const (
	TokEOF         TokenKind = iota // end of input
	TokTagOpen                      // [
	TokTagClose                     // ]
	TokTagName                      // the name inside [ ]; IDENTIFIER in the grammar
	TokString                       // "value"; Text is unescaped
	TokMoveNumber                   // 12. or 12...
	TokEllipsis                     // ... standing for a move
	TokMove                         // 32-28, 28x19x10, c3:e5, a3b4
	TokStrength                     // ! ?? !? (?) ...
	TokNAG                          // $7
	TokComment                      // {text}; Text is the inside
	TokSetup                        // /FEN "..."/; Text is the inside
	TokLParen                       // (
	TokRParen                       // )
	TokStar                         // *
	TokResult                       // 1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0
	TokLineComment                  // ; comment to end of line (PDN 1.0); Text is after ';'
	TokUnknown                      // anything else; Text is the run of characters
	TokError                        // a lexical error; see Token.Err
)

var tokenNames = [...]string{"EOF", "[", "]", "tag name", "string", "move number", "...", "move",
	"move strength", "NAG", "comment", "setup", "(", ")", "*", "result", "line comment", "unknown", "error"}

// String returns a short description of the kind.
func (k TokenKind) String() string {
	if int(k) < len(tokenNames) {
		return tokenNames[k]
	}
	return "TokenKind(" + strconv.Itoa(int(k)) + ")"
}

// Token is one lexical token. Slices returned by its methods are valid
// only until the next call to Scanner.Next.
type Token struct {
	Kind TokenKind
	Pos  Pos
	// Glued is true when no whitespace separates this token from the
	// previous one.
	Glued bool
	// Err is a *SyntaxError for a TokError, and for a TokString or
	// TokComment that the scanner cut short because its end was missing
	// (ErrUnterminatedString at the end of the line, ErrUnterminatedComment
	// before a tag line or at the end of input): the token is still usable.
	Err error

	// The token's bytes stay in its scanner's buffer and are addressed by
	// offsets, not slices: storing a pointer for every token would cost
	// a write barrier whenever the GC is marking.
	s          *Scanner
	start, end int    // Raw is s.buf[start:end]
	ts, te     int    // Text is s.buf[ts:te], unless ext is set
	ext        []byte // Text when it is not in the buffer (unescaped, decoded, a move's)
	sep        Sep
	num        int
	cont       bool
	textBuf    []byte
}

// Raw returns the token's bytes as they appear in the input (for very long
// tokens only a prefix).
func (t *Token) Raw() []byte {
	if t.s == nil || t.Kind == TokEOF {
		return nil
	}
	return t.s.buf[t.start:t.end]
}

// Text returns the token's value in UTF-8: the unescaped string of a
// TokString, the inside of a comment or setup command, the canonical
// spelling of a move, or the raw text of other tokens.
func (t *Token) Text() []byte {
	if t.ext != nil {
		return t.ext
	}
	switch {
	case t.Kind == TokMove:
		t.textBuf = appendSquares(t.textBuf[:0], t.Squares(), t.sep)
		t.ext = t.textBuf
		return t.ext
	case t.s == nil || t.Kind == TokEOF:
		return nil
	}
	return t.s.buf[t.ts:t.te]
}

// Squares returns the squares of a TokMove.
func (t *Token) Squares() []Square {
	if t.s == nil || t.Kind != TokMove {
		return nil
	}
	return t.s.sq
}

// Sep returns the separator of a TokMove.
func (t *Token) Sep() Sep { return t.sep }

// Number returns the number of a TokMoveNumber or TokNAG.
func (t *Token) Number() int { return t.num }

// Continuation reports whether a TokMoveNumber was written "N...".
func (t *Token) Continuation() bool { return t.cont }

// String returns the kind and the raw text, for messages.
func (t *Token) String() string {
	if t.Kind == TokEOF {
		return "EOF"
	}
	return t.Kind.String() + " " + strconv.Quote(string(t.Raw()))
}
