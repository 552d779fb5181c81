package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// Result is a result file: one run of the suite on one machine.
type Result struct {
	// Commit is the commit the run measured (with "-dirty" when the tree had changes).
	Commit    string    `json:"commit"`
	Date      time.Time `json:"date"`
	GoVersion string    `json:"go_version"`
	GOOS      string    `json:"goos"`
	GOARCH    string    `json:"goarch"`
	NumCPU    int       `json:"num_cpu"`
	// Load is the load average over the last minute when the run started (Linux).
	Load float64 `json:"load,omitempty"`
	// Short marks a run of the short workloads; Reps is the repetitions per benchmark.
	Short bool `json:"short"`
	Reps  int  `json:"reps"`
	// Clock is "cpu" (figures per CPU second of the process) or "wall".
	Clock   string   `json:"clock"`
	Figures []Figure `json:"figures"`
}

// NewResult returns a Result for this machine and process, without figures.
func NewResult(commit string, short bool, reps int) *Result {
	clock := "cpu"
	if !HaveCPUTime {
		clock = "wall"
	}
	return &Result{Commit: commit, Date: time.Now().UTC().Truncate(time.Second), GoVersion: runtime.Version(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(), Load: LoadAverage(),
		Short: short, Reps: reps, Clock: clock}
}

// LoadAverage returns the one-minute load average from /proc/loadavg, or 0.
func LoadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(data), &l)
	return l
}

// WriteResult writes r to path as indented JSON.
func WriteResult(path string, r *Result) error { return writeJSON(path, r) }

// ReadResult reads a result file.
func ReadResult(path string) (*Result, error) {
	var r Result
	if err := readJSON(path, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// writeJSON writes v to path as indented JSON with a final newline.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}

// readJSON reads the JSON file at path into v.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("bench: %s: %w", path, err)
	}
	return nil
}

// ReadHistory reads every *.json result in dir, oldest first (by Date).
func ReadHistory(dir string) ([]*Result, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var rs []*Result
	for _, p := range paths {
		r, err := ReadResult(p)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Date.Before(rs[j].Date) })
	return rs, nil
}

// HistoryName returns the file name of r in the history directory:
// date-commit[-short].json.
func HistoryName(r *Result) string {
	name := r.Date.Format("20060102T150405Z") + "-" + strings.ReplaceAll(r.Commit, "/", "_")
	if r.Short {
		name += "-short"
	}
	return name + ".json"
}

// SI formats x with three significant digits and an SI prefix (k, M, G).
func SI(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.3gG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.3gk", x/1e3)
	}
	return fmt.Sprintf("%.3g", x)
}
