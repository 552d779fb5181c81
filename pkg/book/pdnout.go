package book

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
	"github.com/rafle/rafle/pkg/search"
)

// PDN returns the book as one PDN game: from the root, the first book move of each
// position (the most played) continues the main line and every other book move starts
// a variation. Each move is followed by a comment with its statistics, such as
// "1234 games +400 =700 -134 60.1%" (games, then wins, draws and losses of the side
// that plays it, then its score) and "eval +0.12" when known. Lines stop at MaxPly
// plies and at positions without book moves. A position reached by several move orders
// is written out once, under its shortest line (the main line first among equals);
// the other lines end with a comment such as "transposes to 1. 11-15 23-19 2. 8-11", so
// the game's size follows the book's, not the number of move orders.
func (b *Book) PDN() *pdn.Game {
	v := b.Variant
	g := &pdn.Game{Result: "*"}
	g.Set("Event", "Opening book")
	if b.Source != "" {
		g.Set("Site", b.Source)
	}
	if v.GameType != 0 { // killer has none: PDN 3.0 has no number for it
		g.Set("GameType", strconv.Itoa(v.GameType))
	}
	if b.Root != v.Start() {
		g.Set("FEN", v.FEN(b.Root))
	}
	g.Set("Result", "*")
	depth := b.MaxPly
	if depth <= 0 {
		depth = DefaultMaxPly
	}
	// Owners: a breadth-first search gives each position the first edge that reaches it.
	type edge struct {
		from uint64
		move engine.Move
		ply  int
	}
	owner := map[uint64]edge{b.Root.Hash: {}}
	queue := []engine.Position{b.Root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		e := b.Lookup(&p)
		if e == nil || owner[p.Hash].ply >= depth {
			continue
		}
		moves, _ := b.bookMoves(e)
		for _, m := range moves {
			c := p.Play(m)
			if _, ok := owner[c.Hash]; !ok {
				owner[c.Hash] = edge{from: p.Hash, move: m, ply: owner[p.Hash].ply + 1}
				queue = append(queue, c)
			}
		}
	}
	// ownerLine writes the owner line of the position with hash h.
	ownerLine := func(h uint64) string {
		var edges []edge
		for h != b.Root.Hash {
			o := owner[h]
			edges = append(edges, o)
			h = o.from
		}
		var parts []string
		p := b.Root
		for i := len(edges) - 1; i >= 0; i-- {
			m := b.pdnMove(&p, edges[i].move, len(parts))
			switch {
			case !m.Continuation:
				parts = append(parts, strconv.Itoa(m.Number)+". "+m.Text)
			case len(parts) == 0:
				parts = append(parts, strconv.Itoa(m.Number)+"... "+m.Text)
			default:
				parts = append(parts, m.Text)
			}
			p = p.Play(edges[i].move)
		}
		return strings.Join(parts, " ")
	}
	var line func(p engine.Position, ply int) []pdn.Node
	line = func(p engine.Position, ply int) []pdn.Node {
		e := b.Lookup(&p)
		if e == nil || ply >= depth {
			return nil
		}
		moves, _ := b.bookMoves(e)
		// moves[0] and its comment, then each alternative as a variation, then the rest
		// of the main line.
		var out, mainRest []pdn.Node
		for i, m := range moves {
			nodes := []pdn.Node{{Kind: pdn.MoveNode, Move: b.pdnMove(&p, m, ply)}}
			c := p.Play(m)
			comment := b.comment(e, m)
			var rest []pdn.Node
			if o, ok := owner[c.Hash]; ok && o.from == p.Hash && o.move == m && o.ply == ply+1 {
				rest = line(c, ply+1)
			} else if ce := b.Lookup(&c); ce != nil && ply+1 < depth {
				if cm, _ := b.bookMoves(ce); len(cm) > 0 {
					comment = strings.TrimSpace(comment + "; transposes to " + ownerLine(c.Hash))
				}
			}
			if comment != "" {
				nodes = append(nodes, pdn.Node{Kind: pdn.CommentNode, Text: comment})
			}
			if i == 0 {
				out, mainRest = append(out, nodes...), rest
				continue
			}
			nodes = append(nodes, rest...)
			out = append(out, pdn.Node{Kind: pdn.VariationNode, Variation: nodes})
		}
		return append(out, mainRest...)
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
		games := "games"
		if s.Games == 1 {
			games = "game"
		}
		parts = append(parts, fmt.Sprintf("%d %s +%d =%d -%d", s.Games, games, s.Wins, s.Draws, s.Losses))
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
	case score > search.MateScore-search.MaxWin:
		return fmt.Sprintf("win in %d", search.MateScore-score)
	case score < -(search.MateScore - search.MaxWin):
		return fmt.Sprintf("loss in %d", search.MateScore+score)
	}
	sign := "+"
	if score < 0 {
		sign, score = "-", -score
	}
	return fmt.Sprintf("%s%d.%02d", sign, score/100, score%100)
}
