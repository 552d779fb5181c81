package pdn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// This file is the only one of the package, with variant.go (which picks
// the variant), that knows the rules: it replays the moves of a Game with
// pkg/engine.

// VariantSource says where the variant of a replayed game came from
// (Replayed.VariantFrom).
type VariantSource uint8

// Variant sources.
const (
	FromGameType VariantSource = iota // the GameType tag
	FromDefault                       // Replayer.Default, the caller's choice
	FromInferred                      // Replayer.Inferred, or inferred from the game alone
)

// String returns "gametype", "default" or "inferred".
func (s VariantSource) String() string { return [...]string{"gametype", "default", "inferred"}[s] }

// Replay warning kinds (ReplayWarning.Kind, and archive.Problem.Kind).
const (
	// KindUnsupportedVariant: the GameType names a variant the engine does
	// not play (yet); the moves are not checked.
	KindUnsupportedVariant = "unsupported-variant"
	// KindResultContradicts: the final position has no legal move for the
	// side to move, and the game's result says otherwise.
	KindResultContradicts = "result-contradicts-position"
	// KindVariationMove: a move in a variation could not be replayed; the
	// rest of that variation is not checked.
	KindVariationMove = "variation-move"
	// KindSeparator: a move written with '-' is a capture, or one written
	// with 'x' or ':' is not; the move is still played. An error with
	// Replayer.Strict.
	KindSeparator = "separator"
)

// ReplayWarning is a problem Replay found that does not make the game
// wrong: an unsupported variant, a result that contradicts the final
// position, a bad move inside a variation.
type ReplayWarning struct {
	Kind string
	Pos  Pos
	Text string
}

// ReplayError is a move (or FEN tag) of a game's main line that the rules
// reject. It unwraps both to a pdn sentinel (ErrIllegalMove,
// ErrAmbiguousMove, ErrInvalidMove for a square that is not on the board,
// ErrInvalidFEN) and to the engine's error (*engine.MoveError or
// *engine.FENError).
type ReplayError struct {
	File string // the input's name, when the caller knows it
	Game int    // 1-based game number in the input, when the caller knows it
	Pos  Pos    // where the move, or the FEN tag, is written
	// Move is the move number (the first mover's move and the reply share
	// one), 0 for a FEN error.
	Move int
	Ply  int          // 0-based ply of the main line
	Side engine.Color // the side to move
	Text string       // the move as written, or the FEN tag's value
	// FEN is the position before the move, in canonical form ("" for a
	// FEN error).
	FEN string
	// Candidates lists the full paths an ambiguous move fits.
	Candidates []string
	// Variant is the variant the game was replayed with and where it came
	// from, when that is not the game's GameType tag: "english (inferred
	// from square numbers up to 32)", "international (given)"; "" for a
	// GameType tag.
	Variant string
	Err     error // the pdn sentinel
	Cause   error // the engine's error
}

// Error formats the error as "pdn: FILE: game N: line L, column C: move
// 12 (white) 23x14: illegal move; position W:W...": where, then Detail.
func (e *ReplayError) Error() string {
	var b strings.Builder
	b.WriteString("pdn: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(": ")
	}
	if e.Game > 0 {
		fmt.Fprintf(&b, "game %d: ", e.Game)
	}
	fmt.Fprintf(&b, "line %d, column %d: ", e.Pos.Line, e.Pos.Column)
	b.WriteString(e.Detail())
	return b.String()
}

