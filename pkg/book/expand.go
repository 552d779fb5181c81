package book

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// ExpandOptions configures Expand.
type ExpandOptions struct {
	// Depth is the depth of the search that scores every move of an expanded position
	// (0: 4; at most MaxExpandDepth).
	Depth int
	// Nodes is the number of positions to expand, the root included (0: 100).
	Nodes int
	// MaxPly bounds the book: positions MaxPly plies from the root are not expanded
	// (0: DefaultMaxPly).
	MaxPly int
	// Seed breaks ties between leaves of equal drop-out and depth.
	Seed int64
	// Jobs is the number of searches run at once (0: GOMAXPROCS). The book does not
	// depend on it.
	Jobs int
	// HashMB is the transposition table size of each searcher (0: DefaultExpandHashMB).
	HashMB int
	// Progress, if not nil, is called after each expansion with the positions expanded
	// so far and Nodes.
	Progress func(done, total int64)
}

// MaxExpandDepth is the deepest search Expand runs. Each ply multiplies the time of a
// fixed-depth search by about 3 to 10 (docs/benchmarks.md, measured choices), so depth 16 is already hours
// for a book of a hundred positions, and depth 99 would never end.
const MaxExpandDepth = 16

// DefaultExpandHashMB is the transposition table size of each of Expand's searchers unless
// ExpandOptions.HashMB sets one: Jobs searchers take Jobs times that.
const DefaultExpandHashMB = 8

// ExpandBytesPerNode bounds the memory an expanded position keeps in the book: its entry,
// its moves with their statistics and its children's positions. Measured about 2.5 KB on
// international (the largest boards' positions and move lists: 4,000 positions at depth 1
// peaked 10 MB above one position, docs/books.md); the bound leaves room for more moves.
const ExpandBytesPerNode = 4096

// ExpandMemoryMiB returns the memory, in MiB, that Expand with opt needs at most: the
// searchers' tables and ExpandBytesPerNode for each position expanded.
func ExpandMemoryMiB(opt ExpandOptions) int64 {
	opt = opt.withDefaults()
	return int64(opt.Jobs)*int64(opt.HashMB) + int64(opt.Nodes)/(1<<20/ExpandBytesPerNode) + 1
}

// withDefaults returns opt with the default of each setting that is 0 or less.
func (opt ExpandOptions) withDefaults() ExpandOptions {
	if opt.Depth <= 0 {
		opt.Depth = 4
	}
	if opt.Nodes <= 0 {
		opt.Nodes = 100
	}
	if opt.MaxPly <= 0 {
		opt.MaxPly = DefaultMaxPly
	}
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.GOMAXPROCS(0)
	}
	if opt.HashMB <= 0 {
		opt.HashMB = DefaultExpandHashMB
	}
	return opt
}

// Expand builds a book of v from its start position by drop-out expansion (see the
// package documentation). Every search is a fresh fixed-depth search, so the book
// depends only on v, Depth, Nodes, MaxPly and Seed. Move evals in the book are backed-up
// values: the search score of a move to an unexpanded position, or minus the value of an
// expanded one. Expand stops early, returning the book so far and ctx's error, when ctx
// ends.
func Expand(ctx context.Context, v *engine.Variant, opt ExpandOptions) (*Book, error) {
	opt = opt.withDefaults()
	if opt.Depth > MaxExpandDepth {
		return nil, fmt.Errorf("book: expand: depth %d: at most %d", opt.Depth, MaxExpandDepth)
	}
	b := New(v)
	b.MaxPly, b.Depth, b.Seed = opt.MaxPly, opt.Depth, opt.Seed
	b.Source = fmt.Sprintf("expand: %s, depth %d, %d nodes, max ply %d, seed %d", v.Name, opt.Depth, opt.Nodes, opt.MaxPly, opt.Seed)
	x := &expander{b: b, opt: opt, searchers: make(chan *search.Searcher, opt.Jobs)}
	for range opt.Jobs {
		x.searchers <- search.New(v, nil, opt.HashMB)
	}
	var err error
	leaf, ply := b.Root, 0
	for b.Nodes < opt.Nodes {
		if err = ctx.Err(); err != nil {
			break
		}
		if err = x.expand(ctx, leaf, ply); err != nil {
			break
		}
		b.Nodes++
		if opt.Progress != nil {
			opt.Progress(int64(b.Nodes), int64(opt.Nodes))
		}
		var ok bool
		if leaf, ply, ok = x.next(); !ok {
			break
		}
	}
	x.values()
	for _, e := range b.entries {
		for i := range e.Moves {
			val := x.edge(e, &e.Moves[i])
			e.Moves[i].Eval = &val
		}
		val := x.value[e.Position.Hash]
		e.Eval = &val
	}
	b.Sort()
	return b, err
}

