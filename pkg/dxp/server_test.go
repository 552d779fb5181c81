package dxp

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

// randomSearcher plays random legal moves and records what Think was given.
type randomSearcher struct {
	rng   *rand.Rand
	mu    *sync.Mutex
	calls *[]thinkCall
}

type thinkCall struct {
	moves     []engine.Move // the game's moves so far
	remaining time.Duration
	togo      int
}

func (r *randomSearcher) NewGame() {}

func (r *randomSearcher) Think(_ context.Context, g *engine.Game, remaining time.Duration, togo int) (engine.Move, error) {
	r.mu.Lock()
	*r.calls = append(*r.calls, thinkCall{slices.Clone(g.Moves()), remaining, togo})
	r.mu.Unlock()
	legal := g.Legal()
	return legal[r.rng.IntN(len(legal))], nil
}

// searchers makes randomSearchers that share one record.
type searchers struct {
	mu    sync.Mutex
	calls []thinkCall
}

func (s *searchers) config(name string) ServerConfig {
	return ServerConfig{Name: name, New: func() (Searcher, error) {
		return &randomSearcher{rng: rand.New(rand.NewPCG(3, 3)), mu: &s.mu, calls: &s.calls}, nil
	}}
}

func (s *searchers) recorded() []thinkCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// startServer runs Serve on a loopback port until stop is called or the test ends; stop
// checks that Serve returns within a second.
func startServer(t *testing.T, cfg ServerConfig) (addr string, tr *lockedBuffer, stop func()) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr = &lockedBuffer{}
	cfg.Transcript = tr
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, cfg) }()
	stop = sync.OnceFunc(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(time.Second):
			t.Error("Serve did not return within a second of its context's end")
		}
	})
	t.Cleanup(stop)
	return ln.Addr().String(), tr, stop
}

func TestServeWholeGames(t *testing.T) {
	checkLeaks(t)
	var s searchers
	addr, str, _ := startServer(t, s.config("rafle server"))
	c, ctr := dial(t, addr)
	rng := rand.New(rand.NewPCG(9, 9))

	var games []*engine.Game
	for i, tc := range []struct {
		plies       int // of a random game played first, to start from
		engineColor engine.Color
	}{{0, engine.Black}, {0, engine.White}, {9, engine.White}, {12, engine.White}} {
		start := international.Start()
		if tc.plies > 0 {
			start = games[0].Positions()[tc.plies]
		}
		name, err := c.StartGame(within(t, 5*time.Second), start, tc.engineColor, 7, 0)
		if err != nil || name != "rafle server" {
			t.Fatalf("game %d: StartGame = %q, %v", i+1, name, err)
		}
		g, err := playGame(t, c, start, tc.engineColor, rng)
		if err != nil {
			t.Fatalf("game %d, move %d: %v\n%s", i+1, g.Ply()+1, err, ctr)
		}
		games = append(games, g)
		t.Logf("game %d: %d plies, %s, ends on the engine's turn: %v", i+1, g.Ply(), g.Outcome(), g.Position().Side == tc.engineColor)
		if err := c.EndGame(within(t, 5*time.Second), engineResult(g, tc.engineColor)); err != nil {
			t.Fatalf("game %d: EndGame: %v", i+1, err)
		}

		// the server's last message: its own GAMEEND with the result under rafle's rules
		// when the game ended on its turn, else the answer to ours
		last := lastSent(str.String())
		want := "E00"
		if g.Position().Side == tc.engineColor {
			want = string(Format(GameEnd{Reason: engineResult(g, tc.engineColor)}))
		}
		if last != want {
			t.Errorf("game %d (%s): the server's last message %q, want %q", i+1, g.Outcome(), last, want)
		}
	}

	// every Think saw the game so far, with the clock of 7 minutes
	calls := s.recorded()
	game, n := 0, 0
	for _, call := range calls {
		if len(call.moves) < n {
			game++ // a new game started
		}
		if game == len(games) || !slices.Equal(call.moves, games[game].Moves()[:len(call.moves)]) {
			t.Fatalf("Think was given moves %v, not those of game %d", call.moves, game+1)
		}
		if call.remaining <= 0 || call.remaining > 7*time.Minute || call.togo != 0 {
			t.Errorf("Think was given %v for %d moves", call.remaining, call.togo)
		}
		n = len(call.moves)
	}
	if len(calls) < (games[0].Ply()+games[1].Ply())/2-1 {
		t.Errorf("%d Think calls for games of %d and %d plies", len(calls), games[0].Ply(), games[1].Ply())
	}
}

