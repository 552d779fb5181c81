package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// The endgame databases of the tests, built once per test binary in a temporary
// directory (english or russian up to 3 pieces take a few seconds).
var testDBs struct {
	sync.Mutex
	root string
	dbs  map[string]*egdb.DB
}

func TestMain(m *testing.M) {
	code := m.Run()
	testDBs.Lock()
	for _, db := range testDBs.dbs {
		db.Close()
	}
	if testDBs.root != "" {
		os.RemoveAll(testDBs.root)
	}
	testDBs.Unlock()
	os.Exit(code)
}

// testEGDB returns the database of variant up to pieces pieces, with distances in the
// slices of up to distance pieces (0: all), built at its first use; and, for each of men,
// the stage of one more piece of which men are men.
func testEGDB(t testing.TB, variant string, pieces, distance int, men ...int) *egdb.DB {
	t.Helper()
	testDBs.Lock()
	defer testDBs.Unlock()
	key := fmt.Sprintf("%s-%d-%d-%v", variant, pieces, distance, men)
	if db := testDBs.dbs[key]; db != nil {
		return db
	}
	if testDBs.root == "" {
		root, err := os.MkdirTemp("", "rafle-search-egdb-")
		if err != nil {
			t.Fatal(err)
		}
		testDBs.root, testDBs.dbs = root, map[string]*egdb.DB{}
	}
	dir := filepath.Join(testDBs.root, key)
	v := engine.MustLookup(variant)
	if _, err := egdb.Build(context.Background(), v, egdb.BuildOptions{Dir: dir, Pieces: pieces, DistancePieces: distance}); err != nil {
		t.Fatal(err)
	}
	for _, m := range men {
		opt := egdb.BuildOptions{Dir: dir, Pieces: pieces + 1, Stage: true, Men: m, DistancePieces: distance}
		if _, err := egdb.Build(context.Background(), v, opt); err != nil {
			t.Fatal(err)
		}
	}
	db, err := egdb.Open(dir, v, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	testDBs.dbs[key] = db
	return db
}

// probe returns the database's value of p, failing the test when it does not hold it.
func probe(t testing.TB, db *egdb.DB, p engine.Position) egdb.Result {
	t.Helper()
	r, err := db.Probe(&p)
	if err != nil || r.Value == egdb.Unknown {
		t.Fatalf("%s: probe %v, %v", db.Variant().FEN(p), r, err)
	}
	return r
}

// samples returns positions of every slice of db of exactly n pieces (those it holds):
// the longest win of each slice, then count positions drawn with a seeded generator.
func samples(t testing.TB, db *egdb.DB, n, count int) []engine.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(2026, uint64(n)))
	var out []engine.Position
	for _, s := range egdb.SlicesOf(db.Variant(), n) {
		if size, err := db.FileSize(s); err != nil || size == 0 {
			continue
		}
		st, err := db.Stats(s)
		if err != nil {
			t.Fatal(err)
		}
		add := func(i uint64) {
			p, err := db.Position(s, i, engine.White)
			if err != nil {
				t.Fatal(err)
			}
			if db.Variant().PositionOutcome(&p).Over {
				return
			}
			out = append(out, p)
		}
		if st.LongestWin > 0 {
			add(st.LongestIndex)
		}
		for range count {
			add(rng.Uint64N(db.Size(s)))
		}
	}
	return out
}

// playOut plays g on with a for the side to move and b for the other, until the game is
// over or maxPlies plies; check is called before each move.
func playOut(t testing.TB, g *engine.Game, a, b *search.Searcher, lim search.Limits, maxPlies int, check func(ply int)) {
	t.Helper()
	side := g.Position().Side
	for ply := 0; ply < maxPlies && !g.Outcome().Over; ply++ {
		check(ply)
		s := a
		if g.Position().Side != side {
			s = b
		}
		r := s.Search(context.Background(), g, lim)
		if err := g.Play(r.Move); err != nil {
			t.Fatalf("%s: %v", s.Variant().FEN(g.Position()), err)
		}
	}
}

