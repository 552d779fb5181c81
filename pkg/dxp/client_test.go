package dxp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/leakcheck"
	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/pkg/engine"
)

func TestMain(m *testing.M) { testengines.Main(m) }

func checkLeaks(t *testing.T) { leakcheck.Check(t, 10*time.Second) } // long enough for a loaded machine; no wait without a leak

// startFake runs dxpfake with args and returns its address; the process is killed at the
// end of the test.
func startFake(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, testengines.DXP(t), append([]string{"-listen", "127.0.0.1:0"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		cmd.Wait()
		if stderr.Len() > 0 {
			t.Logf("dxpfake %s: %s", strings.Join(args, " "), stderr.String())
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		t.Fatalf("dxpfake's first line %q, %v", line, err)
	}
	return addr
}

// lockedBuffer is a bytes.Buffer safe for concurrent use, for transcripts.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// dial connects to addr, with a transcript; the connection is closed at the end of the test.
func dial(t *testing.T, addr string) (*Client, *lockedBuffer) {
	t.Helper()
	var tr lockedBuffer
	c, err := Dial(context.Background(), Config{Addr: addr, Name: "rafle test", Transcript: &tr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c, &tr
}

// within returns a context that ends after d.
func within(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// playGame plays a game from start on c, the engine with engineColor and rafle with random
// moves from rng, until it is over under rafle's rules or an engine's answer fails.
func playGame(t *testing.T, c *Client, start engine.Position, engineColor engine.Color, rng *rand.Rand) (*engine.Game, error) {
	t.Helper()
	g := engine.NewGame(international, start)
	for !g.Outcome().Over {
		p := g.Position()
		var m engine.Move
		if p.Side == engineColor {
			var err error
			if m, err = c.Receive(within(t, 5*time.Second), &p); err != nil {
				return g, err
			}
		} else {
			legal := g.Legal()
			m = legal[rng.IntN(len(legal))]
			if err := c.Send(&p, m, 1500*time.Millisecond); err != nil {
				return g, err
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("move %d: %v", g.Ply()+1, err)
		}
	}
	return g, nil
}

// engineResult is the result of a finished game for the engine.
func engineResult(g *engine.Game, engineColor engine.Color) EndReason {
	switch o := g.Outcome(); {
	case o.Draw:
		return EndDraw
	case o.Winner == engineColor:
		return EndWin
	}
	return EndLoss
}

func TestClientPlaysGames(t *testing.T) {
	checkLeaks(t)
	addr := startFake(t, "-seed", "5", "-split")
	c, tr := dial(t, addr)
	rng := rand.New(rand.NewPCG(1, 1))

	// a game from the normal start, the engine white
	name, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.White, 5, 0)
	if err != nil || name != "dxpfake" {
		t.Fatalf("StartGame = %q, %v; want dxpfake", name, err)
	}
	g, err := playGame(t, c, international.Start(), engine.White, rng)
	if err != nil {
		t.Fatalf("game 1, move %d: %v", g.Ply()+1, err)
	}
	if err := c.EndGame(within(t, 5*time.Second), engineResult(g, engine.White)); err != nil {
		t.Fatalf("EndGame: %v", err)
	}

	// a game from a later position with Black to move, the engine black
	start := g.Positions()[7]
	if _, err := c.StartGame(within(t, 5*time.Second), start, engine.Black, 1, 0); err != nil {
		t.Fatal(err)
	}
	g2, err := playGame(t, c, start, engine.Black, rng)
	if err != nil {
		t.Fatalf("game 2, move %d: %v", g2.Ply()+1, err)
	}
	if err := c.EndGame(within(t, 5*time.Second), engineResult(g2, engine.Black)); err != nil {
		t.Fatalf("EndGame: %v", err)
	}

	text := tr.String()
	for _, want := range []string{
		"> R01rafle test                      W005000A\n",
		"> R01rafle test                      Z001000B" + FormatPosition(&start) + "\n",
		"< Adxpfake                         0\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("transcript lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, " < M"); n < g.Ply()/2 {
		t.Errorf("transcript has %d moves received, want at least %d", n, g.Ply()/2)
	}
}

func TestClientMerged(t *testing.T) {
	checkLeaks(t)
	c, _ := dial(t, startFake(t, "-merge"))
	if _, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.White, 5, 0); err != nil {
		t.Fatal(err)
	}
	p := international.Start()
	m, err := c.Receive(within(t, 5*time.Second), &p)
	if err != nil {
		t.Fatalf("Receive after GAMEACC and MOVE in one write: %v", err)
	}
	if got := international.FormatMove(&p, m, false); got != "31-26" { // the first legal move
		t.Errorf("move %s, want 31-26", got)
	}
}

func TestClientFaults(t *testing.T) {
	for _, tc := range []struct {
		args []string
		kind error // of the error of the call that fails
		want string
	}{
		{[]string{"-crash-at", "2"}, ErrCrash, "EOF"},
		{[]string{"-hang-at", "2"}, ErrStall, "deadline exceeded"},
		{[]string{"-illegal-at", "2"}, ErrIllegalMove, "illegal move"},
		{[]string{"-garbage-at", "2"}, ErrProtocol, `MOVE: 9 characters, want at least 11 (message "M00zz3228")`},
		{[]string{"-claim-win-at", "2"}, ErrGameEnd, "3 (I win)"},
		{[]string{"-refuse"}, ErrRefused, "acceptance code 2 (this game refused"},
		{[]string{"-bad-version"}, ErrRefused, "acceptance code 1 (protocol version"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			checkLeaks(t)
			c, tr := dial(t, startFake(t, tc.args...))
			_, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.White, 5, 0)
			if err == nil {
				// the engine's first move, ours, and its second move
				p := international.Start()
				var m engine.Move
				if m, err = c.Receive(within(t, 5*time.Second), &p); err != nil {
					t.Fatalf("first move: %v", err)
				}
				p = p.Play(m)
				if err := c.Send(&p, international.Generate(nil, &p)[0], 0); err != nil {
					t.Fatal(err)
				}
				p = p.Play(international.Generate(nil, &p)[0])
				_, err = c.Receive(within(t, 300*time.Millisecond), &p)
			}
			var e *Error
			if !errors.As(err, &e) || e.Kind != tc.kind || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one of kind %v saying %q", err, tc.kind, tc.want)
			}
			switch tc.kind {
			case ErrCrash: // the connection is unusable
				if again := c.EndGame(context.Background(), EndDraw); !errors.Is(again, tc.kind) {
					t.Errorf("EndGame after %v: %v", err, again)
				}
			case ErrStall: // the game is ended all the same: GAMEEND goes, the answer is awaited
				if err := c.EndGame(within(t, 5*time.Second), EndLoss); err != nil {
					t.Errorf("EndGame after a stall: %v", err)
				}
				if !strings.Contains(tr.String(), "> E") || !strings.Contains(tr.String(), "no GAMEEND from the engine in time") {
					t.Errorf("no GAMEEND sent after the stall:\n%s", tr)
				}
			case ErrIllegalMove:
				if !errors.Is(err, engine.ErrIllegalMove) || e.Text == "" {
					t.Errorf("%#v: want the message and engine.ErrIllegalMove", e)
				}
				fallthrough
			case ErrProtocol, ErrGameEnd: // the game ends, and another one can start
				if err := c.EndGame(within(t, 5*time.Second), EndLoss); err != nil {
					t.Fatalf("EndGame: %v", err)
				}
				if _, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.Black, 5, 0); err != nil {
					t.Fatalf("next StartGame: %v\n%s", err, tr)
				}
			}
			if tc.kind == ErrGameEnd && e.Reason != EndWin {
				t.Errorf("reason %v, want EndWin", e.Reason)
			}
		})
	}
}

