package cliutil

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schollz/progressbar/v3"
)

// TestProgressRate: the rate shown is an average since the bar was made, not the burst of
// a first large read (it showed 9.4 GB/s reading a PDN file at 13 MB/s).
func TestProgressRate(t *testing.T) {
	var b bytes.Buffer
	bar := newBar(&b, 10<<20, "reading", progressbar.OptionShowBytes(true))
	bar.Add64(1 << 20) // a first buffer, read at once
	time.Sleep(150 * time.Millisecond)
	bar.Add64(1 << 20)
	out := strings.ReplaceAll(b.String(), "\r", "\n")
	rates := regexp.MustCompile(`\(([0-9.]+) ([kMGT]?B)/s\)`).FindAllStringSubmatch(out, -1)
	if len(rates) == 0 {
		t.Fatalf("no rate shown:\n%s", out)
	}
	scale := map[string]float64{"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
	for _, r := range rates {
		x, _ := strconv.ParseFloat(r[1], 64)
		// 2 MiB in at least 0.15 s is at most 14 MB/s
		if rate := x * scale[r[2]]; rate > 14e6 {
			t.Errorf("rate %s %s/s shown, want at most 14 MB/s:\n%s", r[1], r[2], out)
		}
	}
	if !strings.Contains(out, "reading") {
		t.Errorf("the bar lacks its label:\n%s", out)
	}
	b.Reset()
	newBar(&b, 10, "").Add(1)
	if !strings.Contains(b.String(), "working") {
		t.Errorf("a bar without a label: %q, want \"working\"", b.String())
	}
}
