package annotate

import (
	"slices"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// Moment is one move judged: where it was played, what the analyser preferred, and what it
// cost.
type Moment struct {
	File  string `json:"file"`
	Game  int    `json:"game"` // number in the file, from 1
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	// Ply is the move's index in the main line, from 0; MoveNumber its number in the PDN.
	Ply        int      `json:"ply"`
	MoveNumber int      `json:"move_number"`
	Side       string   `json:"side"` // white or black
	Move       string   `json:"move"`
	Best       string   `json:"best,omitempty"`
	FEN        string   `json:"fen"` // the position before the move
	Variant    string   `json:"variant"`
	Loss       float64  `json:"loss"`
	Judgment   Judgment `json:"judgment,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// Side counts one side's moves of one game or one player's of many: the moves whose loss
// is known, the errors of each class, and the loss.
type Side struct {
	Moves        int     `json:"moves"`
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
	Notes        int     `json:"notes"` // moves a database judged (NoteWinThrownAway, NoteLossForced)
	Loss         float64 `json:"loss"`  // the sum of the losses
	// Worst is the move of the largest loss (the first of equal ones), nil when no move lost
	// anything.
	Worst *Moment `json:"worst,omitempty"`
}

// AverageLoss is Loss per move (0 without moves).
func (s *Side) AverageLoss() float64 {
	if s.Moves == 0 {
		return 0
	}
	return s.Loss / float64(s.Moves)
}

// Add counts o's moves in s; o's worst move replaces s's only when it lost more.
func (s *Side) Add(o *Side) {
	s.Moves += o.Moves
	s.Inaccuracies += o.Inaccuracies
	s.Mistakes += o.Mistakes
	s.Blunders += o.Blunders
	s.Notes += o.Notes
	s.Loss += o.Loss
	if o.Worst != nil && (s.Worst == nil || o.Worst.Loss > s.Worst.Loss) {
		s.Worst = o.Worst
	}
}

// Game is the summary of one game's analysis.
type Game struct {
	File    string `json:"file"`
	Game    int    `json:"game"`
	Variant string `json:"variant"`
	White   string `json:"white_player"`
	Black   string `json:"black_player"`
	Result  string `json:"result"`
	// Plies is the number of moves analysed, Searches of positions searched.
	Plies    int   `json:"plies"`
	Searches int   `json:"searches"`
	Nodes    int64 `json:"nodes"`
	// WhiteSide and BlackSide count each side's moves.
	WhiteSide Side `json:"white"`
	BlackSide Side `json:"black"`
	// Moments are the moves judged an error or given a note, in game order.
	Moments []Moment `json:"moments,omitempty"`
}

// Summarize returns the summary of an, the analysis of g (game n of file), replayed as rp.
func Summarize(file string, n int, g *pdn.Game, rp *pdn.Replayed, an *Analysis) *Game {
	v := an.Variant
	s := &Game{File: file, Game: n, Variant: v.Name, White: g.Get("White"), Black: g.Get("Black"),
		Result: g.GameResult(), Plies: len(an.Plies), Searches: an.Searches, Nodes: an.Nodes}
	for i := range an.Plies {
		ply := &an.Plies[i]
		side := &s.WhiteSide
		if ply.Side == engine.Black {
			side = &s.BlackSide
		}
		if !ply.Known && ply.Note == "" {
			continue
		}
		if ply.Known {
			side.Moves++
			side.Loss += ply.Loss
		}
		switch ply.Judgment {
		case Inaccuracy:
			side.Inaccuracies++
		case Mistake:
			side.Mistakes++
		case Blunder:
			side.Blunders++
		}
		if ply.Note != "" {
			side.Notes++
		}
		if ply.Judgment == Good && ply.Note == "" && (ply.Loss == 0 || side.Worst != nil && ply.Loss <= side.Worst.Loss) {
			continue
		}
		m := moment(s, rp, an, i)
		if ply.Judgment != Good || ply.Note != "" {
			s.Moments = append(s.Moments, m)
		}
		if ply.Loss > 0 && (side.Worst == nil || ply.Loss > side.Worst.Loss) {
			side.Worst = &m
		}
	}
	return s
}

// moment describes ply i of the game s summarises.
func moment(s *Game, rp *pdn.Replayed, an *Analysis, i int) Moment {
	v, ply, before := an.Variant, &an.Plies[i], &an.Positions[i]
	p := rp.Plies[i].Before
	m := Moment{File: s.File, Game: s.Game, White: s.White, Black: s.Black, Ply: i, MoveNumber: rp.Plies[i].Number,
		Side: sideName(ply.Side), Move: v.FormatMove(&p, ply.Move, false), FEN: v.FEN(p), Variant: v.Name,
		Loss: ply.Loss, Judgment: ply.Judgment, Note: ply.Note}
	if before.Searched && before.Eval.Move != ply.Move {
		m.Best = v.FormatMove(&p, before.Eval.Move, false)
	}
	return m
}

func sideName(c engine.Color) string {
	if c == engine.Black {
		return "black"
	}
	return "white"
}

// Player is the summary of one player's moves over the games analysed.
type Player struct {
	Name  string `json:"name"`
	Games int    `json:"games"`
	Side
}

// Totals adds up game summaries per player and over all the games.
type Totals struct {
	Games    int   `json:"games"`
	Plies    int   `json:"plies"`
	Searches int   `json:"searches"`
	Nodes    int64 `json:"nodes"`
	All      Side  `json:"all"`
	players  map[string]*Player
	// worst keeps the largest losses of the whole archive.
	worst []Moment
	keep  int
}

// NewTotals returns empty totals that keep the keep worst moves of the archive.
func NewTotals(keep int) *Totals {
	return &Totals{players: map[string]*Player{}, keep: keep}
}

// Add counts game g. Games must be added in the same order for the same totals.
func (t *Totals) Add(g *Game) {
	t.Games++
	t.Plies += g.Plies
	t.Searches += g.Searches
	t.Nodes += g.Nodes
	for _, ps := range []struct {
		name string
		side *Side
	}{{g.White, &g.WhiteSide}, {g.Black, &g.BlackSide}} {
		t.All.Add(ps.side)
		name := ps.name
		if name == "" {
			name = "?"
		}
		p, ok := t.players[name]
		if !ok {
			p = &Player{Name: name}
			t.players[name] = p
		}
		p.Games++
		p.Add(ps.side)
	}
	for _, m := range g.Moments {
		if m.Loss > 0 {
			t.worst = append(t.worst, m)
		}
	}
	for _, s := range []*Side{&g.WhiteSide, &g.BlackSide} {
		if w := s.Worst; w != nil && w.Judgment == Good && w.Note == "" {
			t.worst = append(t.worst, *w)
		}
	}
	if len(t.worst) > 2*t.keep+16 {
		t.trim()
	}
}

// trim keeps the keep largest losses, the earliest first among equal ones.
func (t *Totals) trim() {
	slices.SortStableFunc(t.worst, func(a, b Moment) int {
		switch {
		case a.Loss > b.Loss:
			return -1
		case a.Loss < b.Loss:
			return 1
		}
		return 0
	})
	if len(t.worst) > t.keep {
		t.worst = t.worst[:t.keep]
	}
}

// Worst returns the largest losses of the archive, largest first (at most the number
// NewTotals was given).
func (t *Totals) Worst() []Moment {
	t.trim()
	return t.worst
}

// Players returns the players' summaries, by name.
func (t *Totals) Players() []*Player {
	ps := make([]*Player, 0, len(t.players))
	for _, p := range t.players {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b *Player) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return ps
}
