package match

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/rafle/rafle/pkg/engine"
)

// Player chooses the moves of one side in one game.
type Player interface {
	// Choose returns a legal move in the current position of g, which is not over. It
	// must not modify g, and should return ctx.Err() soon after ctx is cancelled.
	Choose(ctx context.Context, g *engine.Game) (engine.Move, error)
}

// Resetter is implemented by players that can play another game: Reset(seed) must leave
// the player exactly as New(v, seed) would have made it. The match then keeps one player
// per worker and colour instead of creating one per game (the engine's players hold a
// large transposition table).
type Resetter interface {
	Reset(seed int64)
}

// Entrant is a named player of a match. New creates a fresh player for one game; the seed
// is derived from the match seed, the game index and the player's colour, so a player
// that draws its randomness from it plays the same game again.
type Entrant struct {
	Name string
	New  func(v *engine.Variant, seed int64) (Player, error)
}

// Random returns an entrant named name that plays uniformly random legal moves.
func Random(name string) Entrant {
	return Entrant{Name: name, New: func(_ *engine.Variant, seed int64) (Player, error) {
		return &randomPlayer{rng: rand.New(rand.NewPCG(uint64(seed), 0x9E3779B97F4A7C15))}, nil
	}}
}

type randomPlayer struct {
	rng *rand.Rand
}

var errNoMove = errors.New("match: no legal move")

func (p *randomPlayer) Choose(ctx context.Context, g *engine.Game) (engine.Move, error) {
	if err := ctx.Err(); err != nil {
		return engine.Move{}, err
	}
	moves := g.Legal()
	if len(moves) == 0 {
		return engine.Move{}, errNoMove
	}
	return moves[p.rng.IntN(len(moves))], nil
}

// mix derives a 64-bit value from the given ones with SplitMix64 steps.
func mix(vals ...uint64) uint64 {
	var h uint64 = 0x243F6A8885A308D3
	for _, v := range vals {
		h ^= v
		h += 0x9E3779B97F4A7C15
		z := h
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		h = z ^ (z >> 31)
	}
	return h
}
