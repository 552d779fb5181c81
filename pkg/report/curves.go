package report

import (
	"cmp"
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/stats"
)

// outcome returns the result of r for the player named name.
func outcome(r *match.Record, name string) stats.Outcome {
	switch {
	case r.Winner == "":
		return stats.Draw
	case (r.Winner == "white") == (r.White == name):
		return stats.Win
	}
	return stats.Loss
}

// point is one step of a curve: after Games games, the value Y within [Lo, Hi].
type point struct {
	Games     float64
	Y, Lo, Hi float64
}

// eloCurves returns, per pairing, the Elo estimate of its first player with its 95%
// interval after each complete game pair, in game order, up to the pair where an SPRT
// decided (the games after it do not count).
func (m *Match) eloCurves() [][]point {
	ps := m.pairings
	curves := make([][]point, len(ps))
	penta := make([]stats.Penta, len(ps))
	pairs := m.pairs()
	if s := m.Result.SPRT; s != nil && s.Decision != stats.Continue.String() {
		pairs = pairs[:min(len(pairs), s.Pairs)]
	}
	for i, r := range pairs {
		k := m.ofPair[i]
		if r[0] == nil || r[1] == nil || k < 0 {
			continue
		}
		a := m.Header.Players[ps[k][0]]
		penta[k].AddPair(outcome(r[0], a), outcome(r[1], a))
		e := penta[k].Estimate(0.95)
		curves[k] = append(curves[k], point{float64(penta[k].Games()), e.EloDiff, e.EloLower, e.EloUpper})
	}
	return curves
}

// pairs returns the records by pair index: games 2k and 2k+1 (nil when not played).
func (m *Match) pairs() [][2]*match.Record {
	n := 0
	if len(m.Records) > 0 {
		n = m.Records[len(m.Records)-1].Game/2 + 1
	}
	out := make([][2]*match.Record, n)
	for i := range m.Records {
		r := &m.Records[i]
		out[r.Game/2][r.Game%2] = r
	}
	return out
}

// llrCurve returns the SPRT's log-likelihood ratio after each pair in index order, as the
// match counts it: up to the first missing pair, or the pair that decided.
func (m *Match) llrCurve(t stats.SPRT) []point {
	var penta stats.Penta
	var curve []point
	a := m.Header.Players[0]
	for _, r := range m.pairs() {
		if r[0] == nil || r[1] == nil {
			break
		}
		penta.AddPair(outcome(r[0], a), outcome(r[1], a))
		llr, d := t.Status(penta)
		curve = append(curve, point{Games: float64(penta.Games()), Y: llr})
		if d != stats.Continue {
			break
		}
	}
	return curve
}

// pairingName names pairing k.
func (m *Match) pairingName(k int) string {
	p := m.pairings[k]
	return m.Header.Players[p[0]] + " vs " + m.Header.Players[p[1]]
}

func (m *Match) eloFigure() (*figure, error) {
	p := newPlot("Elo with its 95% interval", "games", "Elo")
	p.X.Tick.Marker = integers
	note := "from the pentanomial counts of the complete game pairs, first player's view"
	for k, c := range m.eloCurves() {
		if len(c) == 0 {
			continue
		}
		var est, lo, hi plotter.XYs
		for _, i := range thin(len(c), maxPoints) {
			est = append(est, plotter.XY{X: c[i].Games, Y: c[i].Y})
			lo = append(lo, plotter.XY{X: c[i].Games, Y: c[i].Lo})
			hi = append(hi, plotter.XY{X: c[i].Games, Y: c[i].Hi})
		}
		if err := addLine(p, est, k, m.pairingName(k), false); err != nil {
			return nil, err
		}
		if err := addLine(p, lo, k, "", true); err != nil {
			return nil, err
		}
		if err := addLine(p, hi, k, "", true); err != nil {
			return nil, err
		}
		if len(finite(lo)) < len(lo) || len(finite(hi)) < len(hi) {
			note += "; an interval reaching a score of 0 or 1 is infinite and not drawn"
		}
	}
	headroom(p)
	return render(p, "elo", note, 0)
}

