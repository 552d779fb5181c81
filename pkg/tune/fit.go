package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/optimize"

	"github.com/rafle/rafle/pkg/search"
)

// Man is the feature whose weight is the unit of the others: it stays at ManValue.
const (
	Man      = "man"
	ManValue = 100
)

// DefaultPatternL2 is the default regularisation of the pattern weights (Config.PatternL2),
// chosen by the held-out loss of the international and english fits (docs/tuning.md).
const DefaultPatternL2 = 1e-4

// DefaultIterations is the L-BFGS iteration limit when Config.MaxIterations is 0.
const DefaultIterations = 1000

// Config configures Fit.
type Config struct {
	// Loss is the loss function.
	Loss Loss
	// L2 is the regularisation strength: L2·Σ (w/100)² over the tuned weights is added to
	// the training loss (not to the losses reported).
	L2 float64
	// Holdout is the share of games left out of the fit, from 0 (none) to below 1.
	Holdout float64
	// Seed drives the choice of the held-out games.
	Seed uint64
	// Tune names the features to fit; the others keep their starting weights. Nil means
	// every feature but Man. Man cannot be tuned: it is the unit.
	Tune []string
	// Init is the starting weights, complete for the data set's variant; nil means the
	// variant's hand-set weights (search.HandWeights). Weights with patterns need
	// Patterns.
	Init *search.Weights
	// Patterns fits the pattern weights too (the data set must have Patterns), from Init's
	// or from zero, with the tuned features rounded to whole hundredths and the patterns to
	// 1/search.PatternUnit of one.
	Patterns bool
	// PatternL2 is the regularisation of the pattern weights: PatternL2·Σ (w/100)².
	PatternL2 float64
	// PatternShare is which windows share one table of weights (ShareWindow, the zero
	// value: none; ShareRow; ShareBoard): fewer free weights, each fitted on more positions.
	PatternShare Share
	// FitScale fits K with the weights: the man weight is tuned too (the features not
	// tuned are multiplied by it, so they keep their ratio to man), and then every weight
	// is divided by it (man is 100 again) and K multiplied by it, which leaves the
	// predictions as fitted. Without it K is fitted with the starting weights and kept,
	// so a fit whose evaluation predicts better than the starting one (patterns) cannot
	// raise its scale but by raising every weight but man's.
	FitScale bool
	// K, when positive, is used as the scale instead of fitting it.
	K float64
	// MaxIterations bounds the L-BFGS iterations (0: DefaultIterations).
	MaxIterations int
	// Progress, when not nil, is called after each iteration with the iterations done and
	// the limit.
	Progress func(done, total int64)
	// Iteration, when not nil, is called after each iteration with the mean loss (without
	// the L2 penalty) at its weights of the training positions and of the held-out ones
	// (NaN without a holdout). It costs a pass over the positions per iteration.
	Iteration func(iteration int, train, holdout float64)
}

// SetLoss is the loss on one set of positions, before and after the fit.
type SetLoss struct {
	Games     int `json:"games"`
	Positions int `json:"positions"`
	// Before is the loss with the starting weights and the fitted K; After with the new
	// weights (as rounded in the result).
	Before float64 `json:"loss_before"`
	After  float64 `json:"loss_after"`
	// Constant is the loss of predicting the training sets' mean score everywhere: the
	// floor any evaluation should beat.
	Constant float64 `json:"loss_constant"`
	// Mean is the mean label (the side to move's average score) and Draws the share of
	// positions from drawn games.
	Mean  float64 `json:"mean_score"`
	Draws float64 `json:"draws"`
}

// Change is one weight before and after the fit.
type Change struct {
	Feature string  `json:"feature"`
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	Tuned   bool    `json:"tuned"`
}

