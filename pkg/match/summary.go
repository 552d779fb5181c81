package match

import (
	"fmt"
	"io"
	"slices"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/stats"
)

// ReadJournal reads a whole journal from r: its header and its records in file order. A
// torn last line (a crash during a write) is left out, as a resumed match leaves it out.
// name is the journal's name in errors.
func ReadJournal(r io.Reader, name string) (Header, []Record, error) {
	h, recs, _, err := readJournal(r, name)
	return h, recs, err
}

// Summarize counts recs, finished games of the match whose journal header is h, as Run
// counts them: the same Result, with the first player as the ratings' anchor at 0 (the
// anchor is not in the header) and no games resumed. Each record must be a game of h's
// schedule, once, played by the players the schedule gives it.
func Summarize(h Header, recs []Record) (*Result, error) {
	cfg, sched, err := configOf(h)
	if err != nil {
		return nil, err
	}
	total := sched.total()
	byGame, err := sched.place(recs, func(_ int, r *Record) error {
		gm := sched.game(r.Game)
		pair := []string{cfg.Players[gm.A].Name, cfg.Players[gm.B].Name}
		if !slices.Contains(pair, r.White) || !slices.Contains(pair, r.Black) || r.White == r.Black {
			return fmt.Errorf("game %d: %s against %s, but the schedule gives it to %s and %s", r.Game+1, r.White, r.Black, pair[0], pair[1])
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	agg := newAggregator(&cfg, &sched)
	for i := range total {
		if r := byGame[i]; r != nil {
			agg.add(r)
		}
	}
	res := agg.result()
	res.GamesPlanned = total
	res.Interrupted = !agg.decided() && len(recs) < total
	return res, nil
}

// configOf returns the Config and schedule of the match whose journal header is h, as far
// as its statistics need them: the variant, the players by name, the games, the seed and
// the SPRT; one stand-in opening (the openings' order does not count in a Result).
func configOf(h Header) (Config, schedule, error) {
	v, err := engine.Lookup(h.Variant)
	if err != nil {
		return Config{}, schedule{}, fmt.Errorf("match: journal header: %w", err)
	}
	cfg := Config{Variant: v, Games: h.Games, Seed: h.Seed, MaxPlies: h.MaxPlies, Openings: make([]Opening, 1), Tournament: h.Tournament, Rounds: h.Rounds}
	for _, name := range h.Players {
		cfg.Players = append(cfg.Players, Entrant{Name: name})
	}
	if h.SPRT != "" {
		t, err := stats.ParseSPRT(h.SPRT)
		if err != nil {
			return Config{}, schedule{}, fmt.Errorf("match: journal header: %w", err)
		}
		cfg.SPRT = &t
	}
	if err := cfg.check(); err != nil {
		return Config{}, schedule{}, fmt.Errorf("match: journal header: %w", err)
	}
	return cfg, newSchedule(&cfg), nil
}

// SchedulePairings returns the pairings (a < b, by player index) of the match whose
// journal header is h, in the order of Result.Pairings, and the pairing of each game pair
// k (games 2k and 2k+1) of recs, its finished games (-1 for a pair of none). A Swiss or
// knockout tournament's rounds are paired from recs as the match paired them.
func SchedulePairings(h Header, recs []Record) (pairings [][2]int, ofPair []int, err error) {
	_, sched, err := configOf(h)
	if err != nil {
		return nil, nil, err
	}
	if _, err := sched.place(recs, nil); err != nil {
		return nil, nil, fmt.Errorf("match: %w", err)
	}
	for _, p := range sched.pairings {
		pairings = append(pairings, [2]int{p.a, p.b})
	}
	ofPair = make([]int, sched.total()/2)
	for k := range ofPair {
		ofPair[k] = -1
		if sched.known(2 * k) {
			ofPair[k] = sched.game(2 * k).Pairing
		}
	}
	return pairings, ofPair, nil
}
