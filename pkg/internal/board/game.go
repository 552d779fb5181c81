package board

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
	// Reason says why: "no-legal-move" for the side to move without a legal move (a loss,
	// or a win where Rules.NoMoveWins), "promotion" for a man crowned where
	// Rules.PromotionWins, or the draw rule that applied ("repetition", "no-capture-100",
	// "king-moves-50", or an EndgameRule's Reason).
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
	draw      drawState // the move counters, special endings and king-move limit
}

// NewGame starts a game of v from start (v.Start() for the initial position). The start
// position counts as the first occurrence for repetitions.
func NewGame(v *Variant, start Position) *Game {
	return &Game{v: v, positions: []Position{start}, seen: map[uint64]int{start.Hash: 1},
		draw: newDrawState(v, &start)}
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
	return g.v.restrict(g.v.Generate(nil, &p), g.draw.run, &p)
}

// Play plays m, which must be legal in the current position, and updates the draw state.
func (g *Game) Play(m Move) error {
	p := g.Position()
	if !slices.Contains(g.v.Generate(nil, &p), m) {
		return &MoveError{Text: g.v.formatRaw(m), Err: ErrIllegalMove}
	}
	if err := g.v.CheckKingRun(g.draw.run, &p, m); err != nil {
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
		err = g.v.CheckKingRun(g.draw.run, &p, m)
	}
	if err != nil {
		return Move{}, err
	}
	g.play(p, m)
	return m, nil
}

func (g *Game) play(p Position, m Move) {
	next := p.Play(m)
	g.v.k.advanceDrawOf(&g.draw, p, m, next)
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, next)
	g.seen[next.Hash]++
}

// Outcome applies the variant's rules to the current position: a side with no legal move
// loses, or wins where Rules.NoMoveWins (checked first), then each automatic draw rule.
func (g *Game) Outcome() Outcome {
	p := g.Position()
	if !g.v.HasMoves(&p) || g.v.KingMoveLimit > 0 && len(g.Legal()) == 0 {
		return g.v.noMoveOutcome(&p)
	}
	d := g.v.Draw
	draw := func(reason string) Outcome { return Outcome{Over: true, Draw: true, Reason: reason} }
	if d.Repetition > 0 && g.seen[p.Hash] >= d.Repetition {
		return draw("repetition")
	}
	if d.NoCapturePlies > 0 && g.draw.noCapture >= d.NoCapturePlies {
		return draw(fmt.Sprintf("no-capture-%d", d.NoCapturePlies))
	}
	if d.KingMovePlies > 0 && g.draw.kingMoves >= d.KingMovePlies {
		return draw(fmt.Sprintf("king-moves-%d", d.KingMovePlies))
	}
	for i, rule := range d.Endgames {
		if e := g.draw.eg[i]; e.active && e.count >= rule.Limit {
			return draw(rule.Reason)
		}
	}
	return Outcome{}
}

// PositionOutcome is Outcome for a position without its game: whether p ends the game by
// the rules of play alone (the side to move has no legal move: a loss, a win where
// Rules.NoMoveWins, or the opponent's crowning where Rules.PromotionWins). The draw rules
// and the king-move limit need the game's history: PositionOutcome never reports a draw.
func (v *Variant) PositionOutcome(p *Position) Outcome {
	if v.HasMoves(p) {
		return Outcome{}
	}
	return v.noMoveOutcome(p)
}

// noMoveOutcome is the outcome of p, in which the side to move has no legal move.
func (v *Variant) noMoveOutcome(p *Position) Outcome {
	o := Outcome{Over: true, Winner: p.Side.Other(), Reason: "no-legal-move"}
	switch {
	case v.NoMoveWins:
		o.Winner = p.Side
	case v.PromotionWins && p.Material().Kings[p.Side.Other()] > 0:
		o.Reason = "promotion"
	}
	return o
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

// drawState is the state of the variant's counted draw rules and of its king-move limit
// after some moves: Game keeps one, and the search one per ply of its path.
type drawState struct {
	noCapture, kingMoves int
	eg                   [maxEndgames]egState
	run                  KingRun // the king-move limit, which is a rule of play, not a draw
}

// maxEndgames is the number of special endings a variant may have (NewVariant checks it).
const maxEndgames = 4

// newDrawState returns the draw state of a game that starts from start.
func newDrawState(v *Variant, start *Position) drawState {
	var d drawState
	if len(v.Draw.Endgames) > 0 {
		m := start.Material()
		for i, rule := range v.Draw.Endgames {
			d.eg[i].active, d.eg[i].strong = rule.Holds(m)
		}
	}
	return d
}

// egState counts one special ending: whether its condition holds, for which side, and
// the moves counted while it held.
type egState struct {
	active bool
	strong Color
	count  int
}

// endings advances the special endings over a move of side us that leaves material m.
func (d *drawState) endings(r *Rules, us Color, m Material) {
	d.countEndings(r, us)
	for i, rule := range r.Draw.Endgames {
		e := &d.eg[i]
		holds, strong := rule.Holds(m)
		if !holds || !e.active {
			e.count = 0
		}
		e.active, e.strong = holds, strong
	}
}

// countEndings counts a move of side us for each special ending that holds (and for
// which that side's moves count): endings without re-reading the conditions, for a move
// that leaves the material as it was.
func (d *drawState) countEndings(r *Rules, us Color) {
	for i, rule := range r.Draw.Endgames {
		if e := &d.eg[i]; e.active && (!rule.StrongSideOnly || us == e.strong) {
			e.count++
		}
	}
}

// drawn reports whether a counted draw rule holds (repetitions are checked apart).
func (d *drawState) drawn(rules *Rules) bool {
	r := &rules.Draw
	if r.NoCapturePlies > 0 && d.noCapture >= r.NoCapturePlies {
		return true
	}
	if r.KingMovePlies > 0 && d.kingMoves >= r.KingMovePlies {
		return true
	}
	for i, rule := range r.Endgames {
		if d.eg[i].active && d.eg[i].count >= rule.Limit {
			return true
		}
	}
	return false
}
