package pdn

import (
	"errors"
	"fmt"
)

// Sentinel errors. A *SyntaxError or *GameError unwraps to one of them, so
// callers can test the cause with errors.Is.
var (
	// ErrTokenTooLong means a token (usually a comment) is longer than
	// Reader.MaxTokenSize.
	ErrTokenTooLong = errors.New("token too long")
	// ErrUnterminatedComment means a '{' comment has no closing '}'.
	ErrUnterminatedComment = errors.New("unterminated comment")
	// ErrUnterminatedString means a tag value has no closing '"'.
	ErrUnterminatedString = errors.New("unterminated string")
	// ErrUnterminatedSetup means a /FEN/ setup command has no closing '/'.
	ErrUnterminatedSetup = errors.New("unterminated setup command")
	// ErrUnexpectedToken means a token that the grammar does not allow here.
	ErrUnexpectedToken = errors.New("unexpected token")
	// ErrInvalidMove means a move that is not well-formed PDN (syntax only:
	// legality is the engine's business).
	ErrInvalidMove = errors.New("invalid move")
	// ErrInvalidTag means a malformed tag pair.
	ErrInvalidTag = errors.New("invalid tag")
	// ErrMissingTerminator means a game that is not ended by '*' or a result
	// before the next tag section.
	ErrMissingTerminator = errors.New("missing game terminator")
	// ErrEmptyGame means a game separator with no game before it.
	ErrEmptyGame = errors.New("empty game")
	// ErrUnbalanced means a ')' with no '(' or a '(' never closed.
	ErrUnbalanced = errors.New("unbalanced variation")
	// ErrTooDeep means variations nested deeper than Reader.MaxDepth.
	ErrTooDeep = errors.New("variations nested too deep")
	// ErrEncoding means text that is not valid in the expected encoding.
	ErrEncoding = errors.New("invalid text encoding")
	// ErrNotPDN means an input without a tag pair, a move or a result:
	// text that is not PDN (Reader.Next returns it instead of a game).
	ErrNotPDN = errors.New("not PDN: no tag pair, move or result")
	// ErrTruncated means an input that ends in the middle of a game: the
	// game has no terminator and the input's last line no line break.
	ErrTruncated = errors.New("the input ends in the middle of a game (no terminator, and no line break at its end)")
	// ErrTooManyTags means a game with more than MaxTags tag pairs, or more
	// than MaxTagBytes of them.
	ErrTooManyTags = errors.New("too many tag pairs")

	// ErrIllegalMove means a well-formed move that is not legal in the
	// position reached (found by Replay).
	ErrIllegalMove = errors.New("illegal move")
	// ErrAmbiguousMove means a move written short (from and to squares)
	// that fits more than one legal capture (found by Replay).
	ErrAmbiguousMove = errors.New("ambiguous move")
	// ErrInvalidFEN means a FEN tag that does not describe a position of
	// the game's variant (found by Replay).
	ErrInvalidFEN = errors.New("invalid FEN")
	// ErrNoVariant means a game without a GameType tag whose squares no
	// variant's board holds (found by Replay, without Replayer.Default).
	ErrNoVariant = errors.New("no variant's board holds the squares")
)

// SyntaxError is a problem at a position of the input. It unwraps to one of
// the Err* sentinels.
type SyntaxError struct {
	Pos Pos
	Err error
}

// Error formats the error as "pdn: line L, column C: cause".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pdn: line %d, column %d: %v", e.Pos.Line, e.Pos.Column, e.Err)
}

// Unwrap returns the cause.
func (e *SyntaxError) Unwrap() error { return e.Err }

// GameError is returned by Reader.Next together with the (partial) game
// that could not be read cleanly. Game is the 1-based index of the game in
// the stream. The reader has already skipped to the next game.
type GameError struct {
	Game int
	Pos  Pos
	Err  error // usually a *SyntaxError
}

// Error formats the error as "pdn: game N: line L, column C: cause", or
// "pdn: game N: cause" when the position is unknown (JSON input).
func (e *GameError) Error() string {
	pos, cause := e.Pos, e.Err
	var se *SyntaxError
	if errors.As(e.Err, &se) {
		pos, cause = se.Pos, se.Err
	}
	if !pos.IsValid() {
		return fmt.Sprintf("pdn: game %d: %v", e.Game, cause)
	}
	return fmt.Sprintf("pdn: game %d: line %d, column %d: %v", e.Game, pos.Line, pos.Column, cause)
}

// Unwrap returns the cause.
func (e *GameError) Unwrap() error { return e.Err }

// isGameError reports whether err is (or wraps) a *GameError. It is a
// function of its own so that the target of errors.As does not escape in
// the caller's loop.
func isGameError(err error) bool {
	if _, ok := err.(*GameError); ok {
		return true
	}
	var ge *GameError
	return errors.As(err, &ge)
}

// ErrorKind names the sentinel an error unwraps to, e.g.
// "missing-terminator", for reports. It returns "error" for others.
func ErrorKind(err error) string {
	for _, e := range []struct {
		err  error
		name string
	}{
		{ErrIllegalMove, "illegal-move"}, {ErrAmbiguousMove, "ambiguous-move"}, {ErrInvalidFEN, "invalid-fen"}, {ErrNoVariant, "no-variant"},
		{ErrTokenTooLong, "token-too-long"}, {ErrUnterminatedComment, "unterminated-comment"},
		{ErrUnterminatedString, "unterminated-string"}, {ErrUnterminatedSetup, "unterminated-setup"},
		{ErrMissingTerminator, "missing-terminator"}, {ErrInvalidMove, "invalid-move"},
		{ErrInvalidTag, "invalid-tag"}, {ErrEmptyGame, "empty-game"}, {ErrUnbalanced, "unbalanced"},
		{ErrTooDeep, "too-deep"}, {ErrEncoding, "encoding"},
		{ErrNotPDN, "not-pdn"}, {ErrTruncated, "truncated"}, {ErrTooManyTags, "too-many-tags"}, {ErrUnexpectedToken, "unexpected-token"},
	} {
		if errors.Is(err, e.err) {
			return e.name
		}
	}
	return "error"
}
