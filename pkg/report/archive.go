package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/pdn"
)

// Archive counts what an archive report shows of a PDN collection: games per year and
// event, results, game lengths, the most played openings, and the games that could not be
// read, by kind of error. Make one with NewArchive and Add every game.
type Archive struct {
	// Title names the collection, e.g. its files.
	Title  string
	Games  int
	Errors int // games read with an error
	// The counts by value.
	Years, Events, Results, Openings, ErrorKinds map[string]int
	Plies                                        map[int]int
	// EGDB, when not nil, is what an endgame database said of the games (pdn stats --egdb):
	// the report shows the counts and the games whose result contradicts it.
	EGDB *archive.EGDBReport
}

// openingPlies is the number of first moves that name an opening in an archive report.
const openingPlies = 2

// NewArchive returns an empty Archive.
func NewArchive(title string) *Archive {
	return &Archive{Title: title, Years: map[string]int{}, Events: map[string]int{}, Results: map[string]int{},
		Openings: map[string]int{}, ErrorKinds: map[string]int{}, Plies: map[int]int{}}
}

// Add counts g, read with the error gerr (nil if none): its year (from the Date tag), its
// event, its result, its length in plies, its opening (the first two moves of the main
// line) and the kind of gerr (pdn.ErrorKind).
func (a *Archive) Add(g *pdn.Game, gerr error) {
	a.Games++
	if gerr != nil {
		a.Errors++
		a.ErrorKinds[pdn.ErrorKind(gerr)]++
	}
	a.Years[year(g.Get("Date"))]++
	a.Events[cmp.Or(strings.TrimSpace(strings.Trim(g.Get("Event"), "?")), "none")]++
	a.Results[g.GameResult()]++
	a.Plies[g.Plies()]++
	var first []string
	for _, m := range g.Mainline() {
		if len(first) == openingPlies {
			break
		}
		if !m.IsPlaceholder() {
			first = append(first, m.Text)
		}
	}
	if len(first) > 0 {
		a.Openings[strings.Join(first, " ")]++
	}
}

// year returns the year of a PDN date ("1998.05.?" → "1998"), or "unknown".
func year(date string) string {
	y, _, _ := strings.Cut(strings.TrimSpace(date), ".")
	if n, err := strconv.Atoi(y); err == nil && n > 0 && len(y) == 4 {
		return y
	}
	return "unknown"
}

// top returns the n most frequent values of m (all with n <= 0), the most frequent first
// and then by value.
func top(m map[string]int, n int) []archive.Count {
	cs := make([]archive.Count, 0, len(m))
	for v, k := range m {
		cs = append(cs, archive.Count{Value: v, N: k})
	}
	slices.SortFunc(cs, func(a, b archive.Count) int { return cmp.Or(cmp.Compare(b.N, a.N), cmp.Compare(a.Value, b.Value)) })
	if n > 0 && len(cs) > n {
		cs = cs[:n]
	}
	return cs
}

// archiveTop is how many events and openings the report shows.
const archiveTop = 15

// WriteArchive writes the report of a to dir: dir/index.html and a PNG file of each plot
// beside it.
func WriteArchive(dir string, a *Archive) error {
	if a.Games == 0 {
		return fmt.Errorf("report: %s: %w", a.Title, ErrNoGames)
	}
	pg := &page{Title: "rafle pdn stats: " + a.Title}
	pg.Subtitles = []string{fmt.Sprintf("%d games, %d read with an error", a.Games, a.Errors)}
	steps := []func() (*figure, error){a.yearsFigure, a.lengthsFigure}
	for _, c := range []struct {
		id, title string
		m         map[string]int
		n         int
	}{
		{"results", "Results", a.Results, 0},
		{"events", "The most played events", a.Events, archiveTop},
		{"openings", "The most played openings (first two moves)", a.Openings, archiveTop},
		{"errors", "Games read with an error, by kind", a.ErrorKinds, 0},
	} {
		steps = append(steps, func() (*figure, error) { return a.countsFigure(c.id, c.title, c.m, c.n) })
	}
	figs, err := figures(steps...)
	if err != nil {
		return err
	}
	pg.Sections = append(pg.Sections, section{ID: "plots", Title: "Plots", Figures: figs})
	var tables []table
	for _, t := range []struct {
		caption string
		m       map[string]int
		n       int
	}{{"Results", a.Results, 0}, {"Events", a.Events, archiveTop}, {"Openings", a.Openings, archiveTop}, {"Errors by kind", a.ErrorKinds, 0}} {
		if len(t.m) == 0 {
			continue
		}
		tb := table{Caption: t.caption, Left: 1, Header: []string{"", "Games"}}
		for _, c := range top(t.m, t.n) {
			tb.Rows = append(tb.Rows, []string{c.Value, strconv.Itoa(c.N)})
		}
		tables = append(tables, tb)
	}
	pg.Sections = append(pg.Sections, section{ID: "tables", Title: "Counts", Tables: tables})
	if a.EGDB != nil {
		pg.Sections = append(pg.Sections, egdbSection(a.EGDB))
	}
	return pg.write(dir)
}

