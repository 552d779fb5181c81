package egdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rafle/rafle/pkg/engine"
)

// Value is the value of a position for the side to move.
type Value uint8

const (
	// Unknown: the position is not in the database (its slice was not built, or the
	// variant's rules leave it out: see Supported).
	Unknown Value = iota
	// Loss: the side to move loses with best play.
	Loss
	// Draw: neither side can force a win under the move rules.
	Draw
	// Win: the side to move wins with best play.
	Win
)

// String returns "unknown", "loss", "draw" or "win".
func (v Value) String() string {
	switch v {
	case Loss:
		return "loss"
	case Draw:
		return "draw"
	case Win:
		return "win"
	}
	return "unknown"
}

// Negate returns the value for the other side: a win becomes a loss and the reverse.
func (v Value) Negate() Value {
	switch v {
	case Loss:
		return Win
	case Win:
		return Loss
	}
	return v
}

// Result is the answer of a probe.
type Result struct {
	// Value is the value for the side to move; Unknown when the position is not in the
	// database.
	Value Value
	// Plies is, for a win or a loss, the number of plies to the end of the game with best
	// play (the winner takes the shortest way, the loser the longest): 0 when the game is
	// over in the position (the side to move has no legal move), 1 for a win in one move.
	// It is -1 for a draw, for Unknown, and for a win or loss stored without its distance.
	Plies int
}

// String returns "win in 7", "loss in 0", "draw" or "unknown".
func (r Result) String() string {
	if (r.Value == Win || r.Value == Loss) && r.Plies >= 0 {
		return fmt.Sprintf("%s in %d", r.Value, r.Plies)
	}
	return r.Value.String()
}

// Better reports whether r is better than s for the side to move: a win beats a draw,
// which beats a loss (Unknown is worst); among wins the shorter, and a win stored without
// its distance before every win with one (it may be the shortest: a caller that must make
// progress searches it, as pkg/search does); among losses the longer, one without its
// distance last.
func (r Result) Better(s Result) bool {
	rank := func(x Result) int {
		switch x.Value {
		case Win:
			return 3_000_000 - x.Plies
		case Draw:
			return 2_000_000
		case Loss:
			return 1_000_000 + x.Plies
		}
		return 0
	}
	return rank(r) > rank(s)
}

// ErrDamaged is the sentinel every error about a damaged, truncated or foreign slice file
// unwraps to; the error names the file.
var ErrDamaged = errors.New("egdb: damaged file")

// DefaultCacheMB is the cache of Open when Options.CacheMB is 0.
const DefaultCacheMB = 64

// MaxPieces is the largest number of pieces a slice may hold.
const MaxPieces = 8

// Options are the settings of Open.
type Options struct {
	// CacheMB bounds the memory of the decompressed blocks kept in memory, in MiB (0:
	// DefaultCacheMB). The DB also holds each open slice's block table (8 bytes a block
	// of BlockPositions positions) and one file descriptor per open slice.
	CacheMB int
}

// DefaultDir returns the directory a variant's database goes to by default:
// os.UserCacheDir()/rafle/egdb/VARIANT.
func DefaultDir(variant string) (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("egdb: no cache directory: %w", err)
	}
	return filepath.Join(dir, "rafle", "egdb", variant), nil
}

// Supported returns nil when v's databases can be built, or an error saying in one line
// why not.
func Supported(v *engine.Variant) error {
	_, err := newGeometry(v)
	return err
}

// Coverage returns "" when a database of v holds every position of its slices, or one
// line saying which positions it leaves out and why (frisian: the positions with men;
// breakthrough: those with kings, where the game is already over). Positions left out
// probe as Unknown, or as the end of the game.
func Coverage(v *engine.Variant) string {
	switch {
	case v.KingMoveLimit > 0:
		return fmt.Sprintf("kings only: %s's king-move limit (%d moves with the same king while a side has men) depends on the moves before a position, which a database of positions does not hold", v.Name, v.KingMoveLimit)
	case v.PromotionWins:
		return fmt.Sprintf("men only: in %s the first king ends the game", v.Name)
	}
	return ""
}

// Probe returns the value of p from the database: Unknown (with a nil error) when p is not
// in it. A position whose side to move has no legal move because it has no piece, or in
// breakthrough because the opponent has crowned a man, gets its value without a file. An
// error means a slice file could not be read or is damaged (the error names it, and wraps
// ErrDamaged for damage); the DB stays usable for the other slices.
func (db *DB) Probe(p *engine.Position) (Result, error) {
	return db.probe(p)
}
