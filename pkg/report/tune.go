package report

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Tuning is what a tuning report shows: the settings and losses as the tune command
// prints them, the loss at each iteration, the weights before and after, and how well the
// fitted evaluation predicts the games' results.
type Tuning struct {
	// Title names the run, e.g. "english, logistic loss".
	Title string
	// Settings are name and value pairs, shown as a table in this order.
	Settings [][2]string
	// Iterations is the loss at each iteration of the fit, in order.
	Iterations []TuneIteration
	// Weights are the features' weights, in hundredths of a man.
	Weights []TuneWeight
	// Calibration compares predicted and actual scores; see Calibrate.
	Calibration []CalibrationBucket
	// CalibrationSet names the positions of Calibration, e.g. "held-out positions".
	CalibrationSet string
}

// TuneIteration is the loss after one iteration of the fit: on the training positions,
// and on the held-out ones (NaN without a holdout).
type TuneIteration struct {
	Iteration      int
	Train, Holdout float64
}

// TuneWeight is one feature's weight before and after the fit.
type TuneWeight struct {
	Feature       string
	Before, After float64
	Tuned         bool
}

// CalibrationBucket is a group of positions of similar predicted score: their mean
// predicted score and the mean score of the games they come from.
type CalibrationBucket struct {
	Positions         int
	Predicted, Actual float64
}

// Calibrate sorts positions by predicted score and cuts them into at most n buckets of
// equal size, returning each bucket's mean prediction and mean actual score. predicted
// and actual hold one score in [0, 1] per position, for the side the evaluation is from.
// It panics if their lengths differ.
func Calibrate(predicted, actual []float64, n int) []CalibrationBucket {
	if len(predicted) != len(actual) {
		panic("report: Calibrate: predicted and actual scores of different lengths")
	}
	idx := make([]int, len(predicted))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(predicted[a], predicted[b]) })
	n = min(n, len(idx))
	var out []CalibrationBucket
	for k := range n {
		lo, hi := k*len(idx)/n, (k+1)*len(idx)/n
		var b CalibrationBucket
		for _, i := range idx[lo:hi] {
			b.Predicted += predicted[i]
			b.Actual += actual[i]
		}
		b.Positions = hi - lo
		b.Predicted /= float64(b.Positions)
		b.Actual /= float64(b.Positions)
		out = append(out, b)
	}
	return out
}

// WriteTuning writes the report of a tuning run to dir: dir/index.html and a PNG file of
// each plot beside it.
func WriteTuning(dir string, t *Tuning) error {
	if len(t.Weights) == 0 {
		return errors.New("report: a tuning run without weights")
	}
	pg := &page{Title: "rafle tune: " + t.Title}
	pg.Sections = append(pg.Sections, section{ID: "settings", Title: "Settings and losses",
		Tables: []table{{Class: "settings", Left: 2, Rows: pairs(t.Settings)}}})
	figs, err := figures(t.lossFigure, t.weightsFigure, t.calibrationFigure)
	if err != nil {
		return err
	}
	pg.Sections = append(pg.Sections, section{ID: "plots", Title: "Plots", Figures: figs})
	wt := table{Caption: "Weights (hundredths of a man)", Left: 1, Header: []string{"Feature", "Before", "After", "Change", "Tuned"}}
	for _, w := range t.Weights {
		tuned := "no"
		if w.Tuned {
			tuned = "yes"
		}
		wt.Rows = append(wt.Rows, []string{w.Feature, num(w.Before), num(w.After), change(w.After - w.Before), tuned})
	}
	sections := []table{wt}
	if len(t.Calibration) > 0 {
		ct := table{Caption: "Calibration: " + t.CalibrationSet, Header: []string{"Positions", "Predicted", "Actual"}}
		for _, b := range t.Calibration {
			ct.Rows = append(ct.Rows, []string{strconv.Itoa(b.Positions), fmt.Sprintf("%.3f", b.Predicted), fmt.Sprintf("%.3f", b.Actual)})
		}
		sections = append(sections, ct)
	}
	pg.Sections = append(pg.Sections, section{ID: "weights", Title: "Weights and calibration", Tables: sections})
	return pg.write(dir)
}

func pairs(kv [][2]string) [][]string {
	rows := make([][]string, len(kv))
	for i, p := range kv {
		rows[i] = []string{p[0], p[1]}
	}
	return rows
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func (t *Tuning) lossFigure() (*figure, error) {
	if len(t.Iterations) == 0 {
		return nil, nil
	}
	p := newPlot("Loss per iteration", "iteration", "mean loss")
	p.X.Tick.Marker = integers
	var train, held plotter.XYs
	for _, i := range thin(len(t.Iterations), maxPoints) {
		it := t.Iterations[i]
		train = append(train, plotter.XY{X: float64(it.Iteration), Y: it.Train})
		held = append(held, plotter.XY{X: float64(it.Iteration), Y: it.Holdout})
	}
	if err := addLine(p, train, 0, "training positions", false); err != nil {
		return nil, err
	}
	if err := addLine(p, held, 1, "held-out positions", false); err != nil {
		return nil, err
	}
	headroom(p)
	return render(p, "loss", "the loss without the L2 penalty, at each iteration's weights", 0)
}

func (t *Tuning) weightsFigure() (*figure, error) {
	var labels []string
	var before, after []float64
	for _, w := range t.Weights {
		labels = append(labels, w.Feature)
		before, after = append(before, w.Before), append(after, w.After)
	}
	p, err := hbars("Weights before and after", "hundredths of a man", labels, [][]float64{before, after}, []string{"before", "after"})
	if err != nil {
		return nil, err
	}
	return render(p, "weights", "", barsHeight(2*len(labels)))
}

func (t *Tuning) calibrationFigure() (*figure, error) {
	if len(t.Calibration) == 0 {
		return nil, nil
	}
	p := newPlot("Calibration", "predicted score", "actual score")
	var xys plotter.XYs
	for _, b := range t.Calibration {
		xys = append(xys, plotter.XY{X: b.Predicted, Y: b.Actual})
	}
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return nil, err
	}
	diag.Color = color.Gray{Y: 140}
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(diag)
	p.Legend.Add("perfect", diag)
	if err := addLine(p, xys, 0, t.CalibrationSet, false); err != nil {
		return nil, err
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.Color = diag.Color
	p.Add(s)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.Legend.Top, p.Legend.Left = true, true
	return render(p, "calibration", fmt.Sprintf("%d buckets of equal size by predicted score; %s", len(t.Calibration), t.CalibrationSet), 0)
}

// change writes a weight's change with its sign and two decimals; one that rounds to zero is
// "+0.00", never "-0.00".
func change(x float64) string {
	s := fmt.Sprintf("%+.2f", x)
	if s == "-0.00" {
		return "+0.00"
	}
	return s
}
