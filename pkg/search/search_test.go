package search_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/search/internal/core"
)

// gameFrom starts a game of variant name from fen (the start position when fen is empty).
func gameFrom(t testing.TB, name, fen string) (*engine.Variant, *engine.Game) {
	t.Helper()
	v := engine.MustLookup(name)
	p := v.Start()
	if fen != "" {
		var err error
		if p, err = v.ParseFEN(fen); err != nil {
			t.Fatal(err)
		}
	}
	return v, engine.NewGame(v, p)
}

// formatPV writes a line of moves from p.
func formatPV(v *engine.Variant, p engine.Position, pv []engine.Move) string {
	var out []string
	for _, m := range pv {
		out = append(out, v.FormatMove(&p, m, false))
		p = p.Play(m)
	}
	return strings.Join(out, " ")
}

func TestSearchFindsShot(t *testing.T) {
	tests := []struct {
		name, variant, fen string
		want               string // the sacrifice that starts the shot
	}{
		// White gives c3-d4; Black must take e5xc3; b2xd4xb6 takes two (a1 stops a second
		// black jump, e3 the other capture).
		{"english 2-for-1", "english", "W:W22,23,25,29:B8,14,15", "22-18"},
		{"international 2-for-1", "international", "W:W37,38,41,46:B9,27,28", "37-32"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, g := gameFrom(t, tc.variant, tc.fen)
			p := g.Position()
			want, err := v.ParseMove(&p, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			for _, depth := range []int{1, 2, 4, 6} {
				s := search.New(v, nil, 1)
				r := s.Search(context.Background(), g, search.Limits{Depth: depth})
				if r.Move != want || r.Score < 150 {
					t.Errorf("depth %d: %s score %d (pv %s), want %s and a score of at least 150",
						depth, v.FormatMove(&p, r.Move, false), r.Score, formatPV(v, p, r.PV), tc.want)
				}
			}
			// Without quiescence a 1-ply search sees a man lost, not the shot.
			s := search.New(v, nil, 1)
			r := s.Search(context.Background(), g, search.Limits{Depth: 1, NoQuiescence: true})
			if r.Score >= 150 {
				t.Errorf("depth 1 without quiescence: %s score %d; want a score below 150",
					v.FormatMove(&p, r.Move, false), r.Score)
			}
		})
	}
}

func TestQuiescenceResolvesCaptures(t *testing.T) {
	// After the sacrifice, Black to move must capture and White recaptures two: the
	// quiescence value of the position after 22-18 is two men up for White.
	v, g := gameFrom(t, "english", "W:W22,23,25,29:B8,14,15")
	if _, err := g.PlayText("22-18"); err != nil {
		t.Fatal(err)
	}
	s := search.New(v, nil, 1)
	// Black has a single legal move: search from a position with a choice instead, so
	// use depth 1 on the game after Black's forced capture.
	if _, err := g.PlayText("15x22"); err != nil {
		t.Fatal(err)
	}
	r := s.Search(context.Background(), g, search.Limits{Depth: 1})
	if r.Depth != 0 || r.Move.CaptureCount() != 2 {
		t.Errorf("forced double capture: got %+v", r)
	}
}

func TestSearchEndgameWins(t *testing.T) {
	tests := []struct {
		variant, fen string
		depth        int
	}{
		{"english", "W:WK27:B5", 10},          // a king catches a lone man
		{"english", "W:WK27,K30:B1,5", 22},    // two kings against two men
		{"international", "W:WK46:B6", 6},     // a flying king catches a lone man
		{"russian", "W:WKa1:Bh8", 6},          // idem, on the long diagonal
		{"brazilian", "W:WKa1,c1:Bh8,f8", 12}, // king and man against two men
	}
	for _, tc := range tests {
		t.Run(tc.variant+" "+tc.fen, func(t *testing.T) {
			v, g := gameFrom(t, tc.variant, tc.fen)
			s := search.New(v, nil, 4)
			r := s.Search(context.Background(), g, search.Limits{Depth: tc.depth})
			if r.Score < search.MateScore-search.MaxPly {
				t.Errorf("score %d at depth %d (pv %s), want a forced win", r.Score, r.Depth, formatPV(v, g.Position(), r.PV))
			}
			// Play the win out against the same searcher: White must win.
			for ply := 0; ply < 200 && !g.Outcome().Over; ply++ {
				r := s.Search(context.Background(), g, search.Limits{Depth: tc.depth})
				if err := g.Play(r.Move); err != nil {
					t.Fatal(err)
				}
			}
			if o := g.Outcome(); !o.Over || o.Draw || o.Winner != engine.White {
				t.Errorf("played out: %v after %d plies, want a white win", o, g.Ply())
			}
		})
	}
}

func TestSearchNoMove(t *testing.T) {
	v, g := gameFrom(t, "international", "W:W6:B1") // White's man on 6 is blocked by 1
	s := search.New(v, nil, 1)
	r := s.Search(context.Background(), g, search.Limits{Depth: 3})
	if r.Move != (engine.Move{}) || r.Score != -search.MateScore {
		t.Errorf("no legal move: got move %+v score %d, want the zero move and -MateScore", r.Move, r.Score)
	}
}

