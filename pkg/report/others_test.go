package report

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/archive"
	"github.com/rafle/rafle/pkg/pdn"
)

func TestCalibrate(t *testing.T) {
	predicted := []float64{0.9, 0.1, 0.5, 0.3, 0.7, 0.2}
	actual := []float64{1, 0, 0.5, 0, 1, 0.5}
	// sorted by prediction: 0.1/0, 0.2/0.5 | 0.3/0, 0.5/0.5 | 0.7/1, 0.9/1
	want := []CalibrationBucket{{2, 0.15, 0.25}, {2, 0.4, 0.25}, {2, 0.8, 1}}
	got := Calibrate(predicted, actual, 3)
	if len(got) != len(want) {
		t.Fatalf("Calibrate = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Positions != want[i].Positions || math.Abs(got[i].Predicted-want[i].Predicted) > 1e-12 || math.Abs(got[i].Actual-want[i].Actual) > 1e-12 {
			t.Errorf("bucket %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got := Calibrate(predicted[:2], actual[:2], 10); len(got) != 2 {
		t.Errorf("10 buckets of 2 positions: %+v", got)
	}
}

func testTuning() *Tuning {
	t := &Tuning{Title: "english, logistic loss", Settings: [][2]string{{"K", "1.2"}, {"status", "converged"}},
		Weights:        []TuneWeight{{"man", 100, 100, false}, {"king", 130, 142.5, true}, {"back-rank", 5, 3.25, true}},
		CalibrationSet: "held-out positions"}
	for i := range 30 {
		t.Iterations = append(t.Iterations, TuneIteration{Iteration: i + 1, Train: 0.5 / float64(i+1), Holdout: 0.6 / float64(i+1)})
	}
	t.Calibration = Calibrate([]float64{0.2, 0.4, 0.6, 0.8}, []float64{0, 0.5, 0.5, 1}, 4)
	return t
}

func TestWriteTuning(t *testing.T) {
	dir := t.TempDir()
	if err := WriteTuning(dir, testTuning()); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`id="plot-loss"`, `id="plot-weights"`, `id="plot-calibration"`, "<td>142.5</td>", "12.50</td>", "held-out positions"} {
		if !strings.Contains(string(page), s) {
			t.Errorf("the tuning page lacks %s", s)
		}
	}
	for _, f := range []string{"loss.png", "weights.png", "calibration.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if err := WriteTuning(dir, &Tuning{}); err == nil {
		t.Error("a tuning run without weights: no error")
	}
}

const archivePDN = `[Event "A"]
[Date "1998.05.01"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 1-0

[Event "A"]
[Date "1999.??.??"]
[Result "0-1"]
1. 11-15 22-18 0-1

[Event "B"]
[Date "?"]
[Result "1/2-1/2"]
1. 11-15 23-19 1/2-1/2

[Event "B"]
[Result "1-0"]
1. 11-15 {never closed
`

func testArchive(t *testing.T) *Archive {
	a := NewArchive("archive.pdn")
	r := pdn.NewReader(strings.NewReader(archivePDN))
	for {
		g, err := r.Next()
		if err == io.EOF {
			break
		}
		a.Add(g, err)
	}
	return a
}

func TestArchive(t *testing.T) {
	a := testArchive(t)
	if a.Games != 4 || a.Errors != 1 {
		t.Fatalf("%d games, %d with errors; want 4 and 1", a.Games, a.Errors)
	}
	for _, tc := range []struct {
		name      string
		got, want map[string]int
	}{
		{"years", a.Years, map[string]int{"1998": 1, "1999": 1, "unknown": 2}},
		{"events", a.Events, map[string]int{"A": 2, "B": 2}},
		{"openings", a.Openings, map[string]int{"11-15 23-19": 2, "11-15 22-18": 1, "11-15": 1}},
		{"errors", a.ErrorKinds, map[string]int{"unterminated-comment": 1}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	dir := t.TempDir()
	if err := WriteArchive(dir, a); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"years.png", "lengths.png", "results.png", "events.png", "openings.png", "errors.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if err := WriteArchive(t.TempDir(), NewArchive("empty")); err == nil {
		t.Error("an empty archive: no error")
	}
	// with an endgame database's verdict: its counts, and every contradicting game up to
	// archiveEGDBRows
	a.EGDB = &archive.EGDBReport{Variant: "english", Checked: 3, Contradictions: archiveEGDBRows + 1}
	for i := range archiveEGDBRows + 1 {
		a.EGDB.Games = append(a.EGDB.Games, archive.EGDBGame{File: "a.pdn", Game: i + 1, Ply: 7, FEN: "W:WK1,K3:BK32",
			Value: "win in 33", Expected: "0-1", Result: "1/2-1/2"})
	}
	dir = t.TempDir()
	if err := WriteArchive(dir, a); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Endgame database (english)", "3 games reached a position the database holds; 201 of them",
		`<td class="text">W:WK1,K3:BK32</td>`, `<td class="text">win in 33</td>`, "1 more are in the JSON"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the archive report with an endgame database lacks %q", want)
		}
	}
	if n := strings.Count(string(html), `<td class="text">W:WK1,K3:BK32</td>`); n != archiveEGDBRows {
		t.Errorf("%d contradicting games listed, want %d", n, archiveEGDBRows)
	}
}

// TestChangeNoNegativeZero: a weight that did not move is +0.00, never -0.00 (issue 33 item 17).
func TestChangeNoNegativeZero(t *testing.T) {
	for x, want := range map[float64]string{-0.001: "+0.00", 0: "+0.00", 0.004: "+0.00", -0.5: "-0.50", 1.25: "+1.25"} {
		if got := change(x); got != want {
			t.Errorf("change(%v) = %q, want %q", x, got, want)
		}
	}
}
