package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rafle/rafle/pkg/engine"
)

var forfeitReasons = map[string]bool{ReasonIllegalMove: true, ReasonTimeForfeit: true, ReasonCrash: true,
	ReasonStall: true, ReasonProtocolError: true, ReasonResign: true, ReasonFalseClaim: true}

// faulty plays random legal moves, and at its ply-th move of every game does what fault
// says. It counts the players made and closed.
type faulty struct {
	rand   Player
	ply    int
	fault  func(ctx context.Context, t Turn) (Reply, error)
	moves  int
	made   *atomic.Int32
	closed *atomic.Int32
	ended  *atomic.Int32
}

func (f *faulty) Choose(ctx context.Context, t Turn) (Reply, error) {
	f.moves++
	if f.moves == f.ply {
		return f.fault(ctx, t)
	}
	return f.rand.Choose(ctx, t)
}

func (f *faulty) Reset(seed int64)                          { f.moves = 0; f.rand, _ = Random("").New(nil, seed) }
func (f *faulty) Close() error                              { f.closed.Add(1); return nil }
func (f *faulty) StartGame(context.Context, GameInfo) error { f.moves = 0; return nil }
func (f *faulty) EndGame(*Record)                           { f.ended.Add(1) }
func newCounters() (a, b, c *atomic.Int32) {
	return new(atomic.Int32), new(atomic.Int32), new(atomic.Int32)
}

func faultyEntrant(name string, ply int, fault func(context.Context, Turn) (Reply, error), made, closed, ended *atomic.Int32) Entrant {
	return Entrant{Name: name, New: func(v *engine.Variant, seed int64) (Player, error) {
		made.Add(1)
		r, _ := Random("").New(v, seed)
		return &faulty{rand: r, ply: ply, fault: fault, made: made, closed: closed, ended: ended}, nil
	}}
}

func TestForfeits(t *testing.T) {
	illegal := func(_ context.Context, t Turn) (Reply, error) {
		return Reply{Move: engine.Move{From: 1, To: 2}}, nil
	}
	crash := func(context.Context, Turn) (Reply, error) {
		return Reply{}, &Forfeit{Reason: ReasonCrash, Text: "exit status 3", Err: errors.New("engine exited")}
	}
	slow := func(ctx context.Context, t Turn) (Reply, error) {
		select {
		case <-time.After(time.Minute): // far past the 50 ms time-out, whatever the load
		case <-ctx.Done():
			return Reply{}, &Forfeit{Reason: ReasonStall, Err: ctx.Err()}
		}
		return Reply{Move: t.Game.Legal()[0]}, nil
	}
	late := func(ctx context.Context, t Turn) (Reply, error) { // answers after its deadline
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		return Reply{Move: t.Game.Legal()[0]}, nil
	}
	for _, tc := range []struct {
		name    string
		fault   func(context.Context, Turn) (Reply, error)
		control *TimeControl
		reason  string
		detail  string
	}{
		{"illegal", illegal, nil, ReasonIllegalMove, "illegal-move"},
		{"crash", crash, nil, ReasonCrash, `exit status 3`},
		{"stall", slow, &TimeControl{Depth: 3, Timeout: 50 * time.Millisecond}, ReasonStall, "stall"},
		{"late", late, &TimeControl{MoveTime: 30 * time.Millisecond, Margin: 10 * time.Millisecond}, ReasonTimeForfeit, "move took"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			made, closed, ended := newCounters()
			bad := faultyEntrant("bad", 3, tc.fault, made, closed, ended)
			bad.Control = tc.control
			dir := t.TempDir()
			cfg := Config{Variant: english, Players: []Entrant{bad, Random("good")}, Games: 6, Openings: testOpenings(t, 3),
				Seed: 5, MaxPlies: 40, Concurrency: 2, PDNPath: filepath.Join(dir, "m.pdn")}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			p := res.Pairings[0]
			if res.Games != 6 || p.Losses != 6 || p.Wins != 0 {
				t.Errorf("bad scored %d-%d-%d in %d games, want 0-0-6 of 6", p.Wins, p.Draws, p.Losses, res.Games)
			}
			if len(res.Terminations) != 1 || res.Terminations[0].Reason != tc.reason {
				t.Errorf("terminations %+v, want all %s", res.Terminations, tc.reason)
			}
			if m, c := made.Load(), closed.Load(); m != 6 || c != 6 {
				t.Errorf("%d players made, %d closed: want a new one after each of the 6 forfeits, each closed", m, c)
			}
			if e := ended.Load(); e != 0 {
				t.Errorf("EndGame called %d times on forfeited players", e)
			}
			checkPDN(t, cfg.PDNPath, english)
			data, _ := os.ReadFile(cfg.PDNPath)
			if n := strings.Count(string(data), "bad ("); n != 6 || !strings.Contains(string(data), tc.detail) {
				t.Errorf("PDN: %d forfeit comments, want 6 naming %q:\n%s", n, tc.detail, data)
			}
		})
	}
}

