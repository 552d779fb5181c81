package annotate

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/egdb"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/pdn"
)

// TestThresholds: lidraughts' drops are the expected-score losses of the logistic with a
// logit of one per man.
func TestThresholds(t *testing.T) {
	for _, c := range []struct {
		hundredths int
		want       float64
	}{{50, 0.1224593}, {100, 0.2310586}, {300, 0.4525741}} {
		if got := Drop(c.hundredths); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("Drop(%d) = %.7f, want %.7f", c.hundredths, got, c.want)
		}
	}
	th := DefaultThresholds
	for _, c := range []struct {
		loss float64
		want Judgment
	}{{0.12, Good}, {0.123, Inaccuracy}, {0.23, Inaccuracy}, {0.232, Mistake}, {0.452, Mistake}, {0.453, Blunder}, {1, Blunder}} {
		if got := th.Judge(c.loss); got != c.want {
			t.Errorf("Judge(%v) = %q, want %q", c.loss, got, c.want)
		}
	}
	// a man lost in a lost position costs little, in a balanced one much
	if lost, even := Expected(-300)-Expected(-400), Expected(0)-Expected(-60); th.Judge(lost) != Good || th.Judge(even) != Inaccuracy {
		t.Errorf("a man at -3: loss %.3f (%q); at 0: %.3f (%q); want good and inaccuracy", lost, th.Judge(lost), even, th.Judge(even))
	}
	for _, c := range []struct {
		score int
		want  string
	}{{35, "0.35"}, {-120, "-1.20"}, {0, "0.00"}, {29990, "#10"}, {-29995, "#-5"}} {
		if got := FormatScore(c.score); got != c.want {
			t.Errorf("FormatScore(%d) = %q, want %q", c.score, got, c.want)
		}
	}
}

// scripted answers each position from a table keyed by FEN (score for the side to move,
// best move text), and counts its searches.
type scripted struct {
	v        *engine.Variant
	answers  map[string]scriptedEval
	searches int
}

type scriptedEval struct {
	score int
	best  []string
}

func (s *scripted) StartGame(context.Context, *engine.Variant) error { return nil }
func (s *scripted) Close() error                                     { return nil }
func (s *scripted) Analyse(_ context.Context, g *engine.Game) (Eval, error) {
	s.searches++
	p := g.Position()
	a, ok := s.answers[s.v.FEN(p)]
	if !ok {
		return Eval{Move: g.Legal()[0], Score: 0, HasScore: true, Depth: 1, PV: []engine.Move{g.Legal()[0]}}, nil
	}
	var pv []engine.Move
	q := p
	for _, text := range a.best {
		m, err := s.v.ParseMove(&q, text)
		if err != nil {
			panic(err)
		}
		pv = append(pv, m)
		q = q.Play(m)
	}
	return Eval{Move: pv[0], Score: a.score, HasScore: true, Depth: 7, PV: pv}, nil
}

