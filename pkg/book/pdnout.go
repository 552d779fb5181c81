package book

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// PDN returns the book as one PDN game: from the root, the first book move of each
// position (the most played) continues the main line and every other book move starts
// a variation. Each move is followed by a comment with its statistics, such as
// "1234 games +400 =700 -134 60.1%" (games, then wins, draws and losses of the side
// that plays it, then its score) and "eval +0.12" when known. Lines stop at MaxPly
// plies, at positions without book moves, and where a line would repeat a position.
// A position reached by several move orders is written under each of them.
func (b *Book) PDN() *pdn.Game {
	v := b.Variant
	g := &pdn.Game{Result: "*"}
	g.Set("Event", "Opening book")
	if b.Source != "" {
		g.Set("Site", b.Source)
	}
	g.Set("GameType", strconv.Itoa(v.GameType))
	if b.Root != v.Start() {
		g.Set("FEN", v.FEN(b.Root))
	}
	g.Set("Result", "*")
	depth := b.MaxPly
	if depth <= 0 {
		depth = DefaultMaxPly
	}
	onPath := map[uint64]bool{}
	var line func(p engine.Position, ply int) []pdn.Node
	line = func(p engine.Position, ply int) []pdn.Node {
		e := b.Lookup(&p)
		if e == nil || ply >= depth || onPath[p.Hash] {
			return nil
		}
		moves, _ := b.bookMoves(e)
		if len(moves) == 0 {
			return nil
		}
		onPath[p.Hash] = true
		defer delete(onPath, p.Hash)
		// moves[0] and its comment, then each alternative as a variation, then the rest
		// of the main line.
		var out []pdn.Node
		for i, m := range moves {
			nodes := []pdn.Node{{Kind: pdn.MoveNode, Move: b.pdnMove(&p, m, ply)}}
			if c := b.comment(e, m); c != "" {
				nodes = append(nodes, pdn.Node{Kind: pdn.CommentNode, Text: c})
			}
			if i == 0 {
				out = append(out, nodes...)
				continue
			}
			nodes = append(nodes, line(p.Play(m), ply+1)...)
			out = append(out, pdn.Node{Kind: pdn.VariationNode, Variation: nodes})
		}
		return append(out, line(p.Play(moves[0]), ply+1)...)
	}
	g.Moves = line(b.Root, 0)
	return g
}

// pdnMove returns m, played from p at ply plies from the root, as a PDN move with its
// number ("N." for the first mover, "N..." for the other).
func (b *Book) pdnMove(p *engine.Position, m engine.Move, ply int) *pdn.Move {
	v := b.Variant
	text := v.FormatMove(p, m, false)
	pm := &pdn.Move{Text: text, Sep: '-'}
	if m.IsCapture() {
		pm.Sep = 'x'
		if strings.Contains(text, ":") {
			pm.Sep = ':'
		}
	}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == 'x' || r == ':' }) {
		if n, err := strconv.Atoi(f); err == nil {
			pm.Squares = append(pm.Squares, pdn.NumSquare(n))
		} else if len(f) >= 2 {
			rank, _ := strconv.Atoi(f[1:])
			pm.Squares = append(pm.Squares, pdn.AlgSquare(f[0], rank))
		}
	}
	// Move numbers count from the root, whose side may be either.
	first := b.Root.Side == v.FirstMover
	k := ply
	if !first {
		k++
	}
	pm.Number = k/2 + 1
	pm.Continuation = p.Side != v.FirstMover
	return pm
}

// comment describes a book move's statistics.
func (b *Book) comment(e *Entry, m engine.Move) string {
	var s *MoveStat
	for i := range e.Moves {
		if e.Moves[i].Move == m {
			s = &e.Moves[i]
		}
	}
	var parts []string
	if s.Games > 0 {
		parts = append(parts, fmt.Sprintf("%d games +%d =%d -%d", s.Games, s.Wins, s.Draws, s.Losses))
		if sc, ok := s.Score(); ok {
			parts = append(parts, fmt.Sprintf("%.1f%%", 100*sc))
		}
	}
	if s.Eval != nil {
		parts = append(parts, "eval "+FormatEval(*s.Eval))
	}
	return strings.Join(parts, " ")
}

// FormatEval writes a score in hundredths of a man as men with a sign ("+0.12",
// "-1.00"), or a win or loss in n plies as "win in 7" or "loss in 4".
func FormatEval(score int) string {
	switch {
	case score > engine.MateScore-engine.MaxPly:
		return fmt.Sprintf("win in %d", engine.MateScore-score)
	case score < -(engine.MateScore - engine.MaxPly):
		return fmt.Sprintf("loss in %d", engine.MateScore+score)
	}
	sign := "+"
	if score < 0 {
		sign, score = "-", -score
	}
	return fmt.Sprintf("%s%d.%02d", sign, score/100, score%100)
}