func TestClock(t *testing.T) {
	tc := TimeControl{Moves: 2, Base: time.Second, Inc: 100 * time.Millisecond, Margin: 50 * time.Millisecond}
	c := newClock(&tc)
	if s := c.state(nil); s.Remaining != time.Second || s.MovesToGo != 2 {
		t.Fatalf("start: %+v", s)
	}
	if c.spend(400 * time.Millisecond) {
		t.Fatal("flag fell at 0.4 s of 1 s")
	}
	// 1 - 0.4 + 0.1 = 0.7 s, 1 move to go
	if s := c.state(nil); s.Remaining != 700*time.Millisecond || s.MovesToGo != 1 {
		t.Fatalf("after one move: %+v", s)
	}
	if c.spend(740 * time.Millisecond) { // within the margin: 0.7 + 0.05
		t.Fatal("flag fell within the margin")
	}
	// -0.04 + 0.1 + 1 (new period) = 1.06 s
	if s := c.state(nil); s.Remaining != 1060*time.Millisecond || s.MovesToGo != 2 {
		t.Fatalf("after the period: %+v", s)
	}
	if !c.spend(1111 * time.Millisecond) {
		t.Fatal("no flag at 1.111 s of 1.06 s + 0.05 margin")
	}
}

func TestParseTimeControl(t *testing.T) {
	for text, want := range map[string]TimeControl{
		"tc=40/60+0.5":   {Moves: 40, Base: time.Minute, Inc: 500 * time.Millisecond},
		"tc=10+0.1":      {Base: 10 * time.Second, Inc: 100 * time.Millisecond},
		"tc=90":          {Base: 90 * time.Second},
		"st=0.25":        {MoveTime: 250 * time.Millisecond},
		"depth=7":        {Depth: 7},
		"nodes=50000":    {Nodes: 50000},
		"timemargin=200": {Margin: 200 * time.Millisecond},
	} {
		var tc TimeControl
		k, v, _ := strings.Cut(text, "=")
		if ok, err := tc.SetTimeControl(k, v); !ok || err != nil || tc != want {
			t.Errorf("%s: got %+v (%v, %v), want %+v", text, tc, ok, err, want)
		}
		if tc.String() != text {
			t.Errorf("%s: String %q", text, tc.String())
		}
	}
	for _, text := range []string{"tc=", "tc=0", "tc=x/60", "tc=40/", "tc=60+x", "tc=-5", "st=0", "depth=0", "nodes=-1", "timemargin=-1", "timeout=0"} {
		var tc TimeControl
		k, v, _ := strings.Cut(text, "=")
		if ok, err := tc.SetTimeControl(k, v); !ok || err == nil {
			t.Errorf("%s: accepted as %+v", text, tc)
		}
	}
}

// scorer reports a fixed score for every move.
type scorer struct {
	Player
	score int
}

func (s scorer) Choose(ctx context.Context, t Turn) (Reply, error) {
	r, err := s.Player.Choose(ctx, t)
	r.Score, r.HasScore, r.Depth = s.score, true, 1
	return r, err
}

func scoring(name string, score int) Entrant {
	return Entrant{Name: name, New: func(v *engine.Variant, seed int64) (Player, error) {
		r, _ := Random("").New(v, seed)
		return scorer{r, score}, nil
	}}
}

