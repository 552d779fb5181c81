package egdb

import (
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestPlacementCounts checks the index's sizes against the number of placements of n
// pieces on the english board with no man on its own crowning row, summed over every
// material (a side may have no piece): OEIS A055213 (from the Chinook project), 1: 120,
// 2: 6,972, 3: 261,224, 4: 7,092,774, 5: 148,688,232, 6: 2,503,611,964.
func TestPlacementCounts(t *testing.T) {
	g, err := newGeometry(engine.MustLookup("english"))
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{1: 120, 2: 6972, 3: 261224, 4: 7092774, 5: 148688232, 6: 2503611964} // OEIS A055213
	for n := 1; n < len(want); n++ {
		var got uint64
		for um := 0; um <= n; um++ {
			for uk := 0; um+uk <= n; uk++ {
				for tm := 0; um+uk+tm <= n; tm++ {
					got += newIndexer(g, Slice{um, uk, tm, n - um - uk - tm}).size
				}
			}
		}
		if got != want[n] {
			t.Errorf("english placements of %d pieces: %d, want %d (OEIS A055213)", n, got, want[n])
		}
	}
}

// TestIndexBijection unindexes every index of some slices of each board size and checks
// that the placement is valid and indexes back to the same number: with the sizes of
// TestPlacementCounts, the index is a bijection onto the valid placements.
func TestIndexBijection(t *testing.T) {
	for _, name := range []string{"english", "italian", "international", "frisian", "canadian"} {
		v := engine.MustLookup(name)
		g, err := newGeometry(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Slice{{1, 0, 1, 0}, {2, 0, 1, 0}, {1, 1, 1, 0}, {0, 1, 2, 0}, {1, 0, 0, 2}, {2, 0, 2, 0}} {
			ix := newIndexer(g, s)
			for i := range ix.size {
				p := ix.unindex(i)
				if got := p.slice(); got != s {
					t.Fatalf("%s %s: unindex(%d) has material %s", name, s, i, got)
				}
				var sets [4]sqset
				for k := range 4 {
					for j, d := range p.sq[k][:p.n[k]] {
						if int(d) >= g.squares || j > 0 && d <= p.sq[k][j-1] {
							t.Fatalf("%s %s: unindex(%d) = %v: squares out of order", name, s, i, p)
						}
						sets[k].add(d)
					}
				}
				all := sets[0].or(sets[1]).or(sets[2]).or(sets[3])
				if all.count() != s.Pieces() {
					t.Fatalf("%s %s: unindex(%d) = %v: two pieces on a square", name, s, i, p)
				}
				for _, d := range p.sq[usMen][:p.n[usMen]] {
					if int(d) < g.perRow {
						t.Fatalf("%s %s: unindex(%d): a man on its crowning row", name, s, i)
					}
				}
				for _, d := range p.sq[themMen][:p.n[themMen]] {
					if int(d) >= g.squares-g.perRow {
						t.Fatalf("%s %s: unindex(%d): an opponent's man on its crowning row", name, s, i)
					}
				}
				if got := ix.index(&p); got != i {
					t.Fatalf("%s %s: index(unindex(%d)) = %d", name, s, i, got)
				}
				f := p.flipped(g.squares)
				if ff := f.flipped(g.squares); ff != p {
					t.Fatalf("%s %s: flip is not an involution at %d", name, s, i)
				}
			}
		}
	}
}