// Result is the outcome of Fit.
type Result struct {
	Variant string  `json:"variant"`
	Loss    string  `json:"loss"`
	L2      float64 `json:"l2"`
	Seed    uint64  `json:"seed"`
	// K is the logit of one man: the predicted score of an evaluation q (hundredths of a
	// man) is 1/(1+exp(−K·q/100)). KFitted says whether Fit fitted it.
	K       float64 `json:"k"`
	KFitted bool    `json:"k_fitted"`
	// ScaleFitted says that K was fitted with the weights (Config.FitScale): K is then the
	// final scale, and the losses before use the one fitted to the starting weights.
	ScaleFitted bool `json:"scale_fitted,omitempty"`
	// Train is the fitted set; Holdout the held-out games (nil without a holdout).
	Train   SetLoss  `json:"train"`
	Holdout *SetLoss `json:"holdout,omitempty"`
	// Iterations and Evaluations count the L-BFGS iterations and loss evaluations; Status
	// is why it stopped.
	Iterations  int    `json:"iterations"`
	Evaluations int    `json:"evaluations"`
	Status      string `json:"status"`
	// Weights lists every feature, in FeatureNames order.
	Weights []Change `json:"weights"`
	// New is the fitted weights, ready to Save.
	New *search.Weights `json:"-"`
	// Warnings say why the new weights should not be trusted, if they should not: too
	// little data, a fit that did not converge or diverged (see Diagnose).
	Warnings []Warning `json:"warnings,omitempty"`
	// Patterns sums up the fitted pattern weights (nil when they were not fitted).
	Patterns *PatternFit `json:"patterns,omitempty"`
}

// PatternFit sums up a fit of pattern weights.
type PatternFit struct {
	Windows int     `json:"windows"`
	Weights int     `json:"weights"`  // windows × configurations × 2 phases
	Share   string  `json:"share"`    // which windows share a table (Share)
	Free    int     `json:"free"`     // the weights fitted: tables × configurations × 2 phases
	NonZero int     `json:"non_zero"` // weights that are not 0 once rounded
	L2      float64 `json:"l2"`
	MaxAbs  float64 `json:"max_abs"` // the largest weight in magnitude, hundredths of a man
}

