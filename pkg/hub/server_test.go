package hub

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// scriptSearcher plays the moves of its script in order, each given in rafle's notation
// with the PV it reports ("28x19 14x23x19": the move, then the PV's other moves in Hub
// notation). With block it waits for the end of ctx before it answers; a move "illegal"
// returns a move that is not legal, "fail" an error. It records the levels it gets.
type scriptSearcher struct {
	mu       sync.Mutex
	script   []string
	block    bool
	levels   []Level
	newGames int
}

func (s *scriptSearcher) NewGame() {
	s.mu.Lock()
	s.newGames++
	s.mu.Unlock()
}

func (s *scriptSearcher) Think(ctx context.Context, g *engine.Game, lvl Level, info func(Info)) (engine.Move, error) {
	s.mu.Lock()
	s.levels = append(s.levels, lvl)
	var step string
	if len(s.script) > 0 {
		step, s.script = s.script[0], s.script[1:]
	}
	block := s.block
	s.mu.Unlock()
	v, p := g.Variant(), g.Position()
	f := strings.Fields(step)
	m := g.Legal()[0]
	switch {
	case len(f) == 0:
	case f[0] == "fail":
		return engine.Move{}, errors.New("boom")
	case f[0] == "illegal":
		m.To = m.From
	default:
		var err error
		if m, err = v.ParseMove(&p, f[0]); err != nil {
			return engine.Move{}, err
		}
		info(Info{Depth: 3, Score: -0.5, HasScore: true, Nodes: 1234, Time: 1500 * time.Millisecond,
			PV: strings.Join(append([]string{FormatMove(v, &p, m)}, f[1:]...), " ")})
	}
	if block {
		<-ctx.Done()
	}
	return m, nil
}

// testServer returns a ServerConfig offering international and frisian with s.
func testServer(s *scriptSearcher) ServerConfig {
	return ServerConfig{
		ID:       [][2]string{{"name", "rafle"}, {"version", "test"}, {"author", "The rafle authors"}},
		Variants: []*engine.Variant{engine.MustLookup("international"), engine.MustLookup("frisian")},
		New:      func(*engine.Variant) (Searcher, error) { return s, nil },
		Params:   []Param{{Name: "hash", Value: "64", Type: "int", Min: "1", Max: "4096"}},
		SetParam: func(name, value string) error {
			if value == "0" {
				return errors.New("must be at least 1")
			}
			return nil
		},
	}
}