type expander struct {
	b         *Book
	opt       ExpandOptions
	searchers chan *search.Searcher
	value     map[uint64]int // position values, computed by values
	state     map[uint64]uint8
}

// expand adds p with every legal move scored by a search.
func (x *expander) expand(ctx context.Context, p engine.Position, ply int) error {
	v := x.b.Variant
	e, err := x.b.entry(&p, ply)
	if err != nil {
		return err
	}
	moves := v.Generate(nil, &p)
	scores := make([]int, len(moves))
	var wg sync.WaitGroup
	for i, m := range moves {
		s := <-x.searchers
		wg.Add(1)
		go func() {
			defer wg.Done()
			scores[i] = searchAfter(ctx, s, v, p, m, x.opt.Depth)
			x.searchers <- s
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, m := range moves {
		sc := scores[i]
		e.Moves = append(e.Moves, MoveStat{Move: m, Eval: &sc})
	}
	return nil
}

// values computes the value of every expanded position reachable from the root: the
// best of its moves' values (edge). A move back into a position whose value is being
// computed (a cycle) keeps its search score.
func (x *expander) values() {
	x.value = make(map[uint64]int, x.b.Len())
	x.state = make(map[uint64]uint8, x.b.Len())
	var visit func(e *Entry) int
	visit = func(e *Entry) int {
		h := e.Position.Hash
		x.state[h] = 1
		best := -search.MateScore - 1
		if len(e.Moves) == 0 { // no legal move: lost, or won where the rules say so
			best = -search.MateScore
			if o := x.b.Variant.PositionOutcome(&e.Position); o.Over && o.Winner == e.Position.Side {
				best = search.MateScore
			}
		}
		for i := range e.Moves {
			m := &e.Moves[i]
			val := *m.Eval
			next := e.Position.Play(m.Move)
			if c := x.b.Lookup(&next); c != nil {
				switch x.state[next.Hash] {
				case 0:
					val = backUp(visit(c))
				case 2:
					val = backUp(x.value[next.Hash])
				}
			}
			best = max(best, val)
		}
		x.state[h] = 2
		x.value[h] = best
		return best
	}
	if e := x.b.Lookup(&x.b.Root); e != nil {
		visit(e)
	}
}

// edge returns the value of move m of e, once values has run.
func (x *expander) edge(e *Entry, m *MoveStat) int {
	next := e.Position.Play(m.Move)
	if c := x.b.Lookup(&next); c != nil {
		if val, ok := x.value[next.Hash]; ok {
			return backUp(val)
		}
	}
	return *m.Eval
}

// candidate is a position on the way in the drop-out search.
type candidate struct {
	cost int // drop-out of the best path to it
	ply  int
	tie  uint64
	pos  engine.Position
}

type candHeap []candidate

func (h candHeap) Len() int { return len(h) }
func (h candHeap) Less(i, j int) bool {
	if c := cmp.Compare(h[i].cost, h[j].cost); c != 0 {
		return c < 0
	}
	if h[i].ply != h[j].ply {
		return h[i].ply < h[j].ply
	}
	return h[i].tie < h[j].tie
}
func (h candHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(a any)   { *h = append(*h, a.(candidate)) }
func (h *candHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// next returns the unexpanded position with the smallest drop-out (a Dijkstra search
// from the root over the expanded positions: drop-outs are never negative), and false
// when there is none within MaxPly.
func (x *expander) next() (engine.Position, int, bool) {
	x.values()
	v := x.b.Variant
	done := map[uint64]bool{}
	h := &candHeap{{pos: x.b.Root, tie: x.tie(x.b.Root.Hash)}}
	for h.Len() > 0 {
		c := heap.Pop(h).(candidate)
		if done[c.pos.Hash] {
			continue
		}
		done[c.pos.Hash] = true
		e := x.b.Lookup(&c.pos)
		if e == nil {
			// the cheapest position not yet expanded
			return c.pos, c.ply, true
		}
		if c.ply+1 >= x.opt.MaxPly {
			continue
		}
		best := x.value[c.pos.Hash]
		for i := range e.Moves {
			next := c.pos.Play(e.Moves[i].Move)
			if done[next.Hash] || (x.b.Lookup(&next) == nil && !v.HasMoves(&next)) {
				continue
			}
			heap.Push(h, candidate{cost: c.cost + max(0, best-x.edge(e, &e.Moves[i])), ply: c.ply + 1,
				tie: x.tie(next.Hash), pos: next})
		}
	}
	return engine.Position{}, 0, false
}

// tie returns a seeded tie-break key for a position (splitmix64 of hash and seed).
func (x *expander) tie(hash uint64) uint64 {
	z := hash ^ uint64(x.opt.Seed)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}
