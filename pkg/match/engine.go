package match

import (
	"context"
	"math/rand/v2"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// Engine returns an entrant named name that plays with the engine's search as ps says.
// Its players can be reset between games (Resetter) and then play exactly as new ones.
func Engine(name string, ps search.PlayerSpec) Entrant {
	return Entrant{Name: name, Deterministic: ps.Deterministic(), New: func(v *engine.Variant, seed int64) (Player, error) {
		searchOnly := ps
		searchOnly.Random = 0 // the random moves are drawn here, so that Reset can reseed them
		sp, err := searchOnly.New(v, seed)
		if err != nil {
			return nil, err
		}
		e := &enginePlayer{sp: sp, random: ps.Random}
		e.Reset(seed)
		return e, nil
	}}
}

// enginePlayer plays a random move with probability random, and otherwise searches: the
// same choices as search.Player, with the same generator for a given seed.
type enginePlayer struct {
	sp     *search.Player
	random float64
	rng    *rand.Rand
}

// engineRandomStream is the PCG stream search.PlayerSpec.New uses ("rafle").
const engineRandomStream = 0x7261666c65

// Reset clears the search tables and reseeds the random moves, as for a new player.
func (e *enginePlayer) Reset(seed int64) {
	e.sp.Reset()
	e.rng = rand.New(rand.NewPCG(uint64(seed), engineRandomStream))
}

// Choose plays a random move with the spec's probability, and otherwise searches.
func (e *enginePlayer) Choose(ctx context.Context, t Turn) (Reply, error) {
	legal := t.Game.Legal()
	if len(legal) == 0 {
		return Reply{}, search.ErrNoMove
	}
	if e.random > 0 && !e.sp.Searcher().InEGDB(t.Game) && e.rng.Float64() < e.random { // (never in the database)
		return Reply{Move: legal[e.rng.IntN(len(legal))]}, nil
	}
	res, err := e.sp.Choose(ctx, t.Game)
	return Reply{Move: res.Move, Depth: res.Depth, Score: res.Score, HasScore: true, Nodes: res.Nodes}, err
}

// SearchBalanced returns an opening filter for RandomOpenings: it keeps a position when
// material is balanced (MaterialBalanced) and a fixed-depth search of the engine's
// default evaluation scores it within margin hundredths of a man for the side to move.
// The filter is not safe for concurrent use.
func SearchBalanced(v *engine.Variant, depth, margin int) func(g *engine.Game) bool {
	s := search.New(v, nil, 1)
	return func(g *engine.Game) bool {
		p := g.Position()
		if !MaterialBalanced(&p) {
			return false
		}
		s.Clear()
		res := s.Search(context.Background(), g, search.Limits{Depth: depth})
		return res.Score >= -margin && res.Score <= margin
	}
}
