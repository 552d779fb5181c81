package stats

// Outcome is the result of one game for the first player, counted in
// half-points: Loss is 0, Draw 1, Win 2.
type Outcome int8

// The three game outcomes.
const (
	Loss Outcome = 0
	Draw Outcome = 1
	Win  Outcome = 2
)

// Reverse returns the outcome seen from the opponent's side.
func (o Outcome) Reverse() Outcome { return Win - o }

// WDL holds the trinomial result of a match: wins, draws and losses from the
// first player's point of view.
type WDL struct {
	Wins, Draws, Losses int
}

// Add records one game. It panics if o is not Loss, Draw or Win.
func (r *WDL) Add(o Outcome) {
	switch o {
	case Win:
		r.Wins++
	case Draw:
		r.Draws++
	case Loss:
		r.Losses++
	default:
		panic("stats: invalid outcome")
	}
}

// Plus returns the sum of two results.
func (r WDL) Plus(o WDL) WDL {
	return WDL{r.Wins + o.Wins, r.Draws + o.Draws, r.Losses + o.Losses}
}

// Reverse returns the result seen from the second player's point of view.
func (r WDL) Reverse() WDL { return WDL{Wins: r.Losses, Draws: r.Draws, Losses: r.Wins} }

// Games returns the number of games.
func (r WDL) Games() int { return r.Wins + r.Draws + r.Losses }

// Points returns the first player's points, a draw counting one half.
func (r WDL) Points() float64 { return float64(r.Wins) + float64(r.Draws)/2 }

// Score returns the points per game in [0, 1], or 0.5 when there are no
// games.
func (r WDL) Score() float64 {
	n := r.Games()
	if n == 0 {
		return 0.5
	}
	return r.Points() / float64(n)
}

// DrawRatio returns the fraction of drawn games in [0, 1], or 0 when there
// are no games.
func (r WDL) DrawRatio() float64 {
	n := r.Games()
	if n == 0 {
		return 0
	}
	return float64(r.Draws) / float64(n)
}

// valid reports whether no count is negative.
func (r WDL) valid() bool { return r.Wins >= 0 && r.Draws >= 0 && r.Losses >= 0 }

// counts returns the counts ordered by score: losses, draws, wins.
func (r WDL) counts() []float64 {
	return []float64{float64(r.Losses), float64(r.Draws), float64(r.Wins)}
}

// Penta holds pentanomial counts over game pairs, as fishtest defines them:
// index i counts the pairs in which the first player scored i half-points
// over the two games (LL, LD+DL, LW+WL+DD, DW+WD, WW). See the package
// documentation.
type Penta [5]int

// AddPair records one game pair from the first player's point of view. It
// panics if an outcome is not Loss, Draw or Win.
func (p *Penta) AddPair(first, second Outcome) {
	if first < Loss || first > Win || second < Loss || second > Win {
		panic("stats: invalid outcome")
	}
	p[first+second]++
}

// Plus returns the sum of two pentanomial counts.
func (p Penta) Plus(o Penta) Penta {
	for i := range p {
		p[i] += o[i]
	}
	return p
}

// Reverse returns the counts seen from the second player's point of view.
func (p Penta) Reverse() Penta { return Penta{p[4], p[3], p[2], p[1], p[0]} }

// Pairs returns the number of game pairs.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Games returns the number of games, twice the number of pairs.
func (p Penta) Games() int { return 2 * p.Pairs() }

// Points returns the first player's points over all pairs.
func (p Penta) Points() float64 {
	return (float64(p[1]) + 2*float64(p[2]) + 3*float64(p[3]) + 4*float64(p[4])) / 2
}

// Score returns the points per game in [0, 1], or 0.5 when there are no
// pairs.
func (p Penta) Score() float64 {
	n := p.Pairs()
	if n == 0 {
		return 0.5
	}
	return p.Points() / float64(2*n)
}

// valid reports whether no count is negative.
func (p Penta) valid() bool {
	for _, c := range p {
		if c < 0 {
			return false
		}
	}
	return true
}

// counts returns the counts as floats, ordered by score.
func (p Penta) counts() []float64 {
	c := make([]float64, 5)
	for i, v := range p {
		c[i] = float64(v)
	}
	return c
}
