package annotate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/rafle/rafle/pkg/search"
)

// Judgment is the class of a move by its loss: none, an inaccuracy, a mistake or a blunder.
type Judgment uint8

// The judgments, weakest first.
const (
	Good Judgment = iota
	Inaccuracy
	Mistake
	Blunder
)

var judgmentNames = [...]string{"", "inaccuracy", "mistake", "blunder"}

// String returns "", "inaccuracy", "mistake" or "blunder".
func (j Judgment) String() string { return judgmentNames[j] }

// MarshalText writes the judgment's name.
func (j Judgment) MarshalText() ([]byte, error) { return []byte(j.String()), nil }

// UnmarshalText reads a judgment's name.
func (j *Judgment) UnmarshalText(b []byte) error {
	for k, n := range judgmentNames {
		if n == string(b) {
			*j = Judgment(k)
			return nil
		}
	}
	return fmt.Errorf("annotate: judgment %q: want inaccuracy, mistake or blunder", b)
}

// NAG returns the numeric annotation glyph of the judgment: $6 (?!), $2 (?), $4 (??);
// 0 for a good move.
func (j Judgment) NAG() int32 {
	return [...]int32{0, 6, 2, 4}[j]
}

// Thresholds are the drops, in hundredths of a man in a balanced position, from which a
// move is an inaccuracy, a mistake or a blunder.
type Thresholds struct {
	Inaccuracy, Mistake, Blunder int
}

// DefaultThresholds are lidraughts' (modules/analyse/src/main/Advice.scala:
// CpAdvice.cpJudgments = 300 Blunder, 100 Mistake, 50 Inaccuracy, in centipieces).
var DefaultThresholds = Thresholds{Inaccuracy: 50, Mistake: 100, Blunder: 300}

// Check returns an error unless 0 < Inaccuracy <= Mistake <= Blunder.
func (t Thresholds) Check() error {
	if t.Inaccuracy <= 0 || t.Mistake < t.Inaccuracy || t.Blunder < t.Mistake {
		return fmt.Errorf("annotate: thresholds %d, %d, %d: want 0 < inaccuracy <= mistake <= blunder", t.Inaccuracy, t.Mistake, t.Blunder)
	}
	return nil
}

// Judge classes a loss of expected score.
func (t Thresholds) Judge(loss float64) Judgment {
	switch {
	case loss >= Drop(t.Blunder):
		return Blunder
	case loss >= Drop(t.Mistake):
		return Mistake
	case loss >= Drop(t.Inaccuracy):
		return Inaccuracy
	}
	return Good
}

// Drop returns the expected score that a drop of hundredths of a man costs in a balanced
// position: Expected(hundredths) - 1/2.
func Drop(hundredths int) float64 { return Expected(hundredths) - 0.5 }

// Expected returns the expected score of the side to move for a search score (hundredths
// of a man): 1 for a proven win (a win in n plies, or one an endgame database holds
// without its distance), 0 for a proven loss, else the logistic 1/(1+exp(-score/100)).
// See the package documentation for the scale.
func Expected(score int) float64 {
	switch {
	case score > search.TBWin-search.TBSpread:
		return 1
	case score < -(search.TBWin - search.TBSpread):
		return 0
	}
	return 1 / (1 + math.Exp(-float64(score)/100))
}

// FormatScore writes a score (hundredths of a man, from White's side) as [%eval] takes it:
// men with two decimals ("0.35", "-1.20"), or "#N" / "#-N" for a win of White / Black in N
// plies. A win an endgame database holds without its distance is written in men.
func FormatScore(score int) string {
	if mate := search.MateScore - search.MaxWin; score > mate || score < -mate {
		n := search.MateScore - abs(score)
		if score < 0 {
			return "#-" + strconv.Itoa(n)
		}
		return "#" + strconv.Itoa(n)
	}
	s := strconv.FormatFloat(float64(score)/100, 'f', 2, 64)
	if s == "-0.00" {
		s = "0.00"
	}
	return s
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