// withDB returns a searcher of db's variant with db.
func withDB(t testing.TB, db *egdb.DB) *search.Searcher {
	t.Helper()
	s := search.New(db.Variant(), nil, 1)
	if err := s.SetEGDB(db); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestEGDBPerfectPlay plays positions of the database out with a searcher that has it on
// both sides: a win ends in the winner's win in exactly the stored number of plies (the
// winner takes the shortest way, the loser the longest), a draw stays a draw at every
// position. Against a searcher without the database, the side with it never does worse
// than the stored value: a win is won within the stored plies, a draw is never lost.
func TestEGDBPerfectPlay(t *testing.T) {
	for _, variant := range []string{"english", "russian"} {
		t.Run(variant, func(t *testing.T) {
			db := testEGDB(t, variant, 3, 0)
			v := db.Variant()
			lim := search.Limits{Depth: 2}
			wins, draws, losses := 0, 0, 0
			for _, p := range samples(t, db, 3, 6) {
				want := probe(t, db, p)
				// both sides perfect
				g := engine.NewGame(v, p)
				perfect := withDB(t, db)
				maxPlies := 60
				if want.Value != egdb.Draw {
					maxPlies = want.Plies + 1
				}
				playOut(t, g, perfect, perfect, lim, maxPlies, func(ply int) {
					if want.Value == egdb.Draw {
						if r := probe(t, db, g.Position()); r.Value != egdb.Draw {
							t.Fatalf("%s (draw): after %d plies %s is a %s", v.FEN(p), ply, v.FEN(g.Position()), r)
						}
					}
				})
				o := g.Outcome()
				switch want.Value {
				case egdb.Win, egdb.Loss:
					winner := p.Side
					if want.Value == egdb.Loss {
						winner = p.Side.Other()
						losses++
					} else {
						wins++
					}
					if !o.Over || o.Draw || o.Winner != winner || g.Ply() != want.Plies {
						t.Errorf("%s (%s): %s after %d plies, want %s's win in %d", v.FEN(p), want, o, g.Ply(), winner, want.Plies)
					}
				case egdb.Draw:
					draws++
					if o.Over && !o.Draw {
						t.Errorf("%s (draw): %s", v.FEN(p), o)
					}
				}
				// the side with the database against the plain search, when it does not lose
				if want.Value == egdb.Loss {
					continue
				}
				g = engine.NewGame(v, p)
				plain := search.New(v, nil, 1)
				if want.Value == egdb.Win {
					maxPlies = want.Plies
				}
				playOut(t, g, perfect, plain, lim, maxPlies, func(ply int) {
					if ply%2 == 1 {
						return
					}
					// the opponent's mistakes may turn a draw into a win, or shorten one
					if r := probe(t, db, g.Position()); r.Value < want.Value || r.Value == egdb.Win && want.Value == egdb.Win && r.Plies > want.Plies-ply {
						t.Fatalf("%s (%s): after %d plies %s is a %s", v.FEN(p), want, ply, v.FEN(g.Position()), r)
					}
				})
				if o := g.Outcome(); want.Value == egdb.Win && (!o.Over || o.Draw || o.Winner != p.Side) || o.Over && !o.Draw && o.Winner != p.Side {
					t.Errorf("%s (%s) against the plain search: %s after %d plies", v.FEN(p), want, o, g.Ply())
				}
			}
			t.Logf("%s: %d wins, %d draws, %d losses played out", variant, wins, draws, losses)
			if wins == 0 || draws == 0 || losses == 0 {
				t.Errorf("samples: %d wins, %d draws, %d losses: want some of each", wins, draws, losses)
			}
		})
	}
}

// TestEGDBConverts: from the won positions of the samples (the longest win of each slice
// first), a searcher with the database wins against a perfect defender in exactly the
// stored number of plies, while the plain search at the same depth fails to win some of
// them within twice as many plies plus 40 (the game's draw rules may end it first).
func TestEGDBConverts(t *testing.T) {
	for _, variant := range []string{"english", "russian"} {
		t.Run(variant, func(t *testing.T) {
			db := testEGDB(t, variant, 3, 0)
			v := db.Variant()
			lim := search.Limits{Depth: 4}
			won, plainWon, dbWon := 0, 0, 0
			for _, p := range samples(t, db, 3, 6) {
				want := probe(t, db, p)
				if want.Value != egdb.Win {
					continue
				}
				won++
				defender := withDB(t, db)
				for _, withEGDB := range []bool{false, true} {
					attacker := search.New(v, nil, 1)
					maxPlies := 2*want.Plies + 40
					if withEGDB {
						attacker = withDB(t, db)
						maxPlies = want.Plies
					}
					g := engine.NewGame(v, p)
					playOut(t, g, attacker, defender, lim, maxPlies, func(int) {})
					if o := g.Outcome(); o.Over && !o.Draw && o.Winner == p.Side {
						if withEGDB {
							dbWon++
						} else {
							plainWon++
						}
					} else if withEGDB {
						t.Errorf("%s (%s): %s after %d plies with the database", v.FEN(p), want, o, g.Ply())
					}
				}
			}
			t.Logf("%s, depth %d: %d won positions: %d won by the plain search, %d with the database", variant, lim.Depth, won, plainWon, dbWon)
			if plainWon == won {
				t.Errorf("the plain search converts all %d won positions: the samples test nothing", won)
			}
		})
	}
}

// TestEGDBInSearch: below the root, the search scores positions of up to the database's
// MaxPieces pieces from it. The database holds every position of up to 3 pieces, and the 4
// kings of the stage of 4 pieces without men (so its MaxPieces is 3; canadian, searched by
// the wide instance, one piece fewer): the roots are
// positions of that stage, searched, whose values the stage holds. Every win or loss the
// search reports is one (a result forced in n plies is one in at most n: the database's
// distance, when the search has seen the whole of it), a draw is never scored as a win or a
// loss, and the probes find more wins and losses than the plain search.
func TestEGDBInSearch(t *testing.T) {
	for _, tc := range []struct {
		variant string
		pieces  int
		more    bool // the probes find more wins and losses (in canadian, 2 kings against one rarely win)
	}{
		{"english", 3, true}, {"russian", 3, true},
		{"canadian", 2, false}, // the wide search
	} {
		t.Run(tc.variant, func(t *testing.T) {
			variant := tc.variant
			db := testEGDB(t, variant, tc.pieces, 0, 0)
			if db.MaxPieces() != tc.pieces {
				t.Fatalf("MaxPieces %d, want %d", db.MaxPieces(), tc.pieces)
			}
			v := db.Variant()
			lim := search.Limits{Depth: 6}
			found, plainFound, exact, decisive := 0, 0, 0, 0
			var nodes, plainNodes int64
			for _, p := range samples(t, db, tc.pieces+1, 20) {
				if len(v.Generate(nil, &p)) < 2 {
					continue // Search returns the single move without searching
				}
				want := probe(t, db, p)
				r := withDB(t, db).Search(context.Background(), engine.NewGame(v, p), lim)
				plain := search.New(v, nil, 1).Search(context.Background(), engine.NewGame(v, p), lim)
				nodes += r.Nodes
				plainNodes += plain.Nodes
				if want.Value != egdb.Draw {
					decisive++
				}
				switch {
				case r.Score > search.MateScore-search.MaxWin:
					found++
					if n := search.MateScore - r.Score; want.Value != egdb.Win || want.Plies > n {
						t.Errorf("%s: searched a win in %d plies, the database says %s", v.FEN(p), n, want)
					} else if want.Plies == n {
						exact++
					}
				case r.Score < -(search.MateScore - search.MaxWin):
					found++
					if n := search.MateScore + r.Score; want.Value != egdb.Loss || want.Plies > n {
						t.Errorf("%s: searched a loss in %d plies, the database says %s", v.FEN(p), n, want)
					} else if want.Plies == n {
						exact++
					}
				case r.Score > search.EvalBound || r.Score < -search.EvalBound:
					t.Errorf("%s: score %d out of the evaluation's bounds without a win or loss", v.FEN(p), r.Score)
				}
				if plain.Score > search.MateScore-search.MaxWin || plain.Score < -(search.MateScore-search.MaxWin) {
					plainFound++
				}
			}
			t.Logf("%s, depth %d: %d of %d won or lost positions found with the probes (%d with the shortest distance), %d without; %d nodes, %d without",
				variant, lim.Depth, found, decisive, exact, plainFound, nodes, plainNodes)
			if found < plainFound || tc.more && found == plainFound {
				t.Errorf("the probes find %d wins and losses, the plain search %d: want more", found, plainFound)
			}
			if nodes >= plainNodes {
				t.Errorf("%d nodes with the probes, %d without: want fewer", nodes, plainNodes)
			}
		})
	}
}

// TestEGDBThreads: two threads share the database's cache (run with -race): every win or
// loss that a search with two threads reports is one that the database holds, in at least
// as many plies as the database's distance.
func TestEGDBThreads(t *testing.T) {
	db := testEGDB(t, "english", 3, 0, 0)
	v := db.Variant()
	s := withDB(t, db)
	for _, p := range samples(t, db, 4, 20) {
		if len(v.Generate(nil, &p)) < 2 {
			continue
		}
		want := probe(t, db, p)
		r := s.Search(context.Background(), engine.NewGame(v, p), search.Limits{Depth: 8, Threads: 2})
		switch {
		case r.Score > search.MateScore-search.MaxWin:
			if n := search.MateScore - r.Score; want.Value != egdb.Win || want.Plies > n {
				t.Errorf("%s: searched a win in %d plies, the database says %s", v.FEN(p), n, want)
			}
		case r.Score < -(search.MateScore - search.MaxWin):
			if n := search.MateScore + r.Score; want.Value != egdb.Loss || want.Plies > n {
				t.Errorf("%s: searched a loss in %d plies, the database says %s", v.FEN(p), n, want)
			}
		}
	}
}

// TestEGDBWithoutDistance: with a database that holds the 3-piece slices without their
// distance (win, draw or loss only), the searcher chooses among the winning moves by the
// search, which searches those positions on (scoring them by the evaluation at its leaves)
// and scores the smaller ones by their distance. Against a perfect defender it never
// spoils a win (every position after its move is still won), and a win within the
// search's depth is won in the shortest way. A longer one is not always converted: where
// the way to the win stays long within a slice (two kings against one in english), the
// evaluation does not show it (the test logs how many are).
func TestEGDBWithoutDistance(t *testing.T) {
	for _, variant := range []string{"english", "russian"} {
		t.Run(variant, func(t *testing.T) {
			full := testEGDB(t, variant, 3, 0)
			db := testEGDB(t, variant, 3, 2)
			v := db.Variant()
			lim := search.Limits{Depth: 4}
			won, plainWon, wdlWon, short := 0, 0, 0, 0
			for _, p := range samples(t, full, 3, 6) {
				want := probe(t, full, p)
				// (a position with a capture gets its distance from the slices after it)
				if r := probe(t, db, p); r.Value != want.Value || r.Plies >= 0 && r.Plies != want.Plies {
					t.Fatalf("%s: %s without distance, %s with", v.FEN(p), r, want)
				}
				if want.Value != egdb.Win {
					continue
				}
				won++
				for _, wdl := range []bool{false, true} {
					g := engine.NewGame(v, p)
					attacker := search.New(v, nil, 1)
					if wdl {
						attacker = withDB(t, db)
					}
					playOut(t, g, attacker, withDB(t, full), lim, 2*want.Plies+40, func(ply int) {
						if r := probe(t, full, g.Position()); wdl && ply%2 == 0 && r.Value != egdb.Win {
							t.Fatalf("%s (%s): after %d plies %s is a %s", v.FEN(p), want, ply, v.FEN(g.Position()), r)
						}
					})
					o := g.Outcome()
					if wdl && want.Plies <= lim.Depth {
						short++
						if !o.Over || o.Draw || o.Winner != p.Side || g.Ply() != want.Plies {
							t.Errorf("%s (%s): %s after %d plies", v.FEN(p), want, o, g.Ply())
						}
					}
					if o.Over && !o.Draw && o.Winner == p.Side {
						if wdl {
							wdlWon++
						} else {
							plainWon++
						}
					}
				}
			}
			t.Logf("%s, depth %d: %d won positions (%d within the depth): %d won by the plain search, %d with the database without distances",
				variant, lim.Depth, won, short, plainWon, wdlWon)
			if short == 0 {
				t.Errorf("no win within the depth among the samples")
			}
		})
	}
}

// BenchmarkEGDBSearch searches 4-piece english positions (the samples of the 4-king stage)
// to depth 12 with the database of up to 3 pieces, and without: nodes per second, and the
// nodes of a search.
func BenchmarkEGDBSearch(b *testing.B) {
	db := testEGDB(b, "english", 3, 0, 0)
	v := db.Variant()
	roots := samples(b, db, 4, 4)
	for _, with := range []bool{false, true} {
		b.Run(fmt.Sprintf("egdb=%v", with), func(b *testing.B) {
			s := search.New(v, nil, 1)
			if with {
				if err := s.SetEGDB(db); err != nil {
					b.Fatal(err)
				}
			}
			var nodes int64
			searches := 0
			for b.Loop() {
				for _, p := range roots {
					s.Clear()
					nodes += s.Search(context.Background(), engine.NewGame(v, p), search.Limits{Depth: 12}).Nodes
					searches++
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(searches), "nodes/search")
		})
	}
}

// TestEGDBPlayer: a player given the database (PlayerSpec.EGDB) plays the positions it
// holds from it, the easy level too (never at random there): it wins the won samples in
// the stored number of plies against a perfect defender. A database of another variant is
// refused.
func TestEGDBPlayer(t *testing.T) {
	db := testEGDB(t, "english", 3, 0)
	v := db.Variant()
	ps, _ := search.Level("easy")
	ps.Random = 1 // always at random, but where the database holds the position
	ps.EGDB = db
	wins := 0
	for i, p := range samples(t, db, 3, 4) {
		want := probe(t, db, p)
		if want.Value != egdb.Win {
			continue
		}
		wins++
		pl, err := ps.New(v, int64(i))
		if err != nil {
			t.Fatal(err)
		}
		defender := withDB(t, db)
		g := engine.NewGame(v, p)
		for g.Ply() < want.Plies && !g.Outcome().Over {
			var m engine.Move
			if g.Ply()%2 == 0 {
				r, err := pl.Choose(context.Background(), g)
				if err != nil || r.Random {
					t.Fatalf("%s: %+v, %v", v.FEN(g.Position()), r, err)
				}
				m = r.Move
			} else {
				m = defender.Search(context.Background(), g, search.Limits{Depth: 1}).Move
			}
			if err := g.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if o := g.Outcome(); !o.Over || o.Draw || o.Winner != p.Side || g.Ply() != want.Plies {
			t.Errorf("%s (%s): %s after %d plies", v.FEN(p), want, o, g.Ply())
		}
	}
	if wins == 0 {
		t.Fatal("no won sample")
	}
	ps.EGDB = testEGDB(t, "russian", 3, 0)
	if _, err := ps.New(v, 1); err == nil {
		t.Error("a player of english with a database of russian: no error")
	}
}
