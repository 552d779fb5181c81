package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestMain lets the test binary stand in for another engine in `perft diff`: with
// RAFLE_FAKE_ENGINE set it prints a divide of its arguments and exits. "same" uses rafle's
// rules; "backward" lets english men capture backward, a planted bug.
func TestMain(m *testing.M) {
	if mode := os.Getenv("RAFLE_FAKE_ENGINE"); mode != "" {
		os.Exit(fakeEngine(mode, os.Args[len(os.Args)-3:]))
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
	if mode == "garbage" {
		fmt.Println("this is not a divide")
		return 0
	}
	depth, _ := strconv.Atoi(args[2])
	entries, _ := v.Divide(context.Background(), p, depth, engine.PerftOptions{Duplicates: engine.Keep})
	for _, e := range entries {
		fmt.Printf("%s %d\n", v.FormatMove(&p, e.Move, true), e.Nodes)
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
	// published: 9, 81, 658, 4265 (reference/perft.tsv, bikdam+dctl)
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
	code, out, _ := runPerft(t, "verify", "--max-nodes", "200000")
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
	if code != 1 || !strings.Contains(errOut, "this is not a divide") {
		t.Errorf("malformed engine answer: exit %d, stderr %q", code, errOut)
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
		{[]string{"--depth", "2", "--threads", "0"}, 2, "--threads"},
		{[]string{"divide", "--depth", "2", "--fen", "W:W21,21:B1"}, 1, "two pieces"},
		{[]string{"verify", "--variant", "nope"}, 2, "nope"},
		{[]string{"diff", "--depth", "2"}, 2, "engine"},
		{[]string{"diff", "--depth", "2", "--engine", "/nonexistent/engine"}, 1, "/nonexistent/engine"},
	} {
		code, _, errOut := runPerft(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.token) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 && tc.code == 1 {
			t.Errorf("perft %v: exit %d, stderr %q; want exit %d naming %q", tc.args, code, errOut, tc.code, tc.token)
		}
	}
}
