package main

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/rafle/rafle/pkg/report"
	"github.com/rafle/rafle/pkg/tune"
)

// calibrationBuckets is the number of buckets of the --report calibration plot.
const calibrationBuckets = 20

// writeReport writes the --report of a fit: its settings and losses, iters (the losses at
// each iteration), the weights (in the order of d.Names, as Fit lists them), and the calibration of the held-out positions (of the
// training ones without a holdout).
func writeReport(dir string, cfg *config, d *tune.Dataset, res *tune.Result, iters []report.TuneIteration, took time.Duration) error {
	how := "fitted"
	switch {
	case res.ScaleFitted:
		how = "fitted with the weights"
	case !res.KFitted:
		how = "given"
	}
	t := &report.Tuning{Title: fmt.Sprintf("%s, %s loss", res.Variant, res.Loss), Iterations: iters,
		Settings: [][2]string{{"positions", strconv.Itoa(d.Stats.Positions)}, {"games", strconv.Itoa(d.Stats.Games)},
			{"seed", strconv.FormatUint(res.Seed, 10)}, {"K", fmt.Sprintf("%.4f (%s; logit of one man)", res.K, how)},
			{"L2", strconv.FormatFloat(res.L2, 'g', -1, 64)}, {"holdout", strconv.FormatFloat(cfg.fit.Holdout, 'g', -1, 64)},
			{"L-BFGS", fmt.Sprintf("%d iterations, %d evaluations, %s", res.Iterations, res.Evaluations, res.Status)},
			{"training loss", fmt.Sprintf("%s before, %s after", loss(res.Train.Before), loss(res.Train.After))}}}
	if h := res.Holdout; h != nil {
		t.Settings = append(t.Settings, [2]string{"held-out loss", fmt.Sprintf("%s before, %s after", loss(h.Before), loss(h.After))})
	}
	if p := res.Patterns; p != nil {
		t.Settings = append(t.Settings, [2]string{"patterns", fmt.Sprintf("%d windows, %d weights (%d fitted, one table a %s), %d not zero, largest %.1f hundredths, L2 %g",
			p.Windows, p.Weights, p.Free, p.Share, p.NonZero, p.MaxAbs, p.L2)})
	}
	if cfg.source != "" {
		t.Settings = append(t.Settings, [2]string{"source", cfg.source})
	}
	t.Settings = append(t.Settings, [2]string{"time", fmt.Sprintf("%s to fit (after reading the games)", took.Round(time.Second))})
	for _, w := range res.Weights {
		t.Weights = append(t.Weights, report.TuneWeight{Feature: w.Feature, Before: w.Old, After: w.New, Tuned: w.Tuned})
	}
	train, held := tune.Split(d, cfg.fit.Holdout, cfg.fit.Seed)
	rows := held
	t.CalibrationSet = "held-out positions"
	if len(held) == 0 {
		rows, t.CalibrationSet = train, "training positions (no holdout)"
	}
	predicted, actual := make([]float64, len(rows)), make([]float64, len(rows))
	for k, i := range rows {
		q := d.Score(i, res.New) // the evaluation, hundredths of a man
		predicted[k], actual[k] = 1/(1+math.Exp(-res.K*q/100)), float64(d.Y[i])
	}
	t.Calibration = report.Calibrate(predicted, actual, calibrationBuckets)
	return report.WriteTuning(dir, t)
}
