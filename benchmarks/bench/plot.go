package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The history plot's size, and the width kept on its right for the legend, in points.
const (
	plotWidth   vg.Length = 900
	plotHeight  vg.Length = 420
	legendWidth vg.Length = 230
)

// PlotHistory writes an SVG line chart of the results rs (oldest first): for each
// benchmark, its median relative to its first median in rs (1 = unchanged, 0.9 = 10%
// slower; for an amount where lower is better, such as peak memory, the first median
// relative to it, so that up is better there too), one point per result, labelled with
// the commit. Skipped figures leave gaps.
// It is drawn with gonum's plot package.
func PlotHistory(w io.Writer, rs []*Result) error {
	var names []string
	first := map[string]float64{}
	lower := map[string]bool{}
	for _, r := range rs {
		for _, f := range r.Figures {
			if _, ok := first[f.Name]; !ok && f.Median > 0 {
				first[f.Name] = f.Median
				lower[f.Name] = LowerIsBetter(f.Unit)
				names = append(names, f.Name)
			}
		}
	}
	p := plot.New()
	p.Title.Text = "rafle benchmarks: median throughput relative to the first result (CPU time)"
	p.Y.Label.Text = "relative to the first result"
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	for k, name := range names {
		// one line per run of results that have the figure: a skipped one leaves a gap
		var runs []plotter.XYs
		var run plotter.XYs
		for i, r := range rs {
			med := median(r, name)
			if med <= 0 {
				if len(run) > 0 {
					runs, run = append(runs, run), nil
				}
				continue
			}
			rel := med / first[name]
			if lower[name] {
				rel = 1 / rel
			}
			run = append(run, plotter.XY{X: float64(i), Y: rel})
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		for j, xys := range runs {
			l, s, err := plotter.NewLinePoints(xys)
			if err != nil {
				return fmt.Errorf("bench: plot %s: %w", name, err)
			}
			l.Color, s.Color = plotutil.Color(k), plotutil.Color(k)
			l.Dashes = plotutil.Dashes(k / len(plotutil.DefaultColors))
			s.Shape = draw.CircleGlyph{}
			s.Radius = vg.Points(2.5)
			p.Add(l, s)
			if j == 0 {
				legend.Add(name, l, s)
			}
		}
	}
	// y from the lowest to the highest tenth reached, 0.9 and 1.1 at least
	p.Y.Min = math.Floor(math.Min(p.Y.Min, 0.9)*10) / 10
	p.Y.Max = math.Ceil(math.Max(p.Y.Max, 1.1)*10) / 10
	if err := one(p); err != nil {
		return err
	}
	labels := make([]string, len(rs))
	for i, r := range rs {
		labels[i] = r.Commit
		if len(labels[i]) > 12 {
			labels[i] = labels[i][:12]
		}
	}
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = -math.Pi / 5
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XLeft, draw.YTop

	c := vgsvg.New(plotWidth, plotHeight)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legend.Top, legend.Left = true, true
	legend.Draw(draw.Crop(dc, plotWidth-legendWidth+10, 0, 0, -30))
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("bench: plot: %w", err)
	}
	return nil
}

// one draws the line y = 1 (unchanged) across the plot.
func one(p *plot.Plot) error {
	l, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}})
	if err != nil {
		return err
	}
	l.Color = color.Gray{Y: 100}
	l.Width = vg.Points(1.5)
	p.Add(l)
	return nil
}

// median returns the median of the figure named name in r, or 0 when r has none.
func median(r *Result, name string) float64 {
	for _, f := range r.Figures {
		if f.Name == name {
			return f.Median
		}
	}
	return 0
}
