package match

import (
	"context"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/pkg/engine"
)

// TestCheckPositions: every variant gets the start position and the positions the check
// promises, each what its name says, and the same ones every time.
func TestCheckPositions(t *testing.T) {
	for _, v := range engine.Variants() {
		ps := CheckPositions(v)
		again := CheckPositions(v)
		if len(ps) != len(again) {
			t.Fatalf("%s: %d positions, then %d", v.Name, len(ps), len(again))
		}
		names := map[string]bool{}
		for i, p := range ps {
			pos, legal := p.Game.Position(), p.Game.Legal()
			if q := again[i].Game.Position(); !pos.Equal(&q) || p.Name != again[i].Name {
				t.Errorf("%s: position %d differs between two calls", v.Name, i)
			}
			if p.Game.Outcome().Over || len(legal) == 0 {
				t.Errorf("%s: %s: the game is over", v.Name, p.Name)
			}
			kind, _, _ := strings.Cut(p.Name, " (")
			names[kind] = true
			count := func(f func(engine.Move) bool) int {
				n := 0
				for _, m := range legal {
					if f(m) {
						n++
					}
				}
				return n
			}
			switch kind {
			case "captures":
				if count(engine.Move.IsCapture) < 2 {
					t.Errorf("%s: %s: fewer than 2 captures", v.Name, p.Name)
				}
			case "long capture":
				if !slices.ContainsFunc(legal, func(m engine.Move) bool { return m.CaptureCount() >= 2 }) {
					t.Errorf("%s: %s: no capture of 2 pieces or more", v.Name, p.Name)
				}
			case "promotion":
				if count(engine.Move.Promotes) == 0 {
					t.Errorf("%s: %s: no promotion", v.Name, p.Name)
				}
			case "one legal move":
				if len(legal) != 1 {
					t.Errorf("%s: %s: %d legal moves", v.Name, p.Name, len(legal))
				}
			case "a move from a draw":
				drawn := false
				for _, m := range legal {
					g := engine.NewGame(v, p.Game.Start())
					for _, h := range p.Game.Moves() {
						g.Play(h)
					}
					g.Play(m)
					drawn = drawn || g.Outcome().Draw
				}
				if !drawn || !p.History {
					t.Errorf("%s: %s: no move draws (or no history)", v.Name, p.Name)
				}
			}
		}
		for _, want := range []string{"start", "captures", "long capture", "promotion", "one legal move"} {
			if !names[want] {
				t.Errorf("%s: no %s position", v.Name, want)
			}
		}
	}
	// every variant with a draw rule has a position a move from a draw: from its random
	// games, or kings shuffling to and fro (kingShuffle); breakthrough is won by the first
	// king, so has no position of kings to shuffle
	for _, name := range engine.Names() {
		ps := CheckPositions(engine.MustLookup(name))
		has := strings.HasPrefix(ps[len(ps)-1].Name, "a move from a draw")
		if has != (name != "breakthrough") {
			t.Errorf("%s: the last position is %q", name, ps[len(ps)-1].Name)
		}
	}
}

