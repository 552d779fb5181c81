package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/testio"
	"github.com/rafle/rafle/pkg/engine"
)

// TestMain lets the test binary stand in for another engine in `perft diff`: with
// RAFLE_FAKE_ENGINE set it prints a divide of its arguments and exits. "same" uses rafle's
// rules; "backward" lets english men capture backward, a planted bug.
// With RAFLE_PERFT_MAIN set it is the perft command itself, run by main.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RAFLE_FAKE_ENGINE"); mode != "" {
		os.Exit(fakeEngine(mode, os.Args[len(os.Args)-3:]))
	}
	if os.Getenv("RAFLE_PERFT_MAIN") != "" {
		main()
	}
	os.Exit(m.Run())
}

func fakeEngine(mode string, args []string) int {
	v := engine.MustLookup(args[0])
	if mode == "backward" {
		r := v.Rules
		r.Name, r.Aliases, r.GameType = "buggy", nil, 0
		r.MenCaptureForwardOnly = false
		v, _ = engine.NewVariant(r)
	}
	p, err := v.ParseFEN(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	switch mode {
	case "silent": // never answers
		time.Sleep(time.Hour)
		return 1
	case "garbage":
		fmt.Println("this is not a divide")
		return 0
	case "flood": // endless output, as `--engine yes` gives
		line := []byte("y\n")
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return 1
			}
		}
	case "longline": // one line without end
		chunk := []byte(strings.Repeat("9", 1<<16))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return 1
			}
		}
	}
	depth, _ := strconv.Atoi(args[2])
	entries, _ := v.Divide(context.Background(), p, depth, engine.PerftOptions{Duplicates: engine.Keep})
	root := args[1] == v.FEN(v.Start())
	var total uint64
	if mode == "chatty" {
		fmt.Printf("info engine fake 1.0\nperft depth %d\n\n", depth)
	}
	for _, e := range entries {
		name := v.FormatMove(&p, e.Move, true)
		if mode == "rootmiscount" && root && name == "11-15" {
			e.Nodes = 999 // the engine's own count is wrong; its divide below is right
		}
		total += e.Nodes
		if mode == "chatty" {
			name += ":"
		}
		fmt.Printf("%s %d\n", name, e.Nodes)
	}
	switch mode {
	case "chatty":
		fmt.Printf("\nNodes searched: %d\ntime 0.01 s\n", total)
	case "badtotal":
		fmt.Printf("Nodes searched: %d\n", total+1)
	}
	return 0
}