func TestServeScript(t *testing.T) {
	start := "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
	tests := []struct {
		name   string
		script []string // the searcher's moves
		in     string
		out    []string // "..." in a line matches any text
		levels []Level
	}{
		{name: "handshake", in: "hub\nset-param name=hash value=128\ninit\nping\n", out: []string{
			`id name=rafle version=test author="The rafle authors"`,
			`param name=variant value=normal type=enum values="normal frisian"`,
			`param name=hash value=64 type=int min=1 max=4096`,
			"wait", "ready", "pong",
		}},
		{name: "search", script: []string{"28x19 14x23x19 31-27"},
			in: `pos start moves="32-28 19-23"` + "\nlevel depth=5\nlevel move-time=1.5\ngo think\n",
			out: []string{
				`info depth=3 score=-0.50 nodes=1234 time=1.500 pv="28x19x23 14x23x19 31-27"`,
				"done move=28x19x23 ponder=14x23x19",
			},
			levels: []Level{{Depth: 5, MoveTime: 1500 * time.Millisecond}}},
		{name: "level resets", script: []string{"32-28", "17-22"},
			in: "level depth=5\npos pos=" + start + "\nlevel moves=40 time=60 inc=0.5\ngo think\n" +
				"pos start moves=\"32-28\"\ngo ponder\n",
			out:    []string{`info ... pv=32-28`, "done move=32-28", `info ... pv=17-22`, "done move=17-22"},
			levels: []Level{{Moves: 40, Time: time.Minute, Inc: 500 * time.Millisecond}, {}}},
		{name: "pv not starting with the move: no ponder", script: []string{"32-28 33-29"},
			in: "pos start\ngo think\n", out: []string{`info ... pv="32-28 33-29"`, "done move=32-28"}},
		{name: "frisian", script: []string{"32-28"},
			in:  "set-param name=variant value=frisian\ninit\npos pos=" + start + "\ngo think\n",
			out: []string{"ready", "info ...", "done move=32-28"}},
		{name: "ignored", script: []string{"32-28"},
			in:  "foo bar=1\nstop\nponder-hit\nnew-game\npos start extra=1 flag\ngo think infinite=no\n",
			out: []string{"info ...", "done move=32-28"}},
		{name: "errors",
			in: "\n=x\n" + `pos pos="W` + "\n" + "pos pos=Wxyz\nlevel depth=x time=-1\nset-param value=1\n" +
				"set-param name=variant value=killer\nset-param name=hash value=0\n",
			out: []string{
				`error message="missing command"`,
				`error message="hub: malformed line '=x': column 1: missing command (found '=')"`,
				`error message="hub: malformed line 'pos pos='W': column 9: unterminated quoted value"`,
				`error message="bad position: hub: position 'Wxyz': 4 characters, want 51 (side to move and 50 squares of international)"`,
				`error message="level: depth: 'x' is not a non-negative integer; time: '-1' is not a number of seconds"`,
				`error message="missing name"`,
				`error message="unknown variant 'killer'"`,
				`error message="hash: must be at least 1"`,
			}},
		{name: "bad move keeps the game", script: []string{"32-28"},
			in: `pos start moves="32-28 99-1"` + "\ngo think\n",
			out: []string{`error message="bad move 99-1: engine: invalid move '99-1': '99' is not a square (1-50)"`,
				"info ...", "done move=32-28"}},
		{name: "terminal position", in: "pos pos=Wb" + strings.Repeat("e", 49) + "\ngo think\n", out: []string{"done"}},
		{name: "illegal choice", script: []string{"illegal"}, in: "pos pos=W" + strings.Repeat("e", 35) + "b" + strings.Repeat("e", 9) + "weeee\ngo think\n",
			out: []string{`error message="search: searcher chose 46-46, not a legal move"`, "done move=46-41"}},
		{name: "searcher fails", script: []string{"fail"}, in: "go think\n",
			out: []string{`error message="search: boom"`, "done move=..."}},
		{name: "quit", in: "quit\nping\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &scriptSearcher{script: tc.script}
			var out strings.Builder
			if err := Serve(context.Background(), strings.NewReader(tc.in), &out, testServer(s)); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if out.Len() == 0 {
				got = nil
			}
			want := tc.out
			ok := len(got) == len(want)
			for i := 0; ok && i < len(want); i++ {
				ok = matches(got[i], want[i])
			}
			if !ok {
				t.Errorf("in:\n%s\nout:\n%s\nwant:\n%s", tc.in, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if tc.levels != nil && fmt.Sprint(s.levels) != fmt.Sprint(tc.levels) {
				t.Errorf("levels = %+v, want %+v", s.levels, tc.levels)
			}
		})
	}
}

// TestServeSetParamRenews: a parameter set after "init" makes the searcher anew at the
// next search, so that it sees the value; a value refused keeps the searcher.
func TestServeSetParamRenews(t *testing.T) {
	made := 0
	cfg := testServer(&scriptSearcher{script: []string{"32-28", "32-28", "32-28"}})
	newSearcher := cfg.New
	cfg.New = func(v *engine.Variant) (Searcher, error) {
		made++
		return newSearcher(v)
	}
	in := "hub\ninit\ngo think\nset-param name=hash value=0\ngo think\nset-param name=hash value=128\ngo think\n"
	if err := Serve(context.Background(), strings.NewReader(in), io.Discard, cfg); err != nil {
		t.Fatal(err)
	}
	if made != 2 {
		t.Errorf("the searcher was made %d times, want 2 (at init, after hash=128)", made)
	}
}

// matches reports whether line is pattern, where "..." stands for any text.
func matches(line, pattern string) bool {
	parts := strings.Split(pattern, "...")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(line)
}

// session drives Serve over pipes, line by line.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	errc chan error
}