// lastSent returns the last message the transcript shows as sent.
func lastSent(transcript string) string {
	lines := strings.Split(strings.TrimSpace(transcript), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if _, msg, ok := strings.Cut(lines[i], "> "); ok {
			return msg
		}
	}
	return ""
}

func TestServeMoveLimit(t *testing.T) {
	checkLeaks(t)
	var s searchers
	addr, _, _ := startServer(t, s.config("rafle"))
	c, tr := dial(t, addr)
	if _, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.White, 5, 2); err != nil {
		t.Fatal(err)
	}
	p := international.Start()
	for range 2 {
		m, err := c.Receive(within(t, 5*time.Second), &p)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
		m = international.Generate(nil, &p)[0]
		if err := c.Send(&p, m, 0); err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
	}
	_, err := c.Receive(within(t, 5*time.Second), &p)
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrGameEnd || e.Reason != EndUnknown {
		t.Fatalf("Receive after 2 moves each: %v, want GAMEEND 0", err)
	}
	if !strings.Contains(tr.String(), "< Crafle: all 2 moves played\n") {
		t.Errorf("no CHAT saying why:\n%s", tr)
	}
	if calls := s.recorded(); len(calls) != 2 || calls[0].togo != 2 || calls[1].togo != 1 {
		t.Errorf("Think calls %+v, want 2 with 2 and 1 moves to go", calls)
	}
	if err := c.EndGame(within(t, 5*time.Second), EndUnknown); err != nil {
		t.Fatal(err)
	}
}

// raw is a connection to a server that sends and receives message texts.
type raw struct {
	t    *testing.T
	conn net.Conn
	rd   *Reader
}

func dialRaw(t *testing.T, addr string) *raw {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &raw{t, conn, NewReader(conn)}
}

func (r *raw) send(text string) {
	r.t.Helper()
	if _, err := r.conn.Write([]byte(text + "\x00")); err != nil {
		r.t.Fatal(err)
	}
}

