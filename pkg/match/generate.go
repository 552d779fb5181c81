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
	// Calibration, if its Games is above 0, keeps only the positions whose games of a
	// player against itself split evenly (Calibration).
	Calibration Calibration
	// Jobs is the number of searches (and calibration games) run at once (0: 1).
	Jobs int
	// Progress, if not nil, is called after each position scored with the numbers of
	// positions scored and kept.
	Progress func(scored, kept int)
}

// Calibration is the last filter of GenerateOpenings: each position that passed the
// window and is no near-duplicate of one kept is played Games times by Player against
// itself (both sides the same spec, each game's random moves seeded from the generation's
// seed, the position and the game: the same games on every run and with any Jobs), a game
// ending as a draw once MaxPlies plies are played after the opening (0: no limit), and the
// position is kept only when the side to move scores exactly half of the games' points
// (one game: a draw; two: a win and a loss, or two draws).
type Calibration struct {
	Games    int
	Player   search.PlayerSpec
	MaxPlies int
}

// Check says what is wrong with c, or nil: negative numbers, a player with a time limit
// (its games would depend on the machine), or more than one game of a player without
// random moves (they would all be the same game).
func (c *Calibration) Check() error {
	switch {
	case c.Games < 0 || c.MaxPlies < 0:
		return fmt.Errorf("calibration: %d games, %d plies: must not be negative", c.Games, c.MaxPlies)
	case c.Games == 0:
		return nil
	case !c.Player.Deterministic():
		return fmt.Errorf("calibration player %q: a time limit makes its games depend on the machine: give depth= or nodes=", c.Player.Spec)
	case c.Games > 1 && c.Player.Random == 0:
		return fmt.Errorf("calibration player %q plays the same game every time: give it random= for %d games", c.Player.Spec, c.Games)
	}
	return nil
}

// Generated is one opening of a generated suite, with the score that kept it.
type Generated struct {
	Opening
	Score int // the search's score for the side to move, hundredths of a man
	// Wins, Draws and Losses are the side to move's results in the calibration games
	// (all 0 without calibration).
	Wins, Draws, Losses int
}

