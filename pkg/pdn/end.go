package pdn

import (
	"io"
	"strconv"
	"strings"
)

// How a game ends: at a terminator (a result or a '*', which may also
// be a move strength), at the tag section of the next game, or at the end
// of the input; and what finish makes of it.

// maxTagBuf is the capacity of the tag buffer beyond which a game's tags
// are not copied out of it (see Next).
const maxTagBuf = 256

// terminator returns the token that ends the game at t, a '*' or a
// result, or nil when t is a '*' that is read as a move strength.
func (r *Reader) terminator(t *Token) (*Token, error) {
	if t.Kind != TokStar || !t.Glued {
		return t, nil
	}
	m := r.lastMove()
	if m == nil || m.Strength != "" {
		return t, nil
	}
	// PDN 2.0 "star move": '*' glued to a move and more movetext on the
	// same line.
	p := t.Pos
	nt, err := r.next()
	if err != nil {
		return nil, err
	}
	r.unread()
	if nt.Pos.Line == p.Line && continuesBody(nt.Kind) {
		r.warn(WarnStrength, p, "'*' glued to a move read as a move strength")
		m.Strength = "*"
		return nil, nil
	}
	return &Token{Kind: TokStar, Pos: p, ext: []byte{'*'}}, nil
}

// endAtTerminator ends the game at its terminator t.
func (r *Reader) endAtTerminator(t *Token) (*Game, error) {
	if !r.hasContent() {
		r.start(t.Pos)
		r.warn(WarnEmptyGame, t.Pos, "")
	}
	return r.finish(t.Kind, r.str(t.Text()), t.Pos)
}

// endAtTagSection ends the game without a terminator, before the tag
// section that starts at t (the next game's).
func (r *Reader) endAtTagSection(t *Token) (*Game, error) {
	r.unread()
	if r.pending.set {
		r.warn(WarnMoveNumber, r.pending.pos, "move number at end of game")
		r.pending.set = false
	}
	r.warn(WarnMissingTerminator, t.Pos, "tag section starts before the game ended")
	return r.finish(TokTagOpen, "*", t.Pos)
}

// endAtEOF ends the game at the end of the input, or returns io.EOF when
// there is nothing to return.
func (r *Reader) endAtEOF(t *Token) (*Game, error) {
	if !r.hasContent() {
		if !r.damaged() {
			return nil, io.EOF
		}
		r.warn(WarnEmptyGame, t.Pos, "nothing but dropped input after the last game")
	}
	if r.game == 0 && !r.resumed && len(r.g.Tags) == 0 && !r.hasMove() {
		// The whole input is one "game" of stray text and comments.
		p := r.g.Pos
		r.finish(TokEOF, "*", t.Pos)
		r.game = 0
		return nil, &SyntaxError{Pos: p, Err: ErrNotPDN}
	}
	if r.phase == inMovetext {
		r.note(WarnNoTerminatorAtEnd, t.Pos, "")
	}
	if r.truncated(t.Pos) {
		r.fail(&SyntaxError{Pos: t.Pos, Err: ErrTruncated})
	}
	return r.finish(TokEOF, "*", t.Pos)
}

// hasMove reports whether the game being read has a move (Walk: a node).
// It is for the end of the input only: it looks at every node read. (A
// flag set where moves are read would move the lines of the hot functions,
// which cmd/pdn's profile-guided build finds by line.)
func (r *Reader) hasMove() bool {
	if r.vis != nil && r.vis.nodes > 0 || r.mls == mainLineTaken && r.ml.plies() > 0 {
		return true
	}
	var has func(ns []Node) bool
	has = func(ns []Node) bool {
		for i := range ns {
			if ns[i].Kind == MoveNode || ns[i].Kind == VariationNode && has(ns[i].Variation) {
				return true
			}
		}
		return false
	}
	if has(r.cur) {
		return true
	}
	for _, l := range r.stack {
		if has(l.nodes) {
			return true
		}
	}
	return false
}

// truncated reports whether the game, not terminated, was cut by the end
// of the input at end: the input does not end with a line break, and the
// game ends in its tag section, after a move number, in a variation or
// with a token that is not a move ("23-", "[Eve"). (A last game that ends
// with a move and no line break is read whole: a published conformance
// file, wiegerw/pdn's unicode.pdn, is one.)
func (r *Reader) truncated(end Pos) bool {
	if r.phase == beforeGame || r.s.endsWithBreak() {
		return false
	}
	if r.phase == inHeader || r.pending.set || len(r.stack) > 0 {
		return true
	}
	if n := len(r.g.Warnings); n > 0 {
		w := r.g.Warnings[n-1]
		switch w.Kind {
		case WarnStrayToken, WarnUnknownMove, WarnMoveSyntax, WarnTagSyntax:
			return w.Pos.Offset+int64(len(w.Text)) >= end.Offset
		}
	}
	return false
}

// finish ends the game with result at p, the position of the token of
// kind endedBy that ended it, and returns it with its error.
func (r *Reader) finish(endedBy TokenKind, result string, p Pos) (*Game, error) {
	r.endedBy = endedBy
	g := r.g
	if r.pending.set {
		r.warn(WarnMoveNumber, r.pending.pos, "move number at end of game")
	}
	for len(r.stack) > 0 {
		r.warn(WarnUnbalanced, p, "variation not closed")
		r.pop()
	}
	if m := r.lastMove(); m != nil && m.Strength == "*" {
		// A '*' mark needs movetext after it on its line; at the end
		// of the game it cannot be written back, so it goes.
		m.Strength = ""
	}
	streamed := r.mls == mainLineTaken
	switch {
	case r.vis != nil:
		// Keep the one-node buffer for the next game's main line.
		r.vis.flush(r, r.cur)
		clear(r.cur)
		r.lineBufs[0] = r.cur[:0]
	case !streamed: // (a main line replayed while read is not kept)
		g.Moves = r.keepMain(r.cur)
	}
	r.cur = nil
	tags := g.Tags
	switch {
	case cap(tags) > maxTagBuf && r.arena == &r.own:
		// A huge header keeps the buffer rather than a copy.
		g.Tags, r.tagBuf = tags[:len(tags):len(tags)], nil
	default:
		g.Tags = r.copyTags(tags)
		clear(tags)
		r.tagBuf = tags[:0]
		if cap(tags) > maxTagBuf {
			r.tagBuf = nil
		}
	}
	g.Result = result
	if tr, ok := g.Tag("Result"); ok && result != "*" && IsResult(strings.TrimSpace(tr)) && strings.TrimSpace(tr) != result {
		r.note(WarnResultMismatch, p, "terminator "+result+", Result tag "+tr)
	}
	if r.dropped > 0 {
		g.Warnings = append(g.Warnings, Warning{Kind: WarnTooMany, Pos: r.firstDropped,
			Text: strconv.Itoa(r.dropped) + " more warnings from here on not recorded"})
	}
	if streamed {
		r.ml.finish(g)
	}
	r.game++
	if r.gerr != nil {
		ge := &GameError{Game: r.game, Err: r.gerr}
		if se, ok := r.gerr.(*SyntaxError); ok {
			ge.Pos = se.Pos
		}
		return g, ge
	}
	return g, nil
}

// continuesBody reports whether a token of kind k can continue movetext.
func continuesBody(k TokenKind) bool {
	switch k {
	case TokMoveNumber, TokMove, TokEllipsis, TokComment, TokNAG, TokLParen, TokRParen, TokSetup:
		return true
	}
	return false
}
