package match

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// GenerateConfig describes an opening suite to generate (GenerateOpenings).
type GenerateConfig struct {
	Variant *engine.Variant
	Plies   int   // moves from the start position
	Count   int   // openings wanted
	Depth   int   // depth of the search that scores each position
	Window  int   // a position is kept when its score is within ±Window hundredths of a man
	Seed    int64 // fixes which positions are scored, in which order
	// Jobs is the number of searches run at once (0: 1).
	Jobs int
	// Progress, if not nil, is called after each position scored with the numbers of
	// positions scored and kept.
	Progress func(scored, kept int)
}

// Generated is one opening of a generated suite, with the score that kept it.
type Generated struct {
	Opening
	Score int // the search's score for the side to move, hundredths of a man
}

// GenerateStats says what GenerateOpenings did.
type GenerateStats struct {
	Positions  int  // different positions after Plies plies (transpositions removed), at most maxExplored
	Sampled    bool // a ply had more than maxExplored: a sample of them was kept
	Scored     int  // positions searched
	OutWindow  int  // left out: score outside the window
	Unbalanced int  // left out: unequal material, or the game over
	NearDups   int  // left out: a near-duplicate of one kept
}

// maxExplored bounds the positions GenerateOpenings keeps at each ply: beyond it, a random
// sample of that many (reservoir sampling, from the seed) is explored further, so that its
// memory is bounded by this times the most moves of a position.
const maxExplored = 50_000

// GenerateOpenings explores every line of cfg.Plies plies from the start position of
// cfg.Variant, one line per position (transpositions removed: the first line in move
// order reaches it), then scores the positions in an order drawn from cfg.Seed with a
// search of cfg.Depth plies (search.Limits.Depth, the default weights, a table cleared
// before each, so every score is the same on every run), and keeps a position when the
// game is not over, both sides have the same men and kings (MaterialBalanced), its score is
// within ±cfg.Window, and it is no near-duplicate of a position kept before: the same side
// to move and at most two squares different (one piece elsewhere, or one more or less).
// It stops once cfg.Count are kept, or the positions run out (then it returns fewer, and
// no error). It stops with ctx's error when ctx is done.
func GenerateOpenings(ctx context.Context, cfg GenerateConfig) ([]Generated, GenerateStats, error) {
	var st GenerateStats
	v := cfg.Variant
	if cfg.Plies < 1 || cfg.Count < 1 || cfg.Depth < 1 || cfg.Window < 0 {
		return nil, st, fmt.Errorf("match: generate openings: %d plies, %d openings, depth %d, window %d: want at least 1, 1, 1 and 0", cfg.Plies, cfg.Count, cfg.Depth, cfg.Window)
	}
	rng := rand.New(rand.NewPCG(mix(uint64(cfg.Seed), 5), mix(uint64(cfg.Seed), 6)))
	type line struct {
		pos   engine.Position
		moves []engine.Move
	}
	level := []line{{pos: v.Start()}}
	for range cfg.Plies {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		seen := map[engine.Position]bool{}
		var next []line
		unique := 0
		for _, l := range level {
			g := engine.NewGame(v, v.Start())
			for _, m := range l.moves {
				if err := g.Play(m); err != nil {
					return nil, st, err
				}
			}
			if g.Outcome().Over {
				continue
			}
			for _, m := range g.Legal() {
				p := l.pos.Play(m)
				if seen[p] {
					continue
				}
				seen[p] = true
				unique++
				nl := line{p, append(slices.Clip(l.moves), m)}
				if len(next) < maxExplored {
					next = append(next, nl)
				} else if j := rng.IntN(unique); j < maxExplored {
					next[j], st.Sampled = nl, true
				}
			}
		}
		level = next
	}
	st.Positions = len(level)
	order := rng.Perm(len(level))

	jobs := max(cfg.Jobs, 1)
	var kept []Generated
	var keptPos []engine.Position
	for start := 0; start < len(order) && len(kept) < cfg.Count; start += 4 * jobs {
		batch := order[start:min(len(order), start+4*jobs)]
		scores := make([]int, len(batch))
		ok := make([]bool, len(batch))
		var wg sync.WaitGroup
		next := make(chan int)
		for range jobs {
			wg.Go(func() {
				s := search.New(v, nil, 4)
				for k := range next {
					l := &level[batch[k]]
					g := engine.NewGame(v, v.Start())
					for _, m := range l.moves {
						g.Play(m) // legal: played above
					}
					if g.Outcome().Over || !MaterialBalanced(&l.pos) {
						continue
					}
					s.Clear()
					res := s.Search(ctx, g, search.Limits{Depth: cfg.Depth})
					scores[k], ok[k] = res.Score, true
				}
			})
		}
		for k := range batch {
			next <- k
		}
		close(next)
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		for k, i := range batch {
			if len(kept) == cfg.Count {
				break
			}
			l := &level[i]
			if !ok[k] {
				st.Unbalanced++
				continue
			}
			st.Scored++
			switch {
			case scores[k] < -cfg.Window || scores[k] > cfg.Window:
				st.OutWindow++
			case slices.ContainsFunc(keptPos, func(q engine.Position) bool { return nearDuplicate(&l.pos, &q) }):
				st.NearDups++
			default:
				keptPos = append(keptPos, l.pos)
				kept = append(kept, Generated{Opening: Opening{Name: fmt.Sprintf("gen-%d", len(kept)+1), Root: v.Start(), Moves: l.moves}, Score: scores[k]})
			}
			if cfg.Progress != nil {
				cfg.Progress(st.Scored, len(kept))
			}
		}
	}
	return kept, st, nil
}

// nearDuplicate reports whether p and q have the same side to move and differ on at most
// two squares.
func nearDuplicate(p, q *engine.Position) bool {
	if p.Side != q.Side {
		return false
	}
	pw, pb, pk := p.Sets()
	qw, qb, qk := q.Sets()
	d := 0
	for i := range 2 {
		d += bits.OnesCount64(pw[i]^qw[i]) + bits.OnesCount64(pb[i]^qb[i]) + bits.OnesCount64(pk[i]^qk[i])
	}
	return d <= 2
}
