package core

import (
	"context"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/internal/board"
)

// withThreads lets the searches of a test use up to n threads whatever the machine's
// CPUs, so that the helpers run on a machine of one CPU too.
func withThreads(t *testing.T, n int) {
	old := maxThreads
	maxThreads = n
	t.Cleanup(func() { maxThreads = old })
}

// TestThreadsSearch: a search with helper threads completes its depth with a legal move
// whose PV is legal, and counts the helpers' nodes as well as the main thread's, on a
// narrow and a wide board, from the start and from positions of random games; the same
// searcher searches again (the helpers are reused) and after Clear.
func TestThreadsSearch(t *testing.T) {
	withThreads(t, 4)
	for _, name := range []string{"english", "russian", "international", "canadian"} {
		v := board.MustLookup(name)
		s := NewSearcher(v, defaultTestWeights(v), nil, 4)
		for i, p := range append([]board.Position{v.Start()}, randomGamePositions(v, rand.New(rand.NewSource(7)), 40)[10:14]...) {
			legal := v.Generate(nil, &p)
			if len(legal) < 2 {
				continue
			}
			g := board.NewGame(v, p)
			res := s.Search(context.Background(), g, Limits{Depth: 6, Threads: 4})
			if res.Depth != 6 || !slices.Contains(legal, res.Move) {
				t.Errorf("%s position %d: depth %d, move %v (legal: %v)", name, i, res.Depth, res.Move, slices.Contains(legal, res.Move))
			}
			q := p
			for j, m := range res.PV {
				if !slices.Contains(v.Generate(nil, &q), m) {
					t.Errorf("%s position %d: PV move %d %v is not legal", name, i, j, m)
					break
				}
				q = q.Play(m)
			}
			if main := mainNodes(s); res.Nodes <= main {
				t.Errorf("%s position %d: %d nodes in all, %d by the main thread: the helpers counted none", name, i, res.Nodes, main)
			}
			if i == 2 {
				s.Clear()
			}
		}
	}
}

// mainNodes returns the nodes of the main thread of s's last search.
func mainNodes(s *Searcher) int64 {
	switch k := s.k.(type) {
	case *searcher:
		return k.nodes
	case *wideSearcher:
		return k.nodes
	}
	panic("unknown kernel")
}

// TestThreadsStop: a search with helper threads stops at the main thread's node limit, at
// its move time and when its context ends, each time with a legal move, and leaves no
// helper running (the race detector and the next search would see it).
func TestThreadsStop(t *testing.T) {
	withThreads(t, 3)
	for _, name := range []string{"international", "canadian"} {
		v := board.MustLookup(name)
		s := NewSearcher(v, defaultTestWeights(v), nil, 4)
		p := v.Start()
		g := board.NewGame(v, p)
		legal := v.Generate(nil, &p)

		res := s.Search(context.Background(), g, Limits{Nodes: 5000, Threads: 3})
		if main := mainNodes(s); main != 5000 || !slices.Contains(legal, res.Move) {
			t.Errorf("%s nodes 5000: the main thread visited %d, move %v", name, main, res.Move)
		}

		done := make(chan SearchResult, 1)
		go func() { done <- s.Search(context.Background(), g, Limits{MoveTime: 50 * time.Millisecond, Threads: 3}) }()
		select {
		case res = <-done:
		case <-time.After(time.Minute): // generous: only that it stops, whatever the load
			t.Fatalf("%s: a search limited to 50ms has not stopped after a minute", name)
		}
		if !slices.Contains(legal, res.Move) {
			t.Errorf("%s movetime: move %v not legal", name, res.Move)
		}

		ctx, cancel := context.WithCancel(context.Background())
		go func() { done <- s.Search(ctx, g, Limits{Threads: 3}) }()
		time.Sleep(20 * time.Millisecond)
		cancel()
		select {
		case res = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: a search whose context ended has not stopped after a minute", name)
		}
		if !slices.Contains(legal, res.Move) {
			t.Errorf("%s cancelled: move %v not legal", name, res.Move)
		}
	}
}

// TestThreadsOne: Threads 1, or more on a machine of one CPU, is the single-threaded
// search exactly.
func TestThreadsOne(t *testing.T) {
	v := board.MustLookup("russian")
	g := board.NewGame(v, v.Start())
	search := func(threads int) SearchResult {
		s := NewSearcher(v, defaultTestWeights(v), nil, 4)
		r := s.Search(context.Background(), g, Limits{Depth: 7, Threads: threads})
		r.Elapsed = 0
		return r
	}
	want := search(0)
	if got := search(1); !slices.Equal(got.PV, want.PV) || got.Nodes != want.Nodes || got.Score != want.Score {
		t.Errorf("threads 1: %+v, threads 0: %+v", got, want)
	}
	withThreads(t, 1)
	if got := search(4); !slices.Equal(got.PV, want.PV) || got.Nodes != want.Nodes || got.Score != want.Score {
		t.Errorf("threads 4 on one CPU: %+v, threads 0: %+v", got, want)
	}
}

// TestHelperSkip: the first helper searches every other depth, the second the others, and
// no helper skips every depth.
func TestHelperSkip(t *testing.T) {
	for d := 1; d <= 8; d++ {
		if helperSkip(0, d) == helperSkip(1, d) {
			t.Errorf("depth %d: helpers 0 and 1 both skip it or both search it", d)
		}
	}
	for i := range 40 {
		n := 0
		for d := 1; d <= 16; d++ {
			if !helperSkip(i, d) {
				n++
			}
		}
		if n < 4 {
			t.Errorf("helper %d searches %d of 16 depths", i, n)
		}
	}
}
