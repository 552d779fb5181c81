package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/rafle/rafle/internal/testio"
)

// untagged writes the test games without their GameType tags into dir, so that tune infers
// their variant (reading them twice).
func untagged(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(line, "[GameType") {
			kept = append(kept, line)
		}
	}
	path := filepath.Join(dir, "untagged.pdn")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOutNotAnInput: --out and --report never write over an input: the same name, a
// symbolic link to it, a hard link. Issue 33, item 2: tune --out X X replaced the games.
func TestOutNotAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pdn")
	data, err := os.ReadFile(games)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	link, hard := filepath.Join(dir, "link.pdn"), filepath.Join(dir, "hard.pdn")
	if err := os.Symlink("games.pdn", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	rdir := filepath.Join(dir, "report")
	if err := os.Mkdir(rdir, 0o755); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(rdir, "index.html")
	if err := os.WriteFile(page, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range [][]string{
		{"--out", in, in},
		{"--out", link, in},
		{"--out", in, link},
		{"--out", hard, in},
		{"--report", rdir, page},
	} {
		args := append([]string{"--seed", "1", "--iterations", "2", "-q"}, tc...)
		code, _, stderr := runArgs(t, args...)
		if code != 2 || !strings.Contains(stderr, "refusing to write over an input") {
			t.Errorf("tune %v: exit %d, stderr %q; want exit 2, refusing", tc, code, stderr)
		}
		for _, f := range []string{in, page} {
			if got, _ := os.ReadFile(f); !bytes.Equal(got, data) {
				t.Fatalf("tune %v changed %s", tc, f)
			}
		}
	}
}

// TestFIFOInput: games whose variant is inferred are read from a FIFO as from a file, read
// once (issue 33, item 6: the second open waited for a writer forever).
func TestFIFOInput(t *testing.T) {
	dir := t.TempDir()
	file := untagged(t, dir)
	data, _ := os.ReadFile(file)
	args := []string{"--seed", "1", "--iterations", "3", "-q", "--json"}
	code, want, stderr := runArgs(t, append(args, file)...)
	if code != 0 {
		t.Fatalf("tune FILE: exit %d, %s", code, stderr)
	}
	code, got, stderr := runArgs(t, append(args, testio.FIFO(t, dir, "games.fifo", data))...)
	if code != 0 || !strings.Contains(stderr, "inferred from") {
		t.Fatalf("tune FIFO: exit %d, %s", code, stderr)
	}
	var a, b jsonSummary
	json.Unmarshal([]byte(want), &a)
	json.Unmarshal([]byte(got), &b)
	if a.Data.Positions == 0 || a.Data != b.Data || a.K != b.K {
		t.Errorf("tune FIFO read %+v, the file %+v", b.Data, a.Data)
	}
	// And standard input, inferred too.
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"tune"}, append(args, "-")...), bytes.NewReader(data), &out, &errb)
	json.Unmarshal(out.Bytes(), &b)
	if code != 0 || a.Data != b.Data {
		t.Errorf("tune - : exit %d, %+v, want %+v; %s", code, b.Data, a.Data, errb.String())
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "rafle-input-*")); len(left) > 0 {
		t.Logf("temporary files in %s (maybe other runs'): %v", os.TempDir(), left)
	}
}

// TestFIFOWaitInterrupted: a FIFO that no one writes to, and standard input that never
// answers, are waits that a signal ends.
func TestFIFOWaitInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "silent.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, in := range []string{path, "-"} {
		ctx, cancel := context.WithCancel(context.Background())
		stdin := &blockingReader{reading: make(chan struct{}), done: make(chan struct{})}
		defer close(stdin.done)
		code := make(chan int)
		var errb bytes.Buffer
		go func() {
			code <- run(ctx, []string{"tune", "--seed", "1", "-q", in}, stdin, io.Discard, &errb)
		}()
		if in == "-" {
			<-stdin.reading
		}
		cancel() // while opening the FIFO (or waiting for it) or reading stdin
		if c := <-code; c != 1 || !strings.Contains(errb.String(), "stopped after 0 games") {
			t.Errorf("tune %s interrupted: exit %d, stderr %q", in, c, errb.String())
		}
	}
}

// blockingReader is a standard input that never answers: its Read waits until done.
type blockingReader struct {
	reading chan struct{} // closed at the first Read
	done    chan struct{}
	once    bool
}

func (b *blockingReader) Read([]byte) (int, error) {
	if !b.once {
		b.once = true
		close(b.reading)
	}
	<-b.done
	return 0, io.EOF
}

// panicReader is a standard input that must not be read.
type panicReader struct{ t *testing.T }

func (p panicReader) Read([]byte) (int, error) {
	p.t.Error("standard input read before the flags were checked")
	return 0, io.EOF
}

// TestFlagsBeforeInput: --features, --fix and --init are checked before any input is read
// (issue 33, item 22: they were refused only after reading every game).
func TestFlagsBeforeInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{not json"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--features", "bogus"}, `unknown feature "bogus"`},
		{[]string{"--fix", "bogus"}, `unknown feature "bogus"`},
		{[]string{"--variant", "english", "--features", "king,bogus"}, `unknown feature "bogus"`},
		{[]string{"--init", filepath.Join(dir, "nonexistent.json")}, "nonexistent.json"},
		{[]string{"--variant", "english", "--init", bad}, "bad.json"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append(append([]string{"tune"}, tc.args...), "-"), panicReader{t}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("tune %v -: exit %d, stderr %q; want exit 2 naming %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// TestTooLittleData: a fit on a few games warns that its weights are noise, and with
// --require-improvement fails and writes nothing (issue 33, item 16: 20 games gave king
// 150 -> 8,143, written, exit 0).
func TestTooLittleData(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.json")
	code, _, stderr := runArgs(t, "--seed", "2", "-q", "--out", out, games)
	if _, err := os.Stat(out); code != 0 || err != nil || !strings.Contains(stderr, "tune: warning: too-little-data: 5 training games for 8 tuned features") {
		t.Errorf("tune on 6 games: exit %d, written %v, stderr %q; want the weights and a warning", code, err == nil, stderr)
	}
	os.Remove(out)
	code, stdout, stderr := runArgs(t, "--seed", "2", "-q", "--json", "--require-improvement", "--out", out, games)
	if _, err := os.Stat(out); code != 1 || err == nil || !regexp.MustCompile(`--require-improvement: .*too-little-data`).MatchString(stderr) {
		t.Errorf("tune --require-improvement on 6 games: exit %d, written %v, stderr %q; want exit 1, nothing written", code, err == nil, stderr)
	}
	var s struct {
		Warnings []struct{ Kind string } `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil || len(s.Warnings) == 0 || s.Warnings[0].Kind != "too-little-data" {
		t.Errorf("--json warnings: %+v (%v)", s, err)
	}
}

// TestSignalWhileReadingFIFO: SIGTERM to tune waiting for data on a FIFO ends it, with
// the status of the signal (the process is this test binary running main).
func TestSignalWhileReadingFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "silent.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "--seed", "1", "-q", path)
	cmd.Env = append(os.Environ(), "RAFLE_TUNE_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0) // returns once tune has opened it to read
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cmd.Process.Signal(syscall.SIGTERM) // tune now waits for data that never comes
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(stderr.String(), "SIGTERM") {
		t.Errorf("tune FIFO, SIGTERM: exit %d, stderr %q; want 143", code, stderr.String())
	}
}
