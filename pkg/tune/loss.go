package tune

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/rafle/rafle/pkg/search"
)

// Loss is the loss function of the fit.
type Loss int

// Losses.
const (
	// LossLogistic is the mean cross-entropy −[y·log p + (1−y)·log(1−p)].
	LossLogistic Loss = iota
	// LossSquared is the mean squared error (y − p)², Texel's E.
	LossSquared
)

// ParseLoss reads "logistic" or "squared".
func ParseLoss(s string) (Loss, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "logistic", "log", "cross-entropy":
		return LossLogistic, nil
	case "squared", "mse", "texel":
		return LossSquared, nil
	}
	return 0, fmt.Errorf("tune: loss %q: want logistic or squared", s)
}

// String returns "logistic" or "squared".
func (l Loss) String() string {
	if l == LossSquared {
		return "squared"
	}
	return "logistic"
}

// pointLoss returns the loss at logit z for label y, and its derivative with respect to z.
func (l Loss) pointLoss(z, y float64) (loss, dz float64) {
	if l == LossSquared {
		p := sigmoid(z)
		e := p - y
		return e * e, 2 * e * p * (1 - p)
	}
	// softplus(z) − y·z and σ(z) − y, with one exponential and without overflow.
	e := math.Exp(-math.Abs(z))
	p := 1 / (1 + e)
	if z < 0 {
		p = e / (1 + e)
	}
	return max(z, 0) + math.Log1p(e) - y*z, p - y
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// problem is a set of positions reduced to what the fit needs: the tuned feature columns,
// the fixed part of the evaluation, and the labels.
type problem struct {
	n, dim int
	x      []float32 // n × dim, the tuned features
	base   []float64 // the fixed features' contribution, in men (hundredths / 100)
	y      []float32
	loss   Loss
	chunks int
	// the pattern weights, when they are fitted (withPatterns): variables dim, dim+1, ...
	// are the middle-game and endgame weights of each configuration, in men
	pw    int       // configurations a row (own views, then the other side's); 0: none
	pat   []int32   // n × pw
	phase []float32 // the share of the starting pieces left, by row
	patL2 float64   // their L2 regularisation (minimise)
	// scale, when not -1, is the variable (the man weight, FitScale) that multiplies the
	// fixed part: the features not tuned keep their ratio to man during the fit
	scale int
}

// withPatterns makes the pattern weights of d (a data set with Patterns) variables of pr,
// after its tuned features, regularised with patL2: window w's configurations are those of
// table group[w] (Share.groups).
func (pr *problem) withPatterns(d *Dataset, rows []int, patL2 float64, group []int) {
	pw := d.PatternRow()
	pr.pw, pr.patL2 = pw, patL2
	pr.pat, pr.phase = make([]int32, 0, len(rows)*pw), make([]float32, 0, len(rows))
	for _, i := range rows {
		for _, c := range d.Pat[i*pw : (i+1)*pw] {
			w, conf := int(c)/search.PatternConfigs, int(c)%search.PatternConfigs
			pr.pat = append(pr.pat, int32(group[w]*search.PatternConfigs+conf))
		}
		pr.phase = append(pr.phase, d.Phase[i])
	}
}

// PatternVars is the number of pattern variables per window: a middle-game and an
// endgame weight for each configuration.
const PatternVars = search.PatternConfigs * 2

// patScore returns the pattern term of row i at variables w (men).
func (pr *problem) patScore(w []float64, i int) float64 {
	ph := float64(pr.phase[i])
	row := pr.pat[i*pr.pw : (i+1)*pr.pw]
	half := pr.pw / 2
	pw := w[pr.dim:]
	var s float64
	for j, c := range row {
		x := ph*pw[2*c] + (1-ph)*pw[2*c+1]
		if j < half {
			s += x
		} else {
			s -= x
		}
	}
	return s
}

// patGrad adds dz times the derivative of row i's pattern term to g.
func (pr *problem) patGrad(g []float64, i int, dz float64) {
	ph := float64(pr.phase[i])
	row := pr.pat[i*pr.pw : (i+1)*pr.pw]
	half := pr.pw / 2
	pg := g[pr.dim:]
	a, b := dz*ph, dz*(1-ph)
	for j, c := range row {
		if j == half {
			a, b = -a, -b
		}
		pg[2*c] += a
		pg[2*c+1] += b
	}
}

// newProblem selects rows of d: the columns in tuned become the variables, the others are
// summed with the weights in fixed (indexed like d.Names).
func newProblem(d *Dataset, rows []int, tuned []int, fixed []float64, loss Loss) *problem {
	n := len(rows)
	isTuned := make([]bool, len(d.Names))
	for _, j := range tuned {
		isTuned[j] = true
	}
	pr := &problem{n: n, dim: len(tuned), x: make([]float32, 0, n*len(tuned)), base: make([]float64, n),
		y: make([]float32, n), loss: loss, chunks: runtime.GOMAXPROCS(0), scale: -1}
	for k, i := range rows {
		row := d.Row(i)
		var b float64
		for j, f := range row {
			if !isTuned[j] {
				b += fixed[j] * float64(f)
			}
		}
		pr.base[k] = b / 100
		for _, j := range tuned {
			pr.x = append(pr.x, row[j])
		}
		pr.y[k] = d.Y[i]
	}
	return pr
}

// numChunks returns the number of chunks parallel splits the rows into: one per
// GOMAXPROCS, but at least 4096 rows each.
func (pr *problem) numChunks() int { return max(1, min(pr.chunks, pr.n/4096)) }

// parallel runs fn over the problem's rows in numChunks contiguous chunks, one goroutine
// each; fn stores its result by chunk number.
func (pr *problem) parallel(fn func(lo, hi, chunk int)) {
	c := pr.numChunks()
	var wg sync.WaitGroup
	for k := 0; k < c; k++ {
		lo, hi := k*pr.n/c, (k+1)*pr.n/c
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi, k)
		}()
	}
	wg.Wait()
}

