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
	total := sched.games()
	byGame := make([]*Record, total)
	for i := range recs {
		r := &recs[i]
		if r.Game < 0 || r.Game >= total || byGame[r.Game] != nil {
			return nil, fmt.Errorf("match: game %d: out of range or recorded twice", r.Game+1)
		}
		gm := sched.game(r.Game)
		pair := []string{cfg.Players[gm.A].Name, cfg.Players[gm.B].Name}
		if !slices.Contains(pair, r.White) || !slices.Contains(pair, r.Black) || r.White == r.Black {
			return nil, fmt.Errorf("match: game %d: %s against %s, but the schedule gives it to %s and %s", r.Game+1, r.White, r.Black, pair[0], pair[1])
		}
		byGame[r.Game] = r
	}
	agg := newAggregator(&cfg, &sched)
	for _, r := range byGame {
		if r != nil {
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
	cfg := Config{Variant: v, Games: h.Games, Seed: h.Seed, MaxPlies: h.MaxPlies, Openings: make([]Opening, 1), Tournament: h.Tournament}
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
