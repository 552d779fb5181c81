package book

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// FormatVersion is the version of the JSON book format that WriteJSON writes.
const FormatVersion = 1

// ErrCollision is returned, wrapped, when two different positions have the same hash.
var ErrCollision = errors.New("book: hash collision")

// Book is an opening book of one variant. The zero value is not usable; use New,
// Build, Expand or ReadJSON.
type Book struct {
	// Variant is the variant of every position.
	Variant *engine.Variant
	// Root is the position book lines start from (the variant's start position).
	Root engine.Position
	// MaxPly is the number of plies from the start that the book covers.
	MaxPly int
	// MinGames is the pruning threshold the book was made with (0 or 1: none).
	MinGames int
	// Games is the number of games the book was built from.
	Games int
	// Source describes where the book came from (free text, kept in the file).
	Source string
	// Depth, Nodes and Seed describe an expanded book: the search depth, the number of
	// positions expanded, and the tie-break seed.
	Depth int
	Nodes int
	Seed  int64

	entries map[uint64]*Entry
}

// Entry is one book position with its book moves.
type Entry struct {
	Position engine.Position
	// Ply is the fewest plies from the start of a game at which the position was met.
	Ply int
	// Moves are the book moves, sorted by Games, then Eval, then notation, best first
	// (see Book.Sort).
	Moves []MoveStat
	// Eval is the position's value for the side to move in an expanded book.
	Eval *int
}

// MoveStat is one book move with its statistics, from the point of view of the side
// that plays it. Results are {Wins, Draws, Losses}; Games - Wins - Draws - Losses games
// had no known result.
type MoveStat struct {
	Move                       engine.Move
	Games, Wins, Draws, Losses int
	// Eval is the engine's score of the move for the side that plays it, in hundredths
	// of a man, when known.
	Eval *int
}

// Score returns the mover's score (wins + draws/2) as a fraction of the games with a
// known result, and false when there are none.
func (m *MoveStat) Score() (float64, bool) {
	n := m.Wins + m.Draws + m.Losses
	if n == 0 {
		return 0, false
	}
	return (float64(m.Wins) + float64(m.Draws)/2) / float64(n), true
}

// New returns an empty book of v that starts from v's start position.
func New(v *engine.Variant) *Book {
	return &Book{Variant: v, Root: v.Start(), entries: map[uint64]*Entry{}}
}

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.entries) }

// Moves returns the total number of book moves over all positions.
func (b *Book) Moves() int {
	n := 0
	for _, e := range b.entries {
		n += len(e.Moves)
	}
	return n
}

// Lookup returns the entry of p, or nil when p is not in the book.
func (b *Book) Lookup(p *engine.Position) *Entry {
	e := b.entries[p.Hash]
	if e == nil || !e.Position.Equal(p) {
		return nil
	}
	return e
}

// Entries returns the entries sorted by hash (a stable order for output).
func (b *Book) Entries() []*Entry {
	keys := slices.Sorted(maps.Keys(b.entries))
	out := make([]*Entry, len(keys))
	for i, k := range keys {
		out[i] = b.entries[k]
	}
	return out
}

// entry returns the entry of p, creating it at ply when it is new, or an error wrapping
// ErrCollision when another position has p's hash.
func (b *Book) entry(p *engine.Position, ply int) (*Entry, error) {
	e := b.entries[p.Hash]
	if e == nil {
		e = &Entry{Position: *p, Ply: ply}
		b.entries[p.Hash] = e
		return e, nil
	}
	if !e.Position.Equal(p) {
		return nil, fmt.Errorf("%w: %016x is %s and %s", ErrCollision, p.Hash, b.Variant.FEN(e.Position), b.Variant.FEN(*p))
	}
	e.Ply = min(e.Ply, ply)
	return e, nil
}

// move returns e's statistics for m, adding them when new.
func (e *Entry) move(m engine.Move) *MoveStat {
	for i := range e.Moves {
		if e.Moves[i].Move == m {
			return &e.Moves[i]
		}
	}
	e.Moves = append(e.Moves, MoveStat{Move: m})
	return &e.Moves[len(e.Moves)-1]
}

// Games returns the number of games that played a move from e.
func (e *Entry) Games() int {
	n := 0
	for _, m := range e.Moves {
		n += m.Games
	}
	return n
}

// Text returns m in the variant's notation, as played from e's position.
func (b *Book) Text(e *Entry, m engine.Move) string {
	return b.Variant.FormatMove(&e.Position, m, false)
}

// Sort orders the moves of every entry: most games first, then best Eval, then
// notation.
func (b *Book) Sort() {
	for _, e := range b.entries {
		b.sortEntry(e)
	}
}

func (b *Book) sortEntry(e *Entry) {
	texts := make(map[engine.Move]string, len(e.Moves))
	for _, m := range e.Moves {
		texts[m.Move] = b.Text(e, m.Move)
	}
	slices.SortStableFunc(e.Moves, func(x, y MoveStat) int {
		if c := cmp.Compare(y.Games, x.Games); c != 0 {
			return c
		}
		if c := cmp.Compare(evalOr(y.Eval), evalOr(x.Eval)); c != 0 {
			return c
		}
		return cmp.Compare(texts[x.Move], texts[y.Move])
	})
}

func evalOr(p *int) int {
	if p == nil {
		return -search.MateScore - 1
	}
	return *p
}

// Prune drops the moves played in fewer than minGames games, then the positions met
// in fewer than minGames games and those left without moves. Positions met that often are kept even when the move
// that led to them from one parent was dropped (another move order reaches them).
// Prune does nothing for minGames <= 1, or for a book without game counts (an
// expanded book).
func (b *Book) Prune(minGames int) {
	if minGames <= 1 || b.Games == 0 {
		return
	}
	b.MinGames = max(b.MinGames, minGames)
	for h, e := range b.entries {
		if e.Games() < minGames {
			delete(b.entries, h)
			continue
		}
		e.Moves = slices.DeleteFunc(e.Moves, func(m MoveStat) bool { return m.Games < minGames })
		if len(e.Moves) == 0 {
			delete(b.entries, h)
		}
	}
}

// bookMoves returns the moves a line may follow from e: the moves played in at least
// one game or, in a book without game counts, the moves whose position is in the book.
// Weights are the game counts (all 1 without counts).
func (b *Book) bookMoves(e *Entry) (moves []engine.Move, weights []int) {
	for _, m := range e.Moves {
		switch {
		case m.Games > 0:
			moves, weights = append(moves, m.Move), append(weights, m.Games)
		case b.Games == 0:
			next := e.Position.Play(m.Move)
			if b.Lookup(&next) != nil {
				moves, weights = append(moves, m.Move), append(weights, 1)
			}
		}
	}
	return moves, weights
}
