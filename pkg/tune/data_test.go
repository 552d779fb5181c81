package tune

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// The first moves of a self-play game; 4. 15x22 25x9 5. 6x13 is a run of three forced
// captures. Black moves first in English draughts, so 1-0 is a Black win.
const shortGame = `[GameType "21"]
[Result "1-0"]

1. 9-14 24-19 2. 11-15 27-24 3. 8-11 22-18 4. 15x22 25x9 5. 6x13 24-20 *
`

func TestReadPDNLabelsAndFilters(t *testing.T) {
	v := engine.MustLookup("english")
	tests := []struct {
		name      string
		input     string
		filter    Filter
		positions int
		captures  int
	}{
		// 11 positions (plies 0..10), 3 with a capture to make; the last is not final.
		{"capture test", shortGame, Filter{}, 8, 3},
		{"skip plies", shortGame, Filter{SkipPlies: 4}, 4, 3},
		{"no quiet test", shortGame, Filter{Quiet: QuietNone}, 11, 0},
		{"duplicate dropped", shortGame + "\n" + shortGame, Filter{}, 8, 3},
		{"duplicate kept", shortGame + "\n" + shortGame, Filter{KeepDuplicates: true}, 16, 6},
		{"no result", strings.Replace(shortGame, `[Result "1-0"]`, "", 1), Filter{}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDataset(nil)
			if err := d.ReadPDN(context.Background(), strings.NewReader(tc.input), "test", tc.filter); err != nil {
				t.Fatal(err)
			}
			if d.Len() != tc.positions || d.Stats.Captures != tc.captures {
				t.Errorf("ReadPDN(%s): %d positions, %d captures dropped; want %d, %d (stats %+v)",
					tc.name, d.Len(), d.Stats.Captures, tc.positions, tc.captures, d.Stats)
			}
			if d.Len() > 0 && d.Variant != v {
				t.Errorf("variant %v, want english from the GameType tag", d.Variant)
			}
			// Labels: 1 for Black (the first mover, who won) to move, 0 for White; the tempo
			// feature is always 1, so the side to move is found from the label alone when
			// the rows alternate, which they need not: check against a replay instead.
			g := engine.NewGame(v, v.Start())
			for _, m := range strings.Fields("9-14 24-19 11-15 27-24 8-11 22-18 15x22 25x9 6x13 24-20") {
				if _, err := g.PlayText(m); err != nil {
					t.Fatal(err)
				}
			}
			want := map[float32]int{}
			for ply, p := range g.Positions() {
				if ply < tc.filter.SkipPlies || (tc.filter.Quiet != QuietNone && v.HasCapture(&p)) {
					continue
				}
				if p.Side == engine.Black {
					want[1]++
				} else {
					want[0]++
				}
			}
			got := map[float32]int{}
			for _, y := range d.Y {
				got[y]++
			}
			copies := 1
			if tc.filter.KeepDuplicates {
				copies = 2
			}
			if tc.positions > 0 && (got[1] != copies*want[1] || got[0] != copies*want[0]) {
				t.Errorf("ReadPDN(%s): labels %v, want %d×%v", tc.name, got, copies, want)
			}
		})
	}
}

func TestReadPDNVariantMismatch(t *testing.T) {
	d := NewDataset(engine.MustLookup("russian"))
	err := d.ReadPDN(context.Background(), strings.NewReader(shortGame), "games.pdn", Filter{})
	if err == nil || !strings.Contains(err.Error(), "games.pdn: game 1") {
		t.Errorf("ReadPDN(english game, russian data set) = %v, want an error naming the game", err)
	}
}

func TestReadCSV(t *testing.T) {
	v := engine.MustLookup("english")
	d := NewDataset(v)
	input := "ply,result,fen,game,side\n" +
		"0,1/2-1/2,B:W21-32:B1-12,a,B\n" +
		"1,1/2-1/2,\"W:W21-32:B1-8,10-12,14\",a,W\n" +
		"0,*,B:W21-32:B1-12,b,B\n" +
		"7,0-1,B:W21-32:B1-12,c,B\n"
	if err := d.ReadCSV(context.Background(), strings.NewReader(input), "rows.csv", Filter{}); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 3 || d.Games() != 2 || d.Y[0] != 0.5 || d.Y[2] != 0 {
		t.Errorf("ReadCSV: %d rows from %d games, labels %v; want 3 rows, 2 games, [0.5 0.5 0]", d.Len(), d.Games(), d.Y)
	}
	bad := "game,ply,fen\n"
	if err := NewDataset(v).ReadCSV(context.Background(), strings.NewReader(bad), "rows.csv", Filter{}); err == nil || !strings.Contains(err.Error(), `no "result" column`) {
		t.Errorf("ReadCSV(no result column) = %v", err)
	}
}

