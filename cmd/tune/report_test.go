package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTuneReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	code, _, stderr := runArgs(t, "--seed", "1", "--holdout", "0.2", "--iterations", "20", "--report", dir, games)
	if code != 0 {
		t.Fatalf("tune --report: exit %d, stderr %q", code, stderr)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`id="plot-loss"`, `id="plot-weights"`, `id="plot-calibration"`, "Calibration: held-out positions", `<td class="text">king</td>`} {
		if !strings.Contains(string(page), s) {
			t.Errorf("the report lacks %s", s)
		}
	}
}