func newSession(t *testing.T, ctx context.Context, cfg ServerConfig) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewScanner(outR), errc: make(chan error, 1)}
	go func() {
		err := Serve(ctx, inR, outW, cfg)
		outW.Close()
		inR.Close()
		s.errc <- err
	}()
	return s
}

func (s *session) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("send %q: %v", line, err)
	}
}

func (s *session) expect(prefix string) string {
	s.t.Helper()
	if !s.out.Scan() {
		s.t.Fatalf("want %q..., got the end of the output", prefix)
	}
	if !strings.HasPrefix(s.out.Text(), prefix) {
		s.t.Fatalf("got %q, want %q...", s.out.Text(), prefix)
	}
	return s.out.Text()
}

func (s *session) end() error {
	select {
	case err := <-s.errc:
		return err
	case <-time.After(2 * time.Second):
		s.t.Fatal("Serve did not return")
		return nil
	}
}

func TestServePingWhileThinking(t *testing.T) {
	noLeak(t)
	sr := &scriptSearcher{script: []string{"32-28 18-23"}, block: true}
	s := newSession(t, context.Background(), testServer(sr))
	s.send("go think")
	s.expect("info depth=3")
	s.send("ping")
	s.expect("pong")
	s.send("ponder-hit")
	s.send("ping")
	s.expect("pong")
	s.send("stop")
	s.expect("done move=32-28 ponder=18-23")
	s.send("quit")
	if err := s.end(); err != nil {
		t.Fatal(err)
	}
}

func TestServeCommandStopsSearch(t *testing.T) {
	noLeak(t)
	sr := &scriptSearcher{script: []string{"32-28", "33-28"}, block: true}
	s := newSession(t, context.Background(), testServer(sr))
	s.send("go think")
	s.expect("info")
	s.send("go think") // not allowed during a search: the first is stopped and answered
	s.expect("done move=32-28")
	s.expect("info")
	s.in.Close() // the end of the input stops the second
	s.expect("done move=33-28")
	if err := s.end(); err != nil {
		t.Fatal(err)
	}
}