// Detail says what is wrong, without where: "move 12 (white) 23x14:
// illegal move; position W:W..." (and the variant, when not from the
// GameType tag), or "FEN "...": cause".
func (e *ReplayError) Detail() string {
	var b strings.Builder
	if errors.Is(e.Err, ErrNoVariant) {
		return fmt.Sprintf("%v: %s (give the variant)", e.Err, e.Text)
	}
	if errors.Is(e.Err, ErrInvalidFEN) {
		fmt.Fprintf(&b, "FEN %q: %s", e.Text, fenProblem(e.Cause))
		if e.Variant != "" {
			b.WriteString(" in " + e.Variant)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "move %d (%s) %s: %v", e.Move, e.Side, e.Text, e.Err)
	var me *engine.MoveError
	if errors.As(e.Cause, &me) && me.Detail != "" {
		b.WriteString(" (" + me.Detail + ")")
	}
	if len(e.Candidates) > 0 {
		b.WriteString(", candidates " + strings.Join(e.Candidates, ", "))
	}
	b.WriteString("; position " + e.FEN)
	if e.Variant != "" {
		b.WriteString(" in " + e.Variant)
	}
	return b.String()
}

// Unwrap returns the pdn sentinel and the engine's error.
func (e *ReplayError) Unwrap() []error { return []error{e.Err, e.Cause} }

// fenProblem says what is wrong with a FEN, from the engine's error,
// without the FEN itself: `"31-50": unknown square "50" (1-32)`.
func fenProblem(err error) string {
	var fe *engine.FENError
	if !errors.As(err, &fe) {
		return strings.TrimPrefix(err.Error(), "engine: ")
	}
	if fe.Token == "" {
		return fe.Msg
	}
	return fmt.Sprintf("%q: %s", fe.Token, fe.Msg)
}

// Resolved is one move of a game (main line or variation) resolved to a
// legal move.
type Resolved struct {
	Node   *Move           // the move as written
	Pos    Pos             // where it is written
	Before engine.Position // the position it is played in
	Move   engine.Move
	Number int  // move number (see ReplayError.Move)
	Main   bool // in the main line
}

// Replayed is a game replayed with the rules of its variant.
type Replayed struct {
	// Variant is the variant the game was replayed with; nil when the
	// GameType is not supported (then nothing was replayed).
	Variant *engine.Variant
	// VariantFrom says where the variant came from: FromGameType,
	// FromDefault or FromInferred.
	VariantFrom VariantSource
	// Inference is what the variant was inferred from (FromInferred).
	Inference *Inference
	// Start is the position before the first move (FEN tag or the
	// variant's start).
	Start engine.Position
	// Plies are the main-line moves replayed, in order, up to the first
	// error if any. Plies[i].Before is the position before ply i.
	Plies []Resolved
	// Variations are the variation moves replayed.
	Variations []Resolved
	// Final is the position after the last ply replayed.
	Final engine.Position
	// Complete is set when the whole main line was replayed.
	Complete bool
	// Warnings are the problems that do not make the game wrong.
	Warnings []ReplayWarning
}

// Positions returns the positions of the main line: Start, then the
// position after each ply replayed.
func (r *Replayed) Positions() []engine.Position {
	ps := make([]engine.Position, 0, len(r.Plies)+1)
	for i := range r.Plies {
		ps = append(ps, r.Plies[i].Before)
	}
	return append(ps, r.Final)
}

// Replayer replays games one after another, reusing its buffers: the
// Replayed it returns is valid until the next call. The variant of a game
// is its GameType tag's; for a game without one, Default, else Inferred,
// else inferred from the game alone (with the rules of InferVariant).
type Replayer struct {
	// Default, if not nil, is the variant of every game without a
	// GameType tag: the caller's choice (the pdn command's --variant),
	// whatever the squares.
	Default *engine.Variant
	// Inferred, if not nil, is the variant of the games without a
	// GameType tag of the input being replayed, as InferVariant inferred
	// it from the whole input.
	Inferred *Inference
	// NoVariations replays only the main line.
	NoVariations bool
	// Strict makes a separator that contradicts its move (KindSeparator)
	// an error of the game, as the reader's strict mode does for syntax.
	Strict bool
	// CountOnly replays without keeping the moves: Replayed.Plies and
	// Variations stay empty, the rest (errors, warnings, Final, Complete)
	// is as without. For callers that need only the verdict, as validation.
	CountOnly bool

	buf []engine.Move
	res Replayed
	// stream is the replay of the game being read, when rp replays games
	// as a Reader reads them (see Reader.SetReplayer).
	stream *stream

	// slow turns off the quiet-move shortcut of resolve (tests compare
	// both ways).
	slow bool
}

// Source says where the variant came from, for messages: "GameType tag",
// "given" (Replayer.Default) or "inferred from square numbers up to 32"
// (with the reason of the Inference).
func (r *Replayed) Source() string {
	switch r.VariantFrom {
	case FromGameType:
		return "GameType tag"
	case FromDefault:
		return "given"
	}
	if r.Inference != nil {
		return "inferred from " + r.Inference.Reason
	}
	return "inferred"
}

// note returns what ReplayError.Variant holds for res.
func (r *Replayed) note() string {
	if r.Variant == nil || r.VariantFrom == FromGameType {
		return ""
	}
	return r.Variant.Name + " (" + r.Source() + ")"
}

// Replay replays the main line and the variations of g. v is the
// variant of a game without a GameType tag (nil: inferred, see
// Replayer.Default). It returns what was replayed, and a *ReplayError for
// the first main-line move that the rules reject (or a bad FEN tag); the
// moves after it are not replayed. A GameType the engine does not know is
// a warning (KindUnsupportedVariant), not an error.
func Replay(g *Game, v *engine.Variant) (*Replayed, error) {
	rp := &Replayer{Default: v}
	return rp.Replay(g)
}

// Replay is the function Replay with the Replayer's settings and buffers.
// A game read by a Reader that replays with rp (Reader.SetReplayer) was
// replayed as it was read: Replay returns that replay.
func (rp *Replayer) Replay(g *Game) (*Replayed, error) {
	if st := rp.stream; st != nil && st.g == g && g != nil {
		return &rp.res, st.err
	}
	lr, err, ok := rp.begin(g)
	if !ok {
		return &rp.res, err
	}
	s := lr.start()
	err = lr.line(&s, g.Moves, true)
	return rp.end(g, &lr, s.p, err)
}

// begin starts the replay of g in rp.res: its variant, its start position
// (FEN tag). It reports false, with the error of a bad FEN tag (nil for a
// variant the engine does not play), when there is nothing to replay.
func (rp *Replayer) begin(g *Game) (lineReplay, error, bool) {
	res := &rp.res
	clear(res.Plies)
	clear(res.Variations)
	*res = Replayed{Plies: res.Plies[:0], Variations: res.Variations[:0], Warnings: res.Warnings[:0]}
	v, from, inf, err := rp.variant(g)
	if err != nil {
		res.Warnings = append(res.Warnings, ReplayWarning{Kind: KindUnsupportedVariant, Pos: tagPos(g, "GameType"), Text: err.Error()})
		return lineReplay{}, nil, false
	}
	if v == nil { // no variant's board holds the squares of this untagged game
		res.VariantFrom, res.Inference = from, inf
		return lineReplay{}, &ReplayError{Pos: g.Pos, Text: inf.Reason, Err: ErrNoVariant}, false
	}
	res.Variant, res.VariantFrom, res.Inference = v, from, inf
	res.Start = v.Start()
	if fen, ok := g.Tag("FEN"); ok && strings.TrimSpace(fen) != "" {
		p, err := v.ParseFEN(fen)
		if err != nil {
			return lineReplay{}, &ReplayError{Pos: tagPos(g, "FEN"), Text: fen, Side: res.Start.Side, Variant: res.note(),
				Err: ErrInvalidFEN, Cause: err}, false
		}
		res.Start = p
	}
	res.Final = res.Start
	return lineReplay{rp: rp, v: v, res: res, record: !rp.CountOnly, lastPos: g.Pos,
		quick: rp.CountOnly && v.KingMoveLimit == 0 && !rp.slow}, nil, true
}

// end ends the replay of g's main line at final, with its error.
func (rp *Replayer) end(g *Game, lr *lineReplay, final engine.Position, err error) (*Replayed, error) {
	res := &rp.res
	res.Final = final
	if err != nil {
		if re, ok := err.(*ReplayError); ok {
			re.Variant = res.note()
		}
		return res, err
	}
	res.Complete = true
	rp.checkResult(g, res, lr.lastPos)
	return res, nil
}

type lineReplay struct {
	rp     *Replayer
	v      *engine.Variant
	res    *Replayed
	record bool // keep the moves in res.Plies and res.Variations
	// quick plays a move given by its two squares in place when it is
	// legal and the only one from-to (Variant.PlayQuiet for a quiet move,
	// PlayJump for a capture): the commonest moves, when nothing but the
	// position is kept of them.
	quick bool
	// plies and vmoves count the main-line and variation moves replayed;
	// lastPos is where the last main-line move is written (the game's
	// position before the first).
	plies, vmoves int
	lastPos       Pos
}

// lineState is the state of a line being replayed: the position p, with
// run the state of the king-move limit (frisian); prev and prevRun, the
// same before the last move of the line (where its variations branch
// off); the moves replayed in the line, and the move number.
type lineState struct {
	p, prev      engine.Position
	run, prevRun engine.KingRun
	ply, num     int
}

// start returns the state of the main line at the start position.
func (lr *lineReplay) start() lineState {
	return lineState{p: lr.res.Start, prev: lr.res.Start}
}

// line replays nodes in s. For the main line it returns the first error;
// in a variation an error becomes a warning and ends the line.
func (lr *lineReplay) line(s *lineState, nodes []Node, main bool) error {
	// last is the index in nodes of the last move replayed (-1: none
	// yet), for lr.lastPos in the main line: set at the end (an error ends
	// the replay without it), not copied at every move.
	last := -1
	for i := range nodes {
		n := &nodes[i]
		switch n.Kind {
		case MoveNode:
			m := n.Move
			if m.IsPlaceholder() {
				continue
			}
			lr.number(s, m.Number)
			if lr.quickSquares(s, m, main) {
				last = i
				continue
			}
			if ok, err := lr.move(s, m, n.Pos, main); !ok {
				return err
			}
			last = i
		case VariationNode:
			lr.variation(s, n.Variation)
		}
	}
	if last >= 0 && main {
		lr.lastPos = nodes[last].Pos
	}
	return nil
}

// number brings s.num up to the move numbered number (0: none) about to
// be played in s.
func (lr *lineReplay) number(s *lineState, number int) {
	if number > 0 {
		s.num = number
	} else if s.p.Side == lr.v.FirstMover && s.ply > 0 || s.num == 0 {
		s.num++
	}
}

// quickMove plays the move from-to, both numeric squares, in s when it
// can be played in place (see quick), and reports whether it was: if not,
// move must play it.
func (lr *lineReplay) quickMove(s *lineState, from, to Square, capture, main bool) bool {
	if !lr.quick {
		return false
	}
	v := lr.v
	f, ok1 := v.Index(engine.Square(from))
	t, ok2 := v.Index(engine.Square(to))
	// prev before the move is tried: if it is not played here, move plays
	// it, which sets prev to the same, or the line ends on its error.
	s.prev = s.p
	if ok1 && ok2 && (!capture && v.PlayQuiet(&s.p, f, t) || capture && v.PlayJump(&s.p, f, t)) {
		// (a quiet move written as one, or a capture written as one, and
		// the only move from-to: no separator to warn about, and run stays
		// zero without a king-move limit)
		lr.played(s, main)
		return true
	}
	return false
}

// quickSquares plays m in s when it can be played in place (see quick):
// a move of two numeric squares (quickMove), or a capture written in full
// with them (quickPath).
func (lr *lineReplay) quickSquares(s *lineState, m *Move, main bool) bool {
	if len(m.Squares) == 2 {
		return (m.Squares[0]|m.Squares[1])&algebraicBit == 0 && lr.quickMove(s, m.Squares[0], m.Squares[1], m.IsCapture(), main)
	}
	return lr.quickPath(s, m, main)
}

// quickPath plays m, a capture written in full with numeric squares, in s
// when it can be played in place (Variant.PlayPath: the move ParseMove
// finds for its path), and reports whether it was: if not, move must play
// it.
func (lr *lineReplay) quickPath(s *lineState, m *Move, main bool) bool {
	if !lr.quick || !m.IsCapture() || len(m.Squares) > 16 {
		return false
	}
	v := lr.v
	var buf [16]engine.Index
	for i, sq := range m.Squares {
		idx, ok := v.Index(engine.Square(sq)) // (false for an algebraic square)
		if !ok {
			return false
		}
		buf[i] = idx
	}
	s.prev = s.p // (as quickMove)
	if !v.PlayPath(&s.p, buf[:len(m.Squares)]) {
		return false
	}
	lr.played(s, main)
	return true
}

// played counts a move played in s: a ply of the main line or a move of
// a variation.
func (lr *lineReplay) played(s *lineState, main bool) {
	if main {
		lr.plies++
	} else {
		lr.vmoves++
	}
	s.ply++
}

// move plays m, written at pos, in s, with s.num already its number (see
// number). It reports false when m is not legal: the line ends there,
// with the error in the main line, with a warning in a variation.
func (lr *lineReplay) move(s *lineState, m *Move, pos Pos, main bool) (bool, error) {
	v := lr.v
	em, err := lr.rp.resolve(v, &s.p, m)
	if err == nil && v.KingMoveLimit > 0 { // (run stays zero without a limit)
		err = v.CheckKingRun(s.run, &s.p, em)
	}
	if err != nil {
		re := replayError(v, &s.p, m, pos, s.num, lr.plies, err)
		if main {
			return false, re
		}
		lr.res.Warnings = append(lr.res.Warnings, ReplayWarning{Kind: KindVariationMove, Pos: pos, Text: re.Error()})
		return false, nil
	}
	if m.Sep != 0 && m.IsCapture() != em.IsCapture() {
		what := "a quiet move written with '" + string(rune(m.Sep)) + "'"
		if em.IsCapture() {
			what = "a capture written with '-'"
		}
		lr.res.Warnings = append(lr.res.Warnings, ReplayWarning{Kind: KindSeparator, Pos: pos,
			Text: fmt.Sprintf("move %d %s: %s", s.num, m.Text, what)})
	}
	if lr.record {
		r := Resolved{Node: m, Pos: pos, Before: s.p, Move: em, Number: s.num, Main: main}
		if main {
			lr.res.Plies = append(lr.res.Plies, r)
		} else {
			lr.res.Variations = append(lr.res.Variations, r)
		}
	}
	s.prev, s.prevRun = s.p, s.run
	if v.KingMoveLimit > 0 {
		s.run = s.run.Next(&s.p, em)
	}
	s.p = s.p.Play(em)
	lr.played(s, main)
	return true, nil
}

// variation replays a variation of the line s, after the move before it.
func (lr *lineReplay) variation(s *lineState, nodes []Node) {
	if lr.rp.NoVariations || lr.vmoves > 1<<16 {
		return
	}
	// A variation is an alternative to the move before it (the PGN rule).
	// Some exporters put the other side's alternative after its move
	// instead: when the first move does not fit the branch point, it is
	// tried after the preceding move.
	vs := lineState{p: s.prev, prev: s.prev, run: s.prevRun, prevRun: s.prevRun, num: s.num}
	if s.ply > 0 && !lr.fits(nodes, &s.prev) && lr.fits(nodes, &s.p) {
		vs.p, vs.prev, vs.run, vs.prevRun = s.p, s.p, s.run, s.run
	}
	if vs.p == s.prev && s.ply > 0 && s.prev.Side == lr.v.FirstMover {
		vs.num--
	}
	lr.line(&vs, nodes, false)
}

// fits reports whether the first move of a variation is legal in p.
func (lr *lineReplay) fits(nodes []Node, p *engine.Position) bool {
	for i := range nodes {
		if n := &nodes[i]; n.Kind == MoveNode && !n.Move.IsPlaceholder() {
			_, err := lr.rp.resolve(lr.v, p, n.Move)
			return err == nil
		}
	}
	return true
}

// resolve finds the legal move m stands for in p. The common case, a
// move given by its two end squares that only one legal move joins, is
// found among the moves from-to (QuietMove, MovesFromTo); anything else
// goes through engine.Variant.ParseMove, which checks intermediate squares
// and reports ambiguity.
func (rp *Replayer) resolve(v *engine.Variant, p *engine.Position, m *Move) (engine.Move, error) {
	if k := len(m.Squares); k >= 2 {
		first, last := m.Squares[0], m.Squares[k-1]
		var from, to engine.Index
		var ok1, ok2 bool
		if !first.IsAlgebraic() && !last.IsAlgebraic() { // boardIndex, inlined
			from, ok1 = v.Index(engine.Square(first))
			to, ok2 = v.Index(engine.Square(last))
		} else {
			from, ok1 = boardIndex(v, first)
			to, ok2 = boardIndex(v, last)
		}
		if ok1 && ok2 {
			if k == 2 && !rp.slow && !m.IsCapture() {
				// The commonest move: a quiet move when the side to move has
				// no capture. Then it is the only legal move from-to, found
				// without looking at the others.
				if mv, ok := v.QuietMove(p, from, to); ok {
					return mv, nil
				}
			}
			// The legal moves from-to: found from the piece on from alone
			// (MovesFromTo), or, with slow, among all the legal moves.
			var cands []engine.Move
			if !rp.slow {
				rp.buf = v.MovesFromTo(rp.buf[:0], p, from, to)
				cands = rp.buf
			} else {
				rp.buf = v.Generate(rp.buf[:0], p)
				cands = rp.buf[:0]
				for _, l := range rp.buf {
					if l.From == from && l.To == to {
						cands = append(cands, l)
					}
				}
			}
			n := len(cands)
			var found engine.Move
			if n > 0 {
				found = cands[n-1]
			}
			switch {
			case n == 0:
				return engine.Move{}, &engine.MoveError{Text: m.Text, Err: engine.ErrIllegalMove}
			case n == 1 && k == 2:
				return found, nil
			case n == 1 && found.IsCapture() && k == found.CaptureCount()+1:
				// A full path (28x19x10): accept it when it is exactly a
				// path of the only candidate; ParseMove handles the rest.
				if isPath(v, p, found, m.Squares) {
					return found, nil
				}
			}
		}
	}
	return v.ParseMove(p, m.Text)
}

// isPath reports whether the written squares are a capture path of m in
// p (see engine.Variant.IsPath).
func isPath(v *engine.Variant, p *engine.Position, m engine.Move, sq []Square) bool {
	var buf [16]engine.Square
	path := buf[:0]
	for _, s := range sq {
		if !s.IsAlgebraic() {
			path = append(path, engine.Square(s.Num()))
		} else if idx, ok := boardIndex(v, s); ok {
			path = append(path, v.Square(idx))
		} else {
			return false
		}
	}
	return v.IsPath(p, m, path)
}

// boardIndex returns the board index of a written square.
func boardIndex(v *engine.Variant, s Square) (engine.Index, bool) {
	if !s.IsAlgebraic() {
		return v.Index(engine.Square(s.Num()))
	}
	sq, err := v.ParseSquare(s.String())
	if err != nil {
		return 0, false
	}
	return v.Index(sq)
}

func replayError(v *engine.Variant, p *engine.Position, m *Move, pos Pos, num, ply int, err error) *ReplayError {
	re := &ReplayError{Pos: pos, Move: num, Ply: ply, Side: p.Side, Text: m.Text, FEN: v.FEN(*p), Cause: err}
	var me *engine.MoveError
	if errors.As(err, &me) {
		re.Candidates = me.Candidates
	}
	switch {
	case errors.Is(err, engine.ErrAmbiguousMove):
		re.Err = ErrAmbiguousMove
	case errors.Is(err, engine.ErrInvalidMove):
		re.Err = ErrInvalidMove
	default:
		re.Err = ErrIllegalMove
	}
	return re
}

// tagPos returns the position of g's tag name, or of the game.
func tagPos(g *Game, name string) Pos {
	for _, t := range g.Tags {
		if t.Name == name && t.Pos.IsValid() {
			return t.Pos
		}
	}
	return g.Pos
}

// FirstMoverScore returns the score of the side that moves first for a
// PDN result: 1 for "1-0" and "2-0", 0.5 for "1/2-1/2" and "1-1", 0 for
// "0-1" and "0-2" (the first number is the first mover's, in English
// files as in international ones). ok is false for "*", "0-0" and
// anything else.
func FirstMoverScore(result string) (score float64, ok bool) {
	switch strings.TrimSpace(result) {
	case "1-0", "2-0":
		return 1, true
	case "0-1", "0-2":
		return 0, true
	case "1/2-1/2", "1-1":
		return 0.5, true
	}
	return 0, false
}

// checkResult warns when the final position is over (the side to move has no
// legal move: lost, or won in antidraughts; see Variant.PositionOutcome) and
// the result says otherwise; pos is where the last move is written.
func (rp *Replayer) checkResult(g *Game, res *Replayed, pos Pos) {
	v := res.Variant
	o := v.PositionOutcome(&res.Final)
	if !o.Over {
		return
	}
	result := g.GameResult()
	got, ok := FirstMoverScore(result)
	if !ok {
		return
	}
	want := 0.0
	if o.Winner == v.FirstMover {
		want = 1
	}
	if got == want {
		return
	}
	res.Warnings = append(res.Warnings, ReplayWarning{Kind: KindResultContradicts, Pos: pos,
		Text: fmt.Sprintf("result %s, but %s has no legal move in the final position %s (the first number is %s's)",
			result, res.Final.Side, v.FEN(res.Final), v.FirstMover)})
}

// ScoreFor returns the score of side for a PDN result of a game of v
// (see FirstMoverScore), and false when the result is unknown.
func ScoreFor(v *engine.Variant, side engine.Color, result string) (float64, bool) {
	s, ok := FirstMoverScore(result)
	if !ok {
		return 0, false
	}
	if side != v.FirstMover {
		s = 1 - s
	}
	return s, true
}

// Clone returns a Replayer with rp's settings and its own buffers, for
// another goroutine.
func (rp *Replayer) Clone() *Replayer {
	return &Replayer{Default: rp.Default, Inferred: rp.Inferred, NoVariations: rp.NoVariations, Strict: rp.Strict,
		CountOnly: rp.CountOnly, slow: rp.slow}
}
