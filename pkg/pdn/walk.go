package pdn

import (
	"errors"
	"io"
)

// Action tells Walk how to go on after a Visitor hook.
type Action uint8

// Actions a Visitor hook can return.
const (
	// Continue visits the next element.
	Continue Action = iota
	// Skip skips the rest of the game (from BeginGame, Tag, Move,
	// Comment, NAG or Setup) or the rest of the variation (from
	// BeginVariation). EndGame is still called.
	Skip
	// Stop ends the walk; Walk returns nil.
	Stop
)

// Visitor receives the elements of games from Walk, in file order,
// without Game values being built for the movetext. Pointers passed to
// hooks are valid only during the call. depth is 0 in the main line and
// n inside n nested variations. Embed BaseVisitor to implement only some
// hooks.
type Visitor interface {
	BeginGame(game int, pos Pos) Action
	Tag(name, value string) Action
	Move(m *Move, pos Pos, depth int) Action
	Comment(text string, pos Pos, depth int) Action
	NAG(nag int, pos Pos, depth int) Action
	Setup(text string, pos Pos, depth int) Action
	BeginVariation(depth int) Action
	EndVariation(depth int)
	// EndGame gets the game's tags, result and warnings (Moves is empty)
	// and the error Reader.Next would have returned with it.
	EndGame(g *Game, err error) Action
}

// BaseVisitor implements every Visitor hook by doing nothing and
// continuing.
type BaseVisitor struct{}

// BeginGame implements Visitor.
func (BaseVisitor) BeginGame(int, Pos) Action { return Continue }

// Tag implements Visitor.
func (BaseVisitor) Tag(string, string) Action { return Continue }

// Move implements Visitor.
func (BaseVisitor) Move(*Move, Pos, int) Action { return Continue }

// Comment implements Visitor.
func (BaseVisitor) Comment(string, Pos, int) Action { return Continue }

// NAG implements Visitor.
func (BaseVisitor) NAG(int, Pos, int) Action { return Continue }

// Setup implements Visitor.
func (BaseVisitor) Setup(string, Pos, int) Action { return Continue }

// BeginVariation implements Visitor.
func (BaseVisitor) BeginVariation(int) Action { return Continue }

// EndVariation implements Visitor.
func (BaseVisitor) EndVariation(int) {}

// EndGame implements Visitor.
func (BaseVisitor) EndGame(*Game, error) Action { return Continue }

// Walk reads games from rd with a default Reader and passes their elements
// to v. See Reader.Walk.
func Walk(rd io.Reader, v Visitor) error { return NewReader(rd).Walk(v) }

// Walk reads the remaining games and passes their elements to v instead of
// returning Game values. Games are split, repaired and checked exactly as
// Next does; game errors go to v.EndGame and do not stop the walk. Walk
// returns nil at the end of input or on Stop, and otherwise the read error.
func (r *Reader) Walk(v Visitor) error {
	w := &walker{v: v}
	r.vis = w
	defer func() { r.vis = nil }()
	for {
		w.reset()
		w.num = r.game + 1
		g, err := r.Next()
		if err == io.EOF {
			return nil
		}
		var ge *GameError
		if err != nil && !errors.As(err, &ge) {
			return err
		}
		if w.stop {
			return nil
		}
		w.begin(r)
		if w.stop || v.EndGame(g, err) == Stop {
			return nil
		}
	}
}

// walker is the state of a walk within one game.
type walker struct {
	v        Visitor
	began    bool
	skip     bool // hooks off for the rest of the game
	stop     bool
	skipFrom int // hooks off while inside variations at this depth or deeper (0: none)
	depth    int
	nodes    int // nodes seen in this game
	num      int // game number
	moves    [2]Move
	next     int
}

// nextMove returns a cleared Move to fill. Two are enough: a move is
// handed to the visitor before the one after the next is read.
func (w *walker) nextMove() *Move {
	m := &w.moves[w.next]
	w.next ^= 1
	*m = Move{Squares: m.Squares[:0]}
	return m
}

func (w *walker) reset() {
	w.began, w.skip, w.skipFrom, w.depth, w.nodes = false, false, 0, 0, 0
}

// begin calls BeginGame once per game; it reports whether hooks are on.
func (w *walker) begin(r *Reader) bool {
	if !w.began {
		w.began = true
		if a := w.v.BeginGame(w.num, r.g.Pos); a != Continue {
			w.act(a)
		}
	}
	return !w.skip && !w.stop && w.skipFrom == 0
}

func (w *walker) act(a Action) {
	switch a {
	case Skip:
		w.skip = true
	case Stop:
		w.stop = true
		w.skip = true
	}
}

func (w *walker) tag(r *Reader, name, value string) {
	if w.begin(r) {
		w.act(w.v.Tag(name, value))
	}
}

// flush hands the pending node (cur holds at most one) to the visitor.
func (w *walker) flush(r *Reader, cur []Node) {
	if len(cur) == 0 {
		return
	}
	w.nodes++
	if !w.begin(r) {
		return
	}
	n := &cur[0]
	var a Action
	switch n.Kind {
	case MoveNode:
		a = w.v.Move(n.Move, n.Pos, w.depth)
	case CommentNode:
		a = w.v.Comment(n.Text, n.Pos, w.depth)
	case NAGNode:
		a = w.v.NAG(int(n.NAG), n.Pos, w.depth)
	case SetupNode:
		a = w.v.Setup(n.Text, n.Pos, w.depth)
	}
	w.act(a)
}

func (w *walker) beginVariation(r *Reader, depth int) {
	w.depth = depth
	w.nodes++
	if !w.begin(r) {
		return
	}
	switch w.v.BeginVariation(depth) {
	case Skip:
		w.skipFrom = depth
	case Stop:
		w.act(Stop)
	}
}

func (w *walker) endVariation(r *Reader, depth int) {
	w.depth = depth - 1
	if w.skipFrom == depth {
		w.skipFrom = 0
		return
	}
	if w.begin(r) {
		w.v.EndVariation(depth)
	}
}
