package stats

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Errors returned, wrapped, by Rate.
var (
	// ErrDisconnected means some players are not linked to the anchor by
	// games, so their ratings have no common scale.
	ErrDisconnected = errors.New("players are not connected by games")
	// ErrUnbounded means a group of players scored every point against
	// the rest (or none), so the maximum-likelihood ratings are infinite.
	ErrUnbounded = errors.New("ratings are unbounded: a group of players won or lost all its games against the rest")
	// ErrBadTable means the results table is not square, has a negative
	// count, or has games of a player against itself.
	ErrBadTable = errors.New("bad results table")
)

// Rating is one player's maximum-likelihood rating.
type Rating struct {
	Elo    float64 // rating on the Elo scale, relative to the anchor
	StdErr float64 // standard error of Elo with the anchor held fixed; 0 for the anchor
	Games  int     // games played
	Points float64 // points scored, a draw counting one half
}

// Rate fits Bradley-Terry ratings on the logistic Elo scale by maximum
// likelihood, draws counting as half a win and half a loss (see the package
// documentation). results[i][j] holds the games of player i against player
// j from i's point of view; results[j][i], if also filled, holds further
// games between them (for example with colours reversed) and is added to
// them, so record each game once. Player anchor is fixed at anchorElo.
//
// Rate returns an error wrapping ErrBadTable, ErrDisconnected or
// ErrUnbounded when the table is malformed or has no finite maximum. It
// panics if anchor is not a player index.
func Rate(results [][]WDL, anchor int, anchorElo float64) ([]Rating, error) {
	n := len(results)
	if anchor < 0 || anchor >= n {
		panic("stats: anchor out of range")
	}
	games := make([]float64, n*n)  // games[i*n+j]: games between i and j
	points := make([]float64, n*n) // points[i*n+j]: points of i against j
	for i, row := range results {
		if len(row) != n {
			return nil, fmt.Errorf("stats: results row %d has %d columns, want %d: %w", i, len(row), n, ErrBadTable)
		}
		for j, r := range row {
			if !r.valid() {
				return nil, fmt.Errorf("stats: results[%d][%d] = %+v has a negative count: %w", i, j, r, ErrBadTable)
			}
			if i == j {
				if r.Games() != 0 {
					return nil, fmt.Errorf("stats: results[%d][%d]: player %d has games against itself: %w", i, j, i, ErrBadTable)
				}
				continue
			}
			g := float64(r.Games())
			games[i*n+j] += g
			games[j*n+i] += g
			points[i*n+j] += r.Points()
			points[j*n+i] += g - r.Points()
		}
	}
	if err := checkRatable(n, games, points); err != nil {
		return nil, err
	}

	elo := make([]float64, n)
	for i := range elo {
		elo[i] = anchorElo
	}
	free := make([]int, 0, n-1) // the players whose ratings move
	pos := make([]int, n)       // pos[i]: index of player i in free, or -1
	for i := range n {
		pos[i] = -1
		if i != anchor {
			pos[i] = len(free)
			free = append(free, i)
		}
	}
	m := len(free)
	info := mat.NewSymDense(max(m, 1), nil)
	grad := mat.NewVecDense(max(m, 1), nil)
	step := mat.NewVecDense(max(m, 1), nil)
	var chol mat.Cholesky
	// fill sets grad and info to the gradient of the log-likelihood and
	// the observed information (negative Hessian) over the free players,
	// and reports whether info is positive definite.
	fill := func() bool {
		for a, i := range free {
			var g, h float64
			for j := range n {
				nij := games[i*n+j]
				if nij == 0 {
					continue
				}
				p := ScoreFromElo(elo[i] - elo[j])
				g += eloK * (points[i*n+j] - nij*p)
				w := eloK * eloK * nij * p * (1 - p)
				h += w
				if b := pos[j]; b > a {
					info.SetSym(a, b, -w)
				}
			}
			grad.SetVec(a, g)
			info.SetSym(a, a, h)
		}
		return chol.Factorize(info)
	}

	if m > 0 {
		converged := false
		for range 200 {
			if !fill() {
				return nil, fmt.Errorf("stats: information matrix is singular: %w", ErrUnbounded)
			}
			if err := chol.SolveVecTo(step, grad); err != nil {
				return nil, fmt.Errorf("stats: newton step: %w", err)
			}
			// Halve the step until the log-likelihood does not decrease;
			// it is concave, so a full Newton step is usually accepted.
			before := logLikelihood(n, elo, games, points)
			old := append([]float64(nil), elo...)
			t, largest := 1.0, 0.0
			for range 60 {
				for a, i := range free {
					elo[i] = old[i] + t*step.AtVec(a)
				}
				if logLikelihood(n, elo, games, points) >= before-1e-12*math.Abs(before) {
					break
				}
				t /= 2
			}
			for a := range free {
				largest = math.Max(largest, math.Abs(t*step.AtVec(a)))
			}
			if largest < 1e-9 {
				converged = true
				break
			}
		}
		if !converged {
			return nil, fmt.Errorf("stats: ratings did not converge: %w", ErrUnbounded)
		}
	}

	out := make([]Rating, n)
	for i := range n {
		out[i].Elo = elo[i]
		for j := range n {
			out[i].Games += int(games[i*n+j])
			out[i].Points += points[i*n+j]
		}
	}
	if m > 0 {
		if !fill() {
			return nil, fmt.Errorf("stats: information matrix is singular: %w", ErrUnbounded)
		}
		var cov mat.SymDense
		if err := chol.InverseTo(&cov); err != nil {
			return nil, fmt.Errorf("stats: covariance: %w", err)
		}
		for a, i := range free {
			out[i].StdErr = math.Sqrt(cov.At(a, a))
		}
	}
	return out, nil
}

