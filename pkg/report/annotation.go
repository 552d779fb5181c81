package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// Annotation is what the report of pdn annotate shows: a table of the players' errors and
// the worst moves of an archive, each one click from its position in the game viewer.
type Annotation struct {
	// Title names the archive, e.g. its files; Settings say how it was analysed.
	Title    string
	Settings [][2]string
	// Players is a table: its header, then one row per player (the first column left).
	Players [][]string
	// Variant is the board of the viewer: the moments of other variants are left out.
	Variant *engine.Variant
	// Moments are the worst moves, worst first.
	Moments []AnnotatedMoment
	// Notes say what the report leaves out.
	Notes []string
}

// AnnotatedMoment is one move of the report: where it was played, what it cost, and the
// game it was played in, replayed (Start and Moves, its main line) and as annotated PDN.
type AnnotatedMoment struct {
	File         string
	Game         int
	White, Black string
	// Ply is the move's index in Moves; Label says what it was ("12... 23-19 blunder"),
	// Best what the analyser preferred, Loss what it cost.
	Ply   int
	Label string
	Best  string
	Loss  float64
	Start engine.Position
	Moves []engine.Move
	PDN   string
}

// WriteAnnotation writes the report of a to dir: dir/index.html, a page that needs no
// network.
func WriteAnnotation(dir string, a *Annotation) error {
	pg := &page{Title: "rafle pdn annotate: " + a.Title, Notes: a.Notes}
	var settings table
	settings.Header = []string{"setting", "value"}
	settings.Left = 2
	for _, s := range a.Settings {
		settings.Rows = append(settings.Rows, []string{s[0], s[1]})
	}
	players := table{Caption: "Errors per player", Left: 1}
	if len(a.Players) > 0 {
		players.Header, players.Rows = a.Players[0], a.Players[1:]
	}
	pg.Sections = append(pg.Sections,
		section{ID: "players", Title: "Players", Lines: []string{"The moves judged, the errors of each class, and the mean loss of expected score per move."},
			Tables: []table{players}},
		section{ID: "settings", Title: "Settings", Tables: []table{settings}})
	if a.Variant == nil || len(a.Moments) == 0 {
		return pg.write(dir)
	}
	board, err := newBoardView(a.Variant)
	if err != nil {
		return err
	}
	var list gameList
	var games []gameData
	for i, m := range a.Moments {
		g := engine.NewGame(a.Variant, m.Start)
		var texts []string
		for _, mv := range m.Moves {
			p := g.Position()
			texts = append(texts, a.Variant.FormatMove(&p, mv, false))
			if err := g.Play(mv); err != nil {
				return fmt.Errorf("report: %s game %d: %w", m.File, m.Game, err)
			}
		}
		view := viewPositions(a.Variant, g.Positions())
		list.Games = append(list.Games, [7]int{i + 1, list.str(m.White), list.str(m.Black), list.str(m.Label),
			list.str("loss " + strconv.FormatFloat(m.Loss, 'f', 3, 64) + ", best " + m.Best), len(m.Moves), list.str(fmt.Sprintf("%s, game %d", m.File, m.Game))})
		list.At = append(list.At, m.Ply)
		games = append(games, gameData{view.start, strings.Join(texts, " "), view.plies, m.PDN})
	}
	var chunks []string
	for k := 0; k < len(games); k += gamesPerChunk {
		c, err := compress(games[k:min(len(games), k+gamesPerChunk)])
		if err != nil {
			return err
		}
		chunks = append(chunks, c)
	}
	pg.Viewer = &viewer{Data: viewerData{Board: board, List: list, PerChunk: gamesPerChunk}, Chunks: chunks,
		Title: "Worst moves", Intro: "The worst moves of the archive, worst first: pick one to see its game at the position before it, then step through the game with the buttons or the keys ← → Home End.",
		Columns: []string{"Rank", "White", "Black", "Move", "Cost", "Plies", "Game"}}
	return pg.write(dir)
}
