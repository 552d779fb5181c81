package report

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/match"
	"github.com/rafle/rafle/pkg/search"
	"github.com/rafle/rafle/pkg/stats"
)

// chromium returns the path of a Chromium to drive. Where there is none the test is
// skipped, except in CI (CI=true), where it fails: .ci/run installs Chromium.
func chromium(tb testing.TB) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("no chromium on PATH: .ci/run installs it (apt-get install chromium)")
	}
	tb.Skip("no chromium on PATH (apt-get install chromium): the report is not checked in a browser")
	return ""
}

// browser is a headless Chromium tab that records the page's errors and requests.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string
	requests []string
}

func newBrowser(tb testing.TB, path string) *browser {
	tb.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &browser{}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(b.listen))
	tb.Cleanup(func() { cancel(); cancelAlloc() })
	b.ctx = ctx
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		tb.Fatalf("starting %s: %v", path, err)
	}
	return b
}

func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, e.Request.URL)
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		b.errors = append(b.errors, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value))
			}
			b.errors = append(b.errors, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
		}
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
			b.errors = append(b.errors, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
		}
	}
}

// open loads the report in dir and, for a match, waits until the viewer has drawn its
// first game. It returns the page's URL.
func (b *browser) open(tb testing.TB, dir string, match bool) string {
	tb.Helper()
	b.mu.Lock()
	b.errors, b.requests = nil, nil
	b.mu.Unlock()
	abs, err := filepath.Abs(filepath.Join(dir, "index.html"))
	if err != nil {
		tb.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: abs}).String()
	steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(u)}
	if match {
		steps = append(steps, chromedp.Poll[chromedp.Void](`document.querySelector("#board [data-piece]") !== null`))
	}
	if err := b.do(steps...); err != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		tb.Fatalf("loading %s: %v (page errors: %q)", u, err, b.errors)
	}
	return u
}

// check fails tb if the page at u logged an error or requested anything but itself, or
// lacks a plot of plots (in order); unless shots is "", it saves screenshots at a desktop
// and a phone width as shots/NAME-desktop.png and shots/NAME-phone.png.
func (b *browser) check(tb testing.TB, u, dir string, plots []string, shots, name string) {
	got := eval[[]string](tb, b, `[...document.querySelectorAll("figure.plot")].filter(f => f.querySelector("svg path")).map(f => f.id.slice(5))`)
	if !slices.Equal(got, plots) {
		tb.Errorf("plots drawn: %v, want %v", got, plots)
	}
	for _, id := range plots {
		if _, err := os.Stat(filepath.Join(dir, id+".png")); err != nil {
			tb.Errorf("PNG of plot %s: %v", id, err)
		}
	}
	b.mu.Lock()
	errs, reqs := b.errors, b.requests
	b.mu.Unlock()
	if len(errs) > 0 {
		tb.Errorf("console errors: %q", errs)
	}
	if len(reqs) != 1 || reqs[0] != u {
		tb.Errorf("requests %q, want only the page %s", reqs, u)
	}
	if shots == "" {
		return
	}
	for _, view := range []struct {
		name string
		w, h int64
		opts []chromedp.EmulateViewportOption
	}{
		{"desktop", 1280, 900, nil},
		{"phone", 390, 844, []chromedp.EmulateViewportOption{chromedp.EmulateMobile, chromedp.EmulateScale(2)}},
	} {
		if err := b.do(chromedp.EmulateViewport(view.w, view.h, view.opts...)); err != nil {
			tb.Fatal(err)
		}
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			tb.Fatal(err)
		}
		file := filepath.Join(shots, name+"-"+view.name+".png")
		if err := os.WriteFile(file, png, 0o666); err != nil {
			tb.Fatal(err)
		}
		tb.Logf("screenshot %s", file)
	}
}

// do runs actions with a time limit.
func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