// eval returns the mean loss at weights w (tuned weights in men) and scale k, and when grad
// is not nil stores the gradient of the mean loss with respect to w in it.
func (pr *problem) eval(w []float64, k float64, grad []float64) float64 {
	if pr.n == 0 {
		return math.NaN()
	}
	c := pr.numChunks()
	sums := make([]float64, c)
	var grads [][]float64
	if grad != nil {
		grads = make([][]float64, c)
	}
	dim := pr.dim
	pr.parallel(func(lo, hi, chunk int) {
		var g []float64
		if grad != nil {
			g = make([]float64, len(w))
		}
		var sum float64
		for i := lo; i < hi; i++ {
			row := pr.x[i*dim : (i+1)*dim]
			s := pr.base[i]
			if pr.scale >= 0 {
				s *= w[pr.scale]
			}
			for j, f := range row {
				s += w[j] * float64(f)
			}
			if pr.pw > 0 {
				s += pr.patScore(w, i)
			}
			l, dz := pr.loss.pointLoss(k*s, float64(pr.y[i]))
			sum += l
			if g != nil {
				dz *= k
				for j, f := range row {
					g[j] += dz * float64(f)
				}
				if pr.scale >= 0 {
					g[pr.scale] += dz * pr.base[i]
				}
				if pr.pw > 0 {
					pr.patGrad(g, i, dz)
				}
			}
		}
		sums[chunk] = sum
		if grad != nil {
			grads[chunk] = g
		}
	})
	var total float64
	for _, s := range sums {
		total += s
	}
	inv := 1 / float64(pr.n)
	if grad != nil {
		clear(grad)
		for _, g := range grads {
			for j := range grad {
				grad[j] += g[j]
			}
		}
		for j := range grad {
			grad[j] *= inv
		}
	}
	return total * inv
}

// scores returns the evaluation of every row in men at weights w.
func (pr *problem) scores(w []float64) []float64 {
	s := make([]float64, pr.n)
	dim := pr.dim
	pr.parallel(func(lo, hi, _ int) {
		for i := lo; i < hi; i++ {
			v := pr.base[i]
			if pr.scale >= 0 {
				v *= w[pr.scale]
			}
			for j, f := range pr.x[i*dim : (i+1)*dim] {
				v += w[j] * float64(f)
			}
			if pr.pw > 0 {
				v += pr.patScore(w, i)
			}
			s[i] = v
		}
	})
	return s
}

// lossAtK returns the mean loss of the precomputed scores s (men) at scale k.
func (pr *problem) lossAtK(s []float64, k float64) float64 {
	c := pr.numChunks()
	sums := make([]float64, c)
	pr.parallel(func(lo, hi, chunk int) {
		var sum float64
		for i := lo; i < hi; i++ {
			l, _ := pr.loss.pointLoss(k*s[i], float64(pr.y[i]))
			sum += l
		}
		sums[chunk] = sum
	})
	var total float64
	for _, x := range sums {
		total += x
	}
	return total / float64(pr.n)
}

// Bounds of the K search: the logit of one man. A man up is worth somewhere between a
// 50.0003% and a ~100% score.
const (
	minK = 1e-3
	maxK = 1e2
)

// fitK minimises the loss over k at fixed weights w by golden-section search on log k, and
// returns k.
func (pr *problem) fitK(w []float64) (float64, error) {
	s := pr.scores(w)
	flat := true
	for _, x := range s {
		if x != 0 {
			flat = false
			break
		}
	}
	if flat {
		return 0, errors.New("tune: cannot fit K: the starting evaluation is 0 on every position")
	}
	f := func(u float64) float64 { return pr.lossAtK(s, math.Exp(u)) }
	a, b := math.Log(minK), math.Log(maxK)
	// A coarse scan first, so that the golden section starts in the right basin even if the
	// loss is not unimodal in K (the squared loss need not be convex).
	const steps = 24
	best, bestU := math.Inf(1), a
	for i := 0; i <= steps; i++ {
		u := a + (b-a)*float64(i)/steps
		if l := f(u); l < best {
			best, bestU = l, u
		}
	}
	h := (b - a) / steps
	a, b = max(a, bestU-h), min(b, bestU+h)
	invPhi := (math.Sqrt(5) - 1) / 2
	c, d := b-invPhi*(b-a), a+invPhi*(b-a)
	fc, fd := f(c), f(d)
	for b-a > 1e-6 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - invPhi*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + invPhi*(b-a)
			fd = f(d)
		}
	}
	return math.Exp((a + b) / 2), nil
}
