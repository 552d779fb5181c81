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
	games  slab[Game]
	tags   slab[Tag]
	nodes  slab[Node] // main lines
	vnodes slab[Node] // variations
	moves  slab[Move]
	sqs    slab[Square]
	// strs is the string cache of the Reader that reads into the arena
	// (see Reader.str): a Reader made for each piece of an input, as
	// archive's parallel reading does, finds it warm instead of making
	// its own (32 KB, and the strings again).
	strs *strCache
}

// reset makes the arena's memory available again. Games handed out before
// must no longer be used.
func (a *arena) reset() {
	a.games.reset()
	a.tags.reset()
	a.nodes.reset()
	a.vnodes.reset()
	a.moves.reset()
	a.sqs.reset()
}

// slab is one kind of an arena's memory: fixed chunks, cur the one being
// filled, that reset keeps for the next batch. A fresh arena thus
// allocates what its first batch needs, in chunks, rather than doubling
// a slab up to it and leaving the smaller ones to the GC (with a few
// fresh arenas in flight at once, as parallel reading has, that garbage
// alone brought on a GC cycle).
type slab[T any] struct {
	cur   []T
	used  [][]T // the chunks filled since reset, before cur
	spare [][]T // chunks for after cur
	// none: the chunks filled are not kept in used (a Reader's own
	// arena, whose games the caller keeps, and which is never reset).
	none bool
}

// take returns n elements (not cleared) of the slab's chunk, going on to
// the next chunk, of size elements (or n if more), when cur is full.
func (s *slab[T]) take(n, size int) []T {
	k := len(s.cur)
	if k+n > cap(s.cur) {
		s.next(n, size)
		k = 0
	}
	s.cur = s.cur[:k+n]
	return s.cur[k : k+n : k+n]
}

// next makes cur an empty chunk of at least n elements: a spare one, or
// a new one of max(size, n).
func (s *slab[T]) next(n, size int) {
	if cap(s.cur) > 0 && !s.none {
		s.used = append(s.used, s.cur)
	}
	if k := len(s.spare) - 1; k >= 0 && cap(s.spare[k]) >= n {
		s.cur = s.spare[k][:0]
		s.spare[k] = nil
		s.spare = s.spare[:k]
		return
	}
	s.cur = make([]T, 0, max(size, n))
}

// reset makes all the chunks available again, cur first.
func (s *slab[T]) reset() {
	s.spare = append(s.spare, s.used...)
	clear(s.used)
	s.used = s.used[:0]
	s.cur = s.cur[:0]
}

// keepNone makes a a Reader's own arena (see Reader.arena): the chunks
// it fills stay with the games the caller keeps, and it never reuses them.
func (a *arena) keepNone() {
	a.games.none, a.tags.none, a.nodes.none, a.vnodes.none, a.moves.none, a.sqs.none = true, true, true, true, true, true
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
		r.arena, r.strs = &r.own, nil
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

// The memory a Reader builds its games in: its arena (its own, or the
// Arena of SetArena), and scratch per line.

// newMove returns a cleared Move. The slabs grow by their length within
// their capacity: reslicing from the front would store a pointer, and so
// a write barrier, per move.
func (r *Reader) newMove() *Move {
	var m *Move
	if s := &r.arena.moves.cur; len(*s) < cap(*s) {
		k := len(*s)
		*s = (*s)[:k+1]
		m = &(*s)[k]
	} else {
		m = &r.arena.moves.take(1, 1024)[0]
	}
	*m = Move{}
	return m
}

// squares returns a copy of sq.
func (r *Reader) squares(sq []Square) []Square {
	if s := &r.arena.sqs.cur; len(sq) == 2 && len(*s)+2 <= cap(*s) {
		// The commonest move, two squares, with room in the slab: take
		// without its call.
		k := len(*s)
		*s = (*s)[:k+2]
		out := (*s)[k : k+2 : k+2]
		out[0], out[1] = sq[0], sq[1]
		return out
	}
	out := r.arena.sqs.take(len(sq), 4096)
	copy(out, sq)
	return out
}

// newGame returns a cleared Game.
func (r *Reader) newGame() *Game {
	g := &r.arena.games.take(1, 64)[0]
	*g = Game{}
	return g
}

// copyNodes returns a copy of the nodes of a variation (nil when empty).
func (r *Reader) copyNodes(nodes []Node) []Node {
	if len(nodes) == 0 {
		return nil
	}
	out := r.arena.vnodes.take(len(nodes), 1024)
	copy(out, nodes)
	return out
}

// copyTags returns a copy of tags (nil when empty).
func (r *Reader) copyTags(tags []Tag) []Tag {
	if len(tags) == 0 {
		return nil
	}
	out := r.arena.tags.take(len(tags), 512)
	copy(out, tags)
	return out
}

// mainBuf returns an empty slice to build the main line in: the free
// tail of the node slab, so that the game's nodes need no copy (a long
// game outgrows it, and append moves it to memory of its own). Walk
// builds no movetext and uses a reusable buffer.
func (r *Reader) mainBuf() []Node {
	if r.vis != nil {
		return r.lineBuf(0)
	}
	s := &r.arena.nodes.cur
	if cap(*s)-len(*s) < mainRoom {
		r.arena.nodes.next(mainRoom, 1024)
	}
	return (*s)[len(*s):len(*s)]
}

// mainRoom is the least room a slab must have left for a main line to be
// built in it: a game of 40 moves a side with a few comments.
const mainRoom = 128

// keepMain returns the main line built from mainBuf as the game's nodes
// (nil when empty), and marks its part of the slab as used.
func (r *Reader) keepMain(cur []Node) []Node {
	if len(cur) == 0 {
		return nil
	}
	s := &r.arena.nodes.cur
	if k := len(*s); k < cap(*s) && &(*s)[:k+1][k] == &cur[0] {
		*s = (*s)[:k+len(cur)]
	}
	return cur[:len(cur):len(cur)]
}

// lineBuf returns the (empty) scratch buffer for a line at depth d.
func (r *Reader) lineBuf(d int) []Node {
	for len(r.lineBufs) <= d {
		r.lineBufs = append(r.lineBufs, nil)
	}
	return r.lineBufs[d][:0]
}