func (m *Match) llrFigure() (*figure, error) {
	if m.Header.SPRT == "" || len(m.Header.Players) != 2 {
		return nil, nil
	}
	t, err := stats.ParseSPRT(m.Header.SPRT)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	c := m.llrCurve(t)
	if len(c) == 0 {
		return nil, nil
	}
	p := newPlot("SPRT log-likelihood ratio", "games", "LLR")
	p.X.Tick.Marker = integers
	var xys plotter.XYs
	for _, i := range thin(len(c), maxPoints) {
		xys = append(xys, plotter.XY{X: c[i].Games, Y: c[i].Y})
	}
	if err := addLine(p, xys, 0, "LLR", false); err != nil {
		return nil, err
	}
	lo, hi := t.Bounds()
	last := c[len(c)-1].Games
	if err := hline(p, hi, 0, last, color.RGBA{G: 140, A: 255}, fmt.Sprintf("H1 accepted (%.2f)", hi)); err != nil {
		return nil, err
	}
	if err := hline(p, lo, 0, last, color.RGBA{R: 200, A: 255}, fmt.Sprintf("H0 accepted (%.2f)", lo)); err != nil {
		return nil, err
	}
	headroom(p)
	return render(p, "llr", "SPRT "+t.String()+", pairs in game order, as the match counts them", 0)
}

func (m *Match) pentaFigure() (*figure, error) {
	labels := []string{"0", "½", "1", "1½", "2"}
	var series [][]float64
	var names []string
	for _, pr := range m.Result.Pairings {
		s := make([]float64, 5)
		for i, n := range pr.Penta {
			s[i] = float64(n)
		}
		series = append(series, s)
		names = append(names, pr.Player+" vs "+pr.Opponent)
	}
	p := newPlot("Game pairs by the first player's points", "points in the pair", "pairs")
	p.Y.Tick.Marker = integers
	w := vg.Points(14)
	for k, s := range series {
		b, err := plotter.NewBarChart(plotter.Values(s), w)
		if err != nil {
			return nil, err
		}
		b.Color = plotutil.Color(k)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(k)-float64(len(series)-1)/2)
		p.Add(b)
		p.Legend.Add(names[k], b)
	}
	p.NominalX(labels...)
	return render(p, "penta", "pentanomial counts: complete pairs by the points the first player took in them", 0)
}

// openingScore is the first player's result with one opening.
type openingScore struct {
	Name string
	stats.WDL
}