func runPerft(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"perft"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPerftLines(t *testing.T) {
	code, out, _ := runPerft(t, "--variant", "international", "--depth", "4", "--threads", "2")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	// published: 9, 81, 658, 4265 (corpus/perft/international.tsv, bikdam+dctl)
	for _, want := range []string{" 9 ", " 81 ", " 658 ", " 4265 "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runPerft(t, "-v", "russian", "-d", "2", "--json")
	if code != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"nodes":49`) || !strings.Contains(out, `"duplicates":"keep"`) {
		t.Errorf("--json: exit %d, output:\n%s", code, out)
	}
}

func TestDivide(t *testing.T) {
	code, out, _ := runPerft(t, "divide", "-v", "english", "-d", "3")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var sum int
	for _, l := range lines[:7] {
		f := strings.Fields(l)
		n, err := strconv.Atoi(f[1])
		if err != nil || !strings.Contains(f[0], "-") {
			t.Fatalf("bad divide line %q", l)
		}
		sum += n
	}
	if sum != 302 || !strings.Contains(out, "nodes 302") {
		t.Errorf("divide sums to %d, want 302:\n%s", sum, out)
	}
}

func TestVerify(t *testing.T) {
	// a table of 4 MiB, cleared for each of the 263 checks (64 MiB each took 2 s of CPU)
	code, out, _ := runPerft(t, "verify", "--max-nodes", "200000", "--hash", "4")
	if code != 0 || strings.Contains(out, "FAIL") || !strings.Contains(out, "0 failed") {
		t.Fatalf("verify: exit %d\n%s", code, out)
	}
}

func TestDiff(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("RAFLE_FAKE_ENGINE", "same")
	code, out, errOut := runPerft(t, "diff", "--engine", self, "-v", "english", "-d", "4")
	if code != 0 || !strings.Contains(out, "no difference") {
		t.Errorf("same rules: exit %d, out:\n%s\nerr: %s", code, out, errOut)
	}
	t.Setenv("RAFLE_FAKE_ENGINE", "backward")
	code, out, _ = runPerft(t, "diff", "--engine", self, "-v", "english", "-d", "8")
	if code != 1 || !strings.Contains(out, "difference at depth") || !strings.Contains(out, "extra (engine has, rafle lacks)") {
		t.Fatalf("planted bug: exit %d, out:\n%s", code, out)
	}
	// the reported position reads, and what the engine has extra are (backward) captures
	var fen string
	var extra []string
	inExtra := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "fen "):
			fen = strings.TrimPrefix(l, "fen ")
		case strings.HasPrefix(l, "extra"):
			inExtra = true
		case inExtra && strings.HasPrefix(l, "  "):
			extra = append(extra, strings.TrimSpace(l))
		default:
			inExtra = false
		}
	}
	if _, err := engine.MustLookup("english").ParseFEN(fen); err != nil {
		t.Fatalf("reported fen %q: %v", fen, err)
	}
	if len(extra) == 0 {
		t.Fatalf("no extra moves listed:\n%s", out)
	}
	for _, e := range extra {
		if !strings.Contains(e, "x") {
			t.Errorf("extra move %q is not a capture", e)
		}
	}
	t.Setenv("RAFLE_FAKE_ENGINE", "garbage")
	code, _, errOut = runPerft(t, "diff", "--engine", self, "-v", "english", "-d", "2")
	if code != 1 || !strings.Contains(errOut, "no MOVE COUNT line") || !strings.Contains(errOut, "this is not a divide") {
		t.Errorf("malformed engine answer: exit %d, stderr %q", code, errOut)
	}
}

// TestDiffEngineOutput: what the other engine prints besides its divide is ignored, its
// total is checked, its output is bounded, and --engine is split as a shell would.
func TestDiffEngineOutput(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A path with a space, quoted, and an argument before the ones diff adds.
	dir := filepath.Join(t.TempDir(), "my engines")
	os.Mkdir(dir, 0o755)
	spaced := filepath.Join(dir, "fake engine")
	if err := os.Symlink(self, spaced); err != nil {
		t.Fatal(err)
	}
	quoted := `"` + spaced + `" --perft`
	for _, tc := range []struct {
		mode, engine string
		code         int
		out, err     string
	}{
		{"chatty", quoted, 0, "no difference", ""},
		{"same", `'` + spaced + `'`, 0, "no difference", ""},
		{"badtotal", self, 1, "", "Nodes searched"},
		{"rootmiscount", self, 1, "11-15", ""},
		{"flood", self, 1, "", "more than"},
		{"longline", self, 1, "", "longer than"},
		{"same", `"` + spaced, 2, "", "--engine"},
	} {
		t.Setenv("RAFLE_FAKE_ENGINE", tc.mode)
		start := time.Now()
		code, out, errOut := runPerft(t, "diff", "--engine", tc.engine, "-v", "english", "-d", "4")
		if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.err) {
			t.Errorf("%s engine %s: exit %d, stdout:\n%sstderr %q; want exit %d, %q and %q", tc.mode, tc.engine, code, out, errOut, tc.code, tc.out, tc.err)
		}
		if d := time.Since(start); d > testio.StopBound {
			t.Errorf("%s engine: %v", tc.mode, d)
		}
		if tc.mode == "rootmiscount" && (strings.Contains(out, "no difference") || !strings.Contains(out, "999")) {
			t.Errorf("a root count the engine's own divide contradicts: reported as\n%s", out)
		}
	}
}

