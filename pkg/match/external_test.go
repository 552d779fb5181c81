package match

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/pkg/engine"
)

func TestMain(m *testing.M) { testengines.Main(m) }

// readRecords returns the journal's games by index.
func readRecords(t *testing.T, path string) map[int]Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, recs, _, err := readJournal(f, path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]Record{}
	for _, r := range recs {
		out[r.Game] = r
	}
	return out
}

// TestHubFaults plays a Hub engine that fails in each way the referee knows against a
// random player: every game is played, the engine loses the games where it fails with the
// failure's termination and text, and it is restarted for the next game.
func TestHubFaults(t *testing.T) {
	fake := testengines.Hub(t)
	intl := engine.MustLookup("international")
	for _, tc := range []struct {
		args   string
		tc     string
		reason string
		detail string // in the forfeit's PDN comment
	}{
		{"-crash-at 3", "depth=1", ReasonCrash, "crash"},
		{"-hang-at 3", "depth=1,timeout=0.3", ReasonStall, "stall"},
		{"-illegal-at 3", "depth=1", ReasonIllegalMove, "illegal-move"},
		{"-garbage-at 3", "depth=1", ReasonProtocolError, "protocol-error"},
		{"-error-at 3", "depth=1", ReasonProtocolError, "protocol-error"},
		{"-busy 200ms", "st=0.05,timemargin=20", ReasonTimeForfeit, "time-forfeit"}, // deaf to "stop" for 200 ms
	} {
		t.Run(tc.args, func(t *testing.T) {
			t.Parallel() // they mostly wait for time-outs
			spec, err := ParseEngineSpec("name=fake,cmd=" + fake + `,args="` + tc.args + `",` + tc.tc)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var stderr strings.Builder
			ext := External(spec, ExternalOptions{TranscriptDir: dir, Stderr: &lockedWriter{w: &stderr}, HandshakeTimeout: 5 * time.Second})
			cfg, res := playFaultMatch(t, ext, dir)
			recs := readRecords(t, cfg.JournalPath)
			forfeits := 0
			for i, r := range recs {
				if r.Reason != tc.reason {
					continue
				}
				forfeits++
				if r.player(engine.White) == "fake" && r.Winner != "black" || r.player(engine.Black) == "fake" && r.Winner != "white" {
					t.Errorf("game %d: %s, but the winner is %s (white %s)", i+1, r.Reason, r.Winner, r.White)
				}
				if !strings.Contains(r.Detail, tc.detail) || !strings.Contains(r.Detail, "fake") || !strings.Contains(r.Detail, ":W") {
					t.Errorf("game %d: detail %q, want who, %q and the FEN", i+1, r.Detail, tc.detail)
				}
			}
			// The fault comes at the engine's 3rd search of a process: every game of a fresh
			// process reaches it (30 plies), and the engine is restarted after each.
			if want := 4; tc.reason == ReasonTimeForfeit {
				want = 4 // every move is slow
				if forfeits != want {
					t.Errorf("%d games lost on time, want %d: %+v", forfeits, want, res.Terminations)
				}
			} else if forfeits != want {
				t.Errorf("%d games ended %s, want %d (a restarted engine fails again): %+v", forfeits, tc.reason, want, res.Terminations)
			}
			checkPDN(t, cfg.PDNPath, intl)
			logs, _ := filepath.Glob(filepath.Join(dir, "game-*-fake.log"))
			if len(logs) != 4 {
				t.Errorf("%d transcripts, want 4", len(logs))
			}
		})
	}
}

// playFaultMatch plays 4 international games of ext against a random player, writing
// the PDN and journal in dir, and checks that every game was played.
func playFaultMatch(t *testing.T, ext Entrant, dir string) (Config, *Result) {
	t.Helper()
	intl := engine.MustLookup("international")
	ops, _ := RandomOpenings(intl, 2, 2, 3, nil)
	cfg := Config{Variant: intl, Players: []Entrant{ext, Random("random")}, Games: 4, Openings: ops, Seed: 2,
		MaxPlies: 30, Concurrency: 2, PDNPath: filepath.Join(dir, "m.pdn")}
	cfg.JournalPath = cfg.PDNPath + ".journal"
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 4 {
		t.Fatalf("%d games, want 4", res.Games)
	}
	return cfg, res
}