func TestClientBackReqAndChat(t *testing.T) {
	checkLeaks(t)
	c, tr := dial(t, startFake(t, "-backreq-at", "1", "-chat"))
	if _, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.White, 5, 0); err != nil {
		t.Fatal(err)
	}
	p := international.Start()
	if _, err := c.Receive(within(t, 5*time.Second), &p); err != nil {
		t.Fatalf("Receive after a BACKREQ: %v\n%s", err, tr)
	}
	for _, want := range []string{"< B001W\n", "# BACKREQ refused", "> K2\n", "< Cdxpfake thinks about its move 1\n"} {
		if !strings.Contains(tr.String(), want) {
			t.Errorf("transcript lacks %q:\n%s", want, tr)
		}
	}
}

func TestClientMisuse(t *testing.T) {
	checkLeaks(t)
	c, _ := dial(t, startFake(t))
	start := international.Start()
	if err := c.Send(&start, international.Generate(nil, &start)[0], 0); !errors.Is(err, errNoGame) {
		t.Errorf("Send before StartGame: %v", err)
	}
	for _, tc := range []struct{ minutes, moves int }{{0, 0}, {1000, 0}, {5, -1}, {5, 1000}} {
		if _, err := c.StartGame(context.Background(), start, engine.White, tc.minutes, tc.moves); err == nil {
			t.Errorf("StartGame(%d minutes, %d moves): no error", tc.minutes, tc.moves)
		}
	}
	if _, err := c.StartGame(within(t, 5*time.Second), start, engine.Black, 5, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.StartGame(within(t, 5*time.Second), start, engine.Black, 5, 0); err == nil {
		t.Error("StartGame during a game: no error")
	}
	bad := start.Play(international.Generate(nil, &start)[0]) // Black to move
	if err := c.Send(&start, international.Generate(nil, &bad)[0], 0); err == nil {
		t.Error("Send of an illegal move: no error")
	}
}

func TestDialFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if _, err := Dial(context.Background(), Config{Addr: addr}); !errors.Is(err, ErrCrash) || !strings.Contains(err.Error(), addr) {
		t.Errorf("Dial(%s) with nothing listening: %v", addr, err)
	}
}

// TestCloseEndsGame: closing a connection during a game ends the game first (GAMEEND, and
// the engine's answer), so that an engine that listens for games is not left in one.
func TestCloseEndsGame(t *testing.T) {
	checkLeaks(t)
	addr := startFake(t)
	var tr lockedBuffer
	c, err := Dial(context.Background(), Config{Addr: addr, Name: "rafle test", Transcript: &tr})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.StartGame(within(t, 5*time.Second), international.Start(), engine.Black, 5, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tr.String(), "> E00\n") || !strings.Contains(tr.String(), "< E00\n") {
		t.Errorf("Close in a game: no GAMEEND sent and answered:\n%s", tr.String())
	}
}
