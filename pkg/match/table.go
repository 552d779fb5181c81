package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Table is one of a result's tables as selfplay prints it (and the HTML report shows it):
// a header and rows of formatted cells.
type Table struct {
	Header []string
	Rows   [][]string
}

// PairingsTable is the table of the pairings: games, W/D/L, score, Elo with its 95% margin
// (or interval, when it is not symmetric), LOS, draws and the pentanomial pair counts.
func (r *Result) PairingsTable() Table {
	t := Table{Header: []string{"Player", "Opponent", "Games", "W", "D", "L", "Score", "Elo", "±95%", "LOS", "Draws", "Pairs 0/½/1/1½/2"}}
	for _, p := range r.Pairings {
		margin := (p.EloUpper - p.EloLower) / 2
		ci := fmt.Sprintf("%.1f", margin)
		if math.IsNaN(float64(margin)) || math.IsInf(float64(margin), 0) {
			ci = fmt.Sprintf("[%s, %s]", p.EloLower, p.EloUpper) // asymmetric: a score of 0 or 1 within reach
		}
		t.Rows = append(t.Rows, []string{p.Player, p.Opponent, strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws),
			strconv.Itoa(p.Losses), fmt.Sprintf("%.3f", p.Score), p.EloDiff.String(), ci, percent(p.LOS), percent(p.DrawRatio),
			fmt.Sprintf("%d/%d/%d/%d/%d", p.Penta[0], p.Penta[1], p.Penta[2], p.Penta[3], p.Penta[4])})
	}
	return t
}

// RatingsTable is the table of the maximum-likelihood ratings (three or more players).
func (r *Result) RatingsTable() Table {
	t := Table{Header: []string{"Player", "Elo", "± 95%", "Games", "Points"}}
	for _, p := range r.Ratings {
		t.Rows = append(t.Rows, []string{p.Player, p.Elo.String(), fmt.Sprintf("%.1f", 1.96*float64(p.StdErr)), strconv.Itoa(p.Games), fmt.Sprintf("%.1f", p.Points)})
	}
	return t
}

// TerminationsTable is the table of the reasons games ended.
func (r *Result) TerminationsTable() Table {
	t := Table{Header: []string{"Reason", "Games", "Draws", "Share"}}
	for _, x := range r.Terminations {
		t.Rows = append(t.Rows, []string{x.Reason, strconv.Itoa(x.Games), strconv.Itoa(x.Draws), percent(float64(x.Games) / float64(r.Games))})
	}
	return t
}

// SPRTLine is the SPRT's state in one line, "" without an SPRT.
func (r *Result) SPRTLine() string {
	s := r.SPRT
	if s == nil {
		return ""
	}
	verdict := "continue"
	if s.Decision == "H0" || s.Decision == "H1" {
		verdict = s.Decision + " accepted"
	}
	return fmt.Sprintf("SPRT %s: LLR %s, bounds [%.3f, %.3f], %s after %d pairs", s.Test, unsignedZero(fmt.Sprintf("%.3f", s.LLR), false), s.Lower, s.Upper, verdict, s.Pairs)
}

// String writes an Elo difference with its sign and one decimal: "+12.3", "+inf", "-inf",
// or "-" when it is not a number; zero, and what rounds to it, is "+0.0", never "-0.0".
func (f Float) String() string {
	x := float64(f)
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "-"
	}
	return unsignedZero(fmt.Sprintf("%+.1f", x), true)
}

// unsignedZero returns a formatted number that reads zero, "-0.0" or "-0.000" (a negative
// zero, or a small negative value rounded), as "+0.0" when plus is set (a number written
// with its sign) and "0.000" otherwise; any other s as it is.
func unsignedZero(s string, plus bool) string {
	rest, ok := strings.CutPrefix(s, "-")
	if !ok || strings.Trim(rest, "0.") != "" {
		return s
	}
	if plus {
		return "+" + rest
	}
	return rest
}

func percent(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
