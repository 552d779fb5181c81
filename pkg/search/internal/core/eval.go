package core

import (
	"math"
	"sync"

	"github.com/rafle/rafle/pkg/internal/board"
)

// The evaluation is a weighted sum of named features, exactly linear in the weights:
//
//	eval(p) = Σ weight[name] × feature[name](p)
//
// Every feature is a difference "side to move minus opponent", so the evaluation is from the
// point of view of the side to move (negamax convention). Weights are in hundredths of a man
// (the default "man" weight is 100). The search rounds the sum to the nearest integer: that
// rounding, at the search boundary, is the only non-linear step, so a tuner (Texel method)
// can fit the weights on the raw vectors Features returns.
//
// The features, by name:
//
//	man            men
//	king           kings
//	advance        sum over men of the rows they have advanced from their own back row
//	back_rank      men still on their own back row (they guard it against promotion)
//	centre         men on the central squares (the middle four files of the middle four rows)
//	mobility       non-capturing moves of the men
//	king_mobility  non-capturing moves of the kings
//	runaway        men whose forward cone up to the promotion row is empty (free path)
//	tempo          1 for the side to move (its weight is the value of having the move)
//	king_diagonal  kings on the long diagonal (only in variants with flying diagonal kings)
//	front          rows the most advanced man has advanced from its own back row (only
//	               where the first king wins, Rules.PromotionWins: there a king ends the
//	               game, so king, king_mobility and king_diagonal are left out)
const (
	featMan = iota
	featKing
	featAdvance
	featBackRank
	featCentre
	featMobility
	featKingMobility
	featRunaway
	featTempo
	featKingDiagonal
	featFront
	numFeatures
)

var allFeatureNames = [numFeatures]string{
	featMan:          "man",
	featKing:         "king",
	featAdvance:      "advance",
	featBackRank:     "back_rank",
	featCentre:       "centre",
	featMobility:     "mobility",
	featKingMobility: "king_mobility",
	featRunaway:      "runaway",
	featTempo:        "tempo",
	featKingDiagonal: "king_diagonal",
	featFront:        "front",
}

// featureSet lists a variant's features.
type featureSet struct {
	names []string // the variant's features, in order
	index []int    // the variant's features as indices into the full list
}

// featuresOf returns the features of a variant with rules r: all of them, but
// king_diagonal without flying kings, and front only where the first king wins, which has
// no king features. On an Orthogonal board (turkish) kings move along rows and columns, so
// king_diagonal is left out, and so is back_rank: the men start in front of an empty back
// row and never step back onto it.
func featuresOf(r *board.Rules) featureSet {
	var fs featureSet
	for f := 0; f < numFeatures; f++ {
		switch f {
		case featKingDiagonal:
			if r.ShortKings || r.PromotionWins || r.Orthogonal {
				continue
			}
		case featBackRank:
			if r.Orthogonal {
				continue
			}
		case featKing, featKingMobility:
			if r.PromotionWins {
				continue
			}
		case featFront:
			if !r.PromotionWins {
				continue
			}
		}
		fs.names = append(fs.names, allFeatureNames[f])
		fs.index = append(fs.index, f)
	}
	return fs
}

// evalTables are the per-variant masks the features use, built once per Variant.
type evalTables struct {
	featureSet
	// advance[c][j]: the squares k rows ahead of c's back row with bit j of k set (a
	// board that fits 64 bits has at most 24 rows)
	advance  [2][5]board.Bitboard
	back     [2]board.Bitboard // each side's own back row
	centre   board.Bitboard
	diagonal board.Bitboard // the long diagonal
	flying   bool
	front    bool // the front feature is computed
	// the shifts of one step up-left and up-right (board.UpSteps): on an Orthogonal board
	// too, where the runaway cone widens by a file a row
	upLeft, upRight  uint
	kingDir, kingEnd int // the directions kings move in, kingDir to kingEnd-1 (board.KingDirs)
}

var evalCache sync.Map // *board.Variant -> *evalTables

