package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// Player chooses the moves of one side in one game.
type Player interface {
	// Choose returns a move in the current position of t.Game, which is not over. It must
	// not modify the game, and should return ctx.Err() soon after ctx is cancelled. The
	// match checks the move against the rules: an illegal move loses the game. A player
	// that fails in a way that should lose the game rather than stop the match (an external
	// engine that crashed, hung or answered garbage) returns a *Forfeit.
	Choose(ctx context.Context, t Turn) (Reply, error)
}

// Turn is what a player is asked to move in: the game, and its clock when the player has
// a time control.
type Turn struct {
	Game  *engine.Game
	Clock *Clock // nil: the player has no time control
}

// Reply is a player's move with what it reported of its search.
type Reply struct {
	Move     engine.Move
	Depth    int   // last depth reported; 0 when none
	Score    int   // for the side to move, in hundredths of a man; valid when HasScore
	HasScore bool  // the player reported a score
	Nodes    int64 // nodes searched; 0 when not reported
	// Elapsed, when set, is the move's time as the player measured it where it talks to an
	// engine (Hub: from the search's lines written to the answer read); the clock is
	// charged that rather than the whole call, so that rafle's own work around the
	// protocol (formatting the game, checking the answer) is not the engine's time.
	Elapsed time.Duration
}

// Resetter is implemented by players that can play another game: Reset(seed) must leave
// the player exactly as New(v, seed) would have made it. The match then keeps one player
// per worker and entrant instead of creating one per game (the engine's players hold a
// large transposition table, external engines a process).
type Resetter interface {
	Reset(seed int64)
}

// Observer is implemented by players that want to know where each game starts and how it
// ends: external engines open a transcript per game and tell the engine the result.
type Observer interface {
	// StartGame is called before the first move of every game the player takes part in;
	// it should return soon after ctx is cancelled.
	StartGame(ctx context.Context, info GameInfo) error
	// EndGame is called once the game is over (not when it is abandoned on cancellation),
	// with its record.
	EndGame(rec *Record)
}

// GameInfo describes a game to a player that observes it.
type GameInfo struct {
	Index int          // game index, from 0
	Color engine.Color // the player's colour
	White string       // the players' names
	Black string
}

// Forfeit is the error of a player that lost the game by failing rather than by the rules:
// an external engine that played an illegal move, ran out of time, crashed, hung or broke
// its protocol. The match records the loss with Reason as its termination, writes Text and
// the position in the PDN, closes the player when it is an io.Closer, and goes on with a new
// one.
type Forfeit struct {
	Reason string // one of the Reason* constants
	Text   string // the offending text (a move, a line), when there is one
	Err    error  // the underlying error
}

// Termination reasons of forfeits and adjudications.
const (
	ReasonIllegalMove     = "illegal-move"
	ReasonTimeForfeit     = "time-forfeit"
	ReasonCrash           = "crash"
	ReasonStall           = "stall"
	ReasonProtocolError   = "protocol-error"
	ReasonAdjudicatedWin  = "adjudicated-win"  // Adjudication.ResignMoves
	ReasonAdjudicatedDraw = "adjudicated-draw" // Adjudication.DrawMoves
	ReasonMaxPlies        = "max-plies"        // Config.MaxPlies
	ReasonEGDB            = "egdb"             // Config.EGDB
)

func (f *Forfeit) Error() string {
	msg := f.Reason
	if f.Err != nil {
		msg += ": " + f.Err.Error()
	}
	if f.Text != "" {
		msg += fmt.Sprintf(" (%q)", f.Text)
	}
	return msg
}

// Unwrap returns the underlying error.
func (f *Forfeit) Unwrap() error { return f.Err }

// Entrant is a named player of a match. New creates a fresh player for one game; the seed
// is derived from the match seed, the game index and the player's colour, so a player
// that draws its randomness from it plays the same game again.
type Entrant struct {
	Name string
	New  func(v *engine.Variant, seed int64) (Player, error)
	// Control is the entrant's time control, kept by the match; nil for none (in-process
	// players with their own search limits).
	Control *TimeControl
	// Deterministic is set when the entrant plays the same moves from the same seed (no
	// time limit), so that a match with only such entrants is reproducible.
	Deterministic bool
}

// Random returns an entrant named name that plays uniformly random legal moves.
func Random(name string) Entrant {
	return Entrant{Name: name, Deterministic: true, New: func(_ *engine.Variant, seed int64) (Player, error) {
		return &randomPlayer{rng: rand.New(rand.NewPCG(uint64(seed), 0x9E3779B97F4A7C15))}, nil
	}}
}

type randomPlayer struct {
	rng *rand.Rand
}

var errNoMove = errors.New("match: no legal move")

func (p *randomPlayer) Choose(ctx context.Context, t Turn) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return Reply{}, err
	}
	moves := t.Game.Legal()
	if len(moves) == 0 {
		return Reply{}, errNoMove
	}
	return Reply{Move: moves[p.rng.IntN(len(moves))]}, nil
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
