package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// LOSMatrix returns the likelihood of superiority between every two players of a rated
// table: los[i][j] is the probability that player i is stronger than player j, from the
// ratings Rate fitted to results (the same table) under the normal approximation of the
// maximum-likelihood estimate: Φ((Rᵢ − Rⱼ) / sd(Rᵢ − Rⱼ)), where the variance of the
// difference comes from the inverse of the observed information (the covariance Rate's
// standard errors come from, with its off-diagonal terms). It does not depend on the
// anchor. Two players who never met are compared through their common opponents, as the
// ratings are. los[i][i] is 0.5. As for Rate's standard errors, a game counts as a trial of
// its expected score (variance p(1-p)): with many draws the variance is overstated and the
// LOS conservative.
func LOSMatrix(results [][]WDL, ratings []Rating) ([][]float64, error) {
	n := len(results)
	if len(ratings) != n {
		return nil, fmt.Errorf("stats: %d ratings for %d players: %w", len(ratings), n, ErrBadTable)
	}
	los := make([][]float64, n)
	for i := range los {
		los[i] = make([]float64, n)
		los[i][i] = 0.5
	}
	if n < 2 {
		return los, nil
	}
	games := make([]float64, n*n)
	for i, row := range results {
		if len(row) != n {
			return nil, fmt.Errorf("stats: results row %d has %d columns, want %d: %w", i, len(row), n, ErrBadTable)
		}
		for j, r := range row {
			g := float64(r.Games())
			games[i*n+j] += g
			games[j*n+i] += g
		}
	}
	// the information over players 1..n-1, player 0 held fixed: the variance of a
	// difference is the same whichever player is held
	m := n - 1
	info := mat.NewSymDense(m, nil)
	for i := 1; i < n; i++ {
		var h float64
		for j := range n {
			nij := games[i*n+j]
			if nij == 0 || i == j {
				continue
			}
			p := ScoreFromElo(ratings[i].Elo - ratings[j].Elo)
			w := eloK * eloK * nij * p * (1 - p)
			h += w
			if j > i {
				info.SetSym(i-1, j-1, -w)
			}
		}
		info.SetSym(i-1, i-1, h)
	}
	var chol mat.Cholesky
	if !chol.Factorize(info) {
		return nil, fmt.Errorf("stats: information matrix is singular: %w", ErrUnbounded)
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, fmt.Errorf("stats: covariance: %w", err)
	}
	at := func(i, j int) float64 {
		if i == 0 || j == 0 {
			return 0
		}
		return cov.At(i-1, j-1)
	}
	for i := range n {
		for j := range n {
			if i == j {
				continue
			}
			v := at(i, i) + at(j, j) - 2*at(i, j)
			d := ratings[i].Elo - ratings[j].Elo
			los[i][j] = 0.5 * math.Erfc(-d/math.Sqrt(v)/math.Sqrt2)
		}
	}
	return los, nil
}
