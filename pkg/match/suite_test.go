package match

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/search"
)

// readTestSuite reads testdata/suite/english.epd.
func readTestSuite(t *testing.T) []SuitePosition {
	t.Helper()
	name := filepath.Join("testdata", "suite", "english.epd")
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := ReadSuite(f, name, engine.MustLookup("english"))
	if err != nil {
		t.Fatalf("ReadSuite(%s): %v", name, err)
	}
	return ps
}

// TestReadSuite: EPD lines and egdb suite's JSON lines, comments skipped, each position
// with its line, id and moves; wm (winning) decides over bm, am excludes.
func TestReadSuite(t *testing.T) {
	ps := readTestSuite(t)
	type row struct {
		line           int
		id, fen        string
		best, winning  []string
		avoid          []string
		solves, misses string
	}
	want := []row{
		{4, "crown-on-3", "W:W7,22:B4,24", []string{"7-3"}, nil, nil, "7-3", "7-2"},
		{5, "king-to-16", "B:W24,25:BK12,18", []string{"12-16"}, nil, []string{"12-8"}, "12-16", "12-8"},
		{6, "egdb-english-4-0038", "W:WK2,12:B4,23", []string{"2-7"}, []string{"2-7"}, nil, "2-7", "2-6"},
	}
	if len(ps) != len(want) {
		t.Fatalf("%d positions, want %d: %+v", len(ps), len(want), ps)
	}
	v := engine.MustLookup("english")
	for i, w := range want {
		p := ps[i]
		if p.Line != w.line || p.ID != w.id || p.FEN != w.fen || !slices.Equal(p.Best, w.best) ||
			!slices.Equal(p.Winning, w.winning) || !slices.Equal(p.Avoid, w.avoid) {
			t.Errorf("position %d = line %d id %q fen %q bm %q wm %q am %q, want %+v", i, p.Line, p.ID, p.FEN, p.Best, p.Winning, p.Avoid, w)
		}
		for _, tt := range []struct {
			move string
			want bool
		}{{w.solves, true}, {w.misses, false}} {
			m, err := v.ParseMove(&p.pos, tt.move)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Solves(m); got != tt.want {
				t.Errorf("%s: Solves(%s) = %v, want %v", p.ID, tt.move, got, tt.want)
			}
		}
	}

	// wm widens bm: egdb suite's bm are the shortest wins, any winning move solves
	ps, err := ReadSuite(strings.NewReader("W:WK8,19:BK32 bm 19-15; wm 19-15 8-3;\n"), "x", v)
	if err != nil || len(ps) != 1 {
		t.Fatalf("wm: %v", err)
	}
	m, _ := v.ParseMove(&ps[0].pos, "8-3")
	if !ps[0].Solves(m) {
		t.Errorf("wm 19-15 8-3: 8-3 does not solve")
	}
}

// TestReadSuiteErrors: each bad line is an error naming the file, the line and (for the
// syntax of an operation) the column, and the good lines are still read.
func TestReadSuiteErrors(t *testing.T) {
	v := engine.MustLookup("english")
	for _, tt := range []struct{ line, want string }{
		{"W:W7,22:B4,24 bm 7-3", "x.epd:2:15: operation bm: no ';' at its end"},
		{"W:W7,22:B4,24 bm ;", "x.epd:2:15: operation bm: no move"},
		{"W:W7,22:B4,24 bm 7-3; bm 7-2;", "x.epd:2:23: operation bm given twice"},
		{`W:W7,22:B4,24 bm 7-3; id "open;`, "x.epd:2:26: operation id: the string's quote is not closed"},
		{`W:W7,22:B4,24 bm 7-3; id a b;`, "x.epd:2:23: operation id: want one string, got 2 operands"},
		{`"W:W7,22:B4,24 bm 7-3;`, "x.epd:2:1: the FEN's quote is not closed"},
		{"W:W7,22:B4,24 id \"x\";", "x.epd:2: no moves: want bm, am or wm"},
		{"W:W7,22:B4,24 bm 7-11;", "x.epd:2: bm 7-11 in W:W7,22:B4,24: "},
		{"W:W7,22:B4,24 bm 7-3; am 7-3;", "x.epd:2: move 7-3 is both to play and to avoid"},
		{"W:W7,22:B99 bm 7-3;", "x.epd:2: "},
		{"B:W7,22: bm 7-3;", "x.epd:2: position B:W7,22:: no legal move"},
		{`{"fen": "W:W7,22:B4,24", "best": ["7-3"]`, "x.epd:2: JSON: "},
		{`{"best": ["7-3"]}`, `x.epd:2: JSON: no "fen"`},
	} {
		input := "W:W7,22:B4,24 bm 7-3;\n" + tt.line + "\n\n# comment\nB:W24,25:BK12,18 bm 12-16;\n"
		ps, err := ReadSuite(strings.NewReader(input), "x.epd", v)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one containing %q", tt.line, err, tt.want)
		}
		var se *SuiteError
		if !errors.As(err, &se) || se.Line != 2 {
			t.Errorf("%s: error %#v, want a *SuiteError of line 2", tt.line, err)
		}
		if len(ps) != 2 || ps[0].Line != 1 || ps[1].Line != 5 {
			t.Errorf("%s: the good lines: %+v", tt.line, ps)
		}
	}
	long := strings.Repeat("x", maxSuiteLine+1)
	if _, err := ReadSuite(strings.NewReader(long), "x.epd", v); err == nil || !strings.Contains(err.Error(), "x.epd: a line longer than") {
		t.Errorf("a long line: %v", err)
	}
}

