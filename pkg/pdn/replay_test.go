package pdn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// replayFile replays every game of a file; it returns the games, the
// replay results (copied) and errors, by game.
func replayFile(t testing.TB, path string, def *engine.Variant) ([]*Game, []*Replayed, []error) {
	t.Helper()
	games, _ := readFile(t, path, false)
	res := make([]*Replayed, len(games))
	errs := make([]error, len(games))
	for i, g := range games {
		res[i], errs[i] = Replay(g, def)
		if re, ok := errs[i].(*ReplayError); ok {
			re.File, re.Game = filepath.Base(path), i+1
		}
	}
	return games, res, errs
}

// TestReplayErrors checks each kind of replay problem in the hand-made
// files of testdata/replay: the sentinel or warning kind, and the file,
// game, line, column, move number, move, side and FEN in the message.
func TestReplayErrors(t *testing.T) {
	tests := []struct {
		file       string
		game       int
		err        error  // nil: no error
		warn       string // a warning kind, or ""
		line, col  int
		move       int
		wantInMsgs []string
	}{
		{"illegal.pdn", 1, ErrIllegalMove, "", 5, 4, 3, []string{
			"illegal.pdn: game 1: line 5, column 4: move 3 (black) 19-23: illegal move",
			"position B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15"}},
		{"illegal.pdn", 2, nil, "", 0, 0, 0, nil},
		{"frisian.pdn", 1, ErrIllegalMove, "", 7, 4, 4, []string{
			"frisian.pdn: game 1: line 7, column 4: move 4 (white) 17-22: illegal move",
			"the king on 17 has made 3 moves in a row"}},
		{"frisian.pdn", 2, nil, "", 0, 0, 0, nil},
		{"canadian.pdn", 1, nil, "", 0, 0, 0, nil},
		{"canadian.pdn", 2, nil, "", 0, 0, 0, nil},
		{"canadian.pdn", 3, ErrIllegalMove, "", 28, 4, 1, []string{
			"canadian.pdn: game 3: line 28, column 4: move 1 (white) 62-56: illegal move"}},
		{"ambiguous.pdn", 1, ErrAmbiguousMove, "", 6, 6, 1, []string{
			"ambiguous.pdn: game 1: line 6, column 6: move 1 (black) 2x18: ambiguous move",
			"candidates 2x9x18, 2x11x18", "position B:W6,7,14,15,30:B2"}},
		{"badfen.pdn", 1, ErrInvalidFEN, "", 4, 1, 0, []string{
			`badfen.pdn: game 1: line 4, column 1: FEN "B:W21-33:B1-12"`, `unknown square "33"`}},
		{"unsupported.pdn", 1, nil, KindUnsupportedVariant, 2, 1, 0, []string{`variant not supported: GameType "30"`}},
		{"result.pdn", 1, nil, KindResultContradicts, 5, 4, 0, []string{"result 1-0, but black has no legal move", "B:W15:B"}},
		{"result.pdn", 2, nil, "", 0, 0, 0, nil}, // antidraughts: no move wins
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d", tc.file, tc.game), func(t *testing.T) {
			path := filepath.Join("testdata", "replay", tc.file)
			_, res, errs := replayFile(t, path, nil)
			err := errs[tc.game-1]
			var msg string
			var line, col, move int
			switch {
			case tc.err != nil:
				var re *ReplayError
				if !errors.Is(err, tc.err) || !errors.As(err, &re) {
					t.Fatalf("Replay(%s game %d) = %v, want a *ReplayError wrapping %v", tc.file, tc.game, err, tc.err)
				}
				msg, line, col, move = err.Error(), re.Pos.Line, re.Pos.Column, re.Move
			case err != nil:
				t.Fatalf("Replay(%s game %d) = %v, want no error", tc.file, tc.game, err)
			case tc.warn != "":
				ws := res[tc.game-1].Warnings
				if len(ws) != 1 || ws[0].Kind != tc.warn {
					t.Fatalf("Replay(%s game %d) warnings %+v, want one %s", tc.file, tc.game, ws, tc.warn)
				}
				msg, line, col = ws[0].Text, ws[0].Pos.Line, ws[0].Pos.Column
			default:
				if ws := res[tc.game-1].Warnings; len(ws) > 0 {
					t.Fatalf("Replay(%s game %d) warnings %+v, want none", tc.file, tc.game, ws)
				}
				return
			}
			if line != tc.line || col != tc.col || move != tc.move {
				t.Errorf("Replay(%s game %d): line %d, column %d, move %d; want %d, %d, %d (%s)", tc.file, tc.game,
					line, col, move, tc.line, tc.col, tc.move, msg)
			}
			for _, want := range tc.wantInMsgs {
				if !strings.Contains(msg, want) {
					t.Errorf("Replay(%s game %d) message %q does not contain %q", tc.file, tc.game, msg, want)
				}
			}
		})
	}
}

