package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/corpus"
	"github.com/rafle/rafle/pkg/engine"
)

// TestNamedPositions: --fen takes the names of corpus/perft's positions and "start", in
// every counting command, and lists them in --help (issue 33, item 19).
func TestNamedPositions(t *testing.T) {
	woldouby, ok := corpus.NamedPosition(engine.MustLookup("international"), "Woldouby")
	if !ok {
		t.Fatal("corpus/perft/international.tsv has no Woldouby")
	}
	for _, tc := range []struct{ named, fen []string }{
		{[]string{"-v", "international", "-d", "3", "--fen", "Woldouby", "--json"}, []string{"-v", "international", "-d", "3", "--fen", woldouby, "--json"}},
		{[]string{"-v", "international", "-d", "3", "--fen", "woldouby", "--json"}, []string{"-v", "international", "-d", "3", "--fen", woldouby, "--json"}},
		{[]string{"-v", "english", "-d", "4", "--fen", "start", "--json"}, []string{"-v", "english", "-d", "4", "--json"}},
		{[]string{"divide", "-v", "international", "-d", "3", "--fen", "Woldouby"}, []string{"divide", "-v", "international", "-d", "3", "--fen", woldouby}},
	} {
		// a table of 1 MiB: these counts are small, and each run clears its table
		code, got, errOut := runPerft(t, append(tc.named, "--hash", "1")...)
		wcode, want, _ := runPerft(t, append(tc.fen, "--hash", "1")...)
		if code != 0 || wcode != 0 || counts(got) != counts(want) {
			t.Errorf("perft %v: exit %d, %q, stderr %q;\nwant the counts of perft %v: %q", tc.named, code, got, errOut, tc.fen, want)
		}
	}
	// a name the variant has not: bad data, and the names it has
	code, _, errOut := runPerft(t, "-v", "english", "-d", "2", "--fen", "Woldouby", "--hash", "1")
	if code != 1 || !strings.Contains(errOut, `"Woldouby"`) || !strings.Contains(errOut, "english (start)") {
		t.Errorf("english --fen Woldouby: exit %d, stderr %q; want 1 and english's names", code, errOut)
	}
	_, help, _ := runPerft(t, "--help")
	if !strings.Contains(help, "international: Woldouby, FrontRows") || !strings.Contains(help, "start (every variant)") {
		t.Errorf("--help does not list the named positions:\n%s", help)
	}
}

// counts keeps the depths, moves and node counts of perft's output, without its timings.
func counts(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		var r struct {
			Depth int
			Nodes uint64
		}
		if json.Unmarshal([]byte(line), &r) == nil {
			fmt.Fprintf(&b, "depth %d: %d\n", r.Depth, r.Nodes)
		} else if f := strings.Fields(line); len(f) == 2 { // divide: MOVE COUNT
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestTableSetUpNotTimed: making and clearing the --hash table is not charged to the depth
// counted after it ("2 49 10.500 s 5 nodes/s" with --hash 2048, issue 33 item 24). The clock
// is a fake that only moves when the table is cleared, by an hour each time: no depth may
// take a second.
func TestTableSetUpNotTimed(t *testing.T) {
	var clock time.Time
	clears := 0
	defer func(n func() time.Time, c func(*engine.PerftTable)) { now, clearTable = n, c }(now, clearTable)
	now = func() time.Time { return clock }
	clearTable = func(tt *engine.PerftTable) {
		clears++
		clock = clock.Add(time.Hour)
		tt.Clear()
	}
	code, out, errOut := runPerft(t, "-v", "english", "-d", "3", "--hash", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || clears != 3 {
		t.Fatalf("%d lines, the table cleared %d times; want 3 and 3 (once made, then before depths 2 and 3):\n%s", len(lines), clears, out)
	}
	for _, line := range lines {
		var r depthResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Seconds != 0 || r.Setup != 3600 {
			t.Errorf("depth %d: %g s, set-up %g s; want 0 s counting and the hour of the set-up apart", r.Depth, r.Seconds, r.Setup)
		}
	}
	code, out, _ = runPerft(t, "-v", "english", "-d", "2", "--hash", "1")
	if code != 0 || !strings.Contains(out, "(set up in 3600.000 s, not counted below)") || strings.Contains(out, "3600.000 ") && strings.Count(out, "3600") > 1 {
		t.Errorf("text output: exit %d\n%s\nwant the set-up in the header only", code, out)
	}
	// verify clears the table between its checks, outside their times
	code, out, _ = runPerft(t, "verify", "-v", "english", "--max-nodes", "1000", "--hash", "1", "--verbose")
	if code != 0 || strings.Contains(out, "3600") {
		t.Errorf("verify: exit %d\n%s\nwant no check charged with the set-up", code, out)
	}
}

// TestVerifySummary: verify prints one line per variant by default, the table of every
// check with --verbose, and the failed checks in full either way (issue 33, item 25).
func TestVerifySummary(t *testing.T) {
	code, out, _ := runPerft(t, "verify", "--max-nodes", "1000", "--hash", "1")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != len(engine.Variants())+2 || strings.Contains(out, "source") {
		t.Errorf("verify: exit %d, %d lines; want a header, one line per variant (%d) and the total:\n%s", code, len(lines), len(engine.Variants()), out)
	}
	for _, line := range lines {
		if len(line) > 100 {
			t.Errorf("verify: a line of %d columns: %q", len(line), line)
		}
	}
	if !strings.HasPrefix(lines[1], "english ") || !strings.Contains(out, " 0 failed;") {
		t.Errorf("verify:\n%s", out)
	}
	code, out, _ = runPerft(t, "verify", "--max-nodes", "1000", "-v", "english", "--verbose", "--hash", "1")
	if code != 0 || !strings.Contains(strings.ToLower(out), "source") || strings.Count(out, " ok ") != 6 {
		t.Errorf("verify --verbose: exit %d; want the table of every check:\n%s", code, out)
	}

	// a failed check is printed in full after the summary
	var buf bytes.Buffer
	rep := newVerifyReport(&buf, false)
	v := engine.MustLookup("english")
	rep.add(verifyRow{"english", engine.PerftCase{Variant: v, Position: "start", Depth: 1, Nodes: 7, Source: "src-a"}, engine.Keep, 7, 0.1})
	rep.add(verifyRow{"english", engine.PerftCase{Variant: v, Position: "start", Depth: 2, Nodes: 49, Source: "src-b"}, engine.Keep, 48, 0.1})
	if err := rep.render(); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	if rep.failed != 1 || !strings.Contains(got, "FAIL") || !strings.Contains(got, "src-b") || strings.Contains(got, "src-a") {
		t.Errorf("a failed check: %d failed, output\n%s\nwant the failed row with its source, and only it", rep.failed, got)
	}
}
