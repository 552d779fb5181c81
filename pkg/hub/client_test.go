package hub

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/leakcheck"
	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/internal/testio"
	"github.com/rafle/rafle/pkg/engine"
)

func TestMain(m *testing.M) { testengines.Main(m) }

func noLeak(t *testing.T) { leakcheck.Check(t, 10*time.Second) } // long enough for a loaded machine; no wait without a leak

// testConfig is a Config for hubfake with short timeouts.
func testConfig(t *testing.T, args ...string) Config {
	return Config{Path: testengines.Hub(t), Args: args, HandshakeTimeout: 5 * time.Second, Grace: 300 * time.Millisecond}
}

// startFake starts hubfake and closes it when the test ends.
func startFake(t *testing.T, cfg Config) *Engine {
	t.Helper()
	e, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Start(%v): %v", cfg.Args, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// playOut lets e play both sides of g for n plies, checking each reply against the move
// hubfake chooses (the first legal one).
func playOut(t *testing.T, e *Engine, g *engine.Game, n int) {
	t.Helper()
	for i := 0; i < n && len(g.Legal()) > 0; i++ {
		rep, err := e.Think(context.Background(), g, Level{Depth: 1})
		if err != nil {
			t.Fatalf("Think at ply %d: %v", g.Ply(), err)
		}
		want := g.Legal()[0]
		if rep.Move != want {
			p := g.Position()
			t.Fatalf("Think at ply %d = %s, want %s", g.Ply(), rep.Text, FormatMove(g.Variant(), &p, want))
		}
		if err := g.Play(rep.Move); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEngineThink(t *testing.T) {
	noLeak(t)
	var transcript bytes.Buffer
	cfg := testConfig(t)
	cfg.Transcript = &transcript
	e := startFake(t, cfg)
	if got := e.ID(); got["name"] != "hubfake" || got["author"] != "rafle tests" || got["version"] != "1.0" {
		t.Errorf("ID() = %v", got)
	}
	if ps := e.Params(); len(ps) != 2 || ps[0].Name != "variant" || ps[0].Type != "enum" ||
		strings.Join(ps[0].Values, ",") != "normal" || ps[1].Name != "hash" || ps[1].Max != "1024" {
		t.Errorf("Params() = %+v", ps)
	}
	if e.Dialect() != 2 || e.Variant().Name != "international" {
		t.Errorf("Dialect() = %d, Variant() = %v", e.Dialect(), e.Variant())
	}
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	if err := e.NewGame(context.Background()); err != nil {
		t.Fatal(err)
	}
	rep, err := e.Think(context.Background(), g, Level{MoveTime: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	after := p.Play(rep.Move)
	if rep.Move != g.Legal()[0] || rep.Text != FormatMove(v, &p, rep.Move) ||
		rep.Ponder != FormatMove(v, &after, v.Generate(nil, &after)[0]) {
		t.Errorf("Think = %+v", rep)
	}
	wantInfo := Info{Depth: 1, Score: 0.25, HasScore: true, Nodes: 9, Time: time.Millisecond, PV: rep.Text + " " + rep.Ponder}
	if rep.Info != wantInfo {
		t.Errorf("Info = %+v, want %+v", rep.Info, wantInfo)
	}
	// a game of 60 plies: every Think sends the whole history, which hubfake replays
	// and rejects with an error message if a move is wrong
	playOut(t, e, g, 60)
	if err := e.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Think(context.Background(), g, Level{Depth: 1}); err == nil {
		t.Error("Think after Close: no error")
	}
	for _, want := range []string{"> hub", "< wait", "< ready", "> new-game", "> level move-time=0.100", "> go think",
		"> pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"" + rep.Text + " ", "> quit"} {
		if !strings.Contains(transcript.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript.String())
		}
	}
}

func TestEngineVariants(t *testing.T) {
	noLeak(t)
	frisian := engine.MustLookup("frisian")
	intl := engine.MustLookup("international")
	tests := []struct {
		offered string
		variant *engine.Variant
		wantErr string
	}{
		{"normal,frisian", frisian, ""},
		{"normal,frisian", intl, ""},
		{"normal,frisian", nil, ""},
		{"frisian,english", engine.MustLookup("english"), ""},
		{"normal,frisian", engine.MustLookup("english"), `does not offer variant "english"`},
		{"", frisian, "plays international draughts only"},
		{"", intl, ""},
	}
	for _, tc := range tests {
		cfg := testConfig(t, "-variants", tc.offered)
		cfg.Variant = tc.variant
		e, err := Start(context.Background(), cfg)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("offered %q, Variant %v: Start = %v, want %q", tc.offered, tc.variant.Name, err, tc.wantErr)
			}
			if e != nil {
				e.Close()
			}
			continue
		}
		if err != nil {
			t.Errorf("offered %q, Variant %v: %v", tc.offered, tc.variant, err)
			continue
		}
		v := tc.variant
		if v == nil {
			v = intl
		}
		if e.Variant() != v {
			t.Errorf("offered %q: Variant() = %s, want %s", tc.offered, e.Variant().Name, v.Name)
		}
		playOut(t, e, engine.NewGame(v, v.Start()), 30)
		e.Close()
	}
}

func TestThinkUsageErrors(t *testing.T) {
	noLeak(t)
	cfg := testConfig(t, "-variants", "normal,frisian")
	cfg.Variant = engine.MustLookup("frisian")
	e := startFake(t, cfg)
	intl := engine.MustLookup("international")
	over, err := cfg.Variant.ParseFEN("W:W46:B5")
	if err != nil {
		t.Fatal(err)
	}
	stuck, err := cfg.Variant.ParseFEN("W:WK46:B41,37,5") // the king is shut in, the side cannot move
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		g    *engine.Game
		lvl  Level
		want string
	}{
		{engine.NewGame(cfg.Variant, cfg.Variant.Start()), Level{}, "no limit"},
		{engine.NewGame(intl, intl.Start()), Level{Depth: 1}, "the game is international but engine \"hubfake\" plays frisian"},
		{engine.NewGame(cfg.Variant, stuck), Level{Depth: 1}, "no legal move"},
	}
	for _, tc := range tests {
		if _, err := e.Think(context.Background(), tc.g, tc.lvl); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Think(%s, %+v) = %v, want %q", tc.g.Variant().FEN(tc.g.Position()), tc.lvl, err, tc.want)
		}
	}
	// none of these made the engine unusable
	playOut(t, e, engine.NewGame(cfg.Variant, over), 1)
}