// TestDiffJSON: --json prints one JSON object per line, the last one the verdict.
func TestDiffJSON(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, result string
		code         int
	}{{"same", "agree", 0}, {"backward", "difference", 1}, {"rootmiscount", "difference", 1}} {
		t.Setenv("RAFLE_FAKE_ENGINE", tc.mode)
		code, out, errOut := runPerft(t, "diff", "--json", "--engine", self, "-v", "english", "-d", "6")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var last struct {
			Result string `json:"result"`
			Depth  int    `json:"depth"`
			FEN    string `json:"fen"`
		}
		for _, l := range lines {
			if err := json.Unmarshal([]byte(l), &last); err != nil {
				t.Fatalf("%s: line %q is not JSON: %v", tc.mode, l, err)
			}
		}
		if code != tc.code || last.Result != tc.result || last.FEN == "" || last.Depth < 1 {
			t.Errorf("%s: exit %d, last line %+v, stderr %q; want exit %d and result %q", tc.mode, code, last, errOut, tc.code, tc.result)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		code  int
		token string
	}{
		{[]string{"--variant", "klingon", "--depth", "3"}, 2, "klingon"},
		{[]string{"--depth", "0"}, 2, "--depth 0"},
		{[]string{"--depth", "99"}, 2, "--depth 99"},
		{[]string{}, 2, "--depth"},
		{[]string{"--depth", "x"}, 2, "x"},
		{[]string{"--nonsense", "--depth", "2"}, 2, "nonsense"},
		{[]string{"--depth", "2", "--duplicates", "twice"}, 2, "twice"},
		{[]string{"--depth", "2", "--fen", "W:W33:B1"}, 1, "33"},
		{[]string{"--depth", "2", "--fen", "W:W1:B30"}, 1, "crowning row"},
		{[]string{"--depth", "2", "--fen", "Q:W21:B1"}, 1, "Q"},
		{[]string{"--depth", "2", "--threads", "0"}, 2, "--jobs"},
		{[]string{"--depth", "2", "-j", "100000"}, 2, "--jobs"},
		{[]string{"--depth", "2", "--hash", "99999999999999"}, 2, "--hash"},
		{[]string{"--depth", "2", "--hash", "-1"}, 2, "--hash"},
		{[]string{"divide", "--depth", "2", "--hash", "99999999999999"}, 2, "--hash"},
		{[]string{"verify", "--hash", "99999999999999"}, 2, "--hash"},
		{[]string{"verify", "-t", "100000"}, 2, "--jobs"},
		{[]string{"diff", "--engine", "x", "--depth", "2", "--hash", "99999999999999"}, 2, "--hash"},
		{[]string{"divide", "x", "-d", "2"}, 2, "unexpected argument"},
		{[]string{"--depth", "1", "--fen", "W"}, 1, "W"},
		{[]string{"--depth", "1", "--fen", "W:"}, 1, "W:"},
		{[]string{"--depth", "1", "--fen", "W::"}, 1, "W::"},
		{[]string{"--depth", "1", "-v", "20,W,8,8,N2,0"}, 2, "8x8"},
		{[]string{"divide", "--depth", "2", "--fen", "W:W21,21:B1"}, 1, "two pieces"},
		{[]string{"verify", "--variant", "nope"}, 2, "nope"},
		{[]string{"diff", "--depth", "2"}, 2, "engine"},
		{[]string{"diff", "--depth", "2", "--engine", "/nonexistent/engine"}, 1, "/nonexistent/engine"},
		// issue 33 items 19-21: a position that is not one is bad data; a format, a bad usage
		{[]string{"--depth", "2", "--fen", "garbage"}, 1, "garbage"},
		{[]string{"divide", "--depth", "2", "--fen", "Woldouby"}, 1, "english (start)"},
		{[]string{"--depth", "2", "--format", "xml"}, 2, `--format "xml"`},
		{[]string{"merge", "--format", "xml", "x.json"}, 2, `--format "xml"`},
	} {
		code, _, errOut := runPerft(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.token) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 && tc.code == 1 {
			t.Errorf("perft %v: exit %d, stderr %q; want exit %d naming %q", tc.args, code, errOut, tc.code, tc.token)
		}
	}
}
