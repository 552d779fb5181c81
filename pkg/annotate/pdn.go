package annotate

import (
	"fmt"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// Annotate writes an into g, the game rp replayed and an analysed: after each main-line
// move analysed, the NAG of its judgment ($6, $2, $4) and a comment with the score and
// depth of the position it led to, "[%eval score/depth]" (score in men from White's side,
// or #N for a win in N plies, see FormatScore), followed for an error by its judgment and
// the database's note; after an error, the analyser's best line from the position before
// it as a variation, its first move followed by "[%eval score/depth]" of that position.
// The game's own nodes (comments, NAGs, variations) stay where they are, ours coming first
// after the move, the best line last. A position that is over gets no eval.
func Annotate(g *pdn.Game, rp *pdn.Replayed, an *Analysis) error {
	at := make(map[*pdn.Move]int, len(an.Plies))
	for i := range an.Plies {
		at[rp.Plies[i].Node] = i
	}
	out := make([]pdn.Node, 0, len(g.Moves)+3*len(an.Plies))
	var variation []pdn.Node // the best line to put before the next main-line move
	for _, n := range g.Moves {
		if n.Kind == pdn.MoveNode && variation != nil {
			out = append(out, pdn.Node{Kind: pdn.VariationNode, Variation: variation})
			variation = nil
		}
		out = append(out, n)
		if n.Kind != pdn.MoveNode {
			continue
		}
		i, ok := at[n.Move]
		if !ok {
			continue
		}
		ply, after := &an.Plies[i], &an.Positions[i+1]
		if ply.Judgment != Good {
			out = append(out, pdn.Node{Kind: pdn.NAGNode, NAG: ply.Judgment.NAG()})
		}
		var text []string
		if after.Searched && after.Eval.HasScore {
			text = append(text, evalText(after))
		}
		if ply.Judgment != Good {
			text = append(text, ply.Judgment.String())
		}
		if ply.Note != "" {
			text = append(text, ply.Note)
		}
		if len(text) > 0 {
			out = append(out, pdn.Node{Kind: pdn.CommentNode, Text: strings.Join(text, " ")})
		}
		if ply.Judgment != Good {
			var err error
			if variation, err = bestLine(an, rp, i); err != nil {
				return err
			}
		}
	}
	if variation != nil {
		out = append(out, pdn.Node{Kind: pdn.VariationNode, Variation: variation})
	}
	g.Moves = out
	return nil
}

// evalText is the "[%eval score/depth]" of a position searched with a score.
func evalText(p *Position) string {
	return fmt.Sprintf("[%%eval %s/%d]", FormatScore(whiteScore(p)), p.Eval.Depth)
}

// whiteScore is the search's score of p from White's side.
func whiteScore(p *Position) int {
	if p.side == engine.Black {
		return -p.Eval.Score
	}
	return p.Eval.Score
}

// bestLine returns the analyser's line from the position before ply i as variation
// nodes, or nil when it is empty or starts with the move played.
func bestLine(an *Analysis, rp *pdn.Replayed, i int) ([]pdn.Node, error) {
	before := &an.Positions[i]
	pv := before.Eval.PV
	if !before.Searched || len(pv) == 0 || pv[0] == an.Plies[i].Move {
		return nil, nil
	}
	v := an.Variant
	p := rp.Plies[i].Before
	number := rp.Plies[i].Number
	var nodes []pdn.Node
	for k, m := range pv {
		pm, err := pdnMove(v.FormatMove(&p, m, false))
		if err != nil {
			return nil, err
		}
		switch {
		case k == 0:
			pm.Number, pm.Continuation = number, p.Side != v.FirstMover
		case p.Side == v.FirstMover:
			number++
			pm.Number = number
		}
		if number <= 0 {
			pm.Number = 0
		}
		nodes = append(nodes, pdn.Node{Kind: pdn.MoveNode, Move: pm})
		if k == 0 && before.Eval.HasScore {
			nodes = append(nodes, pdn.Node{Kind: pdn.CommentNode, Text: evalText(before)})
		}
		p = p.Play(m)
	}
	return nodes, nil
}

// pdnMove makes a PDN move of a move as the variant writes it: squares joined by '-',
// 'x' or ':'.
func pdnMove(text string) (*pdn.Move, error) {
	m := &pdn.Move{Text: text, Sep: '-'}
	start := 0
	for k := 0; k <= len(text); k++ {
		if k < len(text) && !strings.ContainsRune("-x:", rune(text[k])) {
			continue
		}
		sq, err := pdn.ParseSquare(text[start:k])
		if err != nil {
			return nil, fmt.Errorf("annotate: move %q: %w", text, err)
		}
		m.Squares = append(m.Squares, sq)
		if k < len(text) {
			m.Sep = pdn.Sep(text[k])
		}
		start = k + 1
	}
	return m, nil
}
