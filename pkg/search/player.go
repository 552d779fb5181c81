package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
)

// The computer levels of every variant (docs/rules.md#levels).
const (
	// EasyRandom is the probability that the easy level plays a uniformly random legal move
	// instead of its 2-ply choice. The draw uses the player's seeded generator.
	EasyRandom = 0.3
	// HardMoveTime is the time the hard level allows itself per move (under one second).
	HardMoveTime = 900 * time.Millisecond
	// DefaultHashMB is the transposition table size of a player unless its spec sets hash=.
	DefaultHashMB = 16
	// MaxHashMB is the transposition table size of the max level.
	MaxHashMB = 64
)

// Levels returns the names of the built-in levels, weakest first: the three of the
// specification (docs/rules.md#levels) and max, rafle's strongest fixed player.
func Levels() []string { return []string{"easy", "medium", "hard", "max"} }

// PlayerSpec describes a computer player: the search limits and options. ParsePlayer builds
// one from text; New makes a Player for a variant.
type PlayerSpec struct {
	// Spec is the text the spec was parsed from (canonical for the built-in levels).
	Spec string
	// Limits are the search limits of every move.
	Limits Limits
	// Random is the probability of playing a random legal move instead of searching.
	Random float64
	// WeightsFile is a weights JSON file (LoadWeights); empty for the built-in weights of
	// Eval.
	WeightsFile string
	// Eval names the built-in evaluation (Evaluations: EvalPattern, the default when
	// empty, or EvalHand) when WeightsFile is empty.
	Eval string
	// HashMB is the size of the transposition table (0: DefaultHashMB).
	HashMB int
	// EGDB, when set, is the endgame database the player uses (Searcher.SetEGDB): it plays
	// the positions it holds from it, never at random. It must be of the player's variant.
	EGDB *egdb.DB
}

// Level returns the spec of a built-in level: "easy" (2 plies, leaves evaluated statically,
// a random move with probability EasyRandom, 1 MiB table), "medium" (4 plies, captures
// followed to the end, 4 MiB) or "hard" (iterative deepening up to 8 plies within
// HardMoveTime, DefaultHashMB); and "max", which is not one of the specification's three:
// iterative deepening without a depth cap within HardMoveTime, MaxHashMB.
func Level(name string) (PlayerSpec, bool) {
	switch strings.ToLower(name) {
	case "easy":
		return PlayerSpec{Spec: "easy", Limits: Limits{Depth: 2, NoQuiescence: true, FullWidth: true}, Random: EasyRandom, HashMB: 1}, true
	case "medium":
		return PlayerSpec{Spec: "medium", Limits: Limits{Depth: 4, FullWidth: true}, HashMB: 4}, true
	case "hard":
		return PlayerSpec{Spec: "hard", Limits: Limits{Depth: 8, MoveTime: HardMoveTime, FullWidth: true}, HashMB: DefaultHashMB}, true
	case "max":
		return PlayerSpec{Spec: "max", Limits: Limits{MoveTime: HardMoveTime}, HashMB: MaxHashMB}, true
	}
	return PlayerSpec{}, false
}

// ParsePlayer reads a player spec: a level name, or options, or a level name followed by
// options that change it, all separated by colons (no commas, so that specs can be listed
// with commas, "--players hard,depth=6:weights=w.json"):
//
//	easy | medium | hard | max
//	depth=N        maximum depth in plies
//	nodes=N        maximum nodes per move
//	movetime=D     time per move, a Go duration ("200ms", "1.5s")
//	weights=FILE   evaluation weights (JSON, see LoadWeights)
//	eval=NAME      built-in evaluation: pattern (trained, the default) or hand (hand-set)
//	random=P       probability of a random move, 0 to 1
//	hash=MB        transposition table size
//	quiescence=B   follow captures at the leaves (true, the default, or false)
//	threads=N      threads searching, sharing the table (at most the machine's CPUs)
//
// Examples: "hard", "hard:weights=tuned.json", "hard:eval=hand", "depth=6:movetime=200ms",
// "easy:random=0".
// A spec without a level needs depth, nodes or movetime. Errors are one line naming the
// offending token. hash= is at most 65536 MiB here; whether the machine has that memory is
// for the command to check, with HashMiB of every player it makes.
func ParsePlayer(spec string) (PlayerSpec, error) {
	text := strings.TrimSpace(spec)
	bad := func(tok, format string, args ...any) (PlayerSpec, error) {
		return PlayerSpec{}, fmt.Errorf("engine: player %q: %q: %s", spec, tok, fmt.Sprintf(format, args...))
	}
	if text == "" {
		return PlayerSpec{}, errors.New("engine: empty player spec (want easy, medium, hard, max or options such as depth=6)")
	}
	tokens := strings.Split(text, ":")
	var ps PlayerSpec
	leveled := false
	if l, ok := Level(strings.TrimSpace(tokens[0])); ok {
		ps, leveled = l, true
		tokens = tokens[1:]
	}
	ps.Spec = text
	seen := map[string]bool{}
	for _, tok := range tokens {
		tok = strings.TrimSpace(tok)
		key, val, ok := strings.Cut(tok, "=")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if !ok {
			if _, isLevel := Level(key); isLevel {
				return bad(tok, "a level must come first")
			}
			return bad(tok, "want a level (easy, medium, hard, max) or key=value")
		}
		if seen[key] {
			return bad(tok, "%s given twice", key)
		}
		seen[key] = true
		switch key {
		case "depth":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > MaxDepth {
				return bad(tok, "depth must be an integer from 1 to %d", MaxDepth)
			}
			ps.Limits.Depth = n
		case "nodes":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil || n < 1 {
				return bad(tok, "nodes must be a positive integer")
			}
			ps.Limits.Nodes = n
		case "movetime":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return bad(tok, "movetime must be a positive duration such as 200ms or 1s")
			}
			ps.Limits.MoveTime = d
		case "weights":
			if val == "" {
				return bad(tok, "weights needs a file name")
			}
			ps.WeightsFile = val
		case "eval":
			if val != EvalPattern && val != EvalHand {
				return bad(tok, "eval must be %s", strings.Join(Evaluations(), " or "))
			}
			ps.Eval = val
		case "random":
			x, err := strconv.ParseFloat(val, 64)
			if err != nil || !(x >= 0 && x <= 1) {
				return bad(tok, "random must be a probability from 0 to 1")
			}
			ps.Random = x
		case "hash":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 1<<16 {
				return bad(tok, "hash must be a size in MiB from 1 to 65536")
			}
			ps.HashMB = n
		case "threads":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return bad(tok, "threads must be a positive integer")
			}
			ps.Limits.Threads = n
		case "quiescence":
			b, err := strconv.ParseBool(val)
			if err != nil {
				return bad(tok, "quiescence must be true or false")
			}
			ps.Limits.NoQuiescence = !b
		default:
			return bad(tok, "unknown option %q (want depth, nodes, movetime, weights, eval, random, hash, quiescence, threads)", key)
		}
	}
	if ps.WeightsFile != "" && ps.Eval != "" {
		return PlayerSpec{}, fmt.Errorf("engine: player %q: weights= and eval= exclude each other", spec)
	}
	if !leveled && ps.Limits.Depth == 0 && ps.Limits.Nodes == 0 && ps.Limits.MoveTime == 0 {
		return PlayerSpec{}, fmt.Errorf("engine: player %q: needs a level or a limit (depth=, nodes= or movetime=)", spec)
	}
	return ps, nil
}