// TestReplayCanadian: a canadian game replays to the end with its GameType and without
// one (squares above 50), through the wide instance of the engine.
func TestReplayCanadian(t *testing.T) {
	_, res, errs := replayFile(t, filepath.Join("testdata", "replay", "canadian.pdn"), nil)
	for i, want := range []struct {
		from  string
		plies int
	}{{FromGameType, 124}, {FromInferred, 20}} {
		if errs[i] != nil {
			t.Fatalf("game %d: %v", i+1, errs[i])
		}
		if r := res[i]; r.Variant.Name != "canadian" || r.VariantFrom != want.from || len(r.Plies) != want.plies {
			t.Errorf("game %d: %s (%s), %d plies; want canadian (%s), %d plies", i+1, r.Variant.Name, r.VariantFrom, len(r.Plies), want.from, want.plies)
		}
	}
}

// TestValidateReplay runs Validate with replay over the hand-made files
// with 1 and 3 goroutines: same problems, same order.
func TestValidateReplay(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "replay", "*.pdn"))
	sort.Strings(files)
	var outs []string
	for _, jobs := range []int{1, 3} {
		job := Job{}
		for _, f := range files {
			f := f
			job.Inputs = append(job.Inputs, Input{Name: f, Open: func() (io.ReadCloser, error) { return os.Open(f) }})
		}
		var b strings.Builder
		sums, err := Validate(context.Background(), job, ValidateOptions{Jobs: jobs, Replay: &Replayer{}, Problem: func(p Problem) {
			fmt.Fprintf(&b, "%s:%d:%d:%d %s %s\n", p.File, p.Game, p.Line, p.Column, p.Level, p.Kind)
		}})
		if err != nil {
			t.Fatal(err)
		}
		total := newSummary("total")
		for _, s := range sums {
			total.Add(s)
		}
		// illegal.pdn, frisian.pdn and canadian.pdn have an illegal move each
		if total.Errors["illegal-move"] != 3 || total.Errors["ambiguous-move"] != 1 || total.Errors["invalid-fen"] != 1 ||
			total.Warnings[KindUnsupportedVariant] != 1 || total.Warnings[KindResultContradicts] != 1 || total.GamesWithErrors != 5 {
			t.Errorf("Validate -j %d: totals %+v, want three illegal moves, one of each other kind and 5 games with errors", jobs, total)
		}
		outs = append(outs, b.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("Validate problems differ with -j 1 and -j 3:\n%s\n%s", outs[0], outs[1])
	}
}

// TestReplayCorpus replays real files of the shared corpus and reports
// how many games replay cleanly, with the problems by kind.
func TestReplayCorpus(t *testing.T) {
	tests := []struct {
		path      string
		variant   string // expected variant of the games
		minClean  float64
		wantGames int
	}{
		// Open Checkers Archive: every game replays (22,621 games).
		{"mzuluaga__checkers/OCA_2.0.pdn", "english", 1, 22621},
		// Tinsley: one game has an illegal move in the archive itself
		// (game 541, 62... 32-28 with no black piece on 32).
		{"eygilbert__CheckerBoard/games/tinsley.pdn", "english", 0.99, 724},
		{"wiegerw__pdn/games/succeed/ussr1947.pdn", "russian", 1, 153},
		{"wiegerw__pdn/games/fail/abatsiev.pdn", "russian", 1, 56},
		{"rhalbersma__mobydam/book/games/babasy1.pdn", "international", 1, 43},
		{"Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/Championnat de France 2021.pdn", "international", 1, 58},
		{"wiegerw__pdn/games/succeed/kurnik.pdn", "international", 1, 4},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if testing.Short() && strings.Contains(tc.path, "OCA") {
				t.Skip("OCA is long")
			}
			path := corpusPath(t, tc.path)
			games, res, errs := replayFile(t, path, nil)
			clean := 0
			kinds := map[string]int{}
			for i := range games {
				if games[i].Plies() > 0 && (res[i].Variant == nil || res[i].Variant.Name != tc.variant) {
					t.Errorf("%s game %d: variant %v, want %s", tc.path, i+1, res[i].Variant.Name, tc.variant)
				}
				if errs[i] == nil {
					clean++
				} else {
					kinds[ErrorKind(errs[i])]++
					if kinds[ErrorKind(errs[i])] <= 3 {
						t.Logf("%v", errs[i])
					}
				}
				for _, w := range res[i].Warnings {
					kinds[w.Kind]++
				}
			}
			t.Logf("%s: %d games, %d replay cleanly; problems %v", tc.path, len(games), clean, kinds)
			if len(games) != tc.wantGames || float64(clean) < tc.minClean*float64(len(games)) {
				t.Errorf("%s: %d of %d games replay cleanly, want %d games and at least %.0f%%", tc.path, clean, len(games),
					tc.wantGames, 100*tc.minClean)
			}
		})
	}
}