// tablesFor returns the evaluation tables of v, building them on first use.
func tablesFor(v *board.Variant) *evalTables {
	if t, ok := evalCache.Load(v); ok {
		return t.(*evalTables)
	}
	t, _ := evalCache.LoadOrStore(v, buildEvalTables(v))
	return t.(*evalTables)
}

func buildEvalTables(v *board.Variant) *evalTables {
	t := &evalTables{featureSet: featuresOf(&v.Rules), flying: !v.ShortKings, front: v.PromotionWins}
	h, w := v.Height, v.Width
	var diagA, diagB board.Bitboard
	for s := 1; s <= v.Squares(); s++ {
		i, _ := v.Index(board.Square(s))
		file, rank := board.Coords(v, board.Square(s)) // file 0.., rank 1 = White's back row
		for j := range t.advance[board.White] {
			if (rank-1)>>j&1 != 0 {
				t.advance[board.White][j] |= board.Bit(i)
			}
			if (h-rank)>>j&1 != 0 {
				t.advance[board.Black][j] |= board.Bit(i)
			}
		}
		if file >= w/2-2 && file <= w/2+1 && rank >= h/2-1 && rank <= h/2+2 {
			t.centre |= board.Bit(i)
		}
		if file == rank-1 {
			diagA |= board.Bit(i)
		}
		if file+rank == w {
			diagB |= board.Bit(i)
		}
	}
	t.diagonal = diagA
	if diagB.Count() > diagA.Count() {
		t.diagonal = diagB
	}
	t.upLeft, t.upRight = board.UpSteps(v)
	dirs := board.KingDirs(v) // consecutive numbers: four, or eight with DiagonalSteps
	t.kingDir, t.kingEnd = dirs[0], dirs[0]+len(dirs)
	t.back[board.White] = board.Promo(v, board.Black)
	t.back[board.Black] = board.Promo(v, board.White)
	return t
}

// FeatureNames returns the names of v's evaluation features, in the order Features fills
// them. The caller may modify the returned slice.
func FeatureNames(v *board.Variant) []string {
	return featuresOf(&v.Rules).names
}

// Features appends the raw feature vector of p to out[:0] and returns it, in the order of
// FeatureNames(v). Each feature is the side to move's count minus the opponent's (tempo is
// 1), so Evaluate(v, w, p) = Σ w.Values[FeatureNames(v)[i]] × Features(v, p, nil)[i] is
// the evaluation from the side to move's point of view.
func Features(v *board.Variant, p *board.Position, out []float64) []float64 {
	return kernelOf(v).featureVector(*p, out)
}

// features is Features on the board's own representation.
func features(v *board.Variant, p *board.Position, out []float64) []float64 {
	t := tablesFor(v)
	var all [numFeatures]float64
	t.compute(v, p, &all)
	out = out[:0]
	for _, f := range t.index {
		out = append(out, all[f])
	}
	return out
}

// Evaluate returns the dot product of values (weights by feature name) and Features(v, p):
// the evaluation of p from the side to move's point of view, in the units of the weights,
// before the search rounds it. It panics if values lack a feature of v.
func Evaluate(v *board.Variant, values map[string]float64, p *board.Position) float64 {
	vec := weightVector(values, featuresOf(&v.Rules))
	return kernelOf(v).evaluateOf(vec, *p)
}

// evaluate returns the dot product of the weight vector w (indexed by feature number) and
// the features of p.
func (t *evalTables) evaluate(v *board.Variant, w *[numFeatures]float64, p *board.Position) float64 {
	var f [numFeatures]float64
	t.compute(v, p, &f)
	var sum float64
	for i := range f {
		sum += w[i] * f[i]
	}
	return sum
}

// compute fills every feature, from the side to move's point of view.
func (t *evalTables) compute(v *board.Variant, p *board.Position, out *[numFeatures]float64) {
	var f, g [numFeatures]int
	t.sides(v, p, &f, &g)
	for i := range out {
		out[i] = float64(f[i] - g[i])
	}
	out[featTempo] = 1
}

