package main

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/rafle/rafle/pkg/match"
)

// render writes the result tables.
func render(w io.Writer, res *match.Result) error {
	fmt.Fprintf(w, "%s, seed %d: %d of %d games", res.Variant, res.Seed, res.Games, res.GamesPlanned)
	if res.Resumed > 0 {
		fmt.Fprintf(w, " (%d from the journal)", res.Resumed)
	}
	fmt.Fprintln(w)
	t := newTable(w)
	t.Header("Player", "Opponent", "Games", "W", "D", "L", "Score", "Elo", "±95%", "LOS", "Draws", "Pairs 0/½/1/1½/2")
	for _, p := range res.Pairings {
		margin := (p.EloUpper - p.EloLower) / 2
		ci := fmt.Sprintf("%.1f", margin)
		if math.IsNaN(float64(margin)) || math.IsInf(float64(margin), 0) {
			ci = fmt.Sprintf("[%s, %s]", elo(p.EloLower), elo(p.EloUpper)) // asymmetric: a score of 0 or 1 within reach
		}
		if err := t.Append(p.Player, p.Opponent, strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws),
			strconv.Itoa(p.Losses), fmt.Sprintf("%.3f", p.Score), elo(p.EloDiff), ci, pct(p.LOS), pct(p.DrawRatio),
			fmt.Sprintf("%d/%d/%d/%d/%d", p.Penta[0], p.Penta[1], p.Penta[2], p.Penta[3], p.Penta[4])); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if len(res.Ratings) > 0 {
		fmt.Fprintln(w, "\nMaximum-likelihood ratings:")
		t := newTable(w)
		t.Header("Player", "Elo", "± 95%", "Games", "Points")
		for _, r := range res.Ratings {
			if err := t.Append(r.Player, elo(r.Elo), fmt.Sprintf("%.1f", 1.96*float64(r.StdErr)), strconv.Itoa(r.Games), fmt.Sprintf("%.1f", r.Points)); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	} else if res.RatingsError != "" {
		fmt.Fprintf(w, "\nno ratings: %s\n", res.RatingsError)
	}
	if len(res.Terminations) > 0 {
		fmt.Fprintln(w, "\nTerminations:")
		t := newTable(w)
		t.Header("Reason", "Games", "Draws", "Share")
		for _, r := range res.Terminations {
			if err := t.Append(r.Reason, strconv.Itoa(r.Games), strconv.Itoa(r.Draws), pct(float64(r.Games)/float64(res.Games))); err != nil {
				return err
			}
		}
		if err := t.Render(); err != nil {
			return err
		}
	}
	if s := res.SPRT; s != nil {
		verdict := "continue"
		switch s.Decision {
		case "H0":
			verdict = "H0 accepted"
		case "H1":
			verdict = "H1 accepted"
		}
		fmt.Fprintf(w, "\nSPRT %s: LLR %.3f, bounds [%.3f, %.3f], %s after %d pairs\n", s.Test, s.LLR, s.Lower, s.Upper, verdict, s.Pairs)
	}
	return nil
}

func elo(x match.Float) string {
	f := float64(x)
	switch {
	case math.IsInf(f, 1):
		return "+inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "-"
	}
	return fmt.Sprintf("%+.1f", f)
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// newTable returns a table that writes headers as given.
func newTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAlignment(tw.AlignRight))
}