// TestReplayCountOnly checks that a Replayer with CountOnly finds what one
// without finds, errors and warnings included, and keeps no moves.
func TestReplayCountOnly(t *testing.T) {
	files, _ := filepath.Glob("testdata/replay/*.pdn")
	files = append(files, corpusPath(t, "eygilbert__CheckerBoard/games/tinsley.pdn"),
		corpusPath(t, "wiegerw__pdn/games/succeed/ussr1947.pdn"))
	for _, path := range files {
		full, count := &Replayer{}, &Replayer{CountOnly: true}
		eachGame(t, path, false, func(_ *Reader, g *Game, _ error) {
			want, werr := full.Replay(g)
			got, gerr := count.Replay(g)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || fmt.Sprint(got.Warnings) != fmt.Sprint(want.Warnings) ||
				got.Final != want.Final || got.Complete != want.Complete || got.Variant != want.Variant {
				t.Errorf("%s: CountOnly: %v %v %v, without: %v %v %v", path, gerr, got.Warnings, got.Complete, werr, want.Warnings, want.Complete)
			}
			if len(got.Plies) != 0 || len(got.Variations) != 0 {
				t.Errorf("%s: CountOnly kept %d plies, %d variation moves", path, len(got.Plies), len(got.Variations))
			}
		})
	}
}

// TestRewrite rewrites a russian file to numeric full captures and back to
// algebraic short ones; each rewrite must replay to the same positions.
func TestRewrite(t *testing.T) {
	path := corpusPath(t, "wiegerw__pdn/games/succeed/ussr1947.pdn")
	games, _ := readFile(t, path, false)
	for _, step := range []struct{ notation, captures string }{{NotationNumeric, CapturesFull}, {NotationAlgebraic, CapturesShort}} {
		var b bytes.Buffer
		w := NewWriter(&b)
		var want [][]engine.Position
		for _, g := range games[:20] {
			// Numeric russian reads as english without a default.
			rc := ReplayCopy{Notation: step.notation, Captures: step.captures, Replayer: Replayer{Default: engine.MustLookup("russian")}}
			res, _, err := rc.apply(&Input{Name: "f"}, 1, g)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, res.Positions())
			if err := w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
		w.Flush()
		text := b.String()
		r := NewReader(&b)
		for i := range want {
			g, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			res, err := Replay(g, engine.MustLookup("russian"))
			if err != nil {
				t.Fatalf("%s/%s: game %d does not replay after rewriting: %v", step.notation, step.captures, i+1, err)
			}
			for _, m := range g.Mainline() {
				if alg := len(m.Squares) > 0 && m.Squares[0].IsAlgebraic(); alg != (step.notation == NotationAlgebraic) {
					t.Fatalf("%s/%s: game %d: move %s after rewriting", step.notation, step.captures, i+1, m.Text)
				}
				if step.captures == CapturesFull && m.IsCapture() && m.Sep != 'x' {
					t.Fatalf("%s/%s: game %d: capture %s after rewriting, want x", step.notation, step.captures, i+1, m.Text)
				}
			}
			if got := res.Positions(); fmt.Sprint(got) != fmt.Sprint(want[i]) {
				t.Errorf("%s/%s: game %d replays to other positions after rewriting", step.notation, step.captures, i+1)
			}
		}
		games, _ = readAll(t, text)
	}
}

