package main

import (
	"fmt"
	"io"

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
	if err := renderTable(w, "", res.PairingsTable()); err != nil {
		return err
	}
	if len(res.Ratings) > 0 {
		if err := renderTable(w, "Maximum-likelihood ratings", res.RatingsTable()); err != nil {
			return err
		}
	} else if res.RatingsError != "" {
		fmt.Fprintf(w, "\nno ratings: %s\n", res.RatingsError)
	}
	if err := renderCross(w, res); err != nil {
		return err
	}
	if len(res.Standings) > 0 {
		if err := renderTable(w, match.StandingsCaption(res.Tournament), res.StandingsTable()); err != nil {
			return err
		}
		if err := renderTable(w, "Rounds (points of each pairing's players)", res.RoundsTable()); err != nil {
			return err
		}
	}
	if len(res.Terminations) > 0 {
		if err := renderTable(w, "Terminations", res.TerminationsTable()); err != nil {
			return err
		}
	}
	if line := res.SPRTLine(); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	return nil
}

// renderTable writes one table, after its caption.
func renderTable(w io.Writer, caption string, table match.Table) error {
	if caption != "" {
		fmt.Fprintf(w, "\n%s:\n", caption)
	}
	t := newTable(w)
	t.Header(table.Header)
	for _, row := range table.Rows {
		if err := t.Append(row); err != nil {
			return err
		}
	}
	return t.Render()
}

// newTable returns a table that writes headers as given.
func newTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAlignment(tw.AlignRight))
}

// renderCross writes the crosstable and the likelihood of superiority between every two
// players (three or more players).
func renderCross(w io.Writer, res *match.Result) error {
	if len(res.Crosstable) > 0 {
		if err := renderTable(w, "Crosstable (points/games of the row's player)", res.CrosstableTable()); err != nil {
			return err
		}
	}
	if len(res.LOS) > 0 {
		return renderTable(w, "Likelihood of superiority (row over column, from the ratings)", res.LOSTable())
	}
	return nil
}
