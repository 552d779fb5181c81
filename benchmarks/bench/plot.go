package bench

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
)

var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
	"#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd"}

// PlotHistory writes an SVG line chart of the results rs (oldest first): for each
// benchmark, its median relative to its first median in rs (1 = unchanged, 0.9 = 10%
// slower), one point per result, labelled with the commit. Skipped figures leave gaps.
func PlotHistory(w io.Writer, rs []*Result) error {
	const (
		width, height         = 900, 420
		left, right, top, bot = 60, 230, 30, 70
	)
	var names []string
	first := map[string]float64{}
	for _, r := range rs {
		for _, f := range r.Figures {
			if f.Median <= 0 {
				continue
			}
			if _, ok := first[f.Name]; !ok {
				first[f.Name] = f.Median
				names = append(names, f.Name)
			}
		}
	}
	lo, hi := 0.9, 1.1
	for _, r := range rs {
		for _, f := range r.Figures {
			if f.Median > 0 {
				rel := f.Median / first[f.Name]
				lo, hi = math.Min(lo, rel), math.Max(hi, rel)
			}
		}
	}
	lo, hi = math.Floor(lo*10)/10, math.Ceil(hi*10)/10
	pw, ph := float64(width-left-right), float64(height-top-bot)
	x := func(i int) float64 {
		if len(rs) < 2 {
			return float64(left) + pw/2
		}
		return float64(left) + pw*float64(i)/float64(len(rs)-1)
	}
	y := func(v float64) float64 { return float64(top) + ph*(hi-v)/(hi-lo) }

	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(b, `<text x="%d" y="18" font-size="13">rafle benchmarks: median throughput relative to the first result (CPU time)</text>`+"\n", left)
	for v := lo; v <= hi+1e-9; v += 0.1 {
		stroke := "#ddd"
		if math.Abs(v-1) < 1e-9 {
			stroke = "#888"
		}
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", left, y(v), float64(left)+pw, y(v), stroke)
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end">%.1f</text>`+"\n", left-6, y(v)+4, v)
	}
	for i, r := range rs {
		label := r.Commit
		if len(label) > 12 {
			label = label[:12]
		}
		fmt.Fprintf(b, `<text transform="translate(%.1f,%d) rotate(40)">%s</text>`+"\n", x(i)-4, height-bot+14, html.EscapeString(label))
	}
	for k, name := range names {
		color := palette[k%len(palette)]
		var path string
		pen := false // the previous result has a point
		for i, r := range rs {
			med := 0.0
			for _, f := range r.Figures {
				if f.Name == name {
					med = f.Median
				}
			}
			if med <= 0 {
				pen = false // a gap: the next point starts a new segment
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			pen = true
			px, py := x(i), y(med/first[name])
			path += fmt.Sprintf("%s%.1f,%.1f ", cmd, px, py)
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"><title>%s %s: %.4g %s</title></circle>`+"\n",
				px, py, color, html.EscapeString(name), html.EscapeString(r.Commit), med, html.EscapeString(unitOf(r, name)))
		}
		fmt.Fprintf(b, `<path d="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", path, color)
		ly := top + 4 + 14*k
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", width-right+15, ly, width-right+35, ly, color)
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", width-right+40, ly+4, html.EscapeString(name))
	}
	fmt.Fprintln(b, "</svg>")
	return b.Flush()
}

func unitOf(r *Result, name string) string {
	for _, f := range r.Figures {
		if f.Name == name {
			return f.Unit
		}
	}
	return ""
}