func readAll(t *testing.T, s string) ([]*Game, error) {
	t.Helper()
	r := NewReader(strings.NewReader(s))
	var gs []*Game
	for {
		g, err := r.Next()
		if err == io.EOF {
			return gs, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
}

func TestPositionFilterAndWriter(t *testing.T) {
	const src = "[Result \"1-0\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n[Result \"0-1\"]\n1. 11-15 23-18 0-1\n"
	games, _ := readAll(t, src)
	// The position after 1. 11-15 23-19, written with ranges and in another order.
	f, err := NewPositionFilter("B:W19,21,22,24-32:B1-10,12,15")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		res, err := Replay(games[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(res); got != want {
			t.Errorf("PositionFilter.Match(game %d) = %v, want %v", i+1, got, want)
		}
	}
	var b bytes.Buffer
	pw := NewPositionWriter(&b, "csv")
	for _, g := range games {
		if err := pw.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	pw.Flush()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"game,ply,fen,side,move,result,score",
		"game 1,0,\"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\",black,11-15,1-0,1",
		"game 1,1,\"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15\",white,23-19,1-0,0",
	}
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Errorf("csv line %d = %q, want %q", i+1, lines[min(i, len(lines)-1)], w)
		}
	}
	if n := len(lines); n != 1+5+3 || !strings.HasSuffix(lines[n-1], ",,0-1,0") {
		t.Errorf("csv: %d lines, last %q; want 9 lines, the last one with no move and score 0 (black, the first mover, to move; 0-1)", n, lines[n-1])
	}
}

// FuzzReplay checks that Replay never panics, whatever the reader makes
// of the input, with and without a default variant.
func FuzzReplay(f *testing.F) {
	for _, s := range []string{
		"1. 11-15 23-19 2. 8-11 22-17 1-0",
		"[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 (2... 13x24) 2-0",
		"[FEN \"B:W6,7,14,15,30:B2\"] 1... 2x18 2x9x18 *",
		"[FEN \"W:Wa1,c3:Bh8\"] 1. c3:e5:c7 a1-b2 *",
		"[GameType \"25\"] 1. c3-d4 (1. a3-b4 (1. g3-h4)) d6-e5 *",
		"[FEN \"?:W99:B\"] [GameType \"29\"] 1. 99x1x2x3 0-0",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, intl bool) {
		var def *engine.Variant
		if intl {
			def = engine.MustLookup("international")
		}
		r := NewReader(bytes.NewReader(data))
		r.MaxTokenSize = 4096
		for n := 0; n <= len(data); n++ {
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			var ge *GameError
			if err != nil && !errors.As(err, &ge) {
				t.Fatalf("Next: %v", err)
			}
			res, rerr := Replay(g, def)
			if rerr != nil {
				_ = rerr.Error()
			}
			if res.Variant != nil {
				rewrite(res, NotationAlgebraic, CapturesFull)
				var b bytes.Buffer
				pw := NewPositionWriter(&b, "fen")
				pw.writeReplayed("x", g, res)
			}
		}
	})
}

// TestReplaySeparator: a quiet move written with 'x' and a capture written with '-' are
// played, each with a separator warning that Strict makes an error of the game.
func TestReplaySeparator(t *testing.T) {
	v := engine.MustLookup("english")
	g := engine.NewGame(v, v.Start())
	var words []string
	quiet, capture := -1, -1
	for len(words) < 200 && !g.Outcome().Over && (quiet < 0 || capture < 0) {
		p := g.Position()
		legal := g.Legal()
		m := legal[len(words)*7%len(legal)]
		text := v.FormatMove(&p, m, false)
		switch {
		case m.IsCapture() && capture < 0:
			capture, text = len(words), strings.Replace(text, "x", "-", 1)
		case !m.IsCapture() && quiet < 0:
			quiet, text = len(words), strings.Replace(text, "-", "x", 1)
		}
		words = append(words, text)
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if quiet < 0 || capture < 0 {
		t.Fatal("no capture in the test game")
	}
	text := "[GameType \"21\"]\n\n" + strings.Join(words, " ") + " *\n"
	for _, strict := range []bool{false, true} {
		var sum Summary
		sum.Variants = map[string]int{}
		games, err := NewReader(strings.NewReader(text)).Next()
		if err != nil {
			t.Fatal(err)
		}
		rp := &Replayer{Strict: strict}
		ps, bad := rp.problems(nil, &sum, "f", 1, games)
		n := 0
		for _, p := range ps {
			if p.Kind == KindSeparator {
				n++
				if want := map[bool]string{false: "warning", true: "error"}[strict]; p.Level != want {
					t.Errorf("strict %v: %s is a %s, want %s", strict, p.Message, p.Level, want)
				}
			}
		}
		if n != 2 || bad != strict || sum.Replayed != 1 {
			t.Errorf("strict %v: %d separator problems (want 2), bad %v, replayed %d: %+v", strict, n, bad, sum.Replayed, ps)
		}
	}
}