func eval[T any](tb testing.TB, b *browser, js string) T {
	tb.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// playMatch plays a short real match and returns it as the report reads it back from
// its journal.
func playMatch(t *testing.T, cfg match.Config) *Match {
	t.Helper()
	cfg.JournalPath = filepath.Join(t.TempDir(), "match.journal")
	if _, err := match.Run(context.Background(), cfg); err != nil {
		t.Fatalf("match: %v", err)
	}
	m, err := ReadMatch(context.Background(), []string{cfg.JournalPath})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// englishMatch plays 8 english games between two shallow searches, with an SPRT and, for
// the second player, a depth per move (so that the games record time and depth).
func englishMatch(t *testing.T) *Match {
	v := engine.MustLookup("english")
	ops, err := match.RandomOpenings(v, 3, 4, 11, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := search.ParsePlayer("depth=1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := search.ParsePlayer("depth=2")
	if err != nil {
		t.Fatal(err)
	}
	second := match.Engine("depth=2", b)
	second.Control = &match.TimeControl{Depth: 2}
	return playMatch(t, match.Config{Variant: v, Players: []match.Entrant{match.Engine("depth=1", a), second},
		Games: 8, Openings: ops, Seed: 3, Concurrency: 2, MaxPlies: 100,
		SPRT: &stats.SPRT{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}})
}

// canadianMatch plays 2 games of random moves on the 12x12 board.
func canadianMatch(t *testing.T) *Match {
	v := engine.MustLookup("canadian")
	return playMatch(t, match.Config{Variant: v, Players: []match.Entrant{match.Random("r1"), match.Random("r2")},
		Games: 2, Openings: []match.Opening{{Name: "start", Root: v.Start()}}, Seed: 1, MaxPlies: 120})
}

func TestMatchReportInBrowser(t *testing.T) {
	path := chromium(t)
	// The english match page is shot at a desktop and a phone width into a temporary
	// folder, or into RAFLE_REPORT_SCREENSHOTS, where the other pages are shot too.
	shots, all := os.Getenv("RAFLE_REPORT_SCREENSHOTS"), true
	if shots == "" {
		shots, all = t.TempDir(), false
	}
	only := func(shoot bool) string {
		if shoot || all {
			return shots
		}
		return ""
	}
	type report struct {
		name  string
		m     *Match
		plots []string
	}
	reports := []report{
		{"english", englishMatch(t), []string{"elo", "llr", "penta", "openings", "terminations", "lengths", "time", "depth"}},
		{"canadian", canadianMatch(t), []string{"elo", "penta", "openings", "terminations", "lengths"}},
	}
	b := newBrowser(t, path)
	for _, r := range reports {
		t.Run(r.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := WriteMatch(context.Background(), dir, r.m, "test"); err != nil {
				t.Fatal(err)
			}
			u := b.open(t, dir, true)

			// the last game of the list, stepped to its end and one move back
			n := len(r.m.Records)
			rec := &r.m.Records[n-1]
			if err := b.do(chromedp.Click(fmt.Sprintf("#games-body tr:nth-child(%d)", n)),
				chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById("game-title").textContent.startsWith("Game %d:")`, rec.Game+1))); err != nil {
				t.Fatalf("picking game %d: %v", rec.Game+1, err)
			}
			g, err := replay(r.m.Variant, rec)
			if err != nil {
				t.Fatal(err)
			}
			ps := g.Positions()
			plies := len(ps) - 1
			steps := []struct {
				key  string
				ply  int
				what string
			}{
				{kb.End, plies, "End"},
				{kb.ArrowLeft, plies - 1, "End, ←"},
				{kb.ArrowRight, plies, "End, ←, →"},
			}
			for _, s := range steps {
				if err := b.do(chromedp.KeyEvent(s.key)); err != nil {
					t.Fatal(err)
				}
				if got := eval[string](t, b, `document.getElementById("ply").textContent`); got != fmt.Sprintf("ply %d of %d", s.ply, plies) {
					t.Fatalf("after %s: %q, want ply %d of %d", s.what, got, s.ply, plies)
				}
				squares := eval[map[string]string](t, b, readBoard)
				want := r.m.Variant.FEN(ps[s.ply])
				if got := domFEN(t, r.m.Variant, ps[s.ply].Side, squares); got != want {
					t.Errorf("game %d after %s: the page shows %s, rafle's replay %s", rec.Game+1, s.what, got, want)
				}
			}
			// every position on the way back to the start, with the back button
			boards := eval[[]map[string]string](t, b, `(() => {
				const boards = [];
				for (let k = 0; k < 10000; k++) {
					boards.push(`+readBoard+`);
					if (document.getElementById("ply").textContent.startsWith("ply 0 ")) break;
					document.getElementById("back").click();
				}
				return boards.reverse();
			})()`)
			if len(boards) != len(ps) {
				t.Fatalf("game %d: %d positions on the way back, want %d", rec.Game+1, len(boards), len(ps))
			}
			for k, squares := range boards {
				if got, want := domFEN(t, r.m.Variant, ps[k].Side, squares), r.m.Variant.FEN(ps[k]); got != want {
					t.Fatalf("game %d at ply %d: the page shows %s, rafle's replay %s", rec.Game+1, k, got, want)
				}
			}

			b.check(t, u, dir, r.plots, only(r.name == "english"), r.name)
		})
	}
	t.Run("tune", func(t *testing.T) {
		dir := t.TempDir()
		if err := WriteTuning(dir, testTuning()); err != nil {
			t.Fatal(err)
		}
		b.check(t, b.open(t, dir, false), dir, []string{"loss", "weights", "calibration"}, only(false), "tune")
	})
	t.Run("archive", func(t *testing.T) {
		dir := t.TempDir()
		if err := WriteArchive(dir, testArchive(t)); err != nil {
			t.Fatal(err)
		}
		b.check(t, b.open(t, dir, false), dir, []string{"years", "lengths", "results", "events", "openings", "errors"}, only(false), "archive")
	})
}

// readBoard is a script that reads the board from the page: square number to 'w', 'b',
// 'W', 'B' or '.'.
const readBoard = `Object.fromEntries([...document.querySelectorAll("#board [data-sq]")].map(g => [g.dataset.sq, g.dataset.piece || "."]))`

// domFEN returns the FEN of the pieces the page shows (square number to 'w', 'b', 'W',
// 'B' or '.'), with side to move, in rafle's canonical form.
func domFEN(t *testing.T, v *engine.Variant, side engine.Color, squares map[string]string) string {
	t.Helper()
	var w, b []string
	for s := 1; s <= v.Squares(); s++ {
		c, ok := squares[fmt.Sprint(s)]
		if !ok {
			t.Fatalf("the page has no square %d", s)
		}
		sq := fmt.Sprint(s)
		switch c {
		case "w":
			w = append(w, sq)
		case "W":
			w = append(w, "K"+sq)
		case "b":
			b = append(b, sq)
		case "B":
			b = append(b, "K"+sq)
		}
	}
	fen := fmt.Sprintf("%s:W%s:B%s", map[engine.Color]string{engine.White: "W", engine.Black: "B"}[side], strings.Join(w, ","), strings.Join(b, ","))
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatalf("the page shows an impossible position: %v", err)
	}
	return v.FEN(p)
}