// lockedWriter serialises writes from several processes' stderr copies.
type lockedWriter struct {
	mu sync.Mutex
	w  interface{ Write([]byte) (int, error) }
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestHubStartErrors checks that an engine that cannot start, does not speak Hub or lacks the
// variant gives one line naming the cause, and that a silent or foreign engine is given up on
// after the handshake timeout, which its error names (a hang would end the test by go test's
// -timeout; no wall-clock bound here, so that the verdict does not depend on the load).
func TestHubStartErrors(t *testing.T) {
	fake := testengines.Hub(t)
	intl := engine.MustLookup("international")
	ctx := context.Background()
	for _, tc := range []struct {
		spec string
		v    *engine.Variant
		want []string
	}{
		{"name=x,cmd=/nonexistent/engine,depth=1", intl, []string{"nonexistent"}},
		{"name=x,cmd=" + fake + ",args=-no-hub,depth=1", intl, []string{"x", "within 500ms"}},
		{"name=x,cmd=" + fake + ",args=-wrong-protocol,depth=1", intl, []string{"uciok", "within 500ms"}},
		{"name=x,cmd=" + fake + ",args=\"-variants normal\",depth=1", engine.MustLookup("frisian"), []string{"frisian"}},
	} {
		spec, err := ParseEngineSpec(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckHub(ctx, spec, tc.v, ExternalOptions{HandshakeTimeout: 500 * time.Millisecond})
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line", tc.spec, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v, want it to name %q", tc.spec, err, w)
			}
		}
	}
}

func TestParseEngineSpec(t *testing.T) {
	spec, err := ParseEngineSpec(`name=scan,cmd=/opt/scan/scan,args="hub --x 'a b'",dir=/opt/scan,option.book=false,option.threads=2,tc=40/60+0.5,timemargin=100`)
	if err != nil {
		t.Fatal(err)
	}
	want := EngineSpec{Name: "scan", Proto: "hub", Cmd: "/opt/scan/scan", Args: []string{"hub", "--x", "a b"}, Dir: "/opt/scan",
		Options: [][2]string{{"book", "false"}, {"threads", "2"}}, Conns: 1,
		Control: TimeControl{Moves: 40, Base: time.Minute, Inc: 500 * time.Millisecond, Margin: 100 * time.Millisecond}}
	if !equalSpec(spec, want) {
		t.Errorf("got %+v\nwant %+v", spec, want)
	}
	spec, err = ParseEngineSpec("name=kr,proto=dxp,port=27532,tc=300")
	if err != nil || spec.Addr != "127.0.0.1:27532" || spec.Control.Base != 5*time.Minute {
		t.Errorf("dxp: %+v, %v", spec, err)
	}
	for _, bad := range []string{
		"", "cmd=x,depth=1", "name=x,depth=1", "name=x,cmd=y", "name=x,cmd=y,depth=1,depth=2", "name=x,cmd=y,depth=1,colour=red",
		"name=x,cmd=y,depth=1,proto=uci", "name=x,cmd=y,tc=60,st=1", "name=x,cmd=y,depth=1,port=5", `name=x,cmd=y,args="a,depth=1`,
		"name=x,cmd=y,depth=1,,", "name=x,proto=dxp,tc=40/60", "name=x,proto=dxp,tc=60+1", "name=x,proto=dxp,port=70000,tc=60",
		"name=x,proto=dxp,depth=3", "name=x,proto=dxp,st=1", "name=x,proto=dxp,tc=30", "name=x,proto=dxp,tc=90", "name=x,proto=dxp,tc=60000",
		"name=a,b,cmd=y,depth=1", `name=x,cmd=y,args="'a",depth=1`, "name=x,cmd=y,tc=abc",
	} {
		if spec, err := ParseEngineSpec(bad); err == nil {
			t.Errorf("%q accepted as %+v", bad, spec)
		}
	}
}