// openingScores returns the score per opening of the first player of each game's
// pairing, worst first (then by name).
func (m *Match) openingScores() []openingScore {
	by := map[string]*openingScore{}
	for i := range m.Records {
		r := &m.Records[i]
		a := m.Header.Players[m.pairings[m.ofPair[r.Game/2]][0]]
		o := by[r.Opening]
		if o == nil {
			o = &openingScore{Name: r.Opening}
			by[r.Opening] = o
		}
		o.Add(outcome(r, a))
	}
	out := make([]openingScore, 0, len(by))
	for _, o := range by {
		out = append(out, *o)
	}
	slices.SortFunc(out, func(a, b openingScore) int {
		return cmp.Or(cmp.Compare(a.Score(), b.Score()), cmp.Compare(b.Games(), a.Games()), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// openingsShown is how many of the worst and of the best openings the page shows.
const openingsShown = 10

// worstBest returns the worst and the best openings, at most openingsShown each, without
// repeating one.
func worstBest(os []openingScore) (worst, best []openingScore) {
	n := min(openingsShown, (len(os)+1)/2)
	worst = os[:n]
	for i := len(os) - 1; i >= n && len(best) < openingsShown; i-- {
		best = append(best, os[i])
	}
	return worst, best
}

func (m *Match) openingsFigure() (*figure, error) {
	worst, best := worstBest(m.openingScores())
	var labels []string
	var score []float64
	for _, o := range append(slices.Clone(worst), best...) {
		labels = append(labels, fmt.Sprintf("%s (%d)", o.Name, o.Games()))
		score = append(score, o.Score())
	}
	p, err := hbars("Score per opening: the worst, then the best", "first player's score (the line: ½)", labels, [][]float64{score}, nil)
	if err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = 0, 1
	if err := vline(p, 0.5); err != nil {
		return nil, err
	}
	return render(p, "openings", fmt.Sprintf("%d openings played; the games of each in brackets", len(m.openingScores())), barsHeight(len(labels)))
}

func (m *Match) terminationsFigure() (*figure, error) {
	var labels []string
	var games, draws []float64
	for _, t := range m.Result.Terminations {
		labels = append(labels, t.Reason)
		games = append(games, float64(t.Games-t.Draws))
		draws = append(draws, float64(t.Draws))
	}
	p, err := hbars("How games ended", "games", labels, [][]float64{games, draws}, []string{"won", "drawn"})
	if err != nil {
		return nil, err
	}
	p.X.Max *= 1.25 // room for the legend
	p.X.Tick.Marker = integers
	return render(p, "terminations", "", barsHeight(2*len(labels)))
}

func (m *Match) lengthsFigure() (*figure, error) {
	plies := map[int]int{}
	for i := range m.Records {
		plies[len(m.Records[i].Moves)]++
	}
	return lengthsFigure(plies, "plies (the opening's included)")
}

// lengthsFigure draws a histogram of game lengths: games by plies.
func lengthsFigure(plies map[int]int, xlabel string) (*figure, error) {
	if len(plies) == 0 {
		return nil, nil
	}
	var xys plotter.XYs
	games := 0
	for _, n := range slices.Sorted(maps.Keys(plies)) {
		xys = append(xys, plotter.XY{X: float64(n), Y: float64(plies[n])})
		games += plies[n]
	}
	lo, hi := xys[0].X, xys[len(xys)-1].X
	bins := int(min(40, hi-lo+1, max(5, 2*math.Sqrt(float64(games)))))
	h, err := plotter.NewHistogram(xys, bins)
	if err != nil {
		return nil, fmt.Errorf("report: game lengths: %w", err)
	}
	h.FillColor = plotutil.Color(0)
	h.LineStyle.Width = 0
	p := newPlot("Game lengths", xlabel, "games")
	p.Y.Tick.Marker = integers
	p.Add(h)
	return render(p, "lengths", fmt.Sprintf("%d games, %v to %v plies", games, lo, hi), 0)
}

// moveStats returns, per player, the mean of f over the player's moves after the opening
// by move number (1 = the player's first move after the opening); nil when the games hold
// no move information.
func (m *Match) moveStats(f func(*match.MoveInfo) (float64, bool)) map[string][]float64 {
	type acc struct{ sum, n []float64 }
	by := map[string]*acc{}
	for i := range m.Records {
		r := &m.Records[i]
		side := m.Variant.FirstMover
		if r.FEN != "" {
			if p, err := m.Variant.ParseFEN(r.FEN); err == nil {
				side = p.Side
			}
		}
		if r.OpeningPlies%2 == 1 {
			side = side.Other()
		}
		for k := range r.Info {
			name := r.White
			if (side == engine.White) != (k%2 == 0) {
				name = r.Black
			}
			x, ok := f(&r.Info[k])
			if !ok {
				continue
			}
			a := by[name]
			if a == nil {
				a = &acc{}
				by[name] = a
			}
			j := k / 2
			for len(a.sum) <= j {
				a.sum, a.n = append(a.sum, 0), append(a.n, 0)
			}
			a.sum[j] += x
			a.n[j]++
		}
	}
	if len(by) == 0 {
		return nil
	}
	out := map[string][]float64{}
	for name, a := range by {
		means := make([]float64, len(a.sum))
		for j := range means {
			means[j] = math.NaN()
			if a.n[j] > 0 {
				means[j] = a.sum[j] / a.n[j]
			}
		}
		out[name] = means
	}
	return out
}

func (m *Match) movesFigure(id, title, ylabel, note string, f func(*match.MoveInfo) (float64, bool)) (*figure, error) {
	means := m.moveStats(f)
	if means == nil {
		return nil, nil
	}
	p := newPlot(title, "the player's move after the opening", ylabel)
	p.X.Tick.Marker = integers
	for k, name := range m.Header.Players {
		ys, ok := means[name]
		if !ok {
			continue
		}
		var xys plotter.XYs
		for j, y := range ys {
			xys = append(xys, plotter.XY{X: float64(j + 1), Y: y})
		}
		if err := addLine(p, xys, k, name, false); err != nil {
			return nil, err
		}
	}
	headroom(p)
	return render(p, id, note, 0)
}

func (m *Match) timeFigure() (*figure, error) {
	return m.movesFigure("time", "Time used per move", "milliseconds (mean)", "the time each move took, measured by the match",
		func(mi *match.MoveInfo) (float64, bool) { return float64(mi.Millis), true })
}

func (m *Match) depthFigure() (*figure, error) {
	return m.movesFigure("depth", "Depth reached per move", "plies (mean)", "the depth each player reported for its move",
		func(mi *match.MoveInfo) (float64, bool) { return float64(mi.Depth), mi.Depth > 0 })
}
