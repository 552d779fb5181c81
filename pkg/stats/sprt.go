package stats

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

//go:generate go run golang.org/x/tools/cmd/stringer@v0.30.0 -type=Model,Decision -linecomment -output=string.go

// Counts is a match result that the SPRT and the estimators accept. Only
// [WDL] and [Penta] implement it.
type Counts interface {
	Games() int
	Score() float64
	counts() []float64
}

// Model is the Elo model in which SPRT bounds are given.
type Model int

// The SPRT Elo models.
const (
	// Logistic bounds are logistic Elo differences (fishtest's default
	// since 2020).
	Logistic Model = iota // logistic
	// Normalized bounds are normalized Elo (nElo): the t-value of the
	// per-game score times 800/ln 10.
	Normalized // normalized
)

// Decision is the state of a sequential test.
type Decision int

// The states of a sequential test.
const (
	Continue Decision = iota // continue
	AcceptH0                 // H0
	AcceptH1                 // H1
)

// ErrInvalidSPRT is returned, wrapped, for a malformed or inconsistent SPRT
// specification.
var ErrInvalidSPRT = errors.New("invalid sprt")

// SPRT describes a sequential probability ratio test of H0: Elo = Elo0
// against H1: Elo = Elo1, with Alpha the probability of accepting H1 when
// H0 holds and Beta the probability of accepting H0 when H1 holds. The zero
// Model is Logistic.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
	Model       Model
}

// ParseSPRT parses a comma-separated list of key=value tokens, for example
// "elo0=0,elo1=5,alpha=0.05,beta=0.05". elo0 and elo1 are required; alpha
// and beta default to 0.05; model is "logistic" (the default) or
// "normalized". Spaces around tokens are ignored. Errors name the offending
// token and wrap [ErrInvalidSPRT].
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			return SPRT{}, fmt.Errorf("stats: sprt %q: empty token: %w", s, ErrInvalidSPRT)
		}
		key, val, ok := strings.Cut(tok, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok {
			return SPRT{}, fmt.Errorf("stats: sprt token %q: want key=value: %w", tok, ErrInvalidSPRT)
		}
		if seen[key] {
			return SPRT{}, fmt.Errorf("stats: sprt token %q: duplicate %s: %w", tok, key, ErrInvalidSPRT)
		}
		seen[key] = true
		var dst *float64
		switch key {
		case "elo0":
			dst = &t.Elo0
		case "elo1":
			dst = &t.Elo1
		case "alpha":
			dst = &t.Alpha
		case "beta":
			dst = &t.Beta
		case "model":
			switch val {
			case Logistic.String():
				t.Model = Logistic
			case Normalized.String():
				t.Model = Normalized
			default:
				return SPRT{}, fmt.Errorf("stats: sprt token %q: model must be logistic or normalized: %w", tok, ErrInvalidSPRT)
			}
			continue
		default:
			return SPRT{}, fmt.Errorf("stats: sprt token %q: unknown key %q: %w", tok, key, ErrInvalidSPRT)
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return SPRT{}, fmt.Errorf("stats: sprt token %q: not a finite number: %w", tok, ErrInvalidSPRT)
		}
		*dst = v
	}
	for _, k := range []string{"elo0", "elo1"} {
		if !seen[k] {
			return SPRT{}, fmt.Errorf("stats: sprt %q: missing %s: %w", s, k, ErrInvalidSPRT)
		}
	}
	if err := t.Validate(); err != nil {
		return SPRT{}, err
	}
	return t, nil
}

// maxElo bounds |Elo0| and |Elo1| so that the expected scores stay strictly
// inside (0, 1) in floating point.
const maxElo = 4000

// Validate reports whether the test is well formed: finite Elo0 < Elo1 with
// |Elo| < 4000, 0 < Alpha, 0 < Beta and Alpha + Beta < 1, and a known
// Model. The error wraps [ErrInvalidSPRT].
func (s SPRT) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("stats: sprt: "+format+": %w", append(args, ErrInvalidSPRT)...)
	}
	switch {
	case !(math.Abs(s.Elo0) < maxElo):
		return bad("elo0=%g out of range (-%d, %d)", s.Elo0, maxElo, maxElo)
	case !(math.Abs(s.Elo1) < maxElo):
		return bad("elo1=%g out of range (-%d, %d)", s.Elo1, maxElo, maxElo)
	case !(s.Elo0 < s.Elo1):
		return bad("elo0=%g must be less than elo1=%g", s.Elo0, s.Elo1)
	case !(s.Alpha > 0 && s.Alpha < 1):
		return bad("alpha=%g must be in (0, 1)", s.Alpha)
	case !(s.Beta > 0 && s.Beta < 1):
		return bad("beta=%g must be in (0, 1)", s.Beta)
	case !(s.Alpha+s.Beta < 1):
		return bad("alpha+beta=%g must be less than 1", s.Alpha+s.Beta)
	case s.Model != Logistic && s.Model != Normalized:
		return bad("unknown model %d", int(s.Model))
	}
	return nil
}

