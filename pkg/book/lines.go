package book

import (
	"math/rand/v2"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// Line is a sequence of book moves from the book's root.
type Line struct {
	Moves []engine.Move
	// Text is the moves in the variant's notation, separated by spaces.
	Text string
}

// Lines returns every line of book moves from the root, each followed until depth
// plies or until its position has no book move. Lines that end in the same position
// (transpositions) are given once, in the first move order met. The order is the
// book's move order (most played first), depth first. Lines of zero plies are left
// out. Book moves are those played in at least one game or, in a book without game
// counts (an expanded book), those whose position is in the book.
func (b *Book) Lines(depth int) []Line {
	var out []Line
	seen := map[uint64]bool{}
	var path []engine.Move
	var texts []string
	var walk func(p engine.Position, ply int)
	walk = func(p engine.Position, ply int) {
		var moves []engine.Move
		if e := b.Lookup(&p); e != nil && ply < depth {
			moves, _ = b.bookMoves(e)
		}
		if len(moves) == 0 {
			if ply > 0 && !seen[p.Hash] {
				seen[p.Hash] = true
				out = append(out, Line{Moves: append([]engine.Move(nil), path...), Text: strings.Join(texts, " ")})
			}
			return
		}
		for _, m := range moves {
			path = append(path, m)
			texts = append(texts, b.Variant.FormatMove(&p, m, false))
			walk(p.Play(m), ply+1)
			path, texts = path[:len(path)-1], texts[:len(texts)-1]
		}
	}
	walk(b.Root, 0)
	return out
}

// RandomLines returns n lines drawn from seed (the same seed gives the same lines):
// each starts at the root and, until depth plies or a position without book moves,
// picks a book move at random weighted by its game count (uniformly in a book without
// counts). Lines of zero plies are left out, so fewer than n lines come back only
// when the root has no book move.
func (b *Book) RandomLines(n, depth int, seed int64) []Line {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x626f6f6b)) // "book"
	var out []Line
	for range n {
		p := b.Root
		var l Line
		var texts []string
		for ply := 0; ply < depth; ply++ {
			e := b.Lookup(&p)
			if e == nil {
				break
			}
			moves, weights := b.bookMoves(e)
			if len(moves) == 0 {
				break
			}
			total := 0
			for _, w := range weights {
				total += w
			}
			r := rng.IntN(total)
			k := 0
			for r >= weights[k] {
				r -= weights[k]
				k++
			}
			l.Moves = append(l.Moves, moves[k])
			texts = append(texts, b.Variant.FormatMove(&p, moves[k], false))
			p = p.Play(moves[k])
		}
		if len(l.Moves) == 0 {
			return out
		}
		l.Text = strings.Join(texts, " ")
		out = append(out, l)
	}
	return out
}
