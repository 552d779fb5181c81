package annotate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/search"
)

// Eval is what an Analyser found in one position.
type Eval struct {
	// Move is the best move found.
	Move engine.Move
	// Score is its score for the side to move, in hundredths of a man (search's scale,
	// see search.MateScore); valid when HasScore.
	Score    int
	HasScore bool
	// Depth is the depth reported (0 when none), Nodes the nodes searched (0 when not
	// reported).
	Depth int
	Nodes int64
	// PV is the best line, starting with Move; only Move when the analyser gives no line.
	PV []engine.Move
}

// Analyser searches positions. It is not safe for concurrent use: a Run gives each of
// its workers one, made by a Factory.
type Analyser interface {
	// StartGame readies the analyser for a new game of variant v: after it, the evals of
	// the game's positions depend on the game alone (with a node or depth limit).
	StartGame(ctx context.Context, v *engine.Variant) error
	// Analyse searches the current position of g, which is not over.
	Analyse(ctx context.Context, g *engine.Game) (Eval, error)
	// Close ends what the analyser started (an engine's process).
	Close() error
}

// Factory makes the analyser of one worker.
type Factory func() (Analyser, error)

// SearchAnalyser returns a Factory of analysers that search with rafle's engine as ps
// says: its limits, weights, table size and endgame database (ps.Random is not used: an
// analysis always searches). Each analyser keeps one searcher per variant, cleared at
// the start of each game.
func SearchAnalyser(ps search.PlayerSpec) Factory {
	return func() (Analyser, error) {
		return &searchAnalyser{ps: ps, players: map[*engine.Variant]*search.Player{}}, nil
	}
}

type searchAnalyser struct {
	ps      search.PlayerSpec
	players map[*engine.Variant]*search.Player
	cur     *search.Searcher
}

func (a *searchAnalyser) StartGame(_ context.Context, v *engine.Variant) error {
	p, ok := a.players[v]
	if !ok {
		ps := a.ps
		if ps.EGDB != nil && ps.EGDB.Variant() != v {
			ps.EGDB = nil // a database of another variant than this game's
		}
		var err error
		if p, err = ps.New(v, 0); err != nil {
			return err
		}
		a.players[v] = p
	}
	a.cur = p.Searcher()
	a.cur.Clear()
	return nil
}

func (a *searchAnalyser) Analyse(ctx context.Context, g *engine.Game) (Eval, error) {
	r := a.cur.Search(ctx, g, a.ps.Limits)
	if err := ctx.Err(); err != nil {
		return Eval{}, err
	}
	if err := a.cur.EGDBError(); err != nil {
		return Eval{}, err
	}
	return Eval{Move: r.Move, Score: r.Score, HasScore: true, Depth: r.Depth, Nodes: r.Nodes, PV: r.PV}, nil
}

func (a *searchAnalyser) Close() error { return nil }

// EngineAnalyser returns a Factory of analysers that ask an external Hub engine, as
// pkg/match plays it (match.External): each analyser starts its own process at its first
// game, tells it of each new game (new-game), and asks for a move in each position with
// the game's moves before it, at the spec's time control, which must be a limit per move
// (depth, nodes or a time per move, not a clock). The engine's best line is its move
// alone. A DXP engine is refused: it plays one side of a game, not positions.
func EngineAnalyser(spec match.EngineSpec, opt match.ExternalOptions) (Factory, error) {
	if spec.Proto != "hub" {
		return nil, fmt.Errorf("annotate: engine %s: a %s engine plays one side of a game: analysis needs a Hub engine", spec.Name, spec.Proto)
	}
	if spec.Control.Base > 0 {
		return nil, fmt.Errorf("annotate: engine %s: a clock (%v) is no limit per position: give depth, nodes or a time per move", spec.Name, &spec.Control)
	}
	if spec.Control.Depth == 0 && spec.Control.Nodes == 0 && spec.Control.MoveTime == 0 {
		return nil, fmt.Errorf("annotate: engine %s: no limit per position: give depth, nodes or a time per move", spec.Name)
	}
	e := match.External(spec, opt)
	return func() (Analyser, error) {
		return &engineAnalyser{e: e, players: map[*engine.Variant]match.Player{}}, nil
	}, nil
}

type engineAnalyser struct {
	e       match.Entrant
	players map[*engine.Variant]match.Player
	cur     match.Player
	games   int
}

func (a *engineAnalyser) StartGame(ctx context.Context, v *engine.Variant) error {
	p, ok := a.players[v]
	if !ok {
		var err error
		if p, err = a.e.New(v, 0); err != nil {
			return err
		}
		a.players[v] = p
	}
	a.cur = p
	if o, ok := p.(match.Observer); ok {
		// the engine is told of a new game: its tables then hold nothing of the last one
		if err := o.StartGame(ctx, match.GameInfo{Index: a.games, Color: v.FirstMover, White: "annotate", Black: "annotate"}); err != nil {
			a.drop(v)
			return engineError(a.e.Name, err)
		}
	}
	a.games++
	return nil
}

func (a *engineAnalyser) Analyse(ctx context.Context, g *engine.Game) (Eval, error) {
	r, err := a.cur.Choose(ctx, match.Turn{Game: g})
	if err != nil {
		a.drop(g.Variant())
		return Eval{}, engineError(a.e.Name, err)
	}
	if !slices.Contains(g.Legal(), r.Move) {
		a.drop(g.Variant())
		p := g.Position()
		return Eval{}, fmt.Errorf("annotate: engine %s: illegal move %s in %s", a.e.Name, g.Variant().FormatMove(&p, r.Move, true), g.Variant().FEN(p))
	}
	return Eval{Move: r.Move, Score: r.Score, HasScore: r.HasScore, Depth: r.Depth, Nodes: r.Nodes, PV: []engine.Move{r.Move}}, nil
}

// drop closes the player of v after a failure: the next game starts a new one.
func (a *engineAnalyser) drop(v *engine.Variant) {
	if c, ok := a.players[v].(io.Closer); ok {
		c.Close()
	}
	delete(a.players, v)
}

// engineError words a failure of the engine; a cancellation comes back as it is.
func engineError(name string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("annotate: engine %s: %w", name, err)
}

func (a *engineAnalyser) Close() error {
	var errs []error
	for v, p := range a.players {
		if c, ok := p.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
		delete(a.players, v)
	}
	return errors.Join(errs...)
}