// String returns the test in the form ParseSPRT reads.
func (s SPRT) String() string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	out := "elo0=" + f(s.Elo0) + ",elo1=" + f(s.Elo1) + ",alpha=" + f(s.Alpha) + ",beta=" + f(s.Beta)
	if s.Model != Logistic {
		out += ",model=" + s.Model.String()
	}
	return out
}

// Bounds returns the stopping bounds on the LLR: log(β/(1-α)) and
// log((1-β)/α).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Decide returns the decision for a log-likelihood ratio: AcceptH0 at or
// below the lower bound, AcceptH1 at or above the upper bound, Continue in
// between.
func (s SPRT) Decide(llr float64) Decision {
	lower, upper := s.Bounds()
	switch {
	case llr <= lower:
		return AcceptH0
	case llr >= upper:
		return AcceptH1
	}
	return Continue
}

// LLR returns the generalized log-likelihood ratio of H1 against H0 for the
// results c (fishtest's LLR_logistic or LLR_normalized, with zero counts
// regularized to 0.001). It is 0 when there are no games. Pentanomial
// counts give the more accurate test for paired games. It panics if s is
// not valid or c has a negative count.
func (s SPRT) LLR(c Counts) float64 {
	counts := s.prepare(c)
	if counts == nil {
		return 0
	}
	if s.Model == Normalized {
		t0, t1 := s.tValues(len(counts))
		return llrNormalized(counts, t0, t1)
	}
	return llrLogistic(counts, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// LLRApprox returns a closed-form approximation of [SPRT.LLR]. For the
// logistic model it is N·(s1-s0)·(2ŝ-s0-s1)/(2σ̂²) (fishtest's LLR_alt2),
// for the normalized model (games/2)·log((1+(t̂-t0)²)/(1+(t̂-t1)²)) with
// per-game t-values (fishtest's LLR_normalized_alt). Here N is the number of
// games or pairs and ŝ, σ̂² the mean and variance of their scores. It
// panics if s is not valid or c has a negative count.
func (s SPRT) LLRApprox(c Counts) float64 {
	counts := s.prepare(c)
	if counts == nil {
		return 0
	}
	if s.Model == Normalized {
		total, phat := regularize(counts)
		mean, variance := weightedMoments(phat, scorePoints(len(counts)))
		games := total
		if len(counts) == 5 {
			games, variance = 2*total, 2*variance
		}
		t := (mean - 0.5) / math.Sqrt(variance)
		t0, t1 := s.Elo0/neloPerT, s.Elo1/neloPerT
		return games / 2 * math.Log((1+(t-t0)*(t-t0))/(1+(t-t1)*(t-t1)))
	}
	return llrApprox(counts, ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// Status returns the log-likelihood ratio for c and the resulting decision.
// It panics if s is not valid or c has a negative count.
func (s SPRT) Status(c Counts) (llr float64, d Decision) {
	llr = s.LLR(c)
	return llr, s.Decide(llr)
}

// prepare checks s and c and returns the counts, or nil for no games.
func (s SPRT) prepare(c Counts) []float64 {
	if err := s.Validate(); err != nil {
		panic(err)
	}
	counts := c.counts()
	for _, v := range counts {
		if v < 0 {
			panic("stats: negative count")
		}
	}
	if c.Games() == 0 {
		return nil
	}
	return counts
}

// tValues returns the bounds as t-values per sample: per game for three
// outcomes, per pair (√2 times larger) for five.
func (s SPRT) tValues(outcomes int) (t0, t1 float64) {
	t0, t1 = s.Elo0/neloPerT, s.Elo1/neloPerT
	if outcomes == 5 {
		t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
	}
	return t0, t1
}
