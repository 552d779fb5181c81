package match

import (
	"fmt"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// egdbOutcome returns the outcome of g's position by db (Config.EGDB): over, with
// ReasonEGDB and db's value as the result, when db holds it, and the record's detail ("white
// to move: win in 17 (FEN)"); not over when db does not hold it. A position whose side to
// move has no legal move is left to the rules.
func egdbOutcome(db *egdb.DB, g *engine.Game) (engine.Outcome, string, error) {
	p := g.Position()
	m := p.Material()
	if m.Pieces(engine.White)+m.Pieces(engine.Black) > db.MaxPieces() {
		return engine.Outcome{}, "", nil
	}
	r, err := db.Probe(&p)
	if err != nil || r.Value == egdb.Unknown || r.Plies == 0 {
		return engine.Outcome{}, "", err
	}
	out := engine.Outcome{Over: true, Reason: ReasonEGDB}
	switch r.Value {
	case egdb.Draw:
		out.Draw = true
	case egdb.Win:
		out.Winner = p.Side
	default:
		out.Winner = p.Side.Other()
	}
	return out, fmt.Sprintf("endgame database: %s to move: %s (%s)", p.Side, r, g.Variant().FEN(p)), nil
}