func TestEngineOptions(t *testing.T) {
	noLeak(t)
	var transcript bytes.Buffer
	cfg := testConfig(t)
	cfg.Options = [][2]string{{"hash", "64"}}
	cfg.Transcript = &transcript
	e := startFake(t, cfg)
	if !strings.Contains(transcript.String(), "> set-param name=hash value=64\n") {
		t.Errorf("transcript lacks set-param:\n%s", transcript.String())
	}
	e.Close()
	for _, tc := range []struct {
		opt  [2]string
		want string
	}{
		{[2]string{"threads", "2"}, `no parameter "threads" (it has: variant, hash)`},
		{[2]string{"variant", "normal"}, "set the variant with Config.Variant"},
	} {
		cfg.Options = [][2]string{tc.opt}
		if e, err := Start(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Start with option %v = %v, want %q", tc.opt, err, tc.want)
			if e != nil {
				e.Close()
			}
		}
	}
}

func TestEngineFaults(t *testing.T) {
	en := engine.MustLookup("english")
	diamond, err := en.ParseFEN("W:W30:B17,18,25,26")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		game    *engine.Game // nil: international from the start
		good    int          // Thinks that succeed first
		kind    error
		want    []string // in the error's text
		timeout time.Duration
	}{
		{"crash", []string{"-crash-at", "3"}, nil, 2, ErrCrash, []string{"exit status 3", "crashing at search 3"}, 0},
		{"illegal", []string{"-illegal-at", "2"}, nil, 1, ErrIllegalMove, []string{`illegal move "1-21"`, `line "done move=1-21 `}, 0},
		{"garbage", []string{"-garbage-at", "1"}, nil, 0, ErrProtocol, []string{`=garbage \"unterminated`, "missing command"}, 0},
		{"error", []string{"-error-at", "1"}, nil, 0, ErrProtocol, []string{"search failed"}, 0},
		{"hang", []string{"-hang-at", "2"}, nil, 1, ErrStall, []string{`no "done" within 300ms of "stop"`}, 200 * time.Millisecond},
		{"ambiguous", []string{"-ambiguous", "-variants", "english"}, engine.NewGame(en, diamond), 0, ErrIllegalMove,
			[]string{`ambiguous move "30x14"`, "30x14x17x25", "30x14x18x26"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			noLeak(t)
			cfg := testConfig(t, tc.args...)
			g := tc.game
			if g == nil {
				cfg.Variant = engine.MustLookup("international")
				g = engine.NewGame(cfg.Variant, cfg.Variant.Start())
			} else {
				cfg.Variant = g.Variant()
			}
			e := startFake(t, cfg)
			playOut(t, e, g, tc.good)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			_, err := e.Think(ctx, g, Level{Depth: 1})
			var ee *EngineError
			if !errors.Is(err, tc.kind) || !errors.As(err, &ee) || ee.Engine != "hubfake" {
				t.Fatalf("Think = %v, want an *EngineError of kind %v", err, tc.kind)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Think = %v, want %q in it", err, w)
				}
			}
			if _, again := e.Think(context.Background(), g, Level{Depth: 1}); !errors.Is(again, tc.kind) {
				t.Errorf("Think after the failure = %v, want the same kind %v", again, tc.kind)
			}
			start := time.Now()
			e.Close()
			if d := time.Since(start); d > testio.StopBound {
				t.Errorf("Close took %v", d)
			}
		})
	}
}

