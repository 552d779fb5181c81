package archive

import (
	"errors"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// variantFrom is a variant and where it came from, the key of variantKeys.
type variantFrom struct {
	v      *engine.Variant
	from   pdn.VariantSource
	reason string
}

// replayer is the Replayer of one goroutine, with what Validate and
// CollectStats keep of its replays.
type replayer struct {
	*pdn.Replayer
	res  *pdn.Replayed          // the last replay
	keys map[variantFrom]string // Summary.Variants keys
}

func newReplayer(rp *pdn.Replayer) *replayer { return &replayer{Replayer: rp.Clone()} }

// variantKey returns "NAME (SOURCE)" for res (see Replayed.Source), the
// key of Summary.Variants.
func (rp *replayer) variantKey(res *pdn.Replayed) string {
	k := variantFrom{v: res.Variant, from: res.VariantFrom}
	if res.Inference != nil {
		k.reason = res.Inference.Reason
	}
	if s, ok := rp.keys[k]; ok {
		return s
	}
	s := res.Variant.Name + " (" + res.Source() + ")"
	if rp.keys == nil {
		rp.keys = map[variantFrom]string{}
	}
	rp.keys[k] = s
	return s
}

// problems replays g with rp and appends its replay errors and warnings to ps; bad
// reports an error. It counts the variant, and a complete replay, in sum.
func (rp *replayer) problems(ps []Problem, sum *Summary, file string, n int, g *pdn.Game) (_ []Problem, bad bool) {
	res, err := rp.Replay(g)
	rp.res = res
	for _, w := range res.Warnings {
		level := "warning"
		if rp.Strict && w.Kind == pdn.KindSeparator {
			level, bad = "error", true
		}
		ps = append(ps, Problem{File: file, Game: n, Line: w.Pos.Line, Column: w.Pos.Column, Level: level, Kind: w.Kind, Message: w.Text})
	}
	if res.Variant != nil {
		sum.Variants[rp.variantKey(res)]++
	}
	if res.Complete {
		sum.Replayed++
	}
	if err != nil {
		p := Problem{File: file, Game: n, Level: "error", Kind: pdn.ErrorKind(err), Message: err.Error()}
		var re *pdn.ReplayError
		if errors.As(err, &re) {
			re.File, re.Game = file, n
			p.Line, p.Column, p.Message, p.Variant = re.Pos.Line, re.Pos.Column, re.Detail(), re.Variant
			if !errors.Is(re.Err, pdn.ErrInvalidFEN) {
				p.MoveNumber, p.Move, p.FEN = re.Move, re.Text, re.FEN
			}
		}
		ps = append(ps, p)
		return ps, true
	}
	return ps, bad
}
