package archive

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Running a job in shards
//
// A job too large for one machine is split into shards, each run on a
// machine of its own with Job.Select = sh.Has, sh a pkg/shard Shard: the
// games whose number over all the inputs (from 0) is sh.Index modulo
// sh.Count. Every shard reads all the inputs, to number the games, and
// handles only its own games: every n-th game, so that shards take about
// the same time whatever the inputs hold, and the games of the n shards are
// those of the job, each once. The pdn command writes what each shard found
// to a file and joins them.

// selector numbers the games read, for Job.Select.
type selector struct {
	sel  func(int) bool
	next int
}

// keep numbers the next game and reports whether Job.Select keeps it.
func (s *selector) keep() bool {
	if s.sel == nil {
		return true
	}
	i := s.next
	s.next++
	return s.sel(i)
}

// skips appends to dst, for the next n games, whether Job.Select leaves
// them out; it returns nil without a Select.
func (s *selector) skips(dst []bool, n int) []bool {
	if s.sel == nil {
		return nil
	}
	for range n {
		dst = append(dst, !s.keep())
	}
	return dst
}

// statsJSON is Stats as MarshalJSON writes it: every count, uncut.
type statsJSON struct {
	Games      int            `json:"games"`
	Errors     int            `json:"errors"`
	Replay     bool           `json:"replay"`
	Replayed   int            `json:"replayed"`
	Skipped    int            `json:"skipped"`
	Variants   map[string]int `json:"variants"`
	Results    map[string]int `json:"results"`
	Plies      map[string]int `json:"plies"` // by number of plies
	FirstMoves map[string]int `json:"first_moves"`
	Players    map[string]int `json:"players"`
	Events     map[string]int `json:"events"`
	// the endgame database's comparison (StatsOptions.EGDB), when there was one
	EGDBVariant string     `json:"egdb_variant,omitempty"`
	EGDBChecked int        `json:"egdb_checked,omitempty"`
	EGDBGames   []EGDBGame `json:"egdb_games,omitempty"`
}

// MarshalJSON writes every count of s, so that the statistics of the
// shards of a job can be read back (UnmarshalJSON) and added up (Merge).
func (s *Stats) MarshalJSON() ([]byte, error) {
	plies := make(map[string]int, len(s.plies))
	for p, n := range s.plies {
		plies[strconv.Itoa(p)] = n
	}
	return json.Marshal(statsJSON{Games: s.games, Errors: s.errors, Replay: s.replay, Replayed: s.replayed,
		Skipped: s.skipped, Variants: s.variants, Results: s.results, Plies: plies, FirstMoves: s.firstMoves,
		Players: s.players, Events: s.events, EGDBVariant: s.egdb.variant, EGDBChecked: s.egdb.checked,
		EGDBGames: s.egdb.games})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (s *Stats) UnmarshalJSON(b []byte) error {
	var j statsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = *NewStats()
	s.games, s.errors, s.replay, s.replayed, s.skipped = j.Games, j.Errors, j.Replay, j.Replayed, j.Skipped
	s.egdb = egdbStats{variant: j.EGDBVariant, checked: j.EGDBChecked, games: j.EGDBGames}
	for _, m := range [][2]map[string]int{{s.variants, j.Variants}, {s.results, j.Results},
		{s.firstMoves, j.FirstMoves}, {s.players, j.Players}, {s.events, j.Events}} {
		for k, n := range m[1] {
			m[0][k] = n
		}
	}
	for k, n := range j.Plies {
		p, err := strconv.Atoi(k)
		if err != nil {
			return fmt.Errorf("pdn: stats: plies %q: not a number", k)
		}
		s.plies[p] = n
	}
	return nil
}

// Merge adds o's counts to s, as if s had counted o's games too. Both must
// have been replayed, or neither (CollectStats with or without Replay).
func (s *Stats) Merge(o *Stats) {
	s.replay = s.replay || o.replay
	s.merge(o)
}

// CopyOutcome is what Copy did with one game (CopyOptions.Outcome).
type CopyOutcome struct {
	Skipped   bool // read with an error and left out (SkipBad)
	Filtered  bool // dropped by the Filter
	Duplicate bool // dropped by the Deduper
	// Deduped says the game went through the Deduper as a new one; Hash is
	// then its MoveHash, which the Deduper remembers.
	Deduped bool
	Hash    uint64
	// Dropped says the replay stage dropped it (ReplayCopy.Reach).
	Dropped bool
	// ReplayError says its main line did not replay (it was read without
	// error); it is left out with SkipBad.
	ReplayError bool
	Written     bool
}
