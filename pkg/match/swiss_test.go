package match

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/stats"
)

// TestSwissRound: the first round pairs the upper half against the lower half in order;
// later rounds pair within score brackets, avoid rematches by the next player of S2, an
// exchange or a floater, give the bye to the lowest-ranked player who had none, and allow a
// rematch only when no round without one exists.
func TestSwissRound(t *testing.T) {
	for _, tt := range []struct {
		name   string
		score  []float64
		met    [][2]int
		hadBye []int
		want   string
	}{
		{"first round", []float64{0, 0, 0, 0, 0, 0}, nil, nil, "[[0 3] [1 4] [2 5]] bye -1"},
		{"odd: lowest gets the bye", []float64{0, 0, 0, 0, 0}, nil, nil, "[[0 2] [1 3]] bye 4"},
		{"bye once", []float64{0, 0, 0, 0, 1}, nil, []int{4}, "[[0 4] [1 2]] bye 3"},
		// brackets {0,3} on 2 and {1,4} on 1, {2,5} on 0; 0 met 3: 0 takes the top of the
		// bracket below (1), and 3 floats to 4
		{"rematch avoided by a floater", []float64{2, 1, 0, 2, 1, 0}, [][2]int{{0, 3}}, nil, "[[0 1] [3 4] [2 5]] bye -1"},
		// the same with 2-5 met too: 3 floats two brackets down, to 2
		{"backtracking", []float64{2, 1, 0, 2, 1, 0}, [][2]int{{0, 3}, {2, 5}}, nil, "[[0 1] [2 3] [4 5]] bye -1"},
		// one bracket of four: 0-2 met, so 0 takes S2's next (3) and 1 meets 2
		{"transposition", []float64{1, 1, 1, 1}, [][2]int{{0, 2}, {1, 3}}, nil, "[[0 3] [1 2]] bye -1"},
		// two players who met: nothing else is possible
		{"forced rematch", []float64{1, 0}, [][2]int{{0, 1}}, nil, "[[0 1]] bye -1"},
	} {
		met := map[[2]int]int{}
		for _, m := range tt.met {
			met[m]++
		}
		had := make([]bool, len(tt.score))
		for _, b := range tt.hadBye {
			had[b] = true
		}
		ps, bye := swissRound(len(tt.score), tt.score, met, had)
		if got := fmt.Sprintf("%v bye %d", ps, bye); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestSwissRoundsNoRematch: over n rounds (n-1, and one more for the byes of an odd n)
// with results that vary by board and round, a round has no rematch and no second bye
// whenever a pairing without either exists (found by trying every pairing), for every n
// up to 8.
func TestSwissRoundsNoRematch(t *testing.T) {
	for n := 2; n <= 8; n++ {
		score := make([]float64, n)
		met := map[[2]int]int{}
		had := make([]bool, n)
		for r := range n - 1 + n%2 {
			clean := cleanRoundExists(n, met, had)
			ps, bye := swissRound(n, score, met, had)
			bad := bye >= 0 && had[bye]
			for _, p := range ps {
				bad = bad || met[p] > 0
			}
			if bad && clean {
				t.Errorf("n=%d round %d: %v bye %d rematches or gives a second bye, but a clean round exists", n, r+1, ps, bye)
			}
			if bye >= 0 {
				had[bye] = true
				score[bye]++
			}
			for k, p := range ps {
				met[p]++
				score[p[(k+r)%2]] += 2
			}
		}
	}
}

// cleanRoundExists reports whether n players can be paired without a rematch and, for an
// odd n, with a bye to a player who had none: every pairing tried.
func cleanRoundExists(n int, met map[[2]int]int, had []bool) bool {
	var rec func(left []int) bool
	rec = func(left []int) bool {
		if len(left) == 0 {
			return true
		}
		p := left[0]
		for j, q := range left[1:] {
			if met[[2]int{p, q}] == 0 {
				rest := append(append([]int{}, left[1:j+1]...), left[j+2:]...)
				if rec(rest) {
					return true
				}
			}
		}
		return false
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	if n%2 == 0 {
		return rec(all)
	}
	for b := range n {
		if !had[b] && rec(append(append([]int{}, all[:b]...), all[b+1:]...)) {
			return true
		}
	}
	return false
}

func TestKnockoutSeeds(t *testing.T) {
	if got := fmt.Sprint(knockoutSeeds(3)); got != "[0 7 3 4 1 6 2 5]" {
		t.Errorf("knockoutSeeds(3) = %s", got)
	}
	if got := fmt.Sprint(knockoutSeeds(0)); got != "[0]" {
		t.Errorf("knockoutSeeds(0) = %s", got)
	}
}

// levelPlayers returns n deterministic players of rafle's search, the first the strongest
// (depth n+1 down to 2).
func levelPlayers(t *testing.T, n int) []Entrant {
	var es []Entrant
	for i := range n {
		ps, err := search.ParsePlayer(fmt.Sprintf("depth=%d:hash=1", n+1-i))
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, Engine(fmt.Sprintf("d%d", n+1-i), ps))
	}
	return es
}

func tournamentMatch(t *testing.T, dir, kind string, n int) Config {
	cfg := randomMatch(t, dir)
	cfg.Players = levelPlayers(t, n)
	cfg.Tournament, cfg.Games, cfg.MaxPlies = kind, 2, 40
	return cfg
}

// TestSwissMatch: a Swiss of five players over three rounds plays two games per pairing
// and round, gives a bye each round, never rematches, ranks by points then Buchholz then
// Sonneborn-Berger, and is resumed after a crash in the middle of a round (a torn journal
// line, as kill -9 leaves it) to the same results; shards and an SPRT are refused.
func TestSwissMatch(t *testing.T) {
	cfg := tournamentMatch(t, t.TempDir(), Swiss, 5)
	cfg.Rounds = 3
	full, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if full.Games != 3*2*2 || full.GamesPlanned != 12 || len(full.Rounds) != 3 {
		t.Fatalf("%d games of %d in %d rounds, want 12 in 3", full.Games, full.GamesPlanned, len(full.Rounds))
	}
	seen := map[string]bool{}
	points := 0.0
	for _, rr := range full.Rounds {
		if len(rr.Byes) != 1 || len(rr.Pairings) != 2 {
			t.Errorf("round %d: %d pairings, byes %v", rr.Round, len(rr.Pairings), rr.Byes)
		}
		for _, p := range rr.Pairings {
			key := p.Player + "-" + p.Opponent
			if seen[key] || p.Games != 2 {
				t.Errorf("round %d: %s again, or %d games", rr.Round, key, p.Games)
			}
			seen[key] = true
		}
	}
	for i, s := range full.Standings {
		points += s.Points
		if i > 0 {
			prev := full.Standings[i-1]
			if prev.Points < s.Points || prev.Points == s.Points && prev.Buchholz < s.Buchholz {
				t.Errorf("standings out of order: %+v before %+v", prev, s)
			}
		}
	}
	if points != 12+3*1 { // the games' points and three byes of one point (half of 2 games)
		t.Errorf("standings hold %g points, want 15", points)
	}
	// Buchholz and Sonneborn-Berger from the rounds, by hand
	pts := map[string]float64{}
	for _, s := range full.Standings {
		pts[s.Player] = s.Points
	}
	for _, s := range full.Standings {
		var bh, sb float64
		for _, rr := range full.Rounds {
			for _, p := range rr.Pairings {
				switch s.Player {
				case p.Player:
					bh += pts[p.Opponent]
					sb += p.Points * pts[p.Opponent]
				case p.Opponent:
					bh += pts[p.Player]
					sb += p.OpponentPoints * pts[p.Player]
				}
			}
		}
		if s.Buchholz != bh || s.SonnebornBerger != sb {
			t.Errorf("%s: Buchholz %g, Sonneborn-Berger %g, want %g and %g", s.Player, s.Buchholz, s.SonnebornBerger, bh, sb)
		}
	}

	// a crash in round 2: the header, round 1 (4 games) and one game of round 2, then a
	// torn line
	dir := t.TempDir()
	cfg = tournamentMatch(t, dir, Swiss, 5)
	cfg.Rounds = 3
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cfg.JournalPath)
	lines := strings.SplitAfter(string(data), "\n")
	torn := strings.Join(lines[:6], "") + lines[6][:len(lines[6])/2]
	if err := os.WriteFile(cfg.JournalPath, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Resume = true
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed != 5 || !reflect.DeepEqual(res.Standings, full.Standings) || !reflect.DeepEqual(res.Rounds, full.Rounds) || !reflect.DeepEqual(summary(res), summary(full)) {
		t.Errorf("resumed (%d games) differs from the uninterrupted run:\n%+v\n%+v", res.Resumed, res.Standings, full.Standings)
	}
	checkFiles(t, cfg, 12)
	// the journal read back gives the same result
	f, _ := os.Open(cfg.JournalPath)
	h, recs, err := ReadJournal(f, cfg.JournalPath)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Summarize(h, recs)
	if err != nil || !reflect.DeepEqual(sum.Standings, full.Standings) {
		t.Errorf("Summarize: %v\n%+v\n%+v", err, sum.Standings, full.Standings)
	}
	// a game of round 3 without round 2 finished cannot be placed
	if _, err := Summarize(h, append(recs[:4:4], recs[9])); err == nil || !strings.Contains(err.Error(), "round 3") {
		t.Errorf("Summarize with round 2 missing: %v", err)
	}

	for _, bad := range []func(*Config){
		func(c *Config) { c.Shard = Shard{Index: 0, Count: 2} },
		func(c *Config) { c.Players = c.Players[:2]; c.SPRT = testSPRT(t) },
		func(c *Config) { c.Rounds = 6 },
	} {
		c := tournamentMatch(t, t.TempDir(), Swiss, 5)
		bad(&c)
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("a swiss with %+v ran", c.Shard)
		}
	}
}

// TestKnockoutMatch: five players seeded strongest first: the first round is seeds 4 and
// 5 alone, the others pass; the strongest player wins, each round's winner goes on, a tie
// goes to the higher seed, and the match resumes after a crash to the same results.
func TestKnockoutMatch(t *testing.T) {
	cfg := tournamentMatch(t, t.TempDir(), Knockout, 5)
	games := Schedule(&cfg)
	if len(games) != 2 || games[0].A != 3 || games[0].B != 4 {
		t.Fatalf("first round %+v, want seeds 4 and 5 alone", games)
	}
	full, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if full.Games != 2*(1+2+1) || len(full.Rounds) != 3 {
		t.Fatalf("%d games in %d rounds, want 8 in 3", full.Games, len(full.Rounds))
	}
	if got := fmt.Sprint(full.Rounds[0].Byes); got != "[d6 d5 d4]" {
		t.Errorf("first round byes %s", got)
	}
	for _, rr := range full.Rounds {
		for _, p := range rr.Pairings {
			want := p.Player
			if p.OpponentPoints > p.Points {
				want = p.Opponent
			}
			if p.Winner != want {
				t.Errorf("round %d: %+v: winner %s, want %s", rr.Round, p, p.Winner, want)
			}
		}
	}
	final := full.Rounds[2].Pairings[0]
	if full.Standings[0].Player != final.Winner || full.Standings[0].Reached != 3 {
		t.Errorf("standings %+v, final %+v", full.Standings, final)
	}

	dir := t.TempDir()
	cfg = tournamentMatch(t, dir, Knockout, 5)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cfg.JournalPath)
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(cfg.JournalPath, []byte(strings.Join(lines[:4], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Resume = true
	res, err := Run(context.Background(), cfg)
	if err != nil || res.Resumed != 3 || !reflect.DeepEqual(res.Rounds, full.Rounds) || !reflect.DeepEqual(res.Standings, full.Standings) {
		t.Errorf("resumed: %v, %d games from the journal\n%+v\n%+v", err, res.Resumed, res.Rounds, full.Rounds)
	}
}

// TestKnockoutTie: a pairing that ties sends the higher seed (the earlier player) through.
func TestKnockoutTie(t *testing.T) {
	cfg := randomMatch(t, t.TempDir())
	cfg.Players = []Entrant{Random("r1"), Random("r2")}
	cfg.Tournament, cfg.Games, cfg.MaxPlies = Knockout, 2, 1 // every game a max-plies draw
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Rounds[0].Pairings[0]; p.Points != 1 || p.Winner != "r1" || res.Standings[0].Player != "r1" {
		t.Errorf("tie: %+v, standings %+v", p, res.Standings)
	}
}

func testSPRT(t *testing.T) *stats.SPRT {
	s, err := stats.ParseSPRT("elo0=0,elo1=5,alpha=0.05,beta=0.05")
	if err != nil {
		t.Fatal(err)
	}
	return &s
}