// TestDXPClockSpec: DXP sends the game's time in whole minutes, so a tc= that is not a
// whole number of minutes is refused with one that is, rather than sent as another clock
// than the one rafle keeps; and what is sent is the clock kept.
func TestDXPClockSpec(t *testing.T) {
	if _, err := ParseEngineSpec("name=x,proto=dxp,tc=30"); err == nil || !strings.Contains(err.Error(), "whole minutes") || !strings.Contains(err.Error(), "tc=60") {
		t.Errorf("tc=30: %v, want a refusal suggesting tc=60", err)
	}
	for _, tc := range []struct {
		spec    string
		minutes int
	}{{"tc=60", 1}, {"tc=300", 5}, {"tc=59940", 999}} {
		spec, err := ParseEngineSpec("name=x,proto=dxp," + tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if m, _ := dxpClock(&spec.Control); m != tc.minutes || time.Duration(m)*time.Minute != spec.Control.Base {
			t.Errorf("%s: GAMEREQ gets %d minutes, the clock kept is %v; want %d minutes, the same", tc.spec, m, spec.Control.Base, tc.minutes)
		}
	}
}

func equalSpec(a, b EngineSpec) bool {
	return a.Name == b.Name && a.Proto == b.Proto && a.Cmd == b.Cmd && strings.Join(a.Args, "\x00") == strings.Join(b.Args, "\x00") &&
		a.Dir == b.Dir && len(a.Options) == len(b.Options) && (len(a.Options) == 0 || a.Options[0] == b.Options[0] && a.Options[1] == b.Options[1]) &&
		a.Addr == b.Addr && a.Conns == b.Conns && a.Control == b.Control
}

// startDXPFake starts dxpfake with args and returns the address it listens on.
func startDXPFake(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(testengines.DXP(t), args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make([]byte, 64)
	n, _ := out.Read(line)
	addr, ok := strings.CutPrefix(strings.TrimSpace(string(line[:n])), "listening ")
	if !ok {
		t.Fatalf("dxpfake said %q", line[:n])
	}
	return addr
}

// TestDXPFaults plays a DXP engine that fails in each way against a random player: every
// game is played, and the engine loses the game where it fails with the failure's
// termination.
func TestDXPFaults(t *testing.T) {
	intl := engine.MustLookup("international")
	for _, tc := range []struct {
		args   string
		reason string // "" : no forfeit, every game played normally
		want   int    // games lost with reason
	}{
		{"-split -chat", "", 0},
		{"-merge", "", 0},
		{"-illegal-at 3", ReasonIllegalMove, 1},
		{"-garbage-at 3", ReasonProtocolError, 1},
		{"-hang-at 3", ReasonStall, 4}, // it never answers again
		// it refuses every game until the stalled one has ended: rafle ends it (GAMEEND)
		{"-stall-at 3", ReasonStall, 1},
		{"-claim-win-at 3", ReasonFalseClaim, 1},
		{"-crash-at 3", ReasonCrash, 4}, // gone: no later game can connect
		{"-refuse", ReasonProtocolError, 4},
		{"-backreq-at 2", "", 0}, // refused take-back; the game goes on
	} {
		t.Run(tc.args, func(t *testing.T) {
			t.Parallel() // they mostly wait for time-outs
			addr := startDXPFake(t, strings.Fields(tc.args)...)
			spec := EngineSpec{Name: "fake", Proto: "dxp", Addr: addr, Conns: 1, Control: TimeControl{MoveTime: 300 * time.Millisecond, Margin: 2 * time.Second}}
			dir := t.TempDir()
			ext := External(spec, ExternalOptions{TranscriptDir: dir, HandshakeTimeout: 2 * time.Second}) // generous: a verdict must not depend on the load
			cfg, res := playFaultMatch(t, ext, dir)
			lost := 0
			for i, r := range readRecords(t, cfg.JournalPath) {
				switch {
				case r.Reason == tc.reason:
					lost++
					if !strings.Contains(r.Detail, "fake") || !strings.Contains(r.Detail, ":W") {
						t.Errorf("game %d: detail %q", i+1, r.Detail)
					}
				case forfeitReasons[r.Reason] || r.Reason == ReasonFalseClaim || r.Reason == ReasonResign:
					b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("game-%06d-fake.log", i+1)))
					t.Errorf("game %d: %s (%s), want %q\n%s", i+1, r.Reason, r.Detail, tc.reason, b)
				}
			}
			if tc.reason != "" && lost != tc.want {
				t.Errorf("%d games ended %s, want %d: %+v", lost, tc.reason, tc.want, res.Terminations)
			}
			checkPDN(t, cfg.PDNPath, intl)
		})
	}
}

