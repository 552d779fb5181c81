package report

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rafle/rafle/pkg/match"
)

var (
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/report.css
	reportCSS string
	//go:embed assets/viewer.js
	viewerJS string

	pageTemplate = template.Must(template.New("page").Parse(pageHTML))
)

// page is what the template draws: a title, notes, sections of text, tables and plots,
// and for a match the game viewer.
type page struct {
	Title     string
	Subtitles []string
	Notes     []string
	Sections  []section
	Viewer    *viewer
	Footer    string
	CSS       template.CSS
	JS        template.JS
}

type section struct {
	ID, Title string
	Lines     []string
	Tables    []table
	Figures   []*figure
}

// table is a table of text; its first Left columns are aligned left, the others right.
type table struct {
	Caption, Class string
	Header         []string
	Left           int
	Rows           [][]string
}

type viewer struct {
	Data   viewerData
	Chunks []string
	// Title, Intro and Columns head the list of games (empty: a match's).
	Title, Intro string
	Columns      []string
}

type viewerData struct {
	Board    boardView `json:"board"`
	List     gameList  `json:"list"`
	PerChunk int       `json:"perChunk"`
}

const footer = "Written by rafle. The page needs no network; the PNG files beside it hold the same plots."

// write writes pg as dir/index.html, and the PNG of each figure beside it. The page is
// written to a temporary file first and renamed, so that a reader never sees half of it.
func (pg *page) write(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	pg.CSS = template.CSS(reportCSS)
	if pg.Viewer != nil {
		pg.JS = template.JS(viewerJS)
	}
	pg.Footer = footer
	index := filepath.Join(dir, "index.html")
	earlier, err := rafleWrote(index)
	if err != nil {
		return err
	}
	for _, s := range pg.Sections {
		for _, f := range s.Figures {
			png := filepath.Join(dir, f.PNG())
			if _, err := os.Lstat(png); err == nil && !earlier {
				return fmt.Errorf("report: %s exists and %s holds no report of rafle's: refusing to replace it (choose another folder)", png, dir)
			}
		}
	}
	for _, s := range pg.Sections {
		for _, f := range s.Figures {
			if err := os.WriteFile(filepath.Join(dir, f.PNG()), f.png, 0o666); err != nil {
				return fmt.Errorf("report: %w", err)
			}
		}
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, pg); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	// One temporary name, not a random one: a run killed while it writes leaves a file that
	// the next run writes over and renames, instead of one that nothing removes.
	tmpName := filepath.Join(dir, tempIndex)
	tmp, err := os.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err = tmp.Write(b.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmpName, 0o644)
	}
	if err == nil {
		err = os.Rename(tmpName, index)
	}
	if err != nil {
		os.Remove(tmpName)
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// tempIndex is the name index.html is written under before it is renamed.
const tempIndex = ".index.html.tmp"

// generator is the page's generator tag, which says that rafle wrote an index.html.
const generator = `<meta name="generator" content="rafle report">`

// rafleWrote returns an error when index exists and rafle did not write it: a report goes to
// a folder of its own, or over an earlier report, never over someone's page. It reports
// whether index is an earlier report's page.
func rafleWrote(index string) (bool, error) {
	f, err := os.Open(index)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false, fmt.Errorf("report: %w", err)
	}
	if !bytes.Contains(head[:n], []byte(generator)) {
		return false, fmt.Errorf("report: %s exists and is not a report of rafle's: refusing to replace it (choose another folder)", index)
	}
	return true, nil
}

// WriteMatch writes the report of m to dir: dir/index.html, a page that needs no network
// (its style, script and plots are inline), and a PNG file of each plot beside it. event
// is the PDN Event tag of the games the page shows. When ctx is done WriteMatch stops,
// leaving any index.html there was, and returns ctx's error.
func WriteMatch(ctx context.Context, dir string, m *Match, event string) error {
	pg, err := m.page(ctx, event)
	if err != nil {
		return err
	}
	return pg.write(dir)
}

