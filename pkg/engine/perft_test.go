package engine_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/pkg/engine"
)

// maxTestNodes bounds the rows `go test` runs; deeper rows run with `perft verify`.
const maxTestNodes = 5_000_000

// TestPerftSuite checks every shipped published count up to maxTestNodes, in each
// convention the row holds for.
func TestPerftSuite(t *testing.T) {
	for _, v := range engine.Variants() {
		cases, err := corpus.PerftSuite(v)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Errorf("%s: no perft rows shipped", v.Name)
		}
		for _, c := range cases {
			if c.Nodes > maxTestNodes {
				continue
			}
			for _, dup := range c.Conventions() {
				t.Run(fmt.Sprintf("%s/%s/%d/%s", v.Name, c.Position, c.Depth, dup), func(t *testing.T) {
					p, err := v.ParseFEN(c.FEN)
					if err != nil {
						t.Fatal(err)
					}
					got, err := v.Perft(context.Background(), p, c.Depth, engine.PerftOptions{Duplicates: dup})
					if err != nil {
						t.Fatal(err)
					}
					if got != c.Nodes {
						t.Errorf("Perft(%q, %d, %s) = %d, want %d (source %s)", c.FEN, c.Depth, dup, got, c.Nodes, c.Source)
					}
				})
			}
		}
	}
}

// TestPerftThreadsAndHash checks that threads and the hash table give the same counts as a
// plain single-threaded run: from the start, at depth 7, or at the first depth whose count
// passes 5·10⁶ leaves (armenian: depth 5, 6,280,482; depth 7 would be some 3·10⁹).
func TestPerftThreadsAndHash(t *testing.T) {
	for _, v := range engine.Variants() {
		for _, dup := range []engine.Duplicates{engine.Keep, engine.Unique} {
			ctx := context.Background()
			var want uint64
			depth := 0
			for depth < 7 && want <= 5_000_000 {
				depth++
				want, _ = v.Perft(ctx, v.Start(), depth, engine.PerftOptions{Duplicates: dup})
			}
			for _, opt := range []engine.PerftOptions{
				{Duplicates: dup, Threads: 3},
				{Duplicates: dup, HashMB: 1},
				{Duplicates: dup, Threads: 4, HashMB: 2},
			} {
				got, err := v.Perft(ctx, v.Start(), depth, opt)
				if err != nil || got != want {
					t.Errorf("%s: Perft(start, %d, %+v) = %d, %v; want %d", v.Name, depth, opt, got, err, want)
				}
			}
		}
	}
}

// TestPerftSharedTable: runs that share a table, the later ones finding the earlier ones'
// counts in it, count what runs without one count.
func TestPerftSharedTable(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"english", "canadian"} { // canadian: the wide instance
		v := engine.MustLookup(name)
		table := engine.NewPerftTable(1)
		for pass := 0; pass < 2; pass++ {
			for depth := 3; depth <= 6; depth++ {
				want, _ := v.Perft(ctx, v.Start(), depth, engine.PerftOptions{})
				got, err := v.Perft(ctx, v.Start(), depth, engine.PerftOptions{Threads: 2, Table: table})
				if err != nil || got != want {
					t.Errorf("%s pass %d: Perft(start, %d) with a shared table = %d, %v; want %d", name, pass, depth, got, err, want)
				}
			}
		}
	}
}

// TestPerftCancel: a cancelled run stops inside its jobs (english perft(20) would take
// hours) and returns the context's error.
func TestPerftCancel(t *testing.T) {
	v := engine.MustLookup("english")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := v.Perft(ctx, v.Start(), 20, engine.PerftOptions{Duplicates: engine.Keep, Threads: 2})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Perft(20) with a 50ms deadline: err = %v, want context.DeadlineExceeded", err)
	}
}
