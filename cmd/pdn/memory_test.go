package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/rafle/rafle/internal/cliutil"
	"github.com/rafle/rafle/internal/testengines"
	"github.com/rafle/rafle/pkg/book"
)

// TestPeakMemory: the book builder's search (book --expand) peaks within its searchers'
// tables, -j times book.DefaultExpandHashMB, and 32 MiB more.
func TestPeakMemory(t *testing.T) {
	bin, err := os.Executable() // the command itself, with RAFLE_PDN_MAIN (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []int64{1, 2} {
		args := []string{"book", "--expand", "--variant", "english", "--nodes", "100", "--depth", "6", "-j", fmt.Sprint(jobs), "-q"}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "RAFLE_PDN_MAIN=1", "GOMAXPROCS=1") // see cliutil.TestBoundHeap
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		peak, ok, err := cliutil.RunPeak(cmd)
		if err != nil {
			t.Fatalf("pdn %v: %v\n%s", args, err, out.String())
		}
		if !ok {
			t.Skip("no peak memory on this system")
		}
		t.Logf("%v: peak %d MiB", args, peak>>20)
		tables := jobs * book.DefaultExpandHashMB
		if limit := (tables + 32) << 20; peak > limit {
			t.Errorf("pdn %v: peak memory %d MiB, more than its tables (%d MiB) + 32 MiB", args, peak>>20, tables)
		}
	}
}

// TestMain lets the test binary be the pdn command, run by main, with RAFLE_PDN_MAIN set:
// the tests that measure the command as a process need no build of their own.
func TestMain(m *testing.M) {
	if os.Getenv("RAFLE_PDN_MAIN") != "" {
		os.Args[0] = "pdn" // messages name the command, not the test binary
		main()
	}
	testengines.Main(m) // removes the test engines built (annotate's hubfake)
}
