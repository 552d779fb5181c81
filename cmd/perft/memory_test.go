package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/rafle/rafle/internal/cliutil"
)

// TestPeakMemory: perft's peak memory (its own, cliutil.RunPeak) is its --hash table and at
// most 32 MiB more, whatever the threads, for one depth and for several counts in a row
// (every depth up to --depth; verify), each of which once allocated a table of its own.
func TestPeakMemory(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		hash int64
		args []string
	}{
		{64, []string{"-v", "international", "-d", "9", "-t", "1"}},
		{64, []string{"-v", "international", "-d", "9", "-t", "2"}},
		{16, []string{"-v", "english", "-d", "11", "-t", "2"}},
		{64, []string{"verify", "-v", "russian", "--max-nodes", "1000000", "-q"}},
	} {
		args := append(tc.args, "--hash", fmt.Sprint(tc.hash))
		cmd := exec.Command(self, args...)
		cmd.Env = append(os.Environ(), "RAFLE_PERFT_MAIN=1", "GOMAXPROCS=1") // see cliutil.TestBoundHeap
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		peak, ok, err := cliutil.RunPeak(cmd)
		if err != nil {
			t.Fatalf("perft %v: %v\n%s", args, err, out.String())
		}
		if !ok {
			t.Skip("no peak memory on this system")
		}
		t.Logf("%v: peak %d MiB", args, peak>>20)
		if limit := (tc.hash + 32) << 20; peak > limit {
			t.Errorf("perft %v: peak memory %d MiB, more than --hash %d + 32 MiB", args, peak>>20, tc.hash)
		}
	}
}
