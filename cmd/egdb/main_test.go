package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rafle/rafle/internal/golden"
	"github.com/rafle/rafle/internal/testio"
)

func runArgs(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"egdb"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestHelp compares the help of egdb and of each subcommand with testdata/*.golden (go
// test -update rewrites them).
func TestHelp(t *testing.T) {
	for _, sub := range []string{"", "build", "probe", "stats", "verify", "suite"} {
		args := []string{"--help"}
		name := "help.golden"
		if sub != "" {
			args = []string{sub, "--help"}
			name = "help-" + sub + ".golden"
		}
		code, stdout, stderr := runArgs(t, args...)
		if code != 0 || stderr != "" {
			t.Fatalf("egdb %v: exit %d, stderr %q", args, code, stderr)
		}
		golden.Check(t, filepath.Join("testdata", name), []byte(stdout))
	}
}

// TestCommands builds english's database of up to 3 pieces and runs every subcommand on it.
func TestCommands(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runArgs(t, "build", "-v", "english", "-n", "3", "--dir", dir, "-j", "1")
	if code != 0 || !strings.Contains(stdout, "0m1k-0m1k: 992 positions: 230 wins, 654 draws, 108 losses, longest win 11 plies") ||
		!strings.Contains(stdout, "english: 16 slices built (199520 positions") {
		t.Fatalf("build: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// again: everything is there
	if code, stdout, _ := runArgs(t, "build", "-v", "english", "-n", "3", "--dir", dir); code != 0 || !strings.Contains(stdout, "0 slices built (0 positions, 0 bytes) and 16 there already") {
		t.Errorf("second build: exit %d, stdout %q", code, stdout)
	}
	code, stdout, stderr = runArgs(t, "probe", "--dir", dir, "--fen", "W:WK14:B6,K28")
	if code != 0 {
		t.Fatalf("probe: exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "probe.golden"), []byte(stdout))
	code, stdout, _ = runArgs(t, "probe", "--dir", dir, "--fen", "W:WK14:B6,K28", "--json")
	var pj struct {
		Value string
		Plies int
		Moves []struct {
			Move, Value string
			Plies       int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &pj); code != 0 || err != nil || pj.Value != "loss" || pj.Plies != 44 || len(pj.Moves) != 4 || pj.Moves[0].Move != "14-17" || pj.Moves[0].Plies != 44 {
		t.Errorf("probe --json: exit %d, %q (%v)", code, stdout, err)
	}
	if code, stdout, _ := runArgs(t, "probe", "--dir", dir, "--fen", "W:WK14,K15:B6,K28"); code != 0 || !strings.Contains(stdout, "white to move: not in the database") {
		t.Errorf("probe of 4 pieces in a 3-piece database: exit %d, %q", code, stdout)
	}
	code, stdout, _ = runArgs(t, "stats", "--dir", dir, "-n", "2")
	if code != 0 {
		t.Fatalf("stats: exit %d", code)
	}
	golden.Check(t, filepath.Join("testdata", "stats.golden"), []byte(stdout))
	if code, stdout, stderr := runArgs(t, "verify", "--dir", dir, "-j", "2"); code != 0 || !strings.Contains(stdout, "16 slices, 199520 positions: every checksum and value verified") {
		t.Errorf("verify: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = runArgs(t, "suite", "--dir", dir, "-n", "3", "--count", "5", "--seed", "7", "--format", "epd")
	if code != 0 {
		t.Fatalf("suite: exit %d", code)
	}
	golden.Check(t, filepath.Join("testdata", "suite.golden"), []byte(stdout))

	// a damaged file: verify and probe name it and fail
	name := filepath.Join(dir, "0m1k-0m1k.egdb")
	data, _ := os.ReadFile(name)
	data[len(data)/2] ^= 1
	os.WriteFile(name, data, 0o644)
	if code, _, stderr := runArgs(t, "verify", "--dir", dir); code != 1 || !strings.Contains(stderr, name) {
		t.Errorf("verify of a damaged file: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runArgs(t, "probe", "--dir", dir, "--fen", "W:WK1:BK13"); code != 1 || !strings.Contains(stderr, name) {
		t.Errorf("probe in a damaged file: exit %d, stderr %q", code, stderr)
	}
}

// TestUsage: bad command lines exit 2 with a message.
func TestUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"build", "--dir", dir}, "--pieces is required"},
		{[]string{"build", "-n", "9", "--dir", dir}, "--pieces 9: out of range"},
		{[]string{"build", "-n", "3", "-v", "nosuch", "--dir", dir}, "unknown variant"},
		{[]string{"build", "-n", "3", "--shard", "3/2", "--dir", dir}, "--shard"},
		{[]string{"build", "-n", "3", "-j", "0", "--dir", dir}, "-j 0"},
		{[]string{"probe", "--dir", dir}, "--fen is required"},
		{[]string{"suite", "-n", "3", "--format", "xml", "--dir", dir}, "--format"},
		{[]string{"stats", "extra", "--dir", dir}, "unexpected argument"},
	} {
		code, _, stderr := runArgs(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.msg) {
			t.Errorf("egdb %v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.msg)
		}
	}
	if code, _, stderr := runArgs(t, "probe", "--dir", dir, "--fen", "W:W1:B2"); code != 1 || !strings.Contains(stderr, "crowning row") {
		t.Errorf("probe of a bad FEN: exit %d, stderr %q", code, stderr)
	}
}

// TestInterrupt: a build whose context is cancelled stops at once, with the slices
// finished before kept.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"egdb", "build", "-v", "international", "-n", "4", "--dir", dir, "-j", "1"}, strings.NewReader(""), &out, &errb)
	}()
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	cancel()
	code := <-done
	if code != 1 || !strings.Contains(errb.String(), "context canceled") {
		t.Errorf("interrupted build: exit %d, stderr %q", code, errb.String())
	}
	if d := time.Since(start); d > testio.StopBound {
		t.Errorf("the build took %v to stop", d)
	}
}

// TestShards builds english's database of up to 3 pieces stage by stage, each stage in
// three shards, as an array job would: the files are those of one build, byte for byte.
func TestShards(t *testing.T) {
	one, sharded := t.TempDir(), t.TempDir()
	if code, _, stderr := runArgs(t, "build", "-n", "3", "--dir", one, "-j", "1"); code != 0 {
		t.Fatalf("build: %s", stderr)
	}
	for n := 2; n <= 3; n++ {
		for men := 0; men <= n; men++ {
			for k := range 3 {
				args := []string{"build", "-n", fmt.Sprint(n), "--men", fmt.Sprint(men), "--shard", fmt.Sprintf("%d/3", k), "--dir", sharded, "-j", "1"}
				if code, _, stderr := runArgs(t, args...); code != 0 {
					t.Fatalf("egdb %v: exit %d, %s", args, code, stderr)
				}
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(one, "*.egdb"))
	if len(files) != 16 {
		t.Fatalf("%d files in one build, want 16", len(files))
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(sharded, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: the sharded build's file differs (%v)", filepath.Base(f), err)
		}
	}
	// a stage before its dependencies: a clear error
	if code, _, stderr := runArgs(t, "build", "-n", "3", "--men", "1", "--dir", t.TempDir()); code != 1 || !strings.Contains(stderr, "is needed and missing") {
		t.Errorf("a stage without its dependencies: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runArgs(t, "build", "-n", "3", "--shard", "0/2", "--dir", t.TempDir()); code != 2 || !strings.Contains(stderr, "give --men") {
		t.Errorf("a shard without --men: exit %d, %q", code, stderr)
	}
}
