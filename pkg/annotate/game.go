package annotate

import (
	"context"
	"fmt"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// Options configure the analysis of a game.
type Options struct {
	// Thresholds class the moves by their loss (the zero value: DefaultThresholds).
	Thresholds Thresholds
	// EGDB, if set, gives the exact value of the positions it holds, in the games of its
	// variant.
	EGDB *egdb.DB
	// Positions, if set, is called after each position searched.
	Positions func()
}

// The notes of a move that an endgame database judges (see the package documentation).
const (
	NoteWinThrownAway = "winning position thrown away"
	NoteLossForced    = "the loss became forced"
)

// Position is one position of a game's main line, as the analysis saw it.
type Position struct {
	// Over is set when the game is over in the position (Outcome says how): it was not
	// searched.
	Over    bool
	Outcome engine.Outcome
	// Searched is set when Eval holds the analyser's answer.
	Searched bool
	Eval     Eval
	// Forced is set when the side to move had a single legal move: an analyser answers
	// such a position at once, with a static score (rafle's search, Scan), so Eval's
	// score and depth, and Expected, are taken from the position after the move when
	// that one is known.
	Forced bool
	// Exact is the endgame database's value for the side to move (egdb.Unknown when it
	// does not hold the position), or with a database the value of a game over.
	Exact egdb.Value
	// Expected is the side to move's expected score (valid when Known): from the outcome,
	// the database or the search's score, in that order.
	Expected float64
	Known    bool

	side engine.Color // the side to move
}

// Ply is one move of the main line with its verdict.
type Ply struct {
	Move engine.Move
	Side engine.Color
	// Loss is the expected score the move lost against the best move (valid when Known).
	Loss     float64
	Known    bool
	Judgment Judgment
	// Note is NoteWinThrownAway or NoteLossForced when a database judged the move.
	Note string
}

// Analysis is the analysis of a game's main line: Positions[i] is the position before
// Plies[i], and the last one the position after the last move analysed. A game that is
// over by the rules before its last move (a draw the players played on from) is analysed
// up to there.
type Analysis struct {
	Variant   *engine.Variant
	Start     engine.Position
	Positions []Position
	Plies     []Ply
	// Searches and Nodes count the positions searched and the nodes the analyser reported.
	Searches int
	Nodes    int64
}

// AnalyseGame searches every position of rp's main line with a, which it starts on a
// new game, and judges every move. rp must have a variant. The error is the analyser's
// or the database's (or ctx's).
func AnalyseGame(ctx context.Context, a Analyser, rp *pdn.Replayed, opt Options) (*Analysis, error) {
	v := rp.Variant
	if v == nil {
		return nil, fmt.Errorf("annotate: the game has no variant rafle plays")
	}
	th := opt.Thresholds
	if th == (Thresholds{}) {
		th = DefaultThresholds
	}
	db := opt.EGDB
	if db != nil && db.Variant() != v {
		db = nil
	}
	if err := a.StartGame(ctx, v); err != nil {
		return nil, err
	}
	an := &Analysis{Variant: v, Start: rp.Start}
	g := engine.NewGame(v, rp.Start)
	for i := 0; ; i++ {
		pos, err := analysePosition(ctx, a, g, db)
		if err != nil {
			return nil, err
		}
		if pos.Searched {
			an.Searches++
			an.Nodes += pos.Eval.Nodes
			if opt.Positions != nil {
				opt.Positions()
			}
		}
		an.Positions = append(an.Positions, pos)
		if pos.Over || i == len(rp.Plies) {
			break
		}
		m := rp.Plies[i].Move
		if err := g.Play(m); err != nil {
			break // not legal under the draw rules' restrictions: the analysis ends here
		}
		an.Plies = append(an.Plies, Ply{Move: m, Side: rp.Plies[i].Before.Side})
	}
	for i := len(an.Plies) - 1; i >= 0; i-- {
		pos, next := &an.Positions[i], &an.Positions[i+1]
		if pos.Forced && next.Known && pos.Exact == egdb.Unknown {
			pos.Expected = 1 - next.Expected
			if next.Searched && next.Eval.HasScore {
				pos.Eval.Score, pos.Eval.HasScore, pos.Eval.Depth = -next.Eval.Score, true, next.Eval.Depth
			}
		}
	}
	for i := range an.Plies {
		judge(&an.Plies[i], &an.Positions[i], &an.Positions[i+1], th)
	}
	return an, nil
}

// analysePosition looks at g's current position: the outcome, the database, the search.
func analysePosition(ctx context.Context, a Analyser, g *engine.Game, db *egdb.DB) (Position, error) {
	p := g.Position()
	pos := Position{side: p.Side}
	if out := g.Outcome(); out.Over {
		pos.Over, pos.Outcome, pos.Known = true, out, true
		pos.Exact = egdb.Loss
		switch {
		case out.Draw:
			pos.Expected, pos.Exact = 0.5, egdb.Draw
		case out.Winner == p.Side:
			pos.Expected, pos.Exact = 1, egdb.Win
		}
		if db == nil {
			pos.Exact = egdb.Unknown // the notes are a database's
		}
		return pos, nil
	}
	if db != nil {
		r, err := db.Probe(&p)
		if err != nil {
			return pos, err
		}
		pos.Exact = r.Value
	}
	e, err := a.Analyse(ctx, g)
	if err != nil {
		return pos, err
	}
	pos.Searched, pos.Eval, pos.Forced = true, e, len(g.Legal()) == 1
	switch pos.Exact {
	case egdb.Win:
		pos.Expected, pos.Known = 1, true
	case egdb.Draw:
		pos.Expected, pos.Known = 0.5, true
	case egdb.Loss:
		pos.Expected, pos.Known = 0, true
	default:
		if e.HasScore {
			pos.Expected, pos.Known = Expected(e.Score), true
		}
	}
	return pos, nil
}

// judge sets the loss, judgment and note of ply, played in before and leading to after.
func judge(ply *Ply, before, after *Position, th Thresholds) {
	if before.Exact != egdb.Unknown && after.Exact != egdb.Unknown {
		then, now := before.Exact, after.Exact.Negate()
		switch {
		case then == egdb.Win && now != egdb.Win:
			ply.Note = NoteWinThrownAway
		case then != egdb.Loss && now == egdb.Loss:
			ply.Note = NoteLossForced
		}
	}
	if !before.Known || !after.Known {
		return
	}
	ply.Known = true
	if before.Searched && before.Eval.Move == ply.Move && ply.Note == "" {
		return // the move the search chose loses nothing
	}
	ply.Loss = max(0, before.Expected-(1-after.Expected))
	ply.Judgment = th.Judge(ply.Loss)
}