// GenerateStats says what GenerateOpenings did.
type GenerateStats struct {
	Positions  int  // different positions after Plies plies (transpositions removed), at most maxExplored
	Sampled    bool // a ply had more than maxExplored: a sample of them was kept
	Scored     int  // positions searched
	OutWindow  int  // left out: score outside the window
	Unbalanced int  // left out: unequal material, or the game over
	NearDups   int  // left out: a near-duplicate of one kept
	Calibrated int  // positions whose calibration games were played
	Unsplit    int  // left out: the calibration games did not split evenly
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
// to move and at most two squares different (one piece elsewhere, or one more or less),
// and, with cfg.Calibration, its calibration games split evenly (Calibration).
// It stops once cfg.Count are kept, or the positions run out (then it returns fewer, and
// no error). It stops with ctx's error when ctx is done.
func GenerateOpenings(ctx context.Context, cfg GenerateConfig) ([]Generated, GenerateStats, error) {
	var st GenerateStats
	v := cfg.Variant
	if cfg.Plies < 1 || cfg.Count < 1 || cfg.Depth < 1 || cfg.Window < 0 {
		return nil, st, fmt.Errorf("match: generate openings: %d plies, %d openings, depth %d, window %d: want at least 1, 1, 1 and 0", cfg.Plies, cfg.Count, cfg.Depth, cfg.Window)
	}
	if err := cfg.Calibration.Check(); err != nil {
		return nil, st, fmt.Errorf("match: generate openings: %w", err)
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
	cal := &cfg.Calibration
	var kept []Generated
	var keptPos []engine.Position
	nearKept := func(p *engine.Position) bool {
		return slices.ContainsFunc(keptPos, func(q engine.Position) bool { return nearDuplicate(p, &q) })
	}
	for start := 0; start < len(order) && len(kept) < cfg.Count; start += 4 * jobs {
		batch := order[start:min(len(order), start+4*jobs)]
		res := make([]candidate, len(batch))
		var wg sync.WaitGroup
		next := make(chan int)
		var failed error
		var once sync.Once
		for range jobs {
			wg.Go(func() {
				s := search.New(v, nil, 4)
				var c *calibrator
				if cal.Games > 0 {
					c = newCalibrator(cfg)
					defer c.close()
				}
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
					r := &res[k]
					r.score, r.scored = s.Search(ctx, g, search.Limits{Depth: cfg.Depth}).Score, true
					// keptPos is not written while the batch is played
					if c == nil || r.score < -cfg.Window || r.score > cfg.Window || nearKept(&l.pos) {
						continue
					}
					var err error
					if r.wdl, err = c.play(ctx, batch[k], Opening{Name: "candidate", Root: v.Start(), Moves: l.moves}); err != nil {
						once.Do(func() { failed = err })
						continue
					}
					r.calibrated = true
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
		if failed != nil {
			return nil, st, failed
		}
		for k, i := range batch {
			if len(kept) == cfg.Count {
				break
			}
			l, r := &level[i], &res[k]
			if !r.scored {
				st.Unbalanced++
				continue
			}
			st.Scored++
			if r.calibrated {
				st.Calibrated++
			}
			switch {
			case r.score < -cfg.Window || r.score > cfg.Window:
				st.OutWindow++
			case nearKept(&l.pos):
				st.NearDups++
			case cal.Games > 0 && 2*r.wdl[0]+r.wdl[1] != cal.Games:
				st.Unsplit++
			default:
				keptPos = append(keptPos, l.pos)
				kept = append(kept, Generated{Opening: Opening{Name: fmt.Sprintf("gen-%d", len(kept)+1), Root: v.Start(), Moves: l.moves},
					Score: r.score, Wins: r.wdl[0], Draws: r.wdl[1], Losses: r.wdl[2]})
			}
			if cfg.Progress != nil {
				cfg.Progress(st.Scored, len(kept))
			}
		}
	}
	return kept, st, nil
}

// candidate is what GenerateOpenings learns of one position of a batch.
type candidate struct {
	scored     bool   // searched: the game not over, material level
	score      int    // the search's score
	calibrated bool   // the calibration games played
	wdl        [3]int // the side to move's wins, draws and losses in them
}

// calibrator plays the calibration games of one worker of GenerateOpenings: a match
// configuration of the calibration player against itself, whose players the worker keeps
// from game to game (reset with each game's seed).
type calibrator struct {
	cfg   Config
	seats seats
	games int
}

func newCalibrator(gc GenerateConfig) *calibrator {
	ps := gc.Calibration.Player
	return &calibrator{
		cfg: Config{Variant: gc.Variant, Players: []Entrant{Engine("calibration", ps), Engine("calibration#2", ps)},
			Seed: int64(mix(uint64(gc.Seed), 7)), MaxPlies: gc.Calibration.MaxPlies},
		seats: seats{},
		games: gc.Calibration.Games,
	}
}

// play plays the calibration games of op, position number pos (its index among the
// explored positions, which with the seed fixes the games), and returns the wins, draws
// and losses of the side to move after op.
func (c *calibrator) play(ctx context.Context, pos int, op Opening) ([3]int, error) {
	var wdl [3]int
	c.cfg.Openings = []Opening{op}
	side := op.Position().Side
	for k := range c.games {
		// game k of the position: the two players' seeds come from the index (play), and
		// the first mover alternates (the spec is the same, the seeds are not)
		gm := Game{Index: pos*c.games + k, A: 0, B: 1, First: k % 2}
		rec, err := play(ctx, &c.cfg, gm, c.seats)
		if err != nil {
			return wdl, err
		}
		switch rec.Winner {
		case "":
			wdl[1]++
		case side.String():
			wdl[0]++
		default:
			wdl[2]++
		}
	}
	return wdl, nil
}

func (c *calibrator) close() { c.seats.close() }

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
