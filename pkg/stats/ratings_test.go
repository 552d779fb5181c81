package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRateAnalytic(t *testing.T) {
	// Analytic references. With draws as half points the two-player MLE
	// is the observed score, so B = anchor - Elo(0.75) = -400·log10(3),
	// and its standard error is 1/(k·√(n·p·(1-p))) with k = ln 10/400
	// (Fisher information of a binomial proportion, delta method).
	elo75 := 400 * math.Log10(3)
	se75 := 400 / math.Ln10 / math.Sqrt(100*0.75*0.25)
	// Three players whose pairwise scores fit the model exactly: 75%,
	// 75% and 90% = L(2·Elo(0.75)); the MLE reproduces them.
	tests := []struct {
		name      string
		results   [][]WDL
		anchor    int
		anchorElo float64
		elo       []float64
		stdErr    []float64 // nil: not checked
	}{
		{"single player", [][]WDL{{{}}}, 0, 1500, []float64{1500}, []float64{0}},
		{"two players", [][]WDL{
			{{}, {50, 50, 0}},
			{{}, {}},
		}, 0, 0, []float64{0, -elo75}, []float64{0, se75}},
		{"two players, reversed cell", [][]WDL{
			{{}, {}},
			{{0, 50, 50}, {}},
		}, 1, 100, []float64{100 + elo75, 100}, []float64{se75, 0}},
		{"two players, both cells", [][]WDL{
			{{}, {30, 20, 0}},
			{{0, 30, 20}, {}},
		}, 0, 0, []float64{0, -elo75}, []float64{0, se75}},
		{"three players, exact fit", [][]WDL{
			{{}, {60, 30, 10}, {85, 10, 5}},
			{{}, {}, {50, 50, 0}},
			{{}, {}, {}},
		}, 0, 1500, []float64{1500, 1500 - elo75, 1500 - 2*elo75}, nil},
		{"round robin, all even", [][]WDL{
			{{}, {1, 8, 1}, {0, 10, 0}},
			{{}, {}, {2, 6, 2}},
			{{}, {}, {}},
		}, 2, 2000, []float64{2000, 2000, 2000}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rate(tc.results, tc.anchor, tc.anchorElo)
			if err != nil {
				t.Fatalf("Rate(%v, %d, %v) error %v", tc.results, tc.anchor, tc.anchorElo, err)
			}
			for i := range tc.elo {
				if !near(got[i].Elo, tc.elo[i], 1e-6) {
					t.Errorf("Rate(%v, %d, %v)[%d].Elo = %.6f, want %.6f", tc.results, tc.anchor, tc.anchorElo, i, got[i].Elo, tc.elo[i])
				}
				if tc.stdErr != nil && !near(got[i].StdErr, tc.stdErr[i], 1e-6) {
					t.Errorf("Rate(%v, %d, %v)[%d].StdErr = %.6f, want %.6f", tc.results, tc.anchor, tc.anchorElo, i, got[i].StdErr, tc.stdErr[i])
				}
			}
		})
	}
}

func TestRateCounts(t *testing.T) {
	results := [][]WDL{
		{{}, {3, 4, 1}, {2, 0, 2}},
		{{1, 1, 1}, {}, {0, 5, 1}},
		{{0, 2, 0}, {}, {}},
	}
	got, err := Rate(results, 0, 0)
	if err != nil {
		t.Fatalf("Rate error %v", err)
	}
	// Each game counts once for both players: games and points follow
	// from the two cells of each pair.
	wantGames := make([]int, len(results))
	wantPoints := make([]float64, len(results))
	for i := range results {
		for j := range results {
			wantGames[i] += results[i][j].Games() + results[j][i].Games()
			wantPoints[i] += results[i][j].Points() + results[j][i].Reverse().Points()
		}
	}
	var total float64
	for i, r := range got {
		if r.Games != wantGames[i] || r.Points != wantPoints[i] {
			t.Errorf("Rate(...)[%d] games, points = %d, %v, want %d, %v", i, r.Games, r.Points, wantGames[i], wantPoints[i])
		}
		total += r.Points
	}
	if total != 23 { // 23 games in the table, one point each
		t.Errorf("total points = %v, want 23", total)
	}
}

