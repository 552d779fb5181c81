package match

import (
	"encoding/json"
	"errors"
	"math"
	"sort"

	"github.com/rafle/rafle/pkg/stats"
)

// Result holds the statistics of a match.
type Result struct {
	Variant      string          `json:"variant"`
	Seed         int64           `json:"seed"`
	Players      []string        `json:"players"`
	Tournament   string          `json:"tournament,omitempty"` // Config.Tournament, empty for a round robin
	GamesPlanned int             `json:"games_planned"`        // games in the full schedule
	Games        int             `json:"games"`                // games counted below
	Resumed      int             `json:"resumed"`              // games read back from the journal
	Pairings     []PairingResult `json:"pairings"`
	Terminations []Termination   `json:"terminations"`
	Ratings      []PlayerRating  `json:"ratings,omitempty"`       // three or more players
	RatingsError string          `json:"ratings_error,omitempty"` // why ratings could not be fitted
	SPRT         *SPRTResult     `json:"sprt,omitempty"`
	Interrupted  bool            `json:"interrupted"` // the match stopped before its end

	// Crosstable[i][j] is player i's games against player j (three or more players).
	Crosstable [][]CrossCell `json:"crosstable,omitempty"`
	// LOS[i][j] is the likelihood that player i is stronger than player j, from the
	// ratings (stats.LOSMatrix); with the ratings only.
	LOS [][]float64 `json:"los,omitempty"`
	// Standings and Rounds are a Swiss or knockout tournament's (addTournament).
	Standings []Standing    `json:"standings,omitempty"`
	Rounds    []RoundResult `json:"rounds,omitempty"`
}

// PairingResult is the result of one pairing from Player's point of view.
type PairingResult struct {
	Player    string      `json:"player"`
	Opponent  string      `json:"opponent"`
	Games     int         `json:"games"`
	Wins      int         `json:"wins"`
	Draws     int         `json:"draws"`
	Losses    int         `json:"losses"`
	Score     float64     `json:"score"`      // points per game
	DrawRatio float64     `json:"draw_ratio"` // draws per game
	Penta     stats.Penta `json:"penta"`      // complete pairs by Player's points: 0, ½, 1, 1½, 2
	EloDiff   Float       `json:"elo"`        // from the pentanomial counts; null when infinite
	EloLower  Float       `json:"elo_lower"`  // 95% confidence interval
	EloUpper  Float       `json:"elo_upper"`
	LOS       float64     `json:"los"`
}

// WDL returns the pairing's games as a stats.WDL.
func (p *PairingResult) WDL() stats.WDL {
	return stats.WDL{Wins: p.Wins, Draws: p.Draws, Losses: p.Losses}
}

// Termination counts the games that ended for one reason.
type Termination struct {
	Reason string `json:"reason"`
	Games  int    `json:"games"`
	Draws  int    `json:"draws"` // how many of them were drawn
}

// PlayerRating is a player's maximum-likelihood rating.
type PlayerRating struct {
	Player string  `json:"player"`
	Elo    Float   `json:"elo"`
	StdErr Float   `json:"stderr"` // 0 for the anchor
	Games  int     `json:"games"`
	Points float64 `json:"points"`
}

// SPRTResult is the state of the sequential test.
type SPRTResult struct {
	Test     string  `json:"test"` // the test, as stats.SPRT.String writes it
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	Decision string  `json:"decision"` // "continue", "H0" or "H1"
	Pairs    int     `json:"pairs"`    // pairs counted
}

// Float is a float64 that is written to JSON as null when it is infinite or NaN.
type Float float64

