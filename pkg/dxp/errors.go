package dxp

import (
	"errors"
	"strconv"
)

// The kinds of failure of a DXP session. Errors from this package are *Error values whose
// Kind is one of these; test them with errors.Is.
var (
	// ErrProtocol: a message that is malformed (bad kind, field width or value), too long,
	// or not allowed at that point of the dialogue.
	ErrProtocol = errors.New("dxp: protocol error")
	// ErrIllegalMove: a well-formed MOVE that is not a legal move, or fits more than one.
	ErrIllegalMove = errors.New("dxp: illegal move")
	// ErrCrash: the connection failed or closed (the engine is gone).
	ErrCrash = errors.New("dxp: connection lost")
	// ErrStall: no answer before the context ended. After Receive's, EndGame can still end
	// the game; after the other calls', the connection is unusable.
	ErrStall = errors.New("dxp: no answer in time")
	// ErrGameEnd: the engine ended the game with a GAMEEND instead of moving.
	ErrGameEnd = errors.New("dxp: the engine ended the game")
	// ErrRefused: the follower refused the GAMEREQ.
	ErrRefused = errors.New("dxp: game refused")
)

// Error is a failure of a DXP session: its kind, the offending message and the cause.
type Error struct {
	// Kind is ErrProtocol, ErrIllegalMove, ErrCrash, ErrStall, ErrGameEnd or ErrRefused.
	Kind error
	// Text is the message received, without its NUL ("" when there is none).
	Text string
	// Reason is the reason the engine gave, for ErrGameEnd.
	Reason EndReason
	// Err is the cause: what is wrong with the message, or the connection's error.
	Err error
}

// Error describes the failure, with the message quoted.
func (e *Error) Error() string {
	s := e.Kind.Error()
	if e.Kind == ErrGameEnd {
		s += ": " + e.Reason.String()
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if e.Text != "" {
		s += " (message " + strconv.Quote(e.Text) + ")"
	}
	return s
}

// Unwrap returns the kind and the cause, so that errors.Is finds both (ErrCrash and
// io.EOF, or ErrIllegalMove and engine.ErrIllegalMove).
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}
