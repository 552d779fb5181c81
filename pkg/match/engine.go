package match

import (
	"context"

	"github.com/rafle/rafle/pkg/engine"
)

// Engine returns an entrant named name that plays with the engine's search as ps says.
func Engine(name string, ps engine.PlayerSpec) Entrant {
	return Entrant{Name: name, New: func(v *engine.Variant, seed int64) (Player, error) {
		p, err := ps.New(v, seed)
		if err != nil {
			return nil, err
		}
		return enginePlayer{p}, nil
	}}
}

type enginePlayer struct{ p engine.Player }

func (e enginePlayer) Choose(ctx context.Context, g *engine.Game) (engine.Move, error) {
	res, err := e.p.Choose(ctx, g)
	return res.Move, err
}

// SearchBalanced returns an opening filter for RandomOpenings: it keeps a position when
// material is balanced (MaterialBalanced) and a fixed-depth search of the engine's
// default evaluation scores it within margin hundredths of a man for the side to move.
// The filter is not safe for concurrent use.
func SearchBalanced(v *engine.Variant, depth, margin int) func(g *engine.Game) bool {
	s := engine.NewSearcher(v, nil, 1)
	return func(g *engine.Game) bool {
		p := g.Position()
		if !MaterialBalanced(&p) {
			return false
		}
		s.Clear()
		res := s.Search(context.Background(), g, engine.Limits{Depth: depth})
		return res.Score >= -margin && res.Score <= margin
	}
}
