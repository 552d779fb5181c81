package engine

import (
	"fmt"
	"slices"
)

// Outcome is the state of a game under its variant's rules.
type Outcome struct {
	// Over is set when the game has ended.
	Over bool
	// Draw is set for a drawn game; otherwise Winner won.
	Draw   bool
	Winner Color
	// Reason says why: "no-legal-move" for a loss, or the draw rule that applied
	// ("repetition", "no-capture-100", "king-moves-50", or an EndgameRule's Reason).
	Reason string
}

// String describes o, for instance "white wins (no-legal-move)" or "draw (repetition)".
func (o Outcome) String() string {
	switch {
	case !o.Over:
		return "in progress"
	case o.Draw:
		return "draw (" + o.Reason + ")"
	}
	return fmt.Sprintf("%s wins (%s)", o.Winner, o.Reason)
}

// Game is a position with its history: the moves played, and the state the draw rules need
// (repetitions, the move counters). Positions do not carry that state; games do.
type Game struct {
	v         *Variant
	positions []Position // positions[i] is the position before moves[i]; the last is current
	moves     []Move
	seen      map[uint64]int
	noCapture int // plies since the last capture
	kingMoves int // consecutive plies by kings without capture
	endgames  []endgameCount
	run       KingRun // the king-move limit's state (Rules.KingMoveLimit)
}

type endgameCount struct {
	active bool // the condition holds in the current position
	strong Color
	count  int
}

// NewGame starts a game of v from start (v.Start() for the initial position). The start
// position counts as the first occurrence for repetitions.
func NewGame(v *Variant, start Position) *Game {
	g := &Game{v: v, positions: []Position{start}, seen: map[uint64]int{start.Hash: 1}}
	g.endgames = make([]endgameCount, len(v.Draw.Endgames))
	for i, rule := range v.Draw.Endgames {
		g.endgames[i].active, g.endgames[i].strong = rule.Holds(&start)
	}
	return g
}

// Variant returns the game's variant.
func (g *Game) Variant() *Variant { return g.v }

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// Start returns the position the game began from.
func (g *Game) Start() Position { return g.positions[0] }

// Moves returns the moves played so far; the caller must not modify the slice.
func (g *Game) Moves() []Move { return g.moves }

// Positions returns the positions before each move, followed by the current one; the caller
// must not modify the slice.
func (g *Game) Positions() []Position { return g.positions }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Legal returns the legal moves of the current position, under the king-move limit too.
func (g *Game) Legal() []Move {
	p := g.Position()
	return g.v.restrict(g.v.Generate(nil, &p), g.run, &p)
}

// Play plays m, which must be legal in the current position, and updates the draw state.
func (g *Game) Play(m Move) error {
	p := g.Position()
	if !slices.Contains(g.v.Generate(nil, &p), m) {
		return &MoveError{Text: g.v.formatRaw(m), Err: ErrIllegalMove}
	}
	if err := g.v.CheckKingRun(g.run, &p, m); err != nil {
		return err
	}
	g.play(p, m)
	return nil
}

// PlayText parses a move in the variant's notation and plays it.
func (g *Game) PlayText(text string) (Move, error) {
	p := g.Position()
	m, err := g.v.ParseMove(&p, text)
	if err == nil {
		err = g.v.CheckKingRun(g.run, &p, m)
	}
	if err != nil {
		return Move{}, err
	}
	g.play(p, m)
	return m, nil
}

func (g *Game) play(p Position, m Move) {
	next := p.Play(m)
	if g.v.KingMoveLimit > 0 {
		g.run = g.run.Next(&p, m)
	}
	if m.IsCapture() {
		g.noCapture, g.kingMoves = 0, 0
	} else {
		g.noCapture++
		if p.Kings.Has(m.From) {
			g.kingMoves++
		} else {
			g.kingMoves = 0
		}
	}
	for i, rule := range g.v.Draw.Endgames {
		e := &g.endgames[i]
		if e.active && (!rule.StrongSideOnly || p.Side == e.strong) {
			e.count++
		}
		holds, strong := rule.Holds(&next)
		if !holds || !e.active {
			e.count = 0
		}
		e.active, e.strong = holds, strong
	}
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, next)
	g.seen[next.Hash]++
}

// Outcome applies the variant's rules to the current position: a side with no legal move
// loses (checked first), then each automatic draw rule.
func (g *Game) Outcome() Outcome {
	p := g.Position()
	if !g.v.HasMoves(&p) || g.v.KingMoveLimit > 0 && len(g.Legal()) == 0 {
		return Outcome{Over: true, Winner: p.Side.Other(), Reason: "no-legal-move"}
	}
	d := g.v.Draw
	draw := func(reason string) Outcome { return Outcome{Over: true, Draw: true, Reason: reason} }
	if d.Repetition > 0 && g.seen[p.Hash] >= d.Repetition {
		return draw("repetition")
	}
	if d.NoCapturePlies > 0 && g.noCapture >= d.NoCapturePlies {
		return draw(fmt.Sprintf("no-capture-%d", d.NoCapturePlies))
	}
	if d.KingMovePlies > 0 && g.kingMoves >= d.KingMovePlies {
		return draw(fmt.Sprintf("king-moves-%d", d.KingMovePlies))
	}
	for i, rule := range d.Endgames {
		if e := g.endgames[i]; e.active && e.count >= rule.Limit {
			return draw(rule.Reason)
		}
	}
	return Outcome{}
}

// formatRaw writes m without a position, for error messages.
func (v *Variant) formatRaw(m Move) string {
	quiet, capture := v.separators()
	sep := quiet
	if m.IsCapture() {
		sep = capture
	}
	return v.SquareName(v.sq[m.From]) + sep + v.SquareName(v.sq[m.To])
}