func TestHandshakeFaults(t *testing.T) {
	tests := []struct {
		name string
		args []string
		kind error
		want []string
	}{
		{"no-hub", []string{"-no-hub"}, ErrStall, []string{`no answer to "hub" within 300ms`, "hubfake"}},
		{"wrong-protocol", []string{"-wrong-protocol"}, ErrProtocol, []string{"not a Hub engine", `line "uciok"`}},
		{"exits", []string{"-variants", "chess"}, ErrCrash, []string{"exit status 2", `unknown variant \"chess\"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			noLeak(t)
			cfg := testConfig(t, tc.args...)
			cfg.HandshakeTimeout = 300 * time.Millisecond
			start := time.Now()
			e, err := Start(context.Background(), cfg)
			if e != nil {
				e.Close()
			}
			if !errors.Is(err, tc.kind) {
				t.Fatalf("Start = %v, want kind %v", err, tc.kind)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Start = %v, want %q in it", err, w)
				}
			}
			if d := time.Since(start); d > testio.StopBound {
				t.Errorf("Start took %v", d)
			}
		})
	}
	t.Run("ctx", func(t *testing.T) {
		noLeak(t)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		if _, err := Start(ctx, testConfig(t, "-no-hub")); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Start with an ending ctx = %v", err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		if _, err := Start(context.Background(), Config{Path: filepath.Join(t.TempDir(), "none")}); err == nil || !strings.Contains(err.Error(), "hub: start") {
			t.Errorf("Start(missing file) = %v", err)
		}
	})
}

func TestEngineStop(t *testing.T) {
	noLeak(t)
	e := startFake(t, testConfig(t, "-slow", "1m"))
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	rep, err := e.Think(ctx, g, Level{Infinite: true})
	if err != nil || rep.Move != g.Legal()[0] {
		t.Fatalf("Think stopped = %+v, %v; want the first legal move and no error", rep, err)
	}
	if d := time.Since(start); d > testio.StopBound {
		t.Errorf("Think took %v after stop", d)
	}
	if err := e.Ping(context.Background()); err != nil {
		t.Errorf("Ping after a stopped search: %v", err)
	}
}

func TestEngineSplitWrites(t *testing.T) {
	noLeak(t)
	e := startFake(t, testConfig(t, "-split", "-seed", "7"))
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	for range 10 {
		rep, err := e.Think(context.Background(), g, Level{Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Info.Depth != 1 || !strings.HasPrefix(rep.Info.PV, rep.Text) {
			t.Errorf("Info = %+v for %s", rep.Info, rep.Text)
		}
		g.Play(rep.Move)
	}
}

func TestEngineHub1(t *testing.T) {
	noLeak(t)
	var transcript bytes.Buffer
	cfg := testConfig(t, "-hub1")
	cfg.Options = [][2]string{{"book", "false"}}
	cfg.Transcript = &transcript
	e := startFake(t, cfg)
	if e.Dialect() != 1 || e.ID()["name"] != "hubfake 1.0" || e.ID()["country"] != "Nowhere" || len(e.Params()) != 0 {
		t.Errorf("Dialect() = %d, ID() = %v, Params() = %v", e.Dialect(), e.ID(), e.Params())
	}
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	if err := e.NewGame(context.Background()); err != nil {
		t.Fatal(err)
	}
	rep, err := e.Think(context.Background(), g, Level{Moves: 40, Time: 90 * time.Second, Inc: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Info.Depth != 1 || rep.Info.Score != 0.25 || !rep.Info.HasScore || rep.Info.Nodes != 9 || rep.Ponder == "" {
		t.Errorf("Think = %+v", rep)
	}
	playOut(t, e, g, 40)
	if _, err := e.Think(context.Background(), g, Level{Nodes: 1000}); err == nil || !strings.Contains(err.Error(), "no node limit") {
		t.Errorf("Think with a node limit = %v", err)
	}
	e.Close()
	for _, want := range []string{"> set book false", "> new\n", "> level 40 90000 1500", "> pos wbbbbb", "> move 3", "< move "} {
		if !strings.Contains(transcript.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, transcript.String())
		}
	}
	cfg.Variant = engine.MustLookup("frisian")
	if _, err := Start(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "international draughts only") {
		t.Errorf("Start(Hub-1, frisian) = %v", err)
	}
}

func TestCloseWhileThinking(t *testing.T) {
	noLeak(t)
	// Close once the engine has been sent "go" (its transcript says so), not after a sleep:
	// on a loaded machine Think had not begun after 100 ms, and Close came first.
	cfg := testConfig(t, "-hang-at", "1")
	sent := make(chan struct{})
	var once sync.Once
	cfg.Transcript = transcriptWatch(func(line []byte) {
		if bytes.Contains(line, []byte("> go")) {
			once.Do(func() { close(sent) })
		}
	})
	e := startFake(t, cfg)
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	errc := make(chan error, 1)
	go func() {
		_, err := e.Think(context.Background(), g, Level{Depth: 1})
		errc <- err
	}()
	select {
	case <-sent:
	case err := <-errc:
		t.Fatalf("Think returned before Close: %v", err)
	}
	start := time.Now()
	e.Close()
	if err := <-errc; !errors.Is(err, ErrCrash) || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Think during Close = %v", err)
	}
	if d := time.Since(start); d > testio.StopBound {
		t.Errorf("Close took %v", d)
	}
}

// TestThinkUntil: "stop" goes at the stop time, not when ctx ends, so that an engine that
// searches until told, or finishes an iteration before it reads its input, answers then.
func TestThinkUntil(t *testing.T) {
	for _, args := range [][]string{{"-slow", "1m"}, {"-busy", "200ms", "-slow", "1m"}} {
		e := startFake(t, testConfig(t, args...))
		v := engine.MustLookup("international")
		g := engine.NewGame(v, v.Start())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a failure bound
		rep, err := e.ThinkUntil(ctx, time.Now().Add(50*time.Millisecond), g, Level{MoveTime: 50 * time.Millisecond})
		if err != nil || rep.Move != g.Legal()[0] || ctx.Err() != nil {
			t.Errorf("%v: ThinkUntil = %+v, %v (context: %v); want the first legal move, before the context ends", args, rep, err, ctx.Err())
		}
		cancel()
	}
}

// transcriptWatch is a Config.Transcript that hands each write to fn.
type transcriptWatch func(line []byte)

func (w transcriptWatch) Write(p []byte) (int, error) {
	w(p)
	return len(p), nil
}
