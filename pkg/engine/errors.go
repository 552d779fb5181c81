package engine

import (
	"github.com/rafle/rafle/pkg/internal/board"
)

// Error describes the FEN, the offending token and the problem.
func (e *FENError) Error() string {
	return (*board.FENError)(e).Error()
}

// Unwrap returns ErrInvalidFEN.
func (e *FENError) Unwrap() error {
	return eerr((*board.FENError)(e).Unwrap())
}

// Error describes the move, the kind of problem and, for an ambiguous move, its candidates.
func (e *MoveError) Error() string {
	return (*board.MoveError)(e).Error()
}

// Unwrap returns ErrInvalidMove, ErrIllegalMove or ErrAmbiguousMove.
func (e *MoveError) Unwrap() error {
	return eerr((*board.MoveError)(e).Unwrap())
}
