package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/rafle/rafle/internal/testio"
)

// TestStreamInputs: every command reads a FIFO and a process substitution as it reads the
// file, although validate, stats, convert and book infer the variant first (issue 33, item
// 6: the input was opened twice, so a FIFO hung and <(...) gave other games the second time).
func TestStreamInputs(t *testing.T) {
	dir := t.TempDir()
	file := "testdata/games.pdn"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if oca, err := os.ReadFile(filepath.Join(corpus, "mzuluaga__checkers/OCA_2.0.pdn")); err == nil {
		// Its first 1.5 MB, untagged: the variant is inferred from more than the first MiB.
		cut := 1500000 + bytes.Index(oca[1500000:], []byte("\n[Event"))
		file, data = filepath.Join(dir, "oca.pdn"), oca[:cut+1]
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, args := range [][]string{
		{"validate", "-j", "1"}, {"validate", "-j", "2"}, {"stats", "--format", "csv"},
		{"convert", "--to", "fen", "-j", "2"}, {"filter", "--min-plies", "60"}, {"dedupe"}, {"book", "--max-ply", "4"},
	} {
		code, want, _ := runPDN(t, "", append(args, file)...)
		for k, stream := range []string{testio.FIFO(t, dir, fmt.Sprintf("in%d.fifo", i), data), testio.Pipe(t, data)} {
			code2, got, stderr := runPDN(t, "", append(args, stream)...)
			if code2 != code || neutral(got, stream) != neutral(want, file) {
				t.Errorf("pdn %v on a %s: exit %d (file: %d), stderr %.300q; output differs from the file's: %.300q",
					args, []string{"FIFO", "pipe"}[k], code2, code, stderr, diffAt(got, want))
			}
		}
	}
}

// neutral returns out without the input's name and the spaces and lines that its length
// changes in a table.
func neutral(out, name string) string {
	return strings.NewReplacer(name, "NAME", " ", "", "─", "").Replace(out)
}

// diffAt returns got from a little before where it first differs from want.
func diffAt(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return got[max(0, i-40):]
}

// TestStreamWaitInterrupted: a FIFO that no one writes to, a FIFO whose writer stops
// writing and standard input that never answers are waits that a signal ends.
func TestStreamWaitInterrupted(t *testing.T) {
	dir := t.TempDir()
	silent := filepath.Join(dir, "silent.fifo")
	if err := syscall.Mkfifo(silent, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	stalled := filepath.Join(dir, "stalled.fifo")
	if err := syscall.Mkfifo(stalled, 0o600); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	wrote := make(chan struct{})
	go func() { // writes one game and then nothing, keeping the FIFO open
		f, err := os.OpenFile(stalled, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write([]byte("[Event \"x\"]\n\n1. 11-15 23-19 *\n"))
		close(wrote)
		<-release
		f.Close()
	}()
	for _, tc := range []struct {
		cmd  []string
		in   string
		wait chan struct{}
	}{
		{[]string{"validate"}, silent, nil},
		{[]string{"split", "--every", "1", "--out", filepath.Join(dir, "s")}, silent, nil},
		{[]string{"stats"}, stalled, wrote},
		{[]string{"validate"}, "-", nil},
		{[]string{"convert"}, "-", nil},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		stdin := &blockingReader{reading: make(chan struct{}), done: release}
		wait := tc.wait
		if tc.in == "-" {
			wait = stdin.reading
		}
		code := make(chan int)
		var errb bytes.Buffer
		go func() {
			code <- run(ctx, append(append([]string{"pdn"}, tc.cmd...), tc.in), stdin, io.Discard, &errb)
		}()
		if wait != nil {
			<-wait
		}
		cancel() // while the command waits
		if c := <-code; c != 1 || !strings.Contains(errb.String(), "interrupted") {
			t.Errorf("pdn %v %s interrupted: exit %d, stderr %q", tc.cmd, tc.in, c, errb.String())
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

// TestStreamRefused: merge refuses a shard that is not a regular file (it reads its end
// first), and book --book reads a FIFO (issue 33, item 6: a FIFO's open waited for ever).
func TestStreamRefused(t *testing.T) {
	dir := t.TempDir()
	shard := filepath.Join(dir, "s.shard")
	if err := syscall.Mkfifo(shard, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, _, stderr := runPDN(t, "", "merge", shard)
	if code != 1 || !strings.Contains(stderr, "not a regular file") {
		t.Errorf("merge FIFO: exit %d, stderr %q", code, stderr)
	}
	code, out, _ := runPDN(t, "", "book", "--variant", "english", "--max-ply", "4", "--skip-bad", bookGames)
	if code != 0 {
		t.Fatalf("book: exit %d", code)
	}
	code, probe, stderr := runPDN(t, "", "book", "--book", testio.FIFO(t, dir, "book.fifo", []byte(out)), "--moves", "")
	if code != 0 || !strings.Contains(probe, "games") {
		t.Errorf("book --book FIFO: exit %d, %q, stderr %q", code, probe, stderr)
	}
}

// TestSignalWhileReadingFIFO: SIGTERM to pdn waiting for data on a FIFO ends it, with the
// status of the signal, whether it reads the FIFO once (split) or keeps it to read twice
// (validate infers the variant).
func TestSignalWhileReadingFIFO(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"validate"}, {"split", "--every", "1", "--out", filepath.Join(dir, "s-")}} {
		path := filepath.Join(dir, fmt.Sprintf("silent%d.fifo", i))
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		cmd := exec.Command(self, append(args, path)...)
		cmd.Env = append(os.Environ(), "RAFLE_PDN_MAIN=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w, err := os.OpenFile(path, os.O_WRONLY, 0) // returns once pdn has opened it to read
		if err != nil {
			t.Fatal(err)
		}
		cmd.Process.Signal(syscall.SIGTERM) // pdn now waits for data that never comes
		cmd.Wait()
		w.Close()
		if code := cmd.ProcessState.ExitCode(); code != 143 || !strings.Contains(stderr.String(), "SIGTERM") {
			t.Errorf("pdn %v FIFO, SIGTERM: exit %d, stderr %q; want 143", args, code, stderr.String())
		}
	}
}