func (m *Match) page(ctx context.Context, event string) (*page, error) {
	res := m.Result
	pg := &page{Title: fmt.Sprintf("rafle selfplay: %s, %s", res.Variant, strings.Join(res.Players, " vs ")), Notes: m.Notes}
	pg.Subtitles = append(pg.Subtitles, "From "+strings.Join(m.Sources, ", "))
	results := section{ID: "results", Title: "Results", Lines: []string{summaryLine(res)}}
	results.Tables = append(results.Tables, pairingsTable(res))
	if len(res.Ratings) > 0 {
		results.Tables = append(results.Tables, ratingsTable(res))
	} else if res.RatingsError != "" {
		results.Lines = append(results.Lines, "No ratings: "+res.RatingsError)
	}
	results.Tables = append(results.Tables, crossTables(res)...)
	results.Tables = append(results.Tables, tournamentTables(res)...)
	results.Tables = append(results.Tables, terminationsTable(res))
	if s := res.SPRT; s != nil {
		results.Lines = append(results.Lines, res.SPRTLine())
	}
	pg.Sections = append(pg.Sections, results, section{ID: "settings", Title: "Settings", Tables: []table{m.settingsTable()}})
	figs, err := figures(m.eloFigure, m.llrFigure, m.pentaFigure, m.openingsFigure,
		m.terminationsFigure, m.lengthsFigure, m.timeFigure, m.depthFigure)
	if err != nil {
		return nil, err
	}
	pg.Sections = append(pg.Sections, section{ID: "plots", Title: "Plots", Figures: figs})
	worst, best := worstBest(m.openingScores())
	pg.Sections = append(pg.Sections, section{ID: "openings", Title: "Openings",
		Lines:  []string{"The first player's score with each opening, the worst and the best (both games of a pair start from the same opening)."},
		Tables: []table{openingsTable("Worst", worst), openingsTable("Best", best)}})
	board, err := newBoardView(m.Variant)
	if err != nil {
		return nil, err
	}
	list, chunks, err := m.viewerData(ctx, event)
	if err != nil {
		return nil, err
	}
	pg.Viewer = &viewer{Data: viewerData{Board: board, List: list, PerChunk: gamesPerChunk}, Chunks: chunks}
	return pg, nil
}

// summaryLine is the first line selfplay prints.
func summaryLine(res *match.Result) string {
	s := fmt.Sprintf("%s, seed %d: %d of %d games", res.Variant, res.Seed, res.Games, res.GamesPlanned)
	if res.Resumed > 0 {
		s += fmt.Sprintf(" (%d from the journal)", res.Resumed)
	}
	if res.Interrupted {
		s += "; the match was stopped before its end"
	}
	return s
}

// The tables below have the columns and the number formats of selfplay's own tables.

func pairingsTable(res *match.Result) table {
	t := res.PairingsTable()
	return table{Class: "results", Left: 2, Header: t.Header, Rows: t.Rows}
}

func ratingsTable(res *match.Result) table {
	t := res.RatingsTable()
	return table{Caption: "Maximum-likelihood ratings", Left: 1, Header: t.Header, Rows: t.Rows}
}

// crossTables are the crosstable and the likelihood of superiority between every two
// players, for three or more players.
func crossTables(res *match.Result) []table {
	var ts []table
	if len(res.Crosstable) > 0 {
		t := res.CrosstableTable()
		ts = append(ts, table{Caption: "Crosstable (points/games of the row's player)", Left: 1, Header: t.Header, Rows: t.Rows})
	}
	if len(res.LOS) > 0 {
		t := res.LOSTable()
		ts = append(ts, table{Caption: "Likelihood of superiority (row over column, from the ratings)", Left: 1, Header: t.Header, Rows: t.Rows})
	}
	return ts
}

// tournamentTables are a Swiss or knockout tournament's standings and rounds.
func tournamentTables(res *match.Result) []table {
	if len(res.Standings) == 0 {
		return nil
	}
	st, rr := res.StandingsTable(), res.RoundsTable()
	return []table{{Caption: match.StandingsCaption(res.Tournament), Left: 2, Header: st.Header, Rows: st.Rows},
		{Caption: "Rounds (points of each pairing's players)", Left: 3, Header: rr.Header, Rows: rr.Rows}}
}

func terminationsTable(res *match.Result) table {
	t := res.TerminationsTable()
	return table{Caption: "Terminations", Left: 1, Header: t.Header, Rows: t.Rows}
}

func (m *Match) settingsTable() table {
	h := m.Header
	unknown := func(s string) string {
		if m.FromPDN {
			return "not in PDN"
		}
		return s
	}
	orNone := func(s string) string { return unknown(cmp.Or(s, "none")) }
	maxPlies := strconv.Itoa(h.MaxPlies)
	if h.MaxPlies == 0 {
		maxPlies = "no limit"
	}
	rows := [][]string{
		{"variant", h.Variant},
		{"players", strings.Join(h.Players, ", ")},
		{"seed", unknown(strconv.FormatInt(h.Seed, 10))},
		{"games per pairing", strconv.Itoa(h.Games)},
		{"max plies", unknown(maxPlies)},
		{"openings digest", orNone(h.Openings)},
		{"SPRT", orNone(h.SPRT)},
		{"adjudication", orNone(h.Adjudication)},
		{"games in the files", strconv.Itoa(len(m.Records))},
	}
	return table{Class: "settings", Left: 2, Rows: rows}
}

func openingsTable(caption string, os []openingScore) table {
	t := table{Caption: caption, Left: 1, Header: []string{"Opening", "Games", "W", "D", "L", "Score"}}
	for _, o := range os {
		t.Rows = append(t.Rows, []string{o.Name, strconv.Itoa(o.Games()), strconv.Itoa(o.Wins), strconv.Itoa(o.Draws), strconv.Itoa(o.Losses), fmt.Sprintf("%.3f", o.Score())})
	}
	return t
}
