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
	// the result it means, written as Result is (1-0 or 2-0 when the first mover wins, as
	// pdn.FirstMoverScore reads them), Result the game's result as written.
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

// scoreOf returns the score of the side to move that the database's value r means: 1 for a
// win, 0.5 for a draw, 0 for a loss.
func scoreOf(r egdb.Result) float64 {
	switch r.Value {
	case egdb.Win:
		return 1
	case egdb.Draw:
		return 0.5
	}
	return 0
}

// resultText writes the first mover's score as a PDN result, in the style of written (2-0,
// 1-1 and 0-2 when it is one of those).
func resultText(firstMover float64, written string) string {
	two := written == "2-0" || written == "0-2" || written == "1-1"
	switch {
	case firstMover == 1 && two:
		return "2-0"
	case firstMover == 1:
		return "1-0"
	case firstMover == 0 && two:
		return "0-2"
	case firstMover == 0:
		return "0-1"
	case two:
		return "1-1"
	}
	return "1/2-1/2"
}

// checkEGDB compares game n of file, g, replayed as res, with db: the database's value at
// the first position of its main line that it holds against its result.
func (s *Stats) checkEGDB(db *egdb.DB, file string, n int, g *pdn.Game, res *pdn.Replayed) {
	e := &s.egdb
	e.variant = db.Variant().Name
	if res == nil || res.Variant == nil || res.Variant.Name != db.Variant().Name || !res.Complete {
		return
	}
	v, result := res.Variant, g.GameResult()
	if _, ok := pdn.FirstMoverScore(result); !ok {
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
		if got, _ := pdn.ScoreFor(v, p.Side, result); got != scoreOf(r) {
			first := scoreOf(r)
			if p.Side != v.FirstMover {
				first = 1 - first
			}
			e.games = append(e.games, EGDBGame{File: file, Game: n, Ply: i, FEN: v.FEN(*p),
				Value: r.String(), Expected: resultText(first, result), Result: result})
		}
		return
	}
}