func TestServeContext(t *testing.T) {
	noLeak(t)
	ctx, cancel := context.WithCancel(context.Background())
	sr := &scriptSearcher{script: []string{"32-28"}, block: true}
	s := newSession(t, ctx, testServer(sr))
	s.send("go think")
	s.expect("info")
	cancel()
	s.expect("done move=32-28")
	if err := s.end(); !errors.Is(err, context.Canceled) {
		t.Errorf("Serve = %v, want context.Canceled", err)
	}
	s.in.Close()
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestServeWriteError(t *testing.T) {
	in := strings.NewReader("hub\nping\n")
	err := Serve(context.Background(), in, failingWriter{}, testServer(&scriptSearcher{}))
	if err == nil || !strings.Contains(err.Error(), `writing "id": disk full`) {
		t.Errorf("Serve = %v, want the write error", err)
	}
}

func TestServeLongLine(t *testing.T) {
	var out strings.Builder
	in := "pos moves=\"" + strings.Repeat("32-28 ", maxLine/6+1) + "\"\nping\n"
	if err := Serve(context.Background(), strings.NewReader(in), &out, testServer(&scriptSearcher{})); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("error message=\"line longer than %d bytes\"\npong\n", maxLine); out.String() != want {
		t.Errorf("out = %q, want %q", out.String(), want)
	}
}

// TestClientServerPipe plays the client against the server in one process.
func TestClientServerPipe(t *testing.T) {
	noLeak(t)
	sr := &scriptSearcher{}
	cfg := testServer(sr)
	frisian := engine.MustLookup("frisian")
	var seen *engine.Variant
	cfg.New = func(v *engine.Variant) (Searcher, error) { seen = v; return sr, nil }
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := Serve(context.Background(), inR, outW, cfg)
		outW.Close()
		served <- err
	}()
	e, err := Connect(context.Background(), outR, inW, Config{Variant: frisian, Options: [][2]string{{"hash", "16"}}})
	if err != nil {
		t.Fatal(err)
	}
	if e.ID()["name"] != "rafle" || e.Variant() != frisian || seen != frisian {
		t.Errorf("ID() = %v, Variant() = %v, searcher for %v", e.ID(), e.Variant(), seen)
	}
	g := engine.NewGame(frisian, frisian.Start())
	if err := e.NewGame(context.Background()); err != nil || sr.newGames != 1 {
		t.Errorf("NewGame: %v, the searcher saw %d", err, sr.newGames)
	}
	playOut(t, e, g, 80)
	sr.mu.Lock()
	if want := (Level{Depth: 1}); sr.levels[0] != want {
		t.Errorf("the server's searcher got %+v, want %+v", sr.levels[0], want)
	}
	sr.block = true // now the searcher waits for stop
	sr.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if rep, err := e.Think(ctx, g, Level{Infinite: true}); err != nil || rep.Move != g.Legal()[0] || rep.Info.Nodes != 0 {
		t.Errorf("Think stopped = %+v, %v", rep, err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}

// TestClientServerProcess plays the client against hubfake -serve, rafle's server in
// another process.
func TestClientServerProcess(t *testing.T) {
	noLeak(t)
	cfg := testConfig(t, "-serve", "-variants", "normal,frisian,canadian")
	cfg.Variant = engine.MustLookup("canadian")
	e := startFake(t, cfg)
	if e.ID()["name"] != "hubfake" || e.Variant() != cfg.Variant {
		t.Errorf("ID() = %v, Variant() = %v", e.ID(), e.Variant())
	}
	playOut(t, e, engine.NewGame(cfg.Variant, cfg.Variant.Start()), 100)
}

// writeCounter counts the writes to a pipe and keeps the text of each.
type writeCounter struct {
	io.WriteCloser
	mu     sync.Mutex
	writes []string
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes = append(w.writes, string(p))
	w.mu.Unlock()
	return w.WriteCloser.Write(p)
}

// TestSearchLinesOneWrite: a search's pos, level and go reach the engine in one write, so
// that the engine woken by the first line cannot keep the referee from writing the rest
// while the clock runs (a loaded machine put "go" 206 ms after "pos"); the reply's Elapsed
// is within the call.
func TestSearchLinesOneWrite(t *testing.T) {
	noLeak(t)
	sr := &scriptSearcher{}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := Serve(context.Background(), inR, outW, testServer(sr))
		outW.Close()
		served <- err
	}()
	wc := &writeCounter{WriteCloser: inW}
	e, err := Connect(context.Background(), outR, wc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	v := engine.MustLookup("international")
	g := engine.NewGame(v, v.Start())
	for range 3 {
		wc.mu.Lock()
		wc.writes = nil
		wc.mu.Unlock()
		began := time.Now()
		rep, err := e.Think(context.Background(), g, Level{Moves: 0, Time: time.Second, Inc: 100 * time.Millisecond})
		wall := time.Since(began)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Elapsed < 0 || rep.Elapsed > wall {
			t.Errorf("ply %d: Reply.Elapsed %v, want the time from the lines written to the answer read, within Think's %v", g.Ply(), rep.Elapsed, wall)
		}
		wc.mu.Lock()
		writes := wc.writes
		wc.mu.Unlock()
		if len(writes) != 1 || !strings.HasPrefix(writes[0], "pos ") || !strings.Contains(writes[0], "\nlevel ") || !strings.HasSuffix(writes[0], "\ngo think\n") {
			t.Errorf("ply %d: the search was sent in %d writes %q, want one: pos, level, go", g.Ply(), len(writes), writes)
		}
		if err := g.Play(rep.Move); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
}