// recv returns the next message, or "EOF" when the server closed the connection.
func (r *raw) recv() string {
	r.t.Helper()
	r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, err := r.rd.Read()
	if errors.Is(err, io.EOF) {
		return "EOF"
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// expect checks the next messages.
func (r *raw) expect(want ...string) {
	r.t.Helper()
	for _, w := range want {
		if got := r.recv(); got != w {
			r.t.Fatalf("received %q, want %q", got, w)
		}
	}
}

// gameReq is a GAMEREQ: rafle (the follower) plays colour, from position ("" for 'A').
func gameReq(version int, color engine.Color, position string) string {
	return string(Format(GameReq{Version: version, Initiator: "raw", FollowerColor: color, Time: time.Minute, Position: position}))
}

const acc = "Arafle                           " // GAMEACC up to its code

// rawGame connects to addr and starts a game in which rafle plays black.
func rawGame(t *testing.T, addr string) *raw {
	t.Helper()
	r := dialRaw(t, addr)
	r.send(gameReq(1, engine.Black, ""))
	r.expect(acc + "0")
	return r
}

func TestServeRefusals(t *testing.T) {
	checkLeaks(t)
	var s searchers
	addr, _, _ := startServer(t, s.config("rafle"))
	r := dialRaw(t, addr)
	r.send(gameReq(2, engine.Black, ""))
	r.expect("Crafle: protocol version 02 is not 01", acc+"1")
	noWhite := "W" + strings.Repeat("z", 20) + strings.Repeat("e", 30)
	r.send(gameReq(1, engine.Black, noWhite))
	r.expect("Crafle: no legal move in the starting position", acc+"2")
	crowned := "W" + strings.Repeat("z", 20) + strings.Repeat("e", 29) + "w" // fine
	crowned = "Z" + "w" + crowned[2:]                                        // a white man on 1
	r.send(gameReq(1, engine.Black, crowned))
	if got := r.recv(); got != "Crafle: bad position: square 1: a white man on its own crowning row" {
		t.Errorf("CHAT %q does not say why", got)
	}
	r.expect(acc + "2")
	// the connection serves on: a game, a take-back request, a move that is not legal
	r.send(gameReq(1, engine.Black, ""))
	r.expect(acc + "0")
	r.send("B001W")
	r.expect("K1")
	r.send("M0000322300")
	r.expect("Crafle: illegal move 32-23")
	r.expect("E00")
	r.send("E00") // the answer, between games: nothing comes back
	r.send(gameReq(1, engine.White, ""))
	r.expect(acc + "0")
	start := international.Start()
	if m, err := Parse([]byte(r.recv())); err != nil {
		t.Fatal(err)
	} else if _, err := MoveOf(international, &start, m.(Move)); err != nil {
		t.Fatal(err)
	}
	r.send("E01") // the end, and no further game
	r.expect("E01", "EOF")
}

func TestServeBadMessage(t *testing.T) {
	checkLeaks(t)
	var s searchers
	var notes lockedBuffer
	cfg := s.config("rafle")
	cfg.Notes = func(note string) { notes.Write([]byte(note + "\n")) }
	addr, tr, stop := startServer(t, cfg)
	r := rawGame(t, addr)
	r.send("Xjunk")
	r.expect("EOF")
	if !strings.Contains(tr.String(), `[1] # dxp: protocol error: unknown message type 'X' (message "Xjunk"); closing the connection`) {
		t.Errorf("transcript lacks the error:\n%s", tr)
	}
	rawGame(t, addr) // the server goes on
	stop()
	// the notes are the transcript's "#" lines, for the command's log
	for _, want := range []string{"[1] connection from 127.0.0.1:", "\n[1] dxp: protocol error: unknown message type 'X' (message \"Xjunk\"); closing the connection\n", "\n[2] connection from"} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, notes.String())
		}
	}
}

func TestServeBusy(t *testing.T) {
	checkLeaks(t)
	var s searchers
	addr, _, _ := startServer(t, s.config("rafle"))
	rawGame(t, addr)
	r2 := dialRaw(t, addr)
	r2.expect("Cbusy: 1 games in progress, the most this server plays at once", "EOF")
}

// blockingSearcher thinks until its context ends.
type blockingSearcher struct{}

func (blockingSearcher) NewGame() {}

func (blockingSearcher) Think(ctx context.Context, _ *engine.Game, _ time.Duration, _ int) (engine.Move, error) {
	<-ctx.Done()
	return engine.Move{}, ctx.Err()
}

func TestServeStopsWhileThinking(t *testing.T) {
	checkLeaks(t)
	addr, _, stop := startServer(t, ServerConfig{Name: "rafle", New: func() (Searcher, error) { return blockingSearcher{}, nil }})
	c, _ := dial(t, addr)
	if _, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.White, 5, 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the server is thinking
	stop()
	p := international.Start()
	if _, err := c.Receive(within(t, 5*time.Second), &p); !errors.Is(err, ErrCrash) {
		t.Errorf("Receive from a stopped server: %v, want ErrCrash", err)
	}
}

func TestListenPortInUse(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Listen(ln.Addr().String())
	if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "the port is in use") {
		t.Errorf("Listen on a port in use: %v", err)
	}
}

func TestServeConfig(t *testing.T) {
	for _, cfg := range []ServerConfig{
		{Name: "rafle"},
		{Name: "rafle", Variant: engine.MustLookup("english"), New: func() (Searcher, error) { return blockingSearcher{}, nil }},
	} {
		ln, err := Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		if err := Serve(context.Background(), ln, cfg); err == nil {
			t.Errorf("Serve(%+v): no error", cfg)
		}
	}
}
