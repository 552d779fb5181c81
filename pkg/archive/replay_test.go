package archive

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
	"github.com/rafle/rafle/pkg/pdn"
)

// TestValidateReplay runs Validate with replay over the hand-made files
// with 1 and 3 goroutines: same problems, same order.
func TestValidateReplay(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(pdnTestdata, "replay", "*.pdn"))
	sort.Strings(files)
	var outs []string
	for _, jobs := range []int{1, 3} {
		job := Job{}
		for _, f := range files {
			f := f
			job.Inputs = append(job.Inputs, Input{Name: f, Open: func() (io.ReadCloser, error) { return os.Open(f) }})
		}
		var b strings.Builder
		sums, err := Validate(context.Background(), job, ValidateOptions{Jobs: jobs, Replay: &pdn.Replayer{}, Problem: func(p Problem) {
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
			total.Warnings[pdn.KindUnsupportedVariant] != 1 || total.Warnings[pdn.KindResultContradicts] != 1 || total.GamesWithErrors != 5 {
			t.Errorf("Validate -j %d: totals %+v, want three illegal moves, one of each other kind and 5 games with errors", jobs, total)
		}
		outs = append(outs, b.String())
	}
	if outs[0] != outs[1] {
		t.Errorf("Validate problems differ with -j 1 and -j 3:\n%s\n%s", outs[0], outs[1])
	}
}

// TestRewrite rewrites a russian file to numeric full captures and back to
// algebraic short ones; each rewrite must replay to the same positions.
func TestRewrite(t *testing.T) {
	path := corpusPath(t, "wiegerw__pdn/games/succeed/ussr1947.pdn")
	games, _ := readFile(t, path)
	for _, step := range []struct {
		notation Notation
		captures Captures
	}{{NotationNumeric, CapturesFull}, {NotationAlgebraic, CapturesShort}} {
		var b bytes.Buffer
		w := pdn.NewWriter(&b)
		var want [][]engine.Position
		for _, g := range games[:20] {
			// Numeric russian reads as english without a default.
			rc := ReplayCopy{Notation: step.notation, Captures: step.captures, Replayer: pdn.Replayer{Default: engine.MustLookup("russian")}}
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
		r := pdn.NewReader(&b)
		for i := range want {
			g, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			res, err := pdn.Replay(g, engine.MustLookup("russian"))
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

func readAll(t *testing.T, s string) ([]*pdn.Game, error) {
	t.Helper()
	r := pdn.NewReader(strings.NewReader(s))
	var gs []*pdn.Game
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
		res, err := pdn.Replay(games[i], nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(res); got != want {
			t.Errorf("PositionFilter.Match(game %d) = %v, want %v", i+1, got, want)
		}
	}
	var b bytes.Buffer
	pw := NewPositionWriter(&b, FormatCSV)
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
		games, err := pdn.NewReader(strings.NewReader(text)).Next()
		if err != nil {
			t.Fatal(err)
		}
		rp := newReplayer(&pdn.Replayer{Strict: strict})
		ps, bad := rp.problems(nil, &sum, "f", 1, games)
		n := 0
		for _, p := range ps {
			if p.Kind == pdn.KindSeparator {
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
		r := pdn.NewReader(bytes.NewReader(data))
		r.MaxTokenSize = 4096
		for n := 0; n <= len(data); n++ {
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			var ge *pdn.GameError
			if err != nil && !errors.As(err, &ge) {
				t.Fatalf("Next: %v", err)
			}
			res, rerr := pdn.Replay(g, def)
			if rerr != nil {
				_ = rerr.Error()
			}
			if res.Variant != nil {
				rewrite(res, NotationAlgebraic, CapturesFull)
				var b bytes.Buffer
				pw := NewPositionWriter(&b, FormatFEN)
				pw.writeReplayed("x", g, res)
			}
		}
	})
}
