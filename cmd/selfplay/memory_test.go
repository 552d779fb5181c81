package main

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/rafle/rafle/internal/cliutil"
)

// TestPeakMemory: a match's peak memory (the command's own, cliutil.RunPeak) is its players'
// tables, hash= times --concurrency, and at most 32 MiB more.
func TestPeakMemory(t *testing.T) {
	bin, err := selfplayBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tables int64 // MiB
		args   []string
	}{
		{2 * 64, []string{"-p", "depth=6:hash=64,depth=5:hash=64", "-j", "1"}},
		{2 * 2 * 32, []string{"-p", "depth=6:hash=32,depth=5:hash=32", "-j", "2"}},
	} {
		args := append(tc.args, "-v", "english", "-n", "4", "--seed", "1", "-q")
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1") // see cliutil.TestBoundHeap
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		peak, ok, err := cliutil.RunPeak(cmd)
		if err != nil {
			t.Fatalf("selfplay %v: %v\n%s", args, err, out.String())
		}
		if !ok {
			t.Skip("no peak memory on this system")
		}
		t.Logf("%v: peak %d MiB", args, peak>>20)
		if limit := (tc.tables + 32) << 20; peak > limit {
			t.Errorf("selfplay %v: peak memory %d MiB, more than its tables (%d MiB) + 32 MiB", args, peak>>20, tc.tables)
		}
	}
}