// archiveEGDBRows is how many contradicting games the report lists; the JSON of pdn stats
// has them all.
const archiveEGDBRows = 200

// egdbSection shows what the endgame database said of the games: how many reached a position
// it holds, and the games whose result contradicts its value there.
func egdbSection(e *archive.EGDBReport) section {
	sec := section{ID: "egdb", Title: "Endgame database (" + e.Variant + ")", Lines: []string{
		fmt.Sprintf("%d games reached a position the database holds; %d of them have a result that contradicts its value there.",
			e.Checked, e.Contradictions)}}
	if len(e.Games) == 0 {
		return sec
	}
	tb := table{Caption: "Games whose result contradicts the database", Left: 7,
		Header: []string{"File", "Game", "Ply", "Position", "Database", "Result", "It means"}}
	for _, g := range e.Games[:min(len(e.Games), archiveEGDBRows)] {
		tb.Rows = append(tb.Rows, []string{g.File, strconv.Itoa(g.Game), strconv.Itoa(g.Ply), g.FEN, g.Value, g.Result, g.Expected})
	}
	if n := len(e.Games) - archiveEGDBRows; n > 0 {
		sec.Lines = append(sec.Lines, fmt.Sprintf("The first %d are listed; %d more are in the JSON of pdn stats --egdb --format json.", archiveEGDBRows, n))
	}
	sec.Tables = []table{tb}
	return sec
}

func (a *Archive) countsFigure(id, title string, m map[string]int, n int) (*figure, error) {
	cs := top(m, n)
	if len(cs) == 0 {
		return nil, nil
	}
	var labels []string
	var vals []float64
	for _, c := range cs {
		labels, vals = append(labels, c.Value), append(vals, float64(c.N))
	}
	p, err := hbars(title, "games", labels, [][]float64{vals}, nil)
	if err != nil {
		return nil, err
	}
	p.X.Tick.Marker = integers
	note := ""
	if n > 0 && len(m) > n {
		note = fmt.Sprintf("the %d most frequent of %d", n, len(m))
	}
	return render(p, id, note, barsHeight(len(labels)))
}

func (a *Archive) yearsFigure() (*figure, error) {
	var xys plotter.XYs
	for _, y := range slices.Sorted(maps.Keys(a.Years)) {
		if n, err := strconv.Atoi(y); err == nil {
			xys = append(xys, plotter.XY{X: float64(n), Y: float64(a.Years[y])})
		}
	}
	if len(xys) == 0 {
		return nil, nil
	}
	p := newPlot("Games per year", "year", "games")
	p.X.Tick.Marker, p.Y.Tick.Marker = integers, integers
	if err := addLine(p, xys, 0, "", false); err != nil {
		return nil, err
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	p.Add(s)
	note := ""
	if k := a.Years["unknown"]; k > 0 {
		note = fmt.Sprintf("%d games without a year in their Date tag", k)
	}
	return render(p, "years", note, 0)
}

func (a *Archive) lengthsFigure() (*figure, error) {
	return lengthsFigure(a.Plies, "plies of the main line")
}
