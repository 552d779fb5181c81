package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/pkg/match"
)

// selfplayBinary builds this command once, to run it as an engine.
func selfplayBinary() (string, error) { return testengines.Build(".") }

func TestMain(m *testing.M) { testengines.Main(m) }

// games returns a match's games from its journal, by index, without what differs between
// the same games played in-process and over a protocol: the players' names and the
// per-move information.
func games(t *testing.T, journal string) map[int]match.Record {
	t.Helper()
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]match.Record{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r match.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		r.White, r.Black, r.Info, r.Date = "", "", nil, ""
		out[r.Game] = r
	}
	return out
}

// results is what must agree between the two runs: the counts, not the names.
func results(t *testing.T, stdout string) any {
	t.Helper()
	var res match.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	type counts struct {
		W, D, L int
		P       [5]int
	}
	var out []any
	for _, p := range res.Pairings {
		out = append(out, counts{p.Wins, p.Draws, p.Losses, p.Penta})
	}
	return []any{res.Games, out, res.Terminations}
}

// TestProtocolsPlayLikeInProcess plays rafle against rafle over Hub and over DXP, with
// fixed-depth players, and checks that the games and statistics are those of the same
// match played in-process.
func TestProtocolsPlayLikeInProcess(t *testing.T) {
	bin, err := selfplayBinary()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the DXP engine
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	for _, tc := range []struct {
		name, variant, engine string
	}{
		{"hub", "english", `name=r,cmd=` + bin + `,args="engine --proto hub --player depth=3 -v english",depth=3`},
		{"hub-canadian", "canadian", `name=r,cmd=` + bin + `,args="engine --proto hub --player depth=2",depth=2`},
		{"dxp", "international", `name=r,proto=dxp,cmd=` + bin + `,args="engine --proto dxp --player depth=2 --listen 127.0.0.1:` + port + `",port=` + port + `,tc=600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			depth := "depth=3"
			if tc.variant != "english" {
				depth = "depth=2"
			}
			dir := t.TempDir()
			common := []string{"-v", tc.variant, "--games", "8", "--seed", "11", "--max-plies", "80", "--json", "-q"}
			// a start timeout for a loaded machine (go test runs packages side by side)
			code, ext, stderr := runArgs(t, append(common, "--players", "r,"+depth, "--engine", tc.engine, "--engine-start", "60s",
				"--pdn", filepath.Join(dir, "ext.pdn"), "--engine-log", filepath.Join(dir, "log"))...)
			if code != 0 {
				t.Fatalf("over %s: exit %d\n%s", tc.name, code, stderr)
			}
			code, in, stderr := runArgs(t, append(common, "--players", depth+","+depth, "--pdn", filepath.Join(dir, "in.pdn"))...)
			if code != 0 {
				t.Fatalf("in-process: exit %d\n%s", code, stderr)
			}
			got, want := games(t, filepath.Join(dir, "ext.pdn.journal")), games(t, filepath.Join(dir, "in.pdn.journal"))
			if len(got) != 8 || len(want) != 8 {
				t.Fatalf("%d and %d games, want 8", len(got), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("game %d differs:\nover %s   %+v\nin-process %+v", i+1, tc.name, got[i], want[i])
				}
			}
			if a, b := results(t, ext), results(t, in); !reflect.DeepEqual(a, b) {
				t.Errorf("statistics differ:\nover %s   %+v\nin-process %+v", tc.name, a, b)
			}
			logs, _ := filepath.Glob(filepath.Join(dir, "log", "game-*-r.log"))
			if len(logs) != 8 {
				t.Errorf("%d transcripts, want 8", len(logs))
			}
		})
	}
}

func TestEngineBadInput(t *testing.T) {
	bin, err := selfplayBinary()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port in use
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	used := ln.Addr().String()
	oldLogs := t.TempDir() // another match's transcripts (issue 33 item 1: no output over them)
	os.WriteFile(filepath.Join(oldLogs, "game-000001-x.log"), []byte("hub\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing binary", []string{"--players", "x,easy", "--engine", "name=x,cmd=/nonexistent/scan,depth=2"}, 1, "/nonexistent/scan"},
		{"malformed engine", []string{"--players", "x,easy", "--engine", "name=x,cmd"}, 2, "key=value"},
		{"engine without limit", []string{"--players", "x,easy", "--engine", "name=x,cmd=" + bin}, 2, "limit"},
		{"engine not playing", []string{"--players", "easy,medium", "--engine", "name=x,cmd=" + bin + ",depth=1"}, 2, "not in --players"},
		{"engine named like a level", []string{"--players", "hard,easy", "--engine", "name=hard,cmd=" + bin + ",depth=1"}, 2, "hard"},
		{"no hub answer", []string{"--players", "x,easy", "--engine-start", "300ms", "--engine", "name=x,cmd=/bin/cat,depth=1"}, 1, "engine x"},
		{"dxp for english", []string{"--players", "x,easy", "--engine", "name=x,proto=dxp,tc=60"}, 1, "international"},
		{"dxp nobody listens", []string{"-v", "international", "--players", "x,easy", "--engine-start", "300ms", "--engine", "name=x,proto=dxp,port=1,tc=60"}, 1, "no DXP engine listens"},
		{"transcripts of another match", []string{"--players", "x,easy", "--engine", "name=x,cmd=" + bin + ",depth=1", "--engine-log", oldLogs}, 2, "transcripts"},
		{"port in use", []string{"engine", "--proto", "dxp", "--listen", used}, 1, "in use"},
		{"bad proto", []string{"engine", "--proto", "uci"}, 2, "uci"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runArgs(t, append(tc.args, "--games", "2")...)
			if tc.args[0] == "engine" {
				code, stdout, stderr = runArgs(t, tc.args...)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if code != tc.code || !strings.Contains(last, tc.want) || stdout != "" {
				t.Errorf("selfplay %v: exit %d, stdout %q, stderr %q; want exit %d and one line naming %q", tc.args, code, stdout, stderr, tc.code, tc.want)
			}
		})
	}
}