// checkHub checks hubfake with args under the time control tc.
func checkHub(t *testing.T, args, tc string) *CheckReport {
	t.Helper()
	fake := testengines.Hub(t)
	spec, err := ParseEngineSpec("name=fake,cmd=" + fake + `,args="` + args + `",` + tc)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Check(context.Background(), spec, CheckOptions{HandshakeTimeout: 2 * time.Second, LatencyMoves: 3})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCheckHubCompliant: a well-behaved Hub engine passes every check, in every variant it
// claims that rafle knows, and the check says which claimed variant it could not check.
func TestCheckHubCompliant(t *testing.T) {
	rep := checkHub(t, "-variants normal,frisian,english,bogus -seed 7", "depth=2")
	if n := rep.Failed(); n != 0 {
		t.Fatalf("%d checks failed: %+v", n, rep.Checks)
	}
	if want := []string{"international", "frisian", "english"}; !slices.Equal(rep.Variants, want) {
		t.Errorf("variants %v, want %v", rep.Variants, want)
	}
	if len(rep.Unknown) != 1 || !strings.Contains(rep.Unknown[0], "bogus") {
		t.Errorf("unknown variants %q, want bogus", rep.Unknown)
	}
	moves := 0
	for _, v := range rep.Variants {
		moves += len(CheckPositions(engine.MustLookup(v)))
	}
	var got []string
	for _, c := range rep.Checks {
		got = append(got, c.Name)
	}
	// handshake, a start per variant with its moves, the restart
	if len(got) != 1+3+moves+1 || got[0] != "handshake" || got[len(got)-1] != "restart" {
		t.Errorf("checks %q: want handshake, 3 variants, %d moves, restart", got, moves)
	}
	if rep.Latency == nil || rep.Latency.Moves != 3 || rep.ID["name"] != "hubfake" {
		t.Errorf("latency %+v, id %v", rep.Latency, rep.ID)
	}
}

// TestCheckHubFaults: each misbehaviour fails the check it should, with its transcript,
// and the check goes on after it with a new process.
func TestCheckHubFaults(t *testing.T) {
	for _, tt := range []struct {
		args, tc string
		check    string // the first failed check: name/position
		detail   string
	}{
		{"-no-hub", "depth=1", "handshake/", "no answer"},
		{"-wrong-protocol", "depth=1", "handshake/", "protocol error"},
		{"-illegal-at 2", "depth=1", "move/captures", "illegal move"},
		{"-garbage-at 3", "depth=1", "move/long capture", "protocol error"},
		{"-error-at 2", "depth=1", "move/captures", "protocol error"},
		{"-crash-at 4", "depth=1", "move/promotion", "crashed"},
		{"-hang-at 5", "depth=1,timeout=0.5", "move/one legal move", "no answer"},
		// it searches 500 ms before it reads "stop": an answer after the 150 ms allowed
		{"-busy 500ms", "st=0.05,timemargin=100", "move/start", "late"},
	} {
		t.Run(tt.args, func(t *testing.T) {
			t.Parallel() // the engines wait more than they work
			rep := checkHub(t, tt.args, tt.tc)
			var failed *CheckResult
			for i := range rep.Checks {
				if !rep.Checks[i].Passed {
					failed = &rep.Checks[i]
					break
				}
			}
			if failed == nil {
				t.Fatalf("no check failed: %+v", rep.Checks)
			}
			name := failed.Name + "/" + failed.Position
			if !strings.HasPrefix(name, tt.check) || !strings.Contains(failed.Detail, tt.detail) {
				t.Errorf("first failure %s: %s; want %s: %s", name, failed.Detail, tt.check, tt.detail)
			}
			if !strings.Contains(failed.Transcript, "> ") {
				t.Errorf("no transcript: %q", failed.Transcript)
			}
			last := rep.Checks[len(rep.Checks)-1]
			if tt.check != "handshake/" && tt.detail != "late" && (last.Name != "restart" || !last.Passed) {
				t.Errorf("last check %+v, want a restart that passed", last)
			}
		})
	}
}

// freeAddr returns a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// TestCheckDXP: a well-behaved DXP engine passes; an illegal move and a hang fail the
// position they happen in, and the engine is started again for the next one.
func TestCheckDXP(t *testing.T) {
	fake := testengines.DXP(t)
	for _, tt := range []struct{ args, failed, detail string }{
		{"", "", ""},
		{"-illegal-at 2", "captures", "illegal move"},
		{"-garbage-at 3", "long capture", "protocol error"},
		{"-hang-at 2", "captures", "no answer"},
	} {
		t.Run(tt.args, func(t *testing.T) {
			t.Parallel()
			port := freeAddr(t)
			spec, err := ParseEngineSpec("name=d,proto=dxp,cmd=" + fake + `,args="-listen 127.0.0.1:` + port + " " + tt.args + `",port=` + port + ",timeout=0.5")
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Check(context.Background(), spec, CheckOptions{HandshakeTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var failed []string
			moves := 0
			for _, c := range rep.Checks {
				if c.Name == "move" {
					moves++
				}
				if !c.Passed {
					failed = append(failed, c.Position+": "+c.Detail)
				}
			}
			// every position but the one with a history
			want := 0
			for _, p := range CheckPositions(engine.MustLookup("international")) {
				if !p.History {
					want++
				}
			}
			if moves != want {
				t.Errorf("%d moves checked, want %d", moves, want)
			}
			if tt.failed == "" {
				if len(failed) > 0 {
					t.Fatalf("failed: %q", failed)
				}
				return
			}
			if len(failed) == 0 || !strings.HasPrefix(failed[0], tt.failed) || !strings.Contains(failed[0], tt.detail) {
				t.Errorf("failed %q, want %s: %s", failed, tt.failed, tt.detail)
			}
			if last := rep.Checks[len(rep.Checks)-1]; last.Name != "restart" || !last.Passed {
				t.Errorf("last check %+v", last)
			}
		})
	}
}
