package archive

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// EGDBGame is a game whose result contradicts the endgame database's value at the first
// position of its main line that the database holds (StatsOptions.EGDB).
type EGDBGame struct {
	File string `json:"file"`
	Game int    `json:"game"` // its number in File, from 1
	// Ply is the number of plies of the main line played before the position (0: the
	// start position).
	Ply int    `json:"ply"`
	FEN string `json:"fen"`
	// Value is the database's value for the side to move ("win in 17", "draw"), Expected
	// the result it means ("1-0", "0-1" or "1/2-1/2"), Result the game's result as written.
	Value    string `json:"value"`
	Expected string `json:"expected"`
	Result   string `json:"result"`
}

// EGDBReport is what StatsOptions.EGDB counts: the games of the database's variant, replayed
// to the end, that reach a position it holds and have a result (1-0, 0-1 or a draw), and
// those among them whose result is not the database's value there (listed by file and game
// number). The database's values leave out the draw rules that count moves (pkg/egdb): a game
// drawn by such a rule in a won position is counted.
type EGDBReport struct {
	Variant        string     `json:"variant"`
	Checked        int        `json:"checked"`
	Contradictions int        `json:"contradictions"`
	Games          []EGDBGame `json:"games,omitempty"`
}

// egdbStats is the part of Stats that StatsOptions.EGDB fills.
type egdbStats struct {
	variant string
	checked int
	games   []EGDBGame
	err     error // the first error of a probe (a damaged file)
}

// merge adds o to e.
func (e *egdbStats) merge(o *egdbStats) {
	if e.variant == "" {
		e.variant = o.variant
	}
	e.checked += o.checked
	e.games = append(e.games, o.games...)
	if e.err == nil {
		e.err = o.err
	}
}

// report returns e as an EGDBReport, the games in file and game order; nil when no
// database was given.
func (e *egdbStats) report() *EGDBReport {
	if e.variant == "" {
		return nil
	}
	games := slices.Clone(e.games)
	slices.SortFunc(games, func(a, b EGDBGame) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Game, b.Game))
	})
	return &EGDBReport{Variant: e.variant, Checked: e.checked, Contradictions: len(games), Games: games}
}

// winnerOf returns the result that the database's value r means in a position with side to
// move: "1-0", "0-1" or "1/2-1/2".
func winnerOf(r egdb.Result, side engine.Color) string {
	switch {
	case r.Value == egdb.Draw:
		return "1/2-1/2"
	case (r.Value == egdb.Win) == (side == engine.White):
		return "1-0"
	}
	return "0-1"
}

// normalResult returns a game's result as "1-0", "0-1" or "1/2-1/2" (PDN's 2-0, 0-2 and 1-1
// too), false for another (* or 0-0).
func normalResult(s string) (string, bool) {
	switch s {
	case "1-0", "2-0":
		return "1-0", true
	case "0-1", "0-2":
		return "0-1", true
	case "1/2-1/2", "1-1":
		return "1/2-1/2", true
	}
	return "", false
}

// checkEGDB compares game n of file, g, replayed as res, with db: the database's value at
// the first position of its main line that it holds against its result.
func (s *Stats) checkEGDB(db *egdb.DB, file string, n int, g *pdn.Game, res *pdn.Replayed) {
	e := &s.egdb
	e.variant = db.Variant().Name
	if res == nil || res.Variant == nil || res.Variant.Name != db.Variant().Name || !res.Complete {
		return
	}
	result, ok := normalResult(g.GameResult())
	if !ok {
		return
	}
	maxPieces := db.MaxPieces()
	for i := 0; i <= len(res.Plies); i++ {
		p := &res.Final
		if i < len(res.Plies) {
			p = &res.Plies[i].Before
		}
		m := p.Material()
		if m.Pieces(engine.White)+m.Pieces(engine.Black) > maxPieces {
			continue
		}
		r, err := db.Probe(p)
		if err != nil {
			if e.err == nil {
				e.err = fmt.Errorf("%s: game %d: %w", file, n, err)
			}
			return
		}
		if r.Value == egdb.Unknown {
			continue
		}
		e.checked++
		if want := winnerOf(r, p.Side); want != result {
			e.games = append(e.games, EGDBGame{File: file, Game: n, Ply: i, FEN: db.Variant().FEN(*p),
				Value: r.String(), Expected: want, Result: g.GameResult()})
		}
		return
	}
}
