package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// Adjudication ends games early from the scores the players report (cutechess's and
// fastchess's -draw and -resign). Scores are in hundredths of a man, from the side to move.
// A zero count turns a rule off.
type Adjudication struct {
	// DrawMoves and DrawScore: a draw once each player's last DrawMoves scores were all
	// within ±DrawScore.
	DrawMoves, DrawScore int
	// ResignMoves and ResignScore: a win once one player's last ResignMoves scores were all
	// at most -ResignScore and its opponent's at least +ResignScore (both agree).
	ResignMoves, ResignScore int
}

// ParseAdjudication reads "draw=MOVES:SCORE,resign=MOVES:SCORE" (either part may be left
// out), with SCORE in men as engines report it (0.05, 3).
func ParseAdjudication(s string) (Adjudication, error) {
	var a Adjudication
	for part := range strings.SplitSeq(s, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		moves, score, ok2 := strings.Cut(val, ":")
		n, err1 := strconv.Atoi(moves)
		x, err2 := strconv.ParseFloat(score, 64)
		if !ok || !ok2 || err1 != nil || err2 != nil || n < 1 || !(x >= 0) || x > 1000 {
			return a, fmt.Errorf("adjudication %q: want draw=MOVES:SCORE,resign=MOVES:SCORE with MOVES a positive integer and SCORE in men, such as draw=20:0.05,resign=5:3", part)
		}
		hundredths := int(math.Round(x * 100))
		switch key {
		case "draw":
			a.DrawMoves, a.DrawScore = n, hundredths
		case "resign":
			a.ResignMoves, a.ResignScore = n, hundredths
		default:
			return a, fmt.Errorf("adjudication %q: unknown rule %q (want draw or resign)", part, key)
		}
	}
	return a, nil
}

// String writes a as ParseAdjudication reads it.
func (a Adjudication) String() string {
	var parts []string
	men := func(h int) string { return strconv.FormatFloat(float64(h)/100, 'f', -1, 64) }
	if a.DrawMoves > 0 {
		parts = append(parts, fmt.Sprintf("draw=%d:%s", a.DrawMoves, men(a.DrawScore)))
	}
	if a.ResignMoves > 0 {
		parts = append(parts, fmt.Sprintf("resign=%d:%s", a.ResignMoves, men(a.ResignScore)))
	}
	return strings.Join(parts, ",")
}

// adjudicator follows the scores of one game.
type adjudicator struct {
	rules *Adjudication
	// runs of consecutive scored moves per side: drawish, losing, winning
	draw, lose, win [2]int
}

// add counts a move of side and reports the outcome when the game is adjudicated.
func (a *adjudicator) add(side engine.Color, r Reply) (engine.Outcome, bool) {
	if a.rules == nil {
		return engine.Outcome{}, false
	}
	run := func(n *int, ok bool) {
		if r.HasScore && ok {
			*n++
		} else {
			*n = 0
		}
	}
	run(&a.draw[side], abs(r.Score) <= a.rules.DrawScore)
	run(&a.lose[side], r.Score <= -a.rules.ResignScore)
	run(&a.win[side], r.Score >= a.rules.ResignScore)
	other := side.Other()
	if n := a.rules.ResignMoves; n > 0 {
		for _, loser := range []engine.Color{side, other} {
			if a.lose[loser] >= n && a.win[loser.Other()] >= n {
				return engine.Outcome{Over: true, Winner: loser.Other(), Reason: ReasonAdjudicatedWin}, true
			}
		}
	}
	if n := a.rules.DrawMoves; n > 0 && a.draw[side] >= n && a.draw[other] >= n {
		return engine.Outcome{Over: true, Draw: true, Reason: ReasonAdjudicatedDraw}, true
	}
	return engine.Outcome{}, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