func TestSearchDepthLimit(t *testing.T) {
	for _, v := range engine.Variants() {
		g := engine.NewGame(v, v.Start())
		for depth := 1; depth <= 6; depth++ {
			s := search.New(v, nil, 1)
			r := s.Search(context.Background(), g, search.Limits{Depth: depth})
			if r.Depth != depth {
				t.Errorf("%s: Search(depth %d).Depth = %d", v.Name, depth, r.Depth)
			}
			if len(r.PV) == 0 || r.PV[0] != r.Move {
				t.Errorf("%s depth %d: PV %v does not start with the move %v", v.Name, depth, r.PV, r.Move)
			}
		}
	}
}

func TestSearchNodeLimit(t *testing.T) {
	for _, v := range engine.Variants() {
		g := engine.NewGame(v, v.Start())
		for _, n := range []int64{1, 10, 100, 1000, 12345, 100000} {
			s1 := search.New(v, nil, 1)
			r1 := s1.Search(context.Background(), g, search.Limits{Nodes: n})
			if r1.Nodes > n {
				t.Errorf("%s: Search(nodes %d).Nodes = %d", v.Name, n, r1.Nodes)
			}
			if r1.Nodes != n {
				t.Errorf("%s: Search(nodes %d) stopped after %d nodes (depth %d)", v.Name, n, r1.Nodes, r1.Depth)
			}
			legal := false
			for _, m := range g.Legal() {
				legal = legal || m == r1.Move
			}
			if !legal {
				t.Errorf("%s: Search(nodes %d).Move = %+v, not legal", v.Name, n, r1.Move)
			}
			s2 := search.New(v, nil, 1)
			r2 := s2.Search(context.Background(), g, search.Limits{Nodes: n})
			if r1.Move != r2.Move || r1.Score != r2.Score || r1.Nodes != r2.Nodes || r1.Depth != r2.Depth {
				t.Errorf("%s nodes %d: two runs differ: %+v / %+v", v.Name, n, r1, r2)
			}
		}
	}
}

func TestSearchTimeAndContext(t *testing.T) {
	v, g := gameFrom(t, "international", "")
	s := search.New(v, nil, 4)
	// A time limit must stop an otherwise unbounded search. How fast it stops is a matter
	// for benchmarks on a quiet machine; here only that it stops (the bound is generous, so
	// that a loaded machine does not fail the test).
	done := make(chan search.Result, 1)
	go func() { done <- s.Search(context.Background(), g, search.Limits{MoveTime: 50 * time.Millisecond}) }()
	var r search.Result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("a search limited to 50ms has not stopped after a minute")
	}
	if r.Depth < 1 {
		t.Errorf("movetime 50ms: depth %d", r.Depth)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = s.Search(ctx, g, search.Limits{})
	if r.Nodes > 1024 {
		t.Errorf("cancelled context: %d nodes", r.Nodes)
	}
	legal := false
	for _, m := range g.Legal() {
		legal = legal || m == r.Move
	}
	if !legal {
		t.Errorf("cancelled context: move %+v not legal", r.Move)
	}
}

// TestSearchEndgameDraw: the search applies the variant's special endings.
func TestSearchEndgameDraw(t *testing.T) {
	// brazilian: one king each and nothing else is an immediate draw; White can capture the
	// black man and reach it, or play elsewhere and lose to the extra man.
	v, g := gameFrom(t, "brazilian", "W:WKa1:BKh8,d4")
	s := search.New(v, nil, 1)
	r := s.Search(context.Background(), g, search.Limits{Depth: 4})
	p := g.Position()
	if r.Score != 0 || !r.Move.IsCapture() {
		t.Errorf("got %s score %d, want the capture into a drawn ending, score 0", v.FormatMove(&p, r.Move, false), r.Score)
	}
}

func TestSearchDeterministicGames(t *testing.T) {
	for _, v := range engine.Variants() {
		play := func(seed int64) string {
			white, _ := search.ParsePlayer("easy")
			black, _ := search.ParsePlayer("medium")
			pw, err := white.New(v, seed)
			if err != nil {
				t.Fatal(err)
			}
			pb, err := black.New(v, seed+1)
			if err != nil {
				t.Fatal(err)
			}
			g := engine.NewGame(v, v.Start())
			for ply := 0; ply < 60 && !g.Outcome().Over; ply++ {
				pl := pw
				if g.Position().Side == engine.Black {
					pl = pb
				}
				r, err := pl.Choose(context.Background(), g)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Play(r.Move); err != nil {
					t.Fatal(err)
				}
			}
			return fmt.Sprint(g.Moves())
		}
		a, b, c := play(1), play(1), play(2)
		if a != b {
			t.Errorf("%s: two games with seed 1 differ", v.Name)
		}
		if a == c {
			t.Errorf("%s: games with seeds 1 and 2 are the same", v.Name)
		}
	}
}

