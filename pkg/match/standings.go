package match

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Standing is a player's place in a Swiss or knockout tournament.
type Standing struct {
	Rank   int     `json:"rank"`
	Player string  `json:"player"`
	Points float64 `json:"points"` // its games' points, and a Swiss bye's
	Games  int     `json:"games"`
	// Buchholz (Swiss) is the sum of the points of the opponents met, once per meeting; a
	// bye adds nothing. SonnebornBerger (Swiss) is the sum over the opponents of the
	// player's points against each times that opponent's points. Both as the FIDE Handbook
	// C.07 (Play-off and Tie-Break Regulations, effective from 1 August 2024) defines them
	// for one game per round, a pairing's games counting as its round's games.
	Buchholz        float64 `json:"buchholz,omitempty"`
	SonnebornBerger float64 `json:"sonneborn_berger,omitempty"`
	// Reached (knockout) is the number of rounds the player went through (by winning or a
	// bye): the winner's is the number of rounds.
	Reached int `json:"reached,omitempty"`
}

// RoundResult is one round of a Swiss or knockout tournament.
type RoundResult struct {
	Round    int            `json:"round"` // from 1
	Pairings []RoundPairing `json:"pairings"`
	Byes     []string       `json:"byes,omitempty"` // players without a game this round
}

// RoundPairing is one pairing of a round: its players' points in its games so far.
type RoundPairing struct {
	Player         string  `json:"player"`
	Opponent       string  `json:"opponent"`
	Games          int     `json:"games"`
	Points         float64 `json:"points"`
	OpponentPoints float64 `json:"opponent_points"`
	// Winner (knockout) is who goes through, once the pairing's games are all played.
	Winner string `json:"winner,omitempty"`
}

// addTournament sets res.Rounds and res.Standings of a Swiss or knockout tournament from
// the games of the rounds paired so far (recs: the games counted).
func (res *Result) addTournament(s *schedule, recs map[int]*Record) {
	n := len(s.players)
	for t := range s.stages {
		st := &s.stages[t]
		rr := RoundResult{Round: t + 1}
		for _, b := range st.byes {
			rr.Byes = append(rr.Byes, s.players[b])
		}
		complete := true
		for j, k := range st.pairings {
			p := s.pairings[k]
			rp := RoundPairing{Player: s.players[p.a], Opponent: s.players[p.b]}
			for i := st.first + 2*j; i < s.end(t); i += 2 * len(st.pairings) {
				for _, r := range []*Record{recs[i], recs[i+1]} {
					if r == nil {
						complete = false
						continue
					}
					pa := gamePoints(r, rp.Player)
					rp.Games++
					rp.Points += pa
					rp.OpponentPoints += 1 - pa
				}
			}
			rr.Pairings = append(rr.Pairings, rp)
		}
		if s.kind == Knockout && complete {
			for j := range rr.Pairings {
				rp := &rr.Pairings[j]
				rp.Winner = rp.Player // the higher seed on a tie
				if rp.OpponentPoints > rp.Points {
					rp.Winner = rp.Opponent
				}
			}
		}
		res.Rounds = append(res.Rounds, rr)
	}
	st := make([]Standing, n)
	for i := range st {
		st[i].Player = s.players[i]
	}
	if s.kind == Swiss {
		tb := s.swissTally(recs)
		for i := range st {
			st[i].Points, st[i].Games = tb.points[i], tb.games[i]
			for q, pts := range tb.against[i] {
				st[i].SonnebornBerger += pts * tb.points[q]
			}
		}
		for key, times := range tb.met {
			st[key[0]].Buchholz += float64(times) * tb.points[key[1]]
			st[key[1]].Buchholz += float64(times) * tb.points[key[0]]
		}
	} else {
		for _, rr := range res.Rounds {
			for _, b := range rr.Byes {
				st[slices.Index(s.players, b)].Reached++
			}
			for _, rp := range rr.Pairings {
				a, b := slices.Index(s.players, rp.Player), slices.Index(s.players, rp.Opponent)
				st[a].Points += rp.Points
				st[b].Points += rp.OpponentPoints
				st[a].Games += rp.Games
				st[b].Games += rp.Games
				if rp.Winner != "" {
					st[slices.Index(s.players, rp.Winner)].Reached++
				}
			}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// a Swiss ranks by points, Buchholz, Sonneborn-Berger; a knockout by the round reached
	// (points in different rounds do not compare); then the seeding
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := &st[a], &st[b]
		keys := []float64{y.Points - x.Points, y.Buchholz - x.Buchholz, y.SonnebornBerger - x.SonnebornBerger}
		if s.kind == Knockout {
			keys = []float64{float64(y.Reached - x.Reached)}
		}
		for _, d := range keys {
			if d > 0 {
				return 1
			}
			if d < 0 {
				return -1
			}
		}
		return a - b
	})
	for r, i := range order {
		st[i].Rank = r + 1
		res.Standings = append(res.Standings, st[i])
	}
}

// StandingsTable is the table of a Swiss or knockout tournament's standings.
func (r *Result) StandingsTable() Table {
	swiss := len(r.Standings) > 0 && !r.knockout()
	t := Table{Header: []string{"Rank", "Player", "Points", "Games"}}
	if swiss {
		t.Header = append(t.Header, "Buchholz", "Sonneborn-Berger")
	} else {
		t.Header = append(t.Header, "Rounds won")
	}
	for _, s := range r.Standings {
		row := []string{strconv.Itoa(s.Rank), s.Player, fmt.Sprintf("%g", s.Points), strconv.Itoa(s.Games)}
		if swiss {
			row = append(row, fmt.Sprintf("%g", s.Buchholz), fmt.Sprintf("%g", s.SonnebornBerger))
		} else {
			row = append(row, strconv.Itoa(s.Reached))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// knockout reports whether the result is a knockout's.
func (r *Result) knockout() bool { return r.Tournament == Knockout }

// StandingsCaption is the caption of the standings of a tournament of kind.
func StandingsCaption(kind string) string {
	if kind == Knockout {
		return "Standings (by the round reached, then the seeding)"
	}
	return "Standings (by points, then Buchholz, then Sonneborn-Berger, then the seeding)"
}

// RoundsTable is the table of a Swiss or knockout tournament's rounds: each pairing's
// points, and the byes.
func (r *Result) RoundsTable() Table {
	t := Table{Header: []string{"Round", "Player", "Opponent", "Games", "Points", "Through"}}
	for _, rr := range r.Rounds {
		for _, p := range rr.Pairings {
			t.Rows = append(t.Rows, []string{strconv.Itoa(rr.Round), p.Player, p.Opponent, strconv.Itoa(p.Games),
				fmt.Sprintf("%g-%g", p.Points, p.OpponentPoints), p.Winner})
		}
		if len(rr.Byes) > 0 {
			t.Rows = append(t.Rows, []string{strconv.Itoa(rr.Round), strings.Join(rr.Byes, ", "), "(bye)", "0", "", ""})
		}
	}
	return t
}