// Warning is a reason to distrust a fit.
type Warning struct {
	// Kind is "too-little-data", "not-converged" or "diverged".
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// MinGamesPerFeature is the fewest training games per tuned feature below which Fit warns
// of too little data. Measured on the Open Checkers Archive (english, 8 tuned features,
// default flags, seeds 1 and 2): from its first 50 games the two seeds' weights differed by
// up to 41 hundredths (back_rank -27 and -68) and the held-out loss got worse for one; from
// 200 games (25 per feature) by at most 5, as from 1000; 20 games gave king 150 -> 21.
const MinGamesPerFeature = 25

// MaxWeight is the largest tuned weight, in hundredths of a man, that Fit accepts without a
// warning that the fit diverged: no term of an evaluation is worth ten men.
const MaxWeight = 1000

// Diagnose returns the warnings of a fit of tuned features over trainGames games that
// stopped with status (the L-BFGS status; "IterationLimit" has not converged) at the
// weights of changes.
func Diagnose(trainGames, tuned int, status string, changes []Change) []Warning {
	var ws []Warning
	if need := MinGamesPerFeature * tuned; trainGames < need {
		ws = append(ws, Warning{Kind: "too-little-data", Message: fmt.Sprintf(
			"%d training games for %d tuned features: the weights are mostly noise below %d games (%d per feature); "+
				"use more games, fewer features (--features), or --l2", trainGames, tuned, need, MinGamesPerFeature)})
	}
	if status == optimize.IterationLimit.String() {
		ws = append(ws, Warning{Kind: "not-converged", Message: "L-BFGS stopped at its iteration limit before it converged (--iterations)"})
	}
	var wild []string
	for _, c := range changes {
		if c.Tuned && (math.Abs(c.New) > MaxWeight || math.IsNaN(c.New)) {
			wild = append(wild, fmt.Sprintf("%s %g -> %g", c.Feature, c.Old, c.New))
		}
	}
	if len(wild) > 0 {
		ws = append(ws, Warning{Kind: "diverged", Message: fmt.Sprintf(
			"the fit diverged: %s (more than %d hundredths of a man); use more games or --l2", strings.Join(wild, ", "), MaxWeight)})
	}
	return ws
}

// Split returns the rows of d in the training set and in the held-out set: the games are
// shuffled with seed and the first round(holdout × games) are held out (at least one, and at
// least one left, when there are two games or more and holdout > 0). The split depends only
// on d's game numbers, holdout and seed.
func Split(d *Dataset, holdout float64, seed uint64) (train, held []int) {
	games := d.Games()
	nHeld := int(math.Round(holdout * float64(games)))
	if holdout > 0 && games >= 2 {
		nHeld = max(1, min(nHeld, games-1))
	}
	nHeld = max(0, min(nHeld, games))
	out := make([]bool, games)
	rng := rand.New(rand.NewPCG(seed, 0x74756e65)) // "tune"
	for _, g := range rng.Perm(games)[:nHeld] {
		out[g] = true
	}
	for i, g := range d.Game {
		if out[g] {
			held = append(held, i)
		} else {
			train = append(train, i)
		}
	}
	return train, held
}

// tunedColumns returns the indices of the tuned features in names.
func tunedColumns(names, tune []string) ([]int, error) {
	if tune == nil {
		var cols []int
		for j, n := range names {
			if n != Man {
				cols = append(cols, j)
			}
		}
		return cols, nil
	}
	var cols []int
	for _, t := range tune {
		if t == Man {
			return nil, fmt.Errorf("tune: %s cannot be tuned: it is the unit of the weights, fixed at %d", Man, ManValue)
		}
		if j := slices.Index(names, t); j >= 0 && !slices.Contains(cols, j) {
			cols = append(cols, j)
		}
	}
	if err := checkKnown(names, tune); err != nil {
		return nil, err
	}
	if len(cols) == 0 {
		return nil, errors.New("tune: no feature to tune")
	}
	sort.Ints(cols)
	return cols, nil
}

// Fix returns the features of names to tune when the ones in fixed are held: every feature
// but fixed and Man. It returns an error naming unknown features.
func Fix(names, fixed []string) ([]string, error) {
	if err := checkKnown(names, fixed); err != nil {
		return nil, err
	}
	var tune []string
	for _, n := range names {
		if n != Man && !slices.Contains(fixed, n) {
			tune = append(tune, n)
		}
	}
	if len(tune) == 0 {
		return nil, errors.New("tune: no feature to tune")
	}
	return tune, nil
}

// checkKnown returns an error naming the features of list that are not in names.
func checkKnown(names, list []string) error {
	var unknown []string
	for _, f := range list {
		if !slices.Contains(names, f) {
			unknown = append(unknown, f)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("tune: unknown features: %s (known: %s)", strings.Join(unknown, ", "), strings.Join(names, ", "))
	}
	return nil
}

// Fit fits K (unless cfg.K is set) and then the tuned weights on d's training games, and
// reports the losses before and after on the training and held-out games. It returns an
// error for an empty data set, starting weights that do not fit d's variant, unknown
// features, or when ctx is done.
func Fit(ctx context.Context, d *Dataset, cfg Config) (*Result, error) {
	init, windows, err := fitStart(d, cfg)
	if err != nil {
		return nil, err
	}
	f, err := newFitting(d, cfg, init, windows)
	if err != nil {
		return nil, err
	}
	res := &Result{Variant: d.Variant.Name, Loss: cfg.Loss.String(), L2: cfg.L2, Seed: cfg.Seed, K: cfg.K}
	if res.K == 0 {
		res.K, err = f.train.fitK(f.x0)
		if err != nil {
			return nil, err
		}
		res.KFitted = true
	}
	k := res.K
	f.holdout()
	x, out, status, err := f.minimise(ctx, k)
	if err != nil {
		return nil, err
	}
	res.Iterations, res.Evaluations, res.Status = out.MajorIterations, out.FuncEvaluations, status
	x, m, err := f.unscale(x)
	if err != nil {
		return nil, err
	}
	if f.manCol >= 0 {
		res.K = k * m
	}
	xf := f.weights(res, x)
	f.losses(res, xf, k, m)
	res.Warnings = Diagnose(res.Train.Games, len(f.cols), out.Status.String(), res.Weights)
	res.ScaleFitted = f.manCol >= 0
	return res, nil
}

// fitStart checks cfg against d and returns the starting weights (cfg.Init, else the
// hand-set ones) and the number of pattern windows of the board.
func fitStart(d *Dataset, cfg Config) (init *search.Weights, windows int, err error) {
	if d.Len() == 0 {
		return nil, 0, ErrNoPositions
	}
	v := d.Variant
	if !(cfg.Holdout >= 0 && cfg.Holdout < 1) {
		return nil, 0, fmt.Errorf("tune: holdout %g: want a share from 0 to below 1", cfg.Holdout)
	}
	if !(cfg.L2 >= 0) || !(cfg.K >= 0) {
		return nil, 0, fmt.Errorf("tune: L2 and K must not be negative")
	}
	init = cfg.Init
	if init == nil {
		init = search.HandWeights(v)
	}
	if err := init.Check(v); err != nil {
		return nil, 0, fmt.Errorf("tune: starting weights: %w", err)
	}
	windows = search.PatternWindows(v)
	switch {
	case init.Patterns != nil && !cfg.Patterns:
		return nil, 0, errors.New("tune: the starting weights have patterns: fit them too, or start from weights without")
	case cfg.Patterns && !d.Patterns:
		return nil, 0, errors.New("tune: the data set was read without its patterns")
	case cfg.Patterns && windows == 0:
		return nil, 0, fmt.Errorf("tune: %s's board has no patterns", v.Name)
	case !(cfg.PatternL2 >= 0):
		return nil, 0, errors.New("tune: the pattern L2 must not be negative")
	}
	if init.Values[Man] != ManValue {
		return nil, 0, fmt.Errorf("tune: starting weights: %s is %g, want %d (the unit of the weights)", Man, init.Values[Man], ManValue)
	}
	return init, windows, nil
}

// fitting is a fit under way: the variables (the tuned columns, and the pattern weights
// after them), the training and held-out problems, and where the fit starts.
type fitting struct {
	d       *Dataset
	cfg     Config
	windows int
	cols    []int // the tuned columns of d
	manCol  int   // the man weight's variable (FitScale), or -1
	group   []int // each pattern window's table (PatternShare)
	tables  int   // the pattern tables fitted
	start   []float64
	// the rows of the training and held-out sets, and their problems
	trainRows, heldRows []int
	train, held         *problem
	x0                  []float64 // the variables at the start: the tuned weights in men, then the patterns'
}

// newFitting splits d into its training and held-out sets and sets up the training
// problem from the starting weights init.
func newFitting(d *Dataset, cfg Config, init *search.Weights, windows int) (*fitting, error) {
	cols, err := tunedColumns(d.Names, cfg.Tune)
	if err != nil {
		return nil, err
	}
	f := &fitting{d: d, cfg: cfg, windows: windows, manCol: -1}
	if cfg.FitScale {
		f.manCol = len(cols)
		cols = append(cols, slices.Index(d.Names, Man))
	}
	f.cols = cols
	f.start = make([]float64, len(d.Names)) // hundredths of a man
	for j, n := range d.Names {
		f.start[j] = init.Values[n]
	}
	f.trainRows, f.heldRows = Split(d, cfg.Holdout, cfg.Seed)
	if len(f.trainRows) == 0 {
		return nil, ErrNoPositions
	}
	f.train = newProblem(d, f.trainRows, cols, f.start, cfg.Loss)
	f.train.scale = f.manCol
	f.x0 = make([]float64, len(cols)) // tuned weights in men
	for k, j := range cols {
		f.x0[k] = f.start[j] / 100
	}
	if cfg.Patterns {
		if f.group, f.tables, err = cfg.PatternShare.groups(d.Variant); err != nil {
			return nil, err
		}
		f.train.withPatterns(d, f.trainRows, cfg.PatternL2, f.group)
		f.x0 = append(f.x0, make([]float64, f.tables*PatternVars)...)
		if init.Patterns != nil {
			// a shared table starts from the mean of its windows' weights
			size := float64(windows / f.tables) // every group holds as many windows
			for c, x := range init.Patterns.Values {
				f.x0[len(cols)+f.group[c/PatternVars]*PatternVars+c%PatternVars] += float64(x) / (100 * search.PatternUnit) / size
			}
		}
	}
	return f, nil
}

// holdout sets up the held-out problem, if there are held-out rows.
func (f *fitting) holdout() {
	if len(f.heldRows) == 0 {
		return
	}
	f.held = newProblem(f.d, f.heldRows, f.cols, f.start, f.cfg.Loss)
	f.held.scale = f.manCol
	if f.cfg.Patterns {
		f.held.withPatterns(f.d, f.heldRows, f.cfg.PatternL2, f.group)
	}
}

// minimise fits the variables at K k, from x0, telling cfg.Iteration of each iteration.
func (f *fitting) minimise(ctx context.Context, k float64) ([]float64, *optimize.Result, string, error) {
	cfg, train, held := f.cfg, f.train, f.held
	iters := cfg.MaxIterations
	if iters <= 0 {
		iters = DefaultIterations
	}
	var iterate func(int, []float64)
	if cfg.Iteration != nil {
		iterate = func(i int, x []float64) {
			h := math.NaN()
			if held != nil {
				h = held.eval(x, k, nil)
			}
			cfg.Iteration(i, train.eval(x, k, nil), h)
		}
	}
	return minimise(ctx, train, f.x0, k, cfg.L2, iters, cfg.Progress, iterate)
}

// unscale divides the fitted variables x by the fitted man weight m (FitScale; else m is
// 1 and x is returned as it is).
func (f *fitting) unscale(x []float64) ([]float64, float64, error) {
	if f.manCol < 0 {
		return x, 1, nil
	}
	m := x[f.manCol]
	if !(m > 0.01) {
		return nil, 0, fmt.Errorf("tune: the man weight fitted to %g hundredths: the scale cannot be fitted", m*100)
	}
	x = slices.Clone(x)
	for i := range x {
		x[i] /= m
	}
	x[f.manCol] = 1
	return x, m, nil
}

// weights rounds the fitted variables x into res's new weights and their changes, and
// returns the variables as rounded, in men.
func (f *fitting) weights(res *Result, x []float64) []float64 {
	d, cfg, cols := f.d, f.cfg, f.cols
	final := slices.Clone(f.start)
	tuned := make([]bool, len(d.Names))
	xf := make([]float64, len(x)) // the final tuned weights in men, as rounded
	for c, j := range cols {
		final[j] = math.Round(x[c]*100*100) / 100 // hundredths of a man, two decimals
		if cfg.Patterns {
			final[j] = math.Round(x[c]*100) + 0 // whole hundredths: the search's integer sum (+0: not -0)
		}
		tuned[j] = c != f.manCol
		xf[c] = final[j] / 100
	}
	res.New = &search.Weights{Variant: d.Variant.Name, Values: map[string]float64{}}
	if cfg.Patterns {
		vals := make([]int16, f.windows*PatternVars)
		pf := &PatternFit{Windows: f.windows, Weights: len(vals), L2: cfg.PatternL2,
			Share: cfg.PatternShare.String(), Free: f.tables * PatternVars}
		for c := range f.tables * PatternVars {
			u := max(math.MinInt16, min(math.MaxInt16, math.Round(x[len(cols)+c]*100*search.PatternUnit)))
			xf[len(cols)+c] = u / (100 * search.PatternUnit)
			pf.MaxAbs = max(pf.MaxAbs, math.Abs(u)/search.PatternUnit)
		}
		for c := range vals {
			vals[c] = int16(math.Round(xf[len(cols)+f.group[c/PatternVars]*PatternVars+c%PatternVars] * 100 * search.PatternUnit))
			if vals[c] != 0 {
				pf.NonZero++
			}
		}
		res.New.Patterns = &search.Patterns{Windows: f.windows, Values: vals}
		res.Patterns = pf
	}
	for j, n := range d.Names {
		res.New.Values[n] = final[j]
		res.Weights = append(res.Weights, Change{Feature: n, Old: f.start[j], New: final[j], Tuned: tuned[j]})
	}
	return xf
}

// losses sets res's losses of the training and held-out sets, at the start and with the
// final weights xf, which predict at K·m what they predicted at K before the division by
// the man weight m.
func (f *fitting) losses(res *Result, xf []float64, k, m float64) {
	mean := meanLabel(f.train)
	xm := slices.Clone(xf)
	for i := range xm {
		xm[i] *= m
	}
	res.Train = setLoss(f.train, f.x0, xm, k, mean, f.cfg.Loss)
	if f.held != nil {
		s := setLoss(f.held, f.x0, xm, k, mean, f.cfg.Loss)
		res.Holdout = &s
	}
	res.Train.Games = countGames(f.d, f.trainRows)
	if res.Holdout != nil {
		res.Holdout.Games = countGames(f.d, f.heldRows)
	}
}

func countGames(d *Dataset, rows []int) int {
	seen := map[int32]bool{}
	for _, i := range rows {
		seen[d.Game[i]] = true
	}
	return len(seen)
}

func meanLabel(pr *problem) float64 {
	var s float64
	for _, y := range pr.y {
		s += float64(y)
	}
	return s / float64(pr.n)
}

// setLoss measures pr at the starting and final weights, and against the constant
// prediction mean.
func setLoss(pr *problem, x0, x []float64, k, mean float64, loss Loss) SetLoss {
	s := SetLoss{Positions: pr.n, Before: pr.eval(x0, k, nil), After: pr.eval(x, k, nil)}
	m := min(max(mean, 1e-9), 1-1e-9) // a set of wins only has no finite logit
	logit := math.Log(m / (1 - m))
	var draws, sum float64
	for _, y := range pr.y {
		l, _ := loss.pointLoss(logit, float64(y))
		s.Constant += l
		sum += float64(y)
		if y == 0.5 {
			draws++
		}
	}
	n := float64(pr.n)
	s.Constant /= n
	s.Mean, s.Draws = sum/n, draws/n
	return s
}

// minimise runs L-BFGS on the training loss plus the L2 penalty, and returns the minimum,
// the run's statistics and why it stopped. iterate, if not nil, gets each iteration's
// weights.
func minimise(ctx context.Context, pr *problem, x0 []float64, k, l2 float64, iters int, progress func(done, total int64), iterate func(int, []float64)) ([]float64, *optimize.Result, string, error) {
	// gonum asks for the value and the gradient at the same point in separate calls; one
	// pass computes both, so keep the last one.
	var lastX, lastG []float64
	var lastF float64
	both := func(x []float64) {
		if lastX != nil && slices.Equal(x, lastX) {
			return
		}
		if lastG == nil {
			lastG = make([]float64, len(x))
		}
		lastF = pr.eval(x, k, lastG)
		for j, w := range x {
			r := l2
			if j >= pr.dim {
				r = pr.patL2
			}
			lastF += r * w * w
			lastG[j] += 2 * r * w
		}
		lastX = append(lastX[:0], x...)
	}
	p := optimize.Problem{
		Func: func(x []float64) float64 { both(x); return lastF },
		Grad: func(g, x []float64) { both(x); copy(g, lastG) },
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		MajorIterations:   iters,
		GradientThreshold: 1e-8,
		Converger:         &optimize.FunctionConverge{Absolute: 1e-13, Relative: 1e-11, Iterations: 25},
		Recorder:          recorder{progress: progress, iterate: iterate, total: int64(iters)},
	}
	res, err := optimize.Minimize(p, x0, settings, &optimize.LBFGS{Store: 20})
	if cerr := ctx.Err(); cerr != nil {
		done := 0
		if res != nil {
			done = res.MajorIterations
		}
		return nil, nil, "", fmt.Errorf("tune: fit stopped after %d of at most %d iterations: %w", done, iters, cerr)
	}
	if err != nil && res == nil {
		return nil, nil, "", fmt.Errorf("tune: L-BFGS: %w", err)
	}
	status := res.Status.String()
	if err != nil {
		// Near the minimum the line search runs out of floating-point precision ("no change
		// in location"): the point is as good as the loss can tell. Keep it if it beats the
		// start.
		if !(res.F <= pr.eval(x0, k, nil)+pr.penalty(x0, l2)) {
			return nil, nil, "", fmt.Errorf("tune: L-BFGS: %w", err)
		}
		status = fmt.Sprintf("converged to precision (%v; gradient %.1e)", err, floats.Norm(res.Gradient, math.Inf(1)))
	}
	if progress != nil {
		progress(int64(iters), int64(iters))
	}
	return res.X, res, status, nil
}

// penalty returns the regularisation at x: l2 for the features, patL2 for the patterns.
func (pr *problem) penalty(x []float64, l2 float64) float64 {
	var s float64
	for j, w := range x {
		r := l2
		if j >= pr.dim {
			r = pr.patL2
		}
		s += r * w * w
	}
	return s
}

// recorder reports the iterations to a progress callback, and their weights to iterate.
type recorder struct {
	progress func(done, total int64)
	iterate  func(iteration int, x []float64)
	total    int64
}

func (r recorder) Init() error { return nil }

func (r recorder) Record(loc *optimize.Location, op optimize.Operation, st *optimize.Stats) error {
	if op != optimize.MajorIteration {
		return nil
	}
	if r.progress != nil {
		r.progress(int64(st.MajorIterations), r.total)
	}
	if r.iterate != nil {
		r.iterate(st.MajorIterations, loc.X)
	}
	return nil
}