// TestHubStopAtMoveTime: under st= the engine is told to stop when its time is up, and the
// margin is for its answer: an engine that searches until told (or finishes an iteration
// before it reads "stop", as Scan 2.0 does) loses no game on time. The margin is large so
// that only a "stop" sent late (at the time plus the margin) can flag it.
func TestHubStopAtMoveTime(t *testing.T) {
	fake := testengines.Hub(t)
	intl := engine.MustLookup("international")
	for _, args := range []string{"-slow 1m", "-busy 150ms -slow 1m"} {
		t.Run(args, func(t *testing.T) {
			t.Parallel()
			spec, err := ParseEngineSpec("name=fake,cmd=" + fake + `,args="` + args + `",st=0.05,timemargin=5000`)
			if err != nil {
				t.Fatal(err)
			}
			ops, _ := RandomOpenings(intl, 1, 2, 3, nil)
			cfg := Config{Variant: intl, Players: []Entrant{External(spec, ExternalOptions{HandshakeTimeout: 5 * time.Second}), Random("random")},
				Games: 2, Openings: ops, Seed: 2, MaxPlies: 8, Concurrency: 2}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Terminations) != 1 || res.Terminations[0] != (Termination{Reason: ReasonMaxPlies, Games: 2, Draws: 2}) {
				t.Errorf("%d games, terminations %v; want 2 games to max-plies, none lost on time", res.Games, res.Terminations)
			}
		})
	}
}

// TestHubEngineInterrupted: an engine killed by SIGTERM from outside rafle (as a Ctrl-C to
// the process group, timeout(1) or Slurm kill it) makes no result: the match stops with
// ErrEngineInterrupted, and no game is recorded as its crash.
func TestHubEngineInterrupted(t *testing.T) {
	fake := testengines.Hub(t)
	spec, err := ParseEngineSpec("name=fake,cmd=" + fake + `,args="-signal-at 3",depth=1`)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	intl := engine.MustLookup("international")
	ops, _ := RandomOpenings(intl, 2, 2, 3, nil)
	cfg := Config{Variant: intl, Players: []Entrant{External(spec, ExternalOptions{HandshakeTimeout: 5 * time.Second}), Random("random")},
		Games: 4, Openings: ops, Seed: 2, MaxPlies: 30, Concurrency: 1, PDNPath: filepath.Join(dir, "m.pdn")}
	cfg.JournalPath = cfg.PDNPath + ".journal"
	res, err := Run(context.Background(), cfg)
	if !errors.Is(err, ErrEngineInterrupted) || res == nil || !res.Interrupted {
		t.Fatalf("Run = %v, %v; want ErrEngineInterrupted", res, err)
	}
	if recs := readRecords(t, cfg.JournalPath); len(recs) != 0 {
		t.Errorf("the journal holds %d games (%+v), want none: the first game was interrupted", len(recs), recs)
	}
	if res.Games != 0 || len(res.Terminations) != 0 {
		t.Errorf("results: %d games, %v; want none", res.Games, res.Terminations)
	}
}

// TestDXPInterruptedGameEnds: a match interrupted during a DXP game ends that game with
// GAMEEND, so that an engine started outside rafle, which refuses games while one is in
// progress, plays the next match.
func TestDXPInterruptedGameEnds(t *testing.T) {
	intl := engine.MustLookup("international")
	addr := startDXPFake(t, "-stall-at", "1")
	spec := EngineSpec{Name: "fake", Proto: "dxp", Addr: addr, Conns: 1, Control: TimeControl{Timeout: time.Minute}}
	dir := t.TempDir()
	ops, _ := RandomOpenings(intl, 1, 2, 3, nil)
	cfg := Config{Variant: intl, Players: []Entrant{External(spec, ExternalOptions{TranscriptDir: dir, HandshakeTimeout: 300 * time.Millisecond}), Random("random")},
		Games: 2, Openings: ops, Seed: 2, MaxPlies: 6, Concurrency: 1}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // once the engine has accepted the game (it then stalls), or after a bound
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if b, _ := os.ReadFile(filepath.Join(dir, "game-000001-fake.log")); strings.Contains(string(b), "< A") {
				break
			}
		}
		cancel()
	}()
	if _, err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted match: %v", err)
	}
	cfg.Players[0] = External(spec, ExternalOptions{HandshakeTimeout: 300 * time.Millisecond})
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range res.Terminations {
		if forfeitReasons[term.Reason] || term.Reason == ReasonResign || term.Reason == ReasonFalseClaim {
			t.Errorf("the next match: %+v, want every game played out", res.Terminations)
		}
	}
}