// eloK is d/dElo of the logistic exponent: ln 10 / 400.
var eloK = math.Ln10 / 400

// logSigmoid returns log(1/(1+e^-x)) without overflow.
func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

// logLikelihood returns Σ_{i<j} s_ij·log p_ij + (n_ij - s_ij)·log(1 - p_ij).
func logLikelihood(n int, elo, games, points []float64) float64 {
	var ll float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			nij := games[i*n+j]
			if nij == 0 {
				continue
			}
			x := eloK * (elo[i] - elo[j])
			sij := points[i*n+j]
			ll += sij*logSigmoid(x) + (nij-sij)*logSigmoid(-x)
		}
	}
	return ll
}

// UnratableError says which players keep ratings from being fitted: two groups of players
// with no game between them (Err is ErrDisconnected), or one group that never scored a
// point against the other (ErrUnbounded).
type UnratableError struct {
	Err   error // ErrDisconnected or ErrUnbounded
	Group []int // player 0's group, by index
	Rest  []int // the other players
	// GroupScoreless is set when Group never scored against Rest; otherwise, for
	// ErrUnbounded, Rest never scored against Group.
	GroupScoreless bool
}

// Error names the players by index; Describe names them.
func (e *UnratableError) Error() string {
	return "stats: " + e.Describe(nil)
}

// Unwrap returns ErrDisconnected or ErrUnbounded.
func (e *UnratableError) Unwrap() error { return e.Err }

// Describe says which players cannot be rated, by their names (names[i] is player i's; by
// index "player i" where names is too short).
func (e *UnratableError) Describe(names []string) string {
	list := func(ps []int) string {
		var out []string
		for _, p := range ps {
			if p < len(names) {
				out = append(out, names[p])
			} else {
				out = append(out, fmt.Sprintf("player %d", p))
			}
		}
		return strings.Join(out, ", ")
	}
	g, r := list(e.Group), list(e.Rest)
	switch {
	case e.Err == ErrDisconnected:
		return fmt.Sprintf("no game links %s to %s: %v", r, g, e.Err)
	case e.GroupScoreless:
		return fmt.Sprintf("%s never scored against %s: %v", g, r, e.Err)
	}
	return fmt.Sprintf("%s never scored against %s: %v", r, g, e.Err)
}

// checkRatable returns an *UnratableError wrapping ErrDisconnected unless the players form one group
// linked by games, and ErrUnbounded unless the "scored at least half a
// point against" relation is strongly connected, which is Zermelo's
// condition for a finite maximum-likelihood estimate.
func checkRatable(n int, games, points []float64) error {
	reach := func(edge func(i, j int) bool) []bool {
		seen := make([]bool, n)
		stack := []int{0}
		seen[0] = true
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range n {
				if !seen[j] && edge(i, j) {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		return seen
	}
	all := func(s []bool) int {
		for i, v := range s {
			if !v {
				return i
			}
		}
		return -1
	}
	if n == 0 {
		return nil
	}
	split := func(in []bool) (group, rest []int) {
		for i, v := range in {
			if v {
				group = append(group, i)
			} else {
				rest = append(rest, i)
			}
		}
		return group, rest
	}
	if s := reach(func(i, j int) bool { return games[i*n+j] > 0 }); all(s) >= 0 {
		g, r := split(s)
		return &UnratableError{Err: ErrDisconnected, Group: g, Rest: r}
	}
	// Player 0 must reach everyone along "i scored against j" edges and
	// along "j scored against i" edges. If the first search misses a
	// player, the group it found scored nothing against the others.
	if s := reach(func(i, j int) bool { return points[i*n+j] > 0 }); all(s) >= 0 {
		g, r := split(s)
		return &UnratableError{Err: ErrUnbounded, Group: g, Rest: r, GroupScoreless: true}
	}
	if s := reach(func(i, j int) bool { return points[j*n+i] > 0 }); all(s) >= 0 {
		g, r := split(s)
		return &UnratableError{Err: ErrUnbounded, Group: g, Rest: r}
	}
	return nil
}