// TestRunSuitePlayer: the test suite is solved by a search of six plies and failed by one of
// a single ply, with the same report on two runs (depth limits are reproducible). The
// searches are full width (medium's) with the hand-set evaluation: the test is of RunSuite,
// not of the evaluation's strength.
func TestRunSuitePlayer(t *testing.T) {
	ps := readTestSuite(t)
	v := engine.MustLookup("english")
	run := func(spec string) *SuiteReport {
		t.Helper()
		p, err := search.ParsePlayer(spec)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := RunSuite(context.Background(), v, ps, SuiteOptions{Player: &p})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	strong := run("medium:depth=6:eval=hand")
	if strong.Solved != 3 || strong.Total != 3 || strong.Engine != "medium:depth=6:eval=hand" || strong.Limits != "depth=6" {
		t.Errorf("depth=6: %+v, want 3 of 3 solved", strong)
	}
	for _, r := range strong.Results {
		if r.Depth != 6 || r.Nodes == 0 || r.Score == nil || r.Error != "" {
			t.Errorf("depth=6: %s: depth %d, nodes %d, score %v, error %q", r.ID, r.Depth, r.Nodes, r.Score, r.Error)
		}
	}
	weak := run("medium:depth=1:eval=hand")
	if weak.Solved != 0 || len(weak.Results) != 3 {
		t.Errorf("depth=1: %d of %d solved, want none", weak.Solved, len(weak.Results))
	}
	for i, r := range weak.Results {
		if r.Solved || r.Move == "" || r.Move == strong.Results[i].Move {
			t.Errorf("depth=1: %s: played %q, solved %v", r.ID, r.Move, r.Solved)
		}
	}
	again := run("medium:depth=1:eval=hand")
	for i := range again.Results {
		a, b := again.Results[i], weak.Results[i]
		if a.Move != b.Move || a.Nodes != b.Nodes {
			t.Errorf("depth=1 twice: %s: %s (%d nodes), then %s (%d nodes)", a.ID, b.Move, b.Nodes, a.Move, a.Nodes)
		}
	}
}

// hubSuite is a suite of two international positions for hubfake, which plays the first
// legal move: the start position with that move as bm (solved), and the position after it
// with its first legal move as am (failed).
func hubSuite(t *testing.T) []SuitePosition {
	t.Helper()
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	p := g.Position()
	first := g.Legal()[0]
	text := v.FEN(p) + " bm " + v.FormatMove(&p, first, false) + "; id \"first\";\n"
	if err := g.Play(first); err != nil {
		t.Fatal(err)
	}
	q := g.Position()
	text += v.FEN(q) + " am " + v.FormatMove(&q, g.Legal()[0], false) + "; id \"avoid\";\n"
	ps, err := ReadSuite(strings.NewReader(text), "hub.epd", v)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestRunSuiteHub: a Hub engine gets each position as a new game; its moves are judged; an
// engine that fails (an illegal move, a crash) fails that position with the reason and is
// started again for the next one.
func TestRunSuiteHub(t *testing.T) {
	fake := testengines.Hub(t)
	ps := hubSuite(t)
	v := engine.MustLookup("international")
	for _, tt := range []struct {
		args   string
		solved []bool
		errs   []string
	}{
		{"", []bool{true, false}, []string{"", ""}},
		// the engine started again fails again: its first search once more
		{"-illegal-at 1", []bool{false, false}, []string{"illegal move", "illegal move"}},
		{"-crash-at 1", []bool{false, false}, []string{"crash", "crash"}},
		{"-illegal-at 2", []bool{true, false}, []string{"", "illegal move"}},
	} {
		t.Run(tt.args, func(t *testing.T) {
			spec, err := ParseEngineSpec("name=fake,cmd=" + fake + `,args="` + tt.args + `",depth=1`)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := RunSuite(context.Background(), v, ps, SuiteOptions{Engine: &spec, HandshakeTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Engine != "fake" || rep.Limits != "depth=1" || len(rep.Results) != 2 {
				t.Fatalf("report %+v", rep)
			}
			for i, r := range rep.Results {
				if r.Solved != tt.solved[i] || !strings.Contains(strings.ToLower(r.Error), tt.errs[i]) || (tt.errs[i] == "") != (r.Error == "") {
					t.Errorf("%s: solved %v, error %q; want %v, %q", r.ID, r.Solved, r.Error, tt.solved[i], tt.errs[i])
				}
			}
		})
	}
}

// TestRunSuiteCancel: a cancelled context stops the run before the next position, with the
// positions done in the report.
func TestRunSuiteCancel(t *testing.T) {
	ps := readTestSuite(t)
	p, _ := search.ParsePlayer("depth=2")
	ctx, cancel := context.WithCancel(context.Background())
	opt := SuiteOptions{Player: &p, Progress: func(done int) {
		if done == 1 {
			cancel()
		}
	}}
	rep, err := RunSuite(ctx, engine.MustLookup("english"), ps, opt)
	if !errors.Is(err, context.Canceled) || rep == nil || len(rep.Results) != 1 {
		t.Fatalf("cancelled after one position: err %v, report %+v", err, rep)
	}
}

// TestShippedSuites: every variant has a shipped suite, and every line of it reads: a legal
// FEN, moves legal in it, a single move that solves each position.
func TestShippedSuites(t *testing.T) {
	for _, name := range engine.Names() {
		data, path, err := corpus.Suite(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		ps, err := ReadSuite(bytes.NewReader(data), path, engine.MustLookup(name))
		if err != nil || len(ps) < 6 {
			t.Errorf("%s: %d positions, error %v", path, len(ps), err)
		}
		for _, p := range ps {
			if len(p.solving) != 1 || p.ID == "" {
				t.Errorf("%s:%d: %d solving moves, id %q: want one, and an id", path, p.Line, len(p.solving), p.ID)
			}
		}
	}
	if got, want := len(corpus.SuiteVariants()), len(engine.Names()); got != want {
		t.Errorf("%d suites shipped (%v), want one per variant (%d)", got, corpus.SuiteVariants(), want)
	}
}

// TestRunSuiteDXP: a DXP engine (dxpfake, which plays the first legal move) gets each
// position as a new game from it; a variant other than international is an error.
func TestRunSuiteDXP(t *testing.T) {
	ps := hubSuite(t)
	addr := startDXPFake(t)
	host, port, _ := strings.Cut(addr, ":")
	spec, err := ParseEngineSpec("name=d,proto=dxp,host=" + host + ",port=" + port + ",tc=60")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RunSuite(context.Background(), engine.MustLookup("international"), ps, SuiteOptions{Engine: &spec, HandshakeTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Solved != 1 || len(rep.Results) != 2 || !rep.Results[0].Solved || rep.Results[1].Solved || rep.Results[1].Move == "" {
		t.Errorf("report %+v, want the first solved and the second not", rep)
	}
	if _, err := RunSuite(context.Background(), engine.MustLookup("english"), nil, SuiteOptions{Engine: &spec}); err == nil || !strings.Contains(err.Error(), "DXP plays international draughts") {
		t.Errorf("english over DXP: %v", err)
	}
}