// TestRateMatchesOptimize checks the Newton solution against an
// independent algorithm, Zermelo's iteration, and checks the anchor and
// symmetry properties.
func TestRateMatchesZermelo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 20 {
		n := 2 + rng.IntN(5)
		truth := make([]float64, n)
		for i := range truth {
			truth[i] = rng.NormFloat64() * 150
		}
		results := make([][]WDL, n)
		for i := range results {
			results[i] = make([]WDL, n)
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				p := ScoreFromElo(truth[i] - truth[j])
				var r WDL
				for range 40 + rng.IntN(100) {
					switch u := rng.Float64(); {
					case u < 0.5*p:
						r.Add(Win)
					case u < 0.5*p+0.5:
						r.Add(Draw)
					default:
						r.Add(Loss)
					}
				}
				results[i][j] = r
			}
		}
		anchor := rng.IntN(n)
		got, err := Rate(results, anchor, 1000)
		if err != nil {
			t.Fatalf("trial %d: Rate(%v) error %v", trial, results, err)
		}

		// Independent fit.
		games := make([]float64, n*n)
		points := make([]float64, n*n)
		for i := range n {
			for j := range n {
				g := float64(results[i][j].Games())
				games[i*n+j] += g
				games[j*n+i] += g
				points[i*n+j] += results[i][j].Points()
				points[j*n+i] += g - results[i][j].Points()
			}
		}
		// Zermelo's fixed-point iteration (Hunter's MM algorithm):
		// γ_i ← s_i / Σ_j n_ij/(γ_i + γ_j), ratings 400·log10(γ).
		gamma := make([]float64, n)
		for i := range gamma {
			gamma[i] = 1
		}
		for range 20000 {
			for i := range n {
				var s, d float64
				for j := range n {
					if games[i*n+j] > 0 {
						s += points[i*n+j]
						d += games[i*n+j] / (gamma[i] + gamma[j])
					}
				}
				gamma[i] = s / d
			}
		}
		for i := range n {
			want := 1000 + 400*math.Log10(gamma[i]/gamma[anchor])
			if !near(got[i].Elo, want, 1e-3) {
				t.Errorf("trial %d: Rate(%v)[%d].Elo = %.5f, Zermelo iteration gives %.5f", trial, results, i, got[i].Elo, want)
			}
		}
		if got[anchor].Elo != 1000 || got[anchor].StdErr != 0 {
			t.Errorf("trial %d: anchor %d = %+v, want Elo 1000, StdErr 0", trial, anchor, got[anchor])
		}

		// Moving the anchor shifts every rating by the same amount.
		other := (anchor + 1) % n
		moved, err := Rate(results, other, 0)
		if err != nil {
			t.Fatalf("trial %d: Rate with anchor %d error %v", trial, other, err)
		}
		for i := range n {
			if d := moved[i].Elo - got[i].Elo + got[other].Elo; !near(d, 0, 1e-6) {
				t.Errorf("trial %d: re-anchoring at %d moves player %d by %v relative to the rest", trial, other, i, d)
			}
		}

		// Reversing every result negates every rating difference.
		reversed := make([][]WDL, n)
		for i := range n {
			reversed[i] = make([]WDL, n)
			for j := range n {
				reversed[i][j] = results[i][j].Reverse()
			}
		}
		rev, err := Rate(reversed, anchor, 1000)
		if err != nil {
			t.Fatalf("trial %d: Rate(reversed) error %v", trial, err)
		}
		for i := range n {
			if d := (rev[i].Elo - 1000) + (got[i].Elo - 1000); !near(d, 0, 1e-6) {
				t.Errorf("trial %d: player %d: Elo %v, reversed %v, want opposite offsets", trial, i, got[i].Elo, rev[i].Elo)
			}
		}
	}
}

func TestRateErrors(t *testing.T) {
	tests := []struct {
		name    string
		results [][]WDL
		want    error
	}{
		{"ragged", [][]WDL{{{}, {1, 0, 1}}, {{}}}, ErrBadTable},
		{"negative", [][]WDL{{{}, {1, -1, 1}}, {{}, {}}}, ErrBadTable},
		{"self play", [][]WDL{{{1, 0, 0}, {1, 0, 1}}, {{}, {}}}, ErrBadTable},
		{"no games", [][]WDL{{{}, {}}, {{}, {}}}, ErrDisconnected},
		{"two islands", [][]WDL{
			{{}, {1, 1, 1}, {}, {}},
			{{}, {}, {}, {}},
			{{}, {}, {}, {1, 1, 1}},
			{{}, {}, {}, {}},
		}, ErrDisconnected},
		{"perfect winner", [][]WDL{{{}, {5, 0, 0}}, {{}, {}}}, ErrUnbounded},
		{"perfect loser", [][]WDL{
			{{}, {3, 4, 3}, {0, 0, 5}},
			{{}, {}, {0, 0, 2}},
			{{}, {}, {}},
		}, ErrUnbounded},
		{"group wins all", [][]WDL{
			{{}, {1, 1, 1}, {4, 0, 0}},
			{{}, {}, {2, 0, 0}},
			{{}, {}, {}},
		}, ErrUnbounded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Rate(tc.results, 0, 0)
			if !errors.Is(err, tc.want) {
				t.Errorf("Rate(%v, 0, 0) = %v, %v, want error %v", tc.results, got, err, tc.want)
			}
		})
	}
}

func TestRateAnchorPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Errorf("Rate with anchor 2 of 2 players did not panic")
		}
	}()
	Rate([][]WDL{{{}, {1, 1, 1}}, {{}, {}}}, 2, 0)
}

// TestRateErrorNamesPlayers: the ratings error named players by number ("player 2 never
// scored against player 0's group", issue 33 item 26); it says which groups, by name.
func TestRateErrorNamesPlayers(t *testing.T) {
	names := []string{"easy", "medium", "hard"}
	for _, tc := range []struct {
		name    string
		results [][]WDL
		want    string
	}{
		{"group wins all", [][]WDL{{{}, {1, 1, 1}, {4, 0, 0}}, {{}, {}, {2, 0, 0}}, {{}, {}, {}}}, "hard never scored against easy, medium"},
		{"perfect loser", [][]WDL{{{}, {3, 4, 3}, {0, 0, 5}}, {{}, {}, {0, 0, 2}}, {{}, {}, {}}}, "easy, medium never scored against hard"},
		{"island", [][]WDL{{{}, {1, 1, 1}, {}}, {{}, {}, {}}, {{}, {}, {}}}, "no game links hard to easy, medium"},
	} {
		_, err := Rate(tc.results, 0, 0)
		var ue *UnratableError
		if !errors.As(err, &ue) || !strings.HasPrefix(ue.Describe(names), tc.want) {
			t.Errorf("%s: Rate error %v, want an UnratableError saying %q", tc.name, err, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), "player 2") {
			t.Errorf("%s: Error() = %q, want the players by index", tc.name, err)
		}
	}
}
