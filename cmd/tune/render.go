package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/rafle/rafle/pkg/tune"
)

// render writes the summary line and the loss and weight tables.
func render(w io.Writer, res *tune.Result, st tune.LoadStats, out string) error {
	how := "fitted"
	switch {
	case res.ScaleFitted:
		how = "fitted with the weights"
	case !res.KFitted:
		how = "given"
	}
	fmt.Fprintf(w, "%s, %s loss, seed %d: %d positions from %d games; K %.4f (%s; logit of one man)\n",
		res.Variant, res.Loss, res.Seed, st.Positions, st.Games, res.K, how)
	fmt.Fprintf(w, "L-BFGS: %d iterations, %d evaluations, %s\n", res.Iterations, res.Evaluations, res.Status)
	if p := res.Patterns; p != nil {
		fmt.Fprintf(w, "patterns: %d windows, %d weights (%d fitted, one table a %s), %d not zero, largest %.1f hundredths, L2 %g\n",
			p.Windows, p.Weights, p.Free, p.Share, p.NonZero, p.MaxAbs, p.L2)
	}
	t := newTable(w)
	t.Header("Set", "Games", "Positions", "Draws", "Constant", "Before", "After", "Change")
	sets := []struct {
		name string
		s    *tune.SetLoss
	}{{"train", &res.Train}, {"held-out", res.Holdout}}
	for _, set := range sets {
		if set.s == nil {
			continue
		}
		s := set.s
		if err := t.Append(set.name, strconv.Itoa(s.Games), strconv.Itoa(s.Positions), fmt.Sprintf("%.1f%%", 100*s.Draws),
			loss(s.Constant), loss(s.Before), loss(s.After), fmt.Sprintf("%+.3f%%", 100*(s.After-s.Before)/s.Before)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nWeights (hundredths of a man):")
	t = newTable(w)
	t.Header("Feature", "Old", "New", "Change", "")
	for _, c := range res.Weights {
		mark := "tuned"
		if !c.Tuned {
			mark = "fixed"
		}
		if err := t.Append(c.Feature, num(c.Old), num(c.New), fmt.Sprintf("%+.2f", c.New-c.Old), mark); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	if out != "" {
		fmt.Fprintf(w, "\nwrote %s\n", out)
	}
	return nil
}

func loss(x float64) string { return fmt.Sprintf("%.6f", x) }

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// newTable returns a table that writes headers as given.
func newTable(w io.Writer) *tablewriter.Table {
	return tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAlignment(tw.AlignRight))
}
