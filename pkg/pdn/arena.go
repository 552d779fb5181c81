package pdn

// arena is storage for the games of a batch that the caller drops all
// together (see Arena): Game values, tags, nodes, moves and squares
// are carved out of slabs that reset makes available again, so that
// steady-state reading allocates nothing for them. Strings (tag values,
// comments, warnings) are not arena memory: they may outlive the batch.
//
// A Reader with an arena set returns games that are valid only until the
// arena is reset; Reader.Next without an arena (the default) returns games
// the caller may keep.
type arena struct {
	games  []Game
	tags   []Tag
	nodes  []Node // main lines
	vnodes []Node // variations
	moves  []Move
	sqs    []Square
	// strs is the string cache of the Reader that reads into the arena
	// (see Reader.str): a Reader made for each piece of an input, as
	// archive's parallel reading does, finds it warm instead of making
	// its own (32 KB, and the strings again).
	strs *strCache
}

// reset makes the arena's memory available again. Games handed out before
// must no longer be used.
func (a *arena) reset() {
	a.games = a.games[:0]
	a.tags = a.tags[:0]
	a.nodes = a.nodes[:0]
	a.vnodes = a.vnodes[:0]
	a.moves = a.moves[:0]
	a.sqs = a.sqs[:0]
}

// take returns n elements of *s (not cleared), growing it into a new slab
// when it is full; the old slab stays with the games that use it. An
// arena's slabs double (the arena is reused, so they reach the size of a
// batch); other slabs are fixed chunks of minCap elements.
func take[T any](s *[]T, n, minCap int, grow bool) []T {
	k := len(*s)
	if k+n > cap(*s) {
		c := minCap
		if grow {
			c = max(c, 2*cap(*s))
		}
		*s = make([]T, 0, max(c, n))
		k = 0
	}
	*s = (*s)[:k+n]
	return (*s)[k : k+n : k+n]
}

// Arena is memory for the games of a batch that the caller drops all
// together: a Reader given one (SetArena) carves its games out of it, so
// that reading batch after batch into recycled arenas allocates nothing
// for Game values, tags, nodes, moves and squares. Strings are not arena
// memory. The zero Arena is ready to use; it is not safe for concurrent
// use.
type Arena struct{ a arena }

// Reset makes the arena's memory available again: the games read into it
// before must no longer be used.
func (a *Arena) Reset() { a.a.reset() }

// SetArena makes r read the games Next returns into a, until the next
// call; nil (the default) returns games the caller may keep.
func (r *Reader) SetArena(a *Arena) {
	if a == nil {
		r.arena, r.strs = nil, nil
		return
	}
	r.arena = &a.a
	// The Reader uses the arena's string cache while it reads into it:
	// the arena, not safe for concurrent use, then covers its cache too.
	if a.a.strs == nil {
		a.a.strs = new(strCache)
	}
	r.strs = a.a.strs
}
