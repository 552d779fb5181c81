package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestHelp compares selfplay --help with testdata/help.golden (go test -update rewrites it).
func TestHelp(t *testing.T) {
	code, stdout, stderr := runArgs(t, "--help")
	if code != 0 || stderr != "" {
		t.Fatalf("selfplay --help: exit %d, stderr %q", code, stderr)
	}
	golden := filepath.Join("testdata", "help.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if stdout != string(want) {
		t.Errorf("selfplay --help differs from %s (go test -update to accept):\n%s", golden, stdout)
	}
}
