package engine

import ()

// Variant returns the game's variant.
func (g *Game) Variant() *Variant {
	return ev(bg(g).Variant())
}

// Position returns the current position.
func (g *Game) Position() Position {
	return epos(bg(g).Position())
}

// Start returns the position the game began from.
func (g *Game) Start() Position {
	return epos(bg(g).Start())
}

// Moves returns the moves played so far; the caller must not modify the slice.
func (g *Game) Moves() []Move {
	return emoves(bg(g).Moves())
}

// Positions returns the positions before each move, followed by the current one; the caller
// must not modify the slice.
func (g *Game) Positions() []Position {
	return epositions(bg(g).Positions())
}

// Ply returns the number of moves played.
func (g *Game) Ply() int {
	return bg(g).Ply()
}

// Legal returns the legal moves of the current position, under the king-move limit too.
func (g *Game) Legal() []Move {
	return emoves(bg(g).Legal())
}

// Play plays m, which must be legal in the current position, and updates the draw state.
func (g *Game) Play(m Move) error {
	return eerr(bg(g).Play(bmove(m)))
}

// PlayText parses a move in the variant's notation and plays it.
func (g *Game) PlayText(text string) (Move, error) {
	r0, r1 := bg(g).PlayText(text)
	return emove(r0), eerr(r1)
}

// Outcome applies the variant's rules to the current position: a side with no legal move
// loses, or wins where Rules.NoMoveWins (checked first), then each automatic draw rule.
func (g *Game) Outcome() Outcome {
	return eoutcome(bg(g).Outcome())
}

// String describes o, for instance "white wins (no-legal-move)" or "draw (repetition)".
func (o Outcome) String() string {
	return boutcome(o).String()
}

// Next returns the state after m is played in p.
func (r KingRun) Next(p *Position, m Move) KingRun {
	return KingRun{r.r.Next(bp(p), bmove(m))}
}
