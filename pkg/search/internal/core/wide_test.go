package core

import (
	"context"
	"math/rand/v2"
	"os/exec"
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/internal/board"
)

// TestWideFeaturesMatchNarrow computes the features of positions of random games with
// the generated wide code and with the narrow code, on every variant that fits 64 bits:
// a difference is a fault of widegen, of board's wide twins or of the wide type.
func TestWideFeaturesMatchNarrow(t *testing.T) {
	for _, v := range board.Variants() {
		if _, wide := board.WideVariantOf(v); wide {
			continue
		}
		w := board.NewWideVariant(v)
		rng := rand.New(rand.NewPCG(3, uint64(v.GameType)))
		var moves []board.Move
		for game := 0; game < 20; game++ {
			p := v.Start()
			for ply := 0; ply < 150; ply++ {
				wp := board.Widen(&p)
				if got, want := wideFeatures(w, &wp, nil), features(v, &p, nil); !slices.Equal(got, want) {
					t.Fatalf("%s %s: wide features %v, narrow %v", v.Name, v.FEN(p), got, want)
				}
				moves = v.Generate(moves[:0], &p)
				if len(moves) == 0 {
					break
				}
				p = p.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
}

// TestWideSearchMatchesNarrow searches the same games with the narrow searcher and with
// the wide one on the same variant: the same move, score, depth, node count and PV.
func TestWideSearchMatchesNarrow(t *testing.T) {
	for _, v := range board.Variants() {
		if _, wide := board.WideVariantOf(v); wide {
			continue
		}
		narrow := NewSearcher(v, testWeights(v), nil, 1)
		// the wide table's entries are larger: twice the memory gives as many entries
		ws := &wideSearcher{}
		ws.init(board.NewWideVariant(v), testWeights(v), nil, 2)
		if n := len(narrow.k.(*searcher).tt); len(ws.tt) != n {
			t.Fatalf("%s: %d wide table entries, %d narrow", v.Name, len(ws.tt), n)
		}
		wideS := &Searcher{v: v, k: ws}
		g := board.NewGame(v, v.Start())
		for ply := 0; ply < 60 && !g.Outcome().Over; ply++ {
			lim := Limits{Depth: 4}
			want := narrow.Search(context.Background(), g, lim)
			got := wideS.Search(context.Background(), g, lim)
			got.Elapsed, want.Elapsed = 0, 0
			if got.Move != want.Move || got.Score != want.Score || got.Depth != want.Depth ||
				got.Nodes != want.Nodes || !slices.Equal(got.PV, want.PV) {
				t.Fatalf("%s ply %d %s: wide search %+v, narrow %+v", v.Name, ply, v.FEN(g.Position()), got, want)
			}
			if err := g.Play(want.Move); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestWideGenUpToDate runs widegen (as go generate does, see wide.go) in check mode:
// wide_gen.go must be what search.go and eval.go generate.
func TestWideGenUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs widegen")
	}
	out, err := exec.Command("go", "run", "../../../internal/widegen", "-config", "widegen.conf", "-check").CombinedOutput()
	if err != nil {
		t.Fatalf("wide_gen.go is stale (run go generate in pkg/search/internal/core): %v\n%s", err, out)
	}
}