// intWeights returns w as integers, and whether every weight is an integer of at most
// 2^31 in magnitude. Features are below 2^13 (64 squares, 4 directions, 24 rows), so with
// such weights every product and partial sum of evaluate is an integer below 2^53: each
// float operation is exact, and evaluate returns exactly the integer evaluateInt computes.
func intWeights(w *[numFeatures]float64) (iw [numFeatures]int, ok bool) {
	for i, x := range w {
		if x != math.Trunc(x) || math.Abs(x) > 1<<31 {
			return iw, false
		}
		iw[i] = int(x)
	}
	return iw, true
}

// evaluateInt is evaluate with integer weights (see intWeights): the same value, without
// a chain of dependent float additions.
func (t *evalTables) evaluateInt(v *board.Variant, w *[numFeatures]int, p *board.Position) int {
	var f, g [numFeatures]int
	t.sides(v, p, &f, &g)
	sum := w[featTempo] // the tempo feature is 1
	for i := range f {
		sum += w[i] * (f[i] - g[i])
	}
	return sum
}

// sides fills f and g with the features of the side to move and of the other side.
func (t *evalTables) sides(v *board.Variant, p *board.Position, f, g *[numFeatures]int) {
	us, them := p.Side, p.Side.Other()
	occ := board.Occupied(p)
	empty := board.Board(v) &^ occ
	t.side(v, us, board.Men(p, us), board.KingsOf(p, us), occ, empty, f)
	t.side(v, them, board.Men(p, them), board.KingsOf(p, them), occ, empty, g)
}

// side fills f with the features of c's men and kings (occ the occupied squares, empty
// the free ones); tempo is left at 0.
func (t *evalTables) side(v *board.Variant, c board.Color, men, kings, occ, empty board.Bitboard, f *[numFeatures]int) {
	f[featMan] = men.Count()
	f[featKing] = kings.Count()
	// Σ rows × men on the row, one bit of the row number at a time
	a := &t.advance[c]
	f[featAdvance] = (men & a[0]).Count() + (men&a[1]).Count()<<1 + (men&a[2]).Count()<<2 +
		(men&a[3]).Count()<<3 + (men&a[4]).Count()<<4
	if t.front {
		// the largest row number among the men, one bit at a time from the highest
		m := men
		for j := len(a) - 1; j >= 0; j-- {
			if x := m & a[j]; x != 0 {
				f[featFront] |= 1 << j
				m = x
			}
		}
	}
	f[featBackRank] = (men & t.back[c]).Count()
	f[featCentre] = (men & t.centre).Count()
	f[featMobility] = board.CountMenQuiet(v, c, empty, men)
	if kings != 0 {
		km := 0
		for d := t.kingDir; d < t.kingEnd; d++ {
			if !t.flying {
				km += (board.Shift(v, kings, d) & empty).Count()
				continue
			}
			for g := board.Shift(v, kings, d) & empty; g != 0; g = board.Shift(v, g, d) & empty {
				km += g.Count()
			}
		}
		f[featKingMobility] = km
		if t.flying {
			f[featKingDiagonal] = (kings & t.diagonal).Count()
		}
	}
	// a man whose cone holds a piece stands behind that piece: fill backwards from the
	// occupied squares until every man is behind one or the fill stops (men of White move
	// to lower indices: see countMenQuiet)
	behind, front := board.Bitboard(0), occ
	l, r := t.upLeft&63, t.upRight&63 // the mask spares the shifts their test for counts of 64 or more
	if c == board.White {
		for front != 0 && men&^behind != 0 {
			front = (front<<l | front<<r) & board.Board(v) &^ behind
			behind |= front
		}
	} else {
		for front != 0 && men&^behind != 0 {
			front = (front>>l | front>>r) & board.Board(v) &^ behind
			behind |= front
		}
	}
	f[featRunaway] = (men &^ behind).Count()
}

// weightVector returns values indexed by feature number (0 for a feature the variant
// lacks). It panics when values lack a feature of t.
func weightVector(values map[string]float64, t featureSet) [numFeatures]float64 {
	var vec [numFeatures]float64
	for k, f := range t.index {
		x, ok := values[t.names[k]]
		if !ok {
			panic("engine: weights lack feature " + t.names[k])
		}
		vec[f] = x
	}
	return vec
}