// benchPositions returns v's start and the positions after 16 and 32 plies of a
// deterministic 3-ply self-play game.
func benchPositions(v *engine.Variant) []*engine.Game {
	out := []*engine.Game{engine.NewGame(v, v.Start())}
	s := search.New(v, nil, 1)
	g := engine.NewGame(v, v.Start())
	for ply := 1; ply <= 32 && !g.Outcome().Over; ply++ {
		if err := g.Play(s.Search(context.Background(), g, search.Limits{Depth: 3}).Move); err != nil {
			panic(err)
		}
		if ply%16 == 0 {
			out = append(out, engine.NewGame(v, g.Position()))
		}
	}
	return out
}

// BenchmarkSearch searches benchPositions to depth 8 with a cleared 16 MiB table and
// reports nodes per second of search time.
func BenchmarkSearch(b *testing.B) {
	for _, v := range engine.Variants() {
		b.Run(v.Name, func(b *testing.B) {
			games := benchPositions(v)
			s := search.New(v, nil, 16)
			var nodes int64
			var searching time.Duration // without the clearing of the table
			b.ResetTimer()
			for b.Loop() {
				for _, g := range games {
					s.Clear()
					r := s.Search(context.Background(), g, search.Limits{Depth: 8})
					nodes += r.Nodes
					searching += r.Elapsed
				}
			}
			b.ReportMetric(float64(nodes)/searching.Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N*len(games)), "nodes/search")
		})
	}
}

// TestSearchRepetition: the positions of the game count for repetitions in the search.
func TestSearchRepetition(t *testing.T) {
	v, g := gameFrom(t, "english", "W:WK30:BK3,K4,12") // White a man and two kings down
	for _, m := range []string{"30-26", "3-7", "26-30", "7-3"} {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	p := g.Position()
	want, _ := v.ParseMove(&p, "30-26") // back to the position after the first move
	s := search.New(v, nil, 1)
	r := s.Search(context.Background(), g, search.Limits{Depth: 1})
	if r.Move != want || r.Score != 0 {
		t.Errorf("with history: %s score %d, want 30-26 (a repetition) score 0", v.FormatMove(&p, r.Move, false), r.Score)
	}
	fresh := engine.NewGame(v, p)
	r = search.New(v, nil, 1).Search(context.Background(), fresh, search.Limits{Depth: 1})
	if r.Score >= 0 {
		t.Errorf("without history: score %d, want a negative score", r.Score)
	}
}

// TestSearchGoals: the search scores the end of each game by its variant's goal.
func TestSearchGoals(t *testing.T) {
	for _, tc := range []struct {
		variant, fen, best string
		plies              int // the win is found this many plies deep
	}{
		// White crowns on its second move, before Black's man on 39 can
		{"breakthrough", "W:W12,50:B39", "", 3},
		// giving the last man away wins: 32-27 21x32, and White has no piece
		{"antidraughts", "W:W32:B21", "32-27", 2},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			v, g := gameFrom(t, tc.variant, tc.fen)
			r := search.New(v, nil, 1).Search(context.Background(), g, search.Limits{Depth: 6})
			if r.Score != search.MateScore-tc.plies {
				t.Errorf("%s %s: score %d (pv %s), want a win in %d plies (%d)", tc.variant, tc.fen, r.Score,
					formatPV(v, g.Position(), r.PV), tc.plies, search.MateScore-tc.plies)
			}
			p := g.Position()
			if tc.best != "" && v.FormatMove(&p, r.Move, false) != tc.best {
				t.Errorf("%s %s: played %s, want %s", tc.variant, tc.fen, v.FormatMove(&p, r.Move, false), tc.best)
			}
		})
	}
	// with no move at the root, antidraughts has won
	v, g := gameFrom(t, "antidraughts", "W:W6:B1")
	if r := search.New(v, nil, 1).Search(context.Background(), g, search.Limits{Depth: 3}); r.Score != search.MateScore {
		t.Errorf("antidraughts, no legal move: score %d, want MateScore", r.Score)
	}
	// the evaluation of breakthrough has no king terms and a front term
	bt := engine.MustLookup("breakthrough")
	names := search.FeatureNames(bt)
	if slices.Contains(names, "king") || !slices.Contains(names, "front") {
		t.Errorf("breakthrough features %v: want front and no king features", names)
	}
	// White's men on 28 (4 rows up) and 46; Black's on 45 (8 rows down): front 4 - 8
	p, _ := bt.ParseFEN("W:W28,46:B45")
	if f := search.Features(bt, &p, nil)[slices.Index(names, "front")]; f != -4 {
		t.Errorf("front of W:W28,46:B45 = %v, want -4", f)
	}
}

// TestScoreBounds: the bounds pkg/search documents are those the search uses.
func TestScoreBounds(t *testing.T) {
	if search.MateScore != core.MateScore || search.MaxDepth != core.MaxDepth || search.MaxPly != core.MaxPly {
		t.Errorf("search's bounds %d, %d, %d; board's %d, %d, %d", search.MateScore, search.MaxDepth, search.MaxPly,
			core.MateScore, core.MaxDepth, core.MaxPly)
	}
}