func TestReadPDNResolve(t *testing.T) {
	v := engine.MustLookup("english")
	d := NewDataset(nil)
	if err := d.ReadPDN(context.Background(), strings.NewReader(shortGame), "test", Filter{Quiet: QuietResolve}); err != nil {
		t.Fatal(err)
	}
	if d.Len() != 11 || d.Stats.Resolved != 3 || d.Stats.Captures != 0 {
		t.Fatalf("ReadPDN(resolve): %d positions, %d resolved; want 11 and 3 (stats %+v)", d.Len(), d.Stats.Resolved, d.Stats)
	}
	// Each row's label is the result (a Black win) for the side to move in the position
	// whose features it holds: check against resolving the game's positions here.
	g := engine.NewGame(v, v.Start())
	for _, m := range strings.Fields("9-14 24-19 11-15 27-24 8-11 22-18 15x22 25x9 6x13 24-20") {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	w := search.HandWeights(v)
	for i, p := range g.Positions() {
		leaf, _, ok := resolve(v, w, p, 0)
		if !ok || v.HasCapture(&leaf) {
			t.Fatalf("resolve(ply %d) = %v, %v: want a quiet position", i, leaf, ok)
		}
		want := float32(0)
		if leaf.Side == engine.Black {
			want = 1
		}
		f := search.Features(v, &leaf, nil)
		for j, x := range d.Row(i) {
			if float64(x) != f[j] {
				t.Fatalf("row %d: features %v, want those of the resolved position %v", i, d.Row(i), f)
			}
		}
		if d.Y[i] != want {
			t.Errorf("row %d: label %g, want %g (side to move %v)", i, d.Y[i], want, leaf.Side)
		}
	}
}

// TestReadPDNSameAsPlayText compares ReadPDN with a replay of every move by Game.PlayText
// (Dataset.slow) on games with an illegal move, a FEN start, a frisian king's fourth move,
// a capture written with its full path, no result, and a duplicate.
func TestReadPDNSameAsPlayText(t *testing.T) {
	english := shortGame +
		"\n[Result \"0-1\"]\n\n1. 9-14 24-19 2. 11-15 27-24 3. 8-11 22-18 4. 15x22 25x18x9 5. 5x14 *\n" +
		"\n[Result \"1-0\"]\n\n1. 9-14 24-19 2. 11-16 19-10 *\n" + // 19-10 is not a move
		"\n[Result \"1/2-1/2\"]\n[FEN \"W:W18,K27,31:B9,14,K2\"]\n\n1. 18x9 2-6 2. 27-23 6-10 *\n" +
		"\n[FEN \"W:W18,K27,31:B9,14,K2\"]\n\n1. 18x9 2-6 *\n" + // no result
		"\n[Result \"1-0\"]\n[FEN \"B:W18:B1\"]\n\n1. 1-40 *\n" + // not a square
		shortGame
	frisian := `[GameType "40"]
[Result "0-1"]
[FEN "W:W46,K22:B5"]

1. 22-17 5-10 2. 17-22 10-15 3. 22-17 15-20 4. 46-41 20-25 *

[GameType "40"]
[Result "1-0"]
[FEN "W:W46,K22:B5"]

1. 22-17 5-10 2. 17-22 10-15 3. 22-17 15-20 4. 17-22 20-25 *
`
	filters := []Filter{{}, {SkipPlies: 3}, {Quiet: QuietStrict}, {Quiet: QuietResolve}, {Quiet: QuietNone, KeepDuplicates: true}}
	for _, input := range []struct {
		v    string
		text string
	}{{"english", english}, {"frisian", frisian}} {
		for _, f := range filters {
			var got [2]*Dataset
			for i := range got {
				got[i] = NewDataset(engine.MustLookup(input.v))
				got[i].slow = i == 1
				if err := got[i].ReadPDN(context.Background(), strings.NewReader(input.text), "games.pdn", f); err != nil {
					t.Fatal(err)
				}
			}
			fast, slow := got[0], got[1]
			t.Logf("%s, filter %+v: %d rows, stats %+v", input.v, f, fast.Len(), fast.Stats)
			if !slices.Equal(fast.X, slow.X) || !slices.Equal(fast.Y, slow.Y) || !slices.Equal(fast.Game, slow.Game) ||
				fast.Stats != slow.Stats || fast.Games() != slow.Games() {
				t.Errorf("%s, filter %+v: ReadPDN differs from a PlayText replay:\nstats %+v\nwant  %+v\nlabels %v, want %v\ngames %v, want %v",
					input.v, f, fast.Stats, slow.Stats, fast.Y, slow.Y, fast.Game, slow.Game)
			}
			if fast.Stats.Bad == 0 || !strings.Contains(fast.Stats.FirstError, "games.pdn: game ") || fast.Len() == 0 {
				t.Errorf("%s, filter %+v: stats %+v, want bad games (first error naming file and game) and positions", input.v, f, fast.Stats)
			}
		}
	}
}