// HashMiB returns the size in MiB of the transposition table of a player made from ps:
// HashMB, or DefaultHashMB when it is 0.
func (ps PlayerSpec) HashMiB() int {
	if ps.HashMB == 0 {
		return DefaultHashMB
	}
	return ps.HashMB
}

// String returns the spec's text.
func (ps PlayerSpec) String() string { return ps.Spec }

// Deterministic reports whether the spec's moves depend only on the game and the seed (no
// time limit, one thread).
func (ps PlayerSpec) Deterministic() bool { return ps.Limits.MoveTime == 0 && ps.Limits.Threads <= 1 }

// New returns a player of v following ps. The seed drives the random moves; with the same
// seed and a spec without a time limit, the player chooses the same moves in the same games.
// It returns an error when the weights file cannot be read or does not fit v.
func (ps PlayerSpec) New(v *engine.Variant, seed int64) (*Player, error) {
	var w *Weights
	if ps.WeightsFile != "" {
		f, err := os.Open(ps.WeightsFile)
		if err != nil {
			return nil, fmt.Errorf("engine: player %q: %w", ps.Spec, err)
		}
		defer f.Close()
		w, err = LoadWeights(f, v)
		if err != nil {
			return nil, fmt.Errorf("engine: player %q: %s: %w", ps.Spec, ps.WeightsFile, err)
		}
	} else {
		var err error
		if w, err = EvalWeights(v, ps.Eval); err != nil {
			return nil, fmt.Errorf("engine: player %q: %w", ps.Spec, err)
		}
	}
	s := New(v, w, ps.HashMiB())
	if err := s.SetEGDB(ps.EGDB); err != nil {
		return nil, fmt.Errorf("engine: player %q: %w", ps.Spec, err)
	}
	return &Player{
		spec:   ps,
		search: s,
		rng:    newPlayerRand(seed),
	}, nil
}

// Player is a computer player, as PlayerSpec.New makes one: a Searcher with fixed limits
// and a seeded generator for random moves. It is not safe for concurrent use.
type Player struct {
	spec   PlayerSpec
	search *Searcher
	rng    *rand.Rand
}

// Name returns the player's spec text ("custom" for a spec without one).
func (sp *Player) Name() string {
	if sp.spec.Spec == "" {
		return "custom"
	}
	return sp.spec.Spec
}

// Searcher returns the player's searcher.
func (sp *Player) Searcher() *Searcher { return sp.search }

// Reset clears the searcher's tables (between games). It does not reseed the generator.
func (sp *Player) Reset() { sp.search.Clear() }

// Reseed clears the searcher's tables and restarts the generator from seed: the player
// then chooses exactly as a new one made by PlayerSpec.New with that seed.
func (sp *Player) Reseed(seed int64) {
	sp.search.Clear()
	sp.rng = newPlayerRand(seed)
}

// newPlayerRand returns the generator of a player with the given seed.
func newPlayerRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x7261666c65)) // stream "rafle"
}

// ErrNoMove is returned by Choose when the game has no legal move.
var ErrNoMove = errors.New("engine: no legal move")

// Choose plays a random legal move with the spec's probability, and otherwise searches. A
// position that the searcher's endgame database holds (Searcher.SetEGDB) is played from it,
// never at random.
func (sp *Player) Choose(ctx context.Context, g *engine.Game) (Result, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return Result{}, ErrNoMove
	}
	if sp.spec.Random > 0 && !sp.search.InEGDB(g) && sp.rng.Float64() < sp.spec.Random {
		m := legal[sp.rng.IntN(len(legal))]
		return Result{Move: m, PV: []engine.Move{m}, Random: true}, nil
	}
	res := sp.search.Search(ctx, g, sp.spec.Limits)
	if err := ctx.Err(); err != nil && res.Depth == 0 && len(legal) > 1 {
		return res, err
	}
	return res, nil
}