func TestAdjudication(t *testing.T) {
	a, err := ParseAdjudication("draw=4:0.1,resign=3:2.5")
	if err != nil || a != (Adjudication{DrawMoves: 4, DrawScore: 10, ResignMoves: 3, ResignScore: 250}) || a.String() != "draw=4:0.1,resign=3:2.5" {
		t.Fatalf("ParseAdjudication: %+v, %v", a, err)
	}
	for _, bad := range []string{"draw", "draw=4", "draw=0:1", "draw=4:-1", "resign=x:1", "win=3:1", ""} {
		if _, err := ParseAdjudication(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, tc := range []struct {
		scores [2]int
		reason string
		plies  int // plies after the opening
	}{
		{[2]int{5, -5}, ReasonAdjudicatedDraw, 8},    // both within 0.1 for 4 moves each
		{[2]int{300, -300}, ReasonAdjudicatedWin, 6}, // 3 moves each beyond 2.5, both agree
		{[2]int{300, 0}, "", 0},                      // only one side thinks it wins: no adjudication
	} {
		cfg := Config{Variant: english, Players: []Entrant{scoring("a", tc.scores[0]), scoring("b", tc.scores[1])},
			Games: 2, Openings: testOpenings(t, 1), Seed: 1, MaxPlies: 30, Adjudication: &a, Concurrency: 1,
			PDNPath: filepath.Join(t.TempDir(), "m.pdn")}
		cfg.JournalPath = cfg.PDNPath + ".journal"
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(cfg.JournalPath)
		_, recs, _, err := readJournal(f, cfg.JournalPath)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if tc.reason == "" {
				if strings.HasPrefix(r.Reason, "adjudicated") {
					t.Errorf("scores %v: game %d adjudicated (%s)", tc.scores, r.Game, r.Reason)
				}
				continue
			}
			plies := len(r.Moves) - r.OpeningPlies
			if r.Reason != tc.reason || plies != tc.plies || len(r.Info) != 0 {
				t.Errorf("scores %v: game %d ended %q after %d plies (info %d), want %q after %d", tc.scores, r.Game, r.Reason, plies, len(r.Info), tc.reason, tc.plies)
			}
			if tc.reason == ReasonAdjudicatedWin {
				winner := r.White
				if r.Winner == "black" {
					winner = r.Black
				}
				if winner != "a" {
					t.Errorf("game %d: %s won by adjudication, want a", r.Game, winner)
				}
			}
		}
		checkPDN(t, cfg.PDNPath, english)
	}
}

func TestJournalLocked(t *testing.T) {
	dir := t.TempDir()
	cfg := randomMatch(t, dir)
	j, _, err := openJournal(cfg.JournalPath, cfg.header(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	before, _ := os.ReadFile(cfg.JournalPath)
	_, err = Run(context.Background(), cfg)
	if !errors.Is(err, ErrJournalLocked) {
		t.Fatalf("a second match on a journal in use: %v, want ErrJournalLocked", err)
	}
	after, _ := os.ReadFile(cfg.JournalPath)
	if string(before) != string(after) {
		t.Error("the refused match changed the journal")
	}
	if _, err := os.Stat(cfg.PDNPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused match created its PDN file (%v)", err)
	}
}

func TestMoveInfoInPDN(t *testing.T) {
	tc := &TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}
	a := scoring("a", 35)
	a.Control = tc
	dir := t.TempDir()
	cfg := Config{Variant: english, Players: []Entrant{a, Random("b")}, Games: 2, Openings: testOpenings(t, 1),
		Seed: 1, MaxPlies: 10, PDNPath: filepath.Join(dir, "m.pdn")}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(cfg.PDNPath)
	text := string(data)
	// each game: 5 moves of a with a clock and a score, 5 of b with a time only
	if n := strings.Count(text, "[%clock 0:00:1"); n != 10 {
		t.Errorf("%d clock comments, want 10:\n%s", n, text)
	}
	if n := strings.Count(text, "[%eval 0.35/1]"); n != 10 {
		t.Errorf("%d eval comments, want 10:\n%s", n, text)
	}
	if n := strings.Count(text, "[%emt "); n != 20 {
		t.Errorf("%d emt comments, want 20:\n%s", n, text)
	}
	checkPDN(t, cfg.PDNPath, english)
}

// lateReporter plays random moves, taking wait over each, and reports elapsed as the move's
// time at the protocol boundary (Reply.Elapsed).
type lateReporter struct {
	Player
	wait, elapsed time.Duration
}

func (l lateReporter) Choose(ctx context.Context, t Turn) (Reply, error) {
	r, err := l.Player.Choose(ctx, t)
	time.Sleep(l.wait)
	r.Elapsed = l.elapsed
	return r, err
}

// TestClockChargesProtocolTime: the clock is charged the move's time that the player
// measured where it talks to the engine (Reply.Elapsed), not the whole call, whose rafle
// side a loaded machine stretches; a player that measures nothing is charged the call.
func TestClockChargesProtocolTime(t *testing.T) {
	english := engine.MustLookup("english")
	for _, tt := range []struct {
		elapsed  time.Duration
		forfeits bool
	}{{time.Millisecond, false}, {0, true}} {
		tc := TimeControl{MoveTime: 20 * time.Millisecond}
		slow := Entrant{Name: "slow", Control: &tc, New: func(v *engine.Variant, seed int64) (Player, error) {
			r, _ := Random("").New(v, seed)
			return lateReporter{r, 40 * time.Millisecond, tt.elapsed}, nil
		}}
		cfg := Config{Variant: english, Players: []Entrant{slow, Random("random")}, Games: 2, MaxPlies: 6, Seed: 1,
			Openings: []Opening{{Name: "start", Root: english.Start()}}}
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		forfeits := 0
		for _, term := range res.Terminations {
			if term.Reason == ReasonTimeForfeit {
				forfeits += term.Games
			}
		}
		if (forfeits == 2) != tt.forfeits || (forfeits == 0) == tt.forfeits {
			t.Errorf("Reply.Elapsed %v: %d of 2 games lost on time, want %v", tt.elapsed, forfeits, map[bool]string{true: "both", false: "none"}[tt.forfeits])
		}
	}
}
