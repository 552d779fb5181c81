package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A figure is a plot as the page shows it (inline SVG) and as a PNG file beside the page.
type figure struct {
	ID    string // element id and PNG file name (ID.png)
	Title string
	Note  string // a line under the plot
	SVG   template.HTML
	png   []byte
}

// PNG returns the name of the figure's PNG file.
func (f *figure) PNG() string { return f.ID + ".png" }

// Plot size: wide enough for the longest opening names on the bar charts.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 8 * vg.Centimeter
)

// maxPoints bounds the points of one curve: longer series are thinned.
const maxPoints = 500

// newPlot returns a plot with sans-serif text, a grid, and the given title and labels.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	for _, st := range []*draw.TextStyle{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font.Variant = "Sans"
	}
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// svgSize matches the size attributes of the svg element gonum writes; the page sizes
// its plots with CSS instead.
var svgSize = regexp.MustCompile(`^<svg width="[^"]*" height="[^"]*"`)

// render draws p as SVG and PNG of the given height (0: the default).
func render(p *plot.Plot, id, note string, height vg.Length) (*figure, error) {
	if height == 0 {
		height = plotHeight
	}
	f := &figure{ID: id, Title: p.Title.Text, Note: note}
	for _, format := range []string{"svg", "png"} {
		wt, err := p.WriterTo(plotWidth, height, format)
		if err != nil {
			return nil, fmt.Errorf("report: plot %s: %w", id, err)
		}
		var b bytes.Buffer
		if _, err := wt.WriteTo(&b); err != nil {
			return nil, fmt.Errorf("report: plot %s: %w", id, err)
		}
		if format == "png" {
			f.png = b.Bytes()
			continue
		}
		svg := b.Bytes()
		if i := bytes.Index(svg, []byte("<svg")); i >= 0 {
			svg = svg[i:] // no XML declaration inside HTML
		}
		svg = svgSize.ReplaceAll(svg, []byte(`<svg role="img" aria-label="`+template.HTMLEscapeString(f.Title)+`"`))
		f.SVG = template.HTML(svg)
	}
	return f, nil
}

// figures calls each step and returns the figures they draw; a step returns a nil figure
// when it has nothing to show.
func figures(steps ...func() (*figure, error)) ([]*figure, error) {
	var figs []*figure
	for _, step := range steps {
		f, err := step()
		if err != nil {
			return nil, err
		}
		if f != nil {
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// thin returns the indexes of at most limit points of a series of n: every k-th, and the
// last.
func thin(n, limit int) []int {
	step := max((n+limit-1)/limit, 1)
	var idx []int
	for i := 0; i < n; i += step {
		idx = append(idx, i)
	}
	if len(idx) > 0 && idx[len(idx)-1] != n-1 {
		idx = append(idx, n-1)
	}
	return idx
}

// finite returns the points of xys whose coordinates are finite.
func finite(xys plotter.XYs) plotter.XYs {
	out := xys[:0:0]
	for _, p := range xys {
		if !math.IsInf(p.Y, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.X, 0) && !math.IsNaN(p.X) {
			out = append(out, p)
		}
	}
	return out
}

// addLine adds a line of the series' colour k to p, with a legend entry when name is
// set; dashed lines are drawn dashed.
func addLine(p *plot.Plot, xys plotter.XYs, k int, name string, dashed bool) error {
	xys = finite(xys)
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return err
	}
	l.Color = plotutil.Color(k)
	l.Width = vg.Points(1.5)
	if dashed {
		l.Width = vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// hline adds a horizontal dashed line at y across [x0, x1], labelled in the legend.
func hline(p *plot.Plot, y, x0, x1 float64, c color.Color, name string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return err
	}
	l.Color = c
	l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// integers is a tick marker for axes of whole numbers (games, years): gonum's default
// ticks without the fractional ones.
var integers = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if t.Value != math.Trunc(t.Value) {
			continue
		}
		if t.Label != "" {
			t.Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
		out = append(out, t)
	}
	if labelled := slices.ContainsFunc(out, func(t plot.Tick) bool { return t.Label != "" }); !labelled {
		for _, v := range []float64{math.Ceil(lo), math.Floor(hi)} {
			out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
		}
	}
	return out
})

// headroom leaves room above the data for the legend in the plot's top right corner.
func headroom(p *plot.Plot) {
	p.Y.Max += 0.2 * (p.Y.Max - p.Y.Min)
}

// vline adds a vertical grey line at x across the plot.
func vline(p *plot.Plot, x float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
	if err != nil {
		return err
	}
	l.Color = color.Gray{Y: 120}
	l.Width = vg.Points(1)
	p.Add(l)
	return nil
}

// barsHeight is the height of a horizontal bar chart of n bars.
func barsHeight(n int) vg.Length {
	return vg.Length(math.Max(float64(plotHeight), float64(vg.Points(40+16*float64(n)))))
}

// hbars returns a horizontal bar chart: one group of bars per label, one bar per series.
func hbars(title, xlabel string, labels []string, series [][]float64, names []string) (*plot.Plot, error) {
	p := newPlot(title, xlabel, "")
	p.Y.Label.Text = ""
	w := vg.Points(12)
	if len(series) > 1 {
		w = vg.Points(7)
	}
	for k, s := range series {
		// plot the first label at the top
		vals := make(plotter.Values, len(s))
		for i := range s {
			vals[len(s)-1-i] = s[i]
		}
		b, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return nil, err
		}
		b.Horizontal = true
		b.Color = plotutil.Color(k)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(k)-float64(len(series)-1)/2)
		p.Add(b)
		if len(names) > k {
			p.Legend.Add(names[k], b)
		}
	}
	rev := make([]string, len(labels))
	for i, l := range labels {
		rev[len(labels)-1-i] = shorten(l, 34)
	}
	p.NominalY(rev...)
	return p, nil
}

// shorten cuts s to n characters, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
