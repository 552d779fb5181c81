package pdn

// arena is storage for the games of a batch that the caller drops all
// together (validateReplay): Game values, tags, nodes, moves and squares
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