// TestAnnotateGame: the move that drops from +0.50 to -2.50 is a blunder with the NAG $4,
// the eval of the position it led to, and the best line as a variation; the game's own
// comment and variation are kept. A position with a single legal move (28x19) takes the
// score of the position after it, not the analyser's static one.
func TestAnnotateGame(t *testing.T) {
	v := engine.MustLookup("international")
	text := `[GameType "20"]

1. 32-28 {mine} (1. 33-28) 19-23 2. 28x19 14x23 *`
	g, err := pdn.NewReader(strings.NewReader(text)).Next()
	if err != nil {
		t.Fatal(err)
	}
	rp, err := pdn.Replay(g, v)
	if err != nil {
		t.Fatal(err)
	}
	fen := func(i int) string { return v.FEN(rp.Plies[i].Before) }
	after := v.FEN(rp.Final)
	a := &scripted{v: v, answers: map[string]scriptedEval{
		fen(0): {50, []string{"33-28", "18-22"}}, // white: +0.50 with 33-28
		fen(1): {250, []string{"19-23"}},         // black after 32-28: +2.50 for black
		fen(2): {900, []string{"28x19"}},         // forced: the static score is replaced by the next position's
		fen(3): {250, []string{"14x23"}},
		after:  {-250, []string{"34-29"}},
	}}
	an, err := AnalyseGame(context.Background(), a, rp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.searches != 5 || an.Searches != 5 {
		t.Errorf("%d searches (counted %d), want 5", a.searches, an.Searches)
	}
	if j := an.Plies[0].Judgment; j != Blunder {
		t.Errorf("32-28 from +0.50 to -2.50: %q, want blunder (loss %.3f)", j, an.Plies[0].Loss)
	}
	for i := 1; i < 4; i++ {
		if p := an.Plies[i]; p.Judgment != Good || p.Loss != 0 {
			t.Errorf("ply %d (the best move): %q, loss %v; want none", i, p.Judgment, p.Loss)
		}
	}
	if err := Annotate(g, rp, an); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := pdn.NewWriter(&b)
	if err := w.Write(g); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	want := `[GameType "20"]

1. 32-28 $4 {[%eval -2.50/7] blunder} {mine} (1. 33-28) (1. 33-28
{[%eval 0.50/7]} 18-22) 19-23 {[%eval -2.50/7]} 2. 28x19 {[%eval -2.50/7]} 14x23
{[%eval -2.50/7]} *
`
	if b.String() != want {
		t.Errorf("annotated:\n%s\nwant:\n%s", b.String(), want)
	}
	s := Summarize("f.pdn", 1, g, rp, an)
	if s.WhiteSide.Blunders != 1 || s.WhiteSide.Moves != 2 || s.BlackSide.Moves != 2 || s.WhiteSide.Worst == nil ||
		s.WhiteSide.Worst.Move != "32-28" || s.WhiteSide.Worst.Best != "33-28" || len(s.Moments) != 1 {
		t.Errorf("summary %+v: want white's blunder 32-28 (best 33-28) the one moment", s)
	}
}

// TestEGDBNotes: with a database, a move from a won position to a drawn one is "winning
// position thrown away", and a blunder, whatever the search says.
func TestEGDBNotes(t *testing.T) {
	v := engine.MustLookup("english")
	dir := filepath.Join(t.TempDir(), "english")
	if _, err := egdb.Build(context.Background(), v, egdb.BuildOptions{Dir: dir, Pieces: 3}); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir, v, egdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// find a won position of two kings against one with a move that draws (a king lost)
	var start engine.Position
	var throw engine.Move
	found := false
	for _, s := range db.Slices() {
		for i := uint64(0); i < db.Size(s) && !found; i++ {
			p, err := db.Position(s, i, engine.White)
			if err != nil {
				continue
			}
			if r, _ := db.Probe(&p); r.Value != egdb.Win {
				continue
			}
			ms, err := db.Moves(&p)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				if m.Result.Value == egdb.Draw {
					start, throw, found = p, m.Move, true
					break
				}
			}
		}
	}
	if !found {
		t.Fatal("no won position with a drawing move in the 3-piece database")
	}
	moveText := v.FormatMove(&start, throw, true)
	text := "[GameType \"21\"]\n[FEN \"" + v.FEN(start) + "\"]\n\n" + moveText + " *\n"
	g, err := pdn.NewReader(strings.NewReader(text)).Next()
	if err != nil {
		t.Fatal(err)
	}
	rp, err := pdn.Replay(g, v)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	a := &scripted{v: v, answers: map[string]scriptedEval{}} // the search sees nothing
	an, err := AnalyseGame(context.Background(), a, rp, Options{EGDB: db})
	if err != nil {
		t.Fatal(err)
	}
	if p := an.Plies[0]; p.Note != NoteWinThrownAway || p.Judgment != Blunder || p.Loss != 0.5 {
		t.Errorf("%s from %s: note %q, %q, loss %v; want %q, blunder, 0.5", moveText, v.FEN(start), p.Note, p.Judgment, p.Loss, NoteWinThrownAway)
	}
}
