package main

import (
	"path/filepath"
	"testing"

	"github.com/rafle/rafle/internal/golden"
)

// TestHelp compares selfplay --help with testdata/help.golden (go test -update rewrites it).
func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "--help")
	if code != 0 || stderr != "" {
		t.Fatalf("selfplay --help: exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, filepath.Join("testdata", "help.golden"), []byte(stdout))
}
