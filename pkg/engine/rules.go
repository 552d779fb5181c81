package engine

import ()

// KingCanReverse reports whether a flying king may capture back along the line it came from
// during a sequence: only when captured pieces are removed at once, so that the square of
// the piece just taken is free again, and the rules do not forbid it (NoTurnBack).
func (r *Rules) KingCanReverse() bool {
	return brules(r).KingCanReverse()
}