// MarshalJSON writes f, or null when f is not finite.
func (f Float) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(f), 0) || math.IsNaN(float64(f)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// aggregator counts finished games.
type aggregator struct {
	cfg     *Config
	sprt    *stats.SPRT // cfg.SPRT, or nil in a shard: the merge decides
	sched   *schedule
	recs    map[int]*Record
	resumed int
	// The sequential test, over pairs in index order.
	nextPair int
	penta    stats.Penta
	llr      float64
	decision stats.Decision
	stopPair int // last pair counted once decided
}

func newAggregator(cfg *Config, s *schedule) *aggregator {
	a := &aggregator{cfg: cfg, sched: s, recs: map[int]*Record{}, sprt: cfg.SPRT}
	if cfg.Shard.Count > 1 {
		a.sprt = nil
	}
	return a
}

// outcome returns the result of r for player idx.
func (a *aggregator) outcome(r *Record, idx int) stats.Outcome {
	if r.Winner == "" {
		return stats.Draw
	}
	name := r.White
	if r.Winner == "black" {
		name = r.Black
	}
	if name == a.cfg.Players[idx].Name {
		return stats.Win
	}
	return stats.Loss
}

func (a *aggregator) decided() bool { return a.decision != stats.Continue }

func (a *aggregator) add(r *Record) {
	a.recs[r.Game] = r
	if a.sprt == nil {
		return
	}
	for !a.decided() {
		g0, ok0 := a.recs[2*a.nextPair]
		g1, ok1 := a.recs[2*a.nextPair+1]
		if !ok0 || !ok1 {
			return
		}
		a.penta.AddPair(a.outcome(g0, 0), a.outcome(g1, 0))
		a.llr, a.decision = a.sprt.Status(a.penta)
		a.stopPair = a.nextPair
		a.nextPair++
	}
}

// counted reports whether game i counts in the results.
func (a *aggregator) counted(i int) bool {
	return !a.decided() || i/2 <= a.stopPair
}

func (a *aggregator) result() *Result {
	cfg := a.cfg
	res := &Result{Variant: cfg.Variant.Name, Seed: cfg.Seed, Resumed: a.resumed, Tournament: headerTournament(cfg.Tournament)}
	for _, p := range cfg.Players {
		res.Players = append(res.Players, p.Name)
	}
	n := len(cfg.Players)
	table := make([][]stats.WDL, n)
	for i := range table {
		table[i] = make([]stats.WDL, n)
	}
	penta := make([]stats.Penta, len(a.sched.pairings))
	reasons := map[string]*Termination{}
	for i, r := range a.recs {
		if !a.counted(i) {
			continue
		}
		gm := a.sched.game(i)
		res.Games++
		table[gm.A][gm.B].Add(a.outcome(r, gm.A))
		t := reasons[r.Reason]
		if t == nil {
			t = &Termination{Reason: r.Reason}
			reasons[r.Reason] = t
		}
		t.Games++
		if r.Winner == "" {
			t.Draws++
		}
		if i%2 == 0 {
			if r1, ok := a.recs[i+1]; ok {
				penta[gm.Pairing].AddPair(a.outcome(r, gm.A), a.outcome(r1, gm.A))
			}
		}
	}
	for k, p := range a.sched.pairings {
		w := table[p.a][p.b]
		pr := PairingResult{Player: cfg.Players[p.a].Name, Opponent: cfg.Players[p.b].Name,
			Games: w.Games(), Wins: w.Wins, Draws: w.Draws, Losses: w.Losses,
			Score: w.Score(), DrawRatio: w.DrawRatio(), Penta: penta[k]}
		var e stats.Estimate
		if penta[k].Pairs() > 0 {
			e = penta[k].Estimate(0.95)
		} else {
			e = w.Estimate(0.95)
		}
		pr.EloDiff, pr.EloLower, pr.EloUpper, pr.LOS = Float(e.EloDiff), Float(e.EloLower), Float(e.EloUpper), e.LOS
		res.Pairings = append(res.Pairings, pr)
	}
	for _, t := range reasons {
		res.Terminations = append(res.Terminations, *t)
	}
	sort.Slice(res.Terminations, func(i, j int) bool {
		ti, tj := res.Terminations[i], res.Terminations[j]
		if ti.Games != tj.Games {
			return ti.Games > tj.Games
		}
		return ti.Reason < tj.Reason
	})
	if n >= 3 && res.Games > 0 {
		ratings, err := stats.Rate(table, cfg.Anchor, cfg.AnchorElo)
		var ue *stats.UnratableError
		switch {
		case errors.As(err, &ue): // by the players' names, not their numbers
			names := make([]string, len(cfg.Players))
			for i, p := range cfg.Players {
				names[i] = p.Name
			}
			res.RatingsError = ue.Describe(names)
		case err != nil:
			res.RatingsError = err.Error()
		default:
			for i, r := range ratings {
				res.Ratings = append(res.Ratings, PlayerRating{Player: cfg.Players[i].Name,
					Elo: Float(r.Elo), StdErr: Float(r.StdErr), Games: r.Games, Points: r.Points})
			}
		}
		res.addCrosstable(table, ratings)
	}
	if a.sched.dynamic() {
		res.addTournament(a.sched, a.recs)
	}
	if a.sprt != nil {
		lo, hi := a.sprt.Bounds()
		res.SPRT = &SPRTResult{Test: a.sprt.String(), LLR: a.llr, Lower: lo, Upper: hi,
			Decision: a.decision.String(), Pairs: a.nextPair}
	}
	return res
}
