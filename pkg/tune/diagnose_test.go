package tune

import (
	"strings"
	"testing"
)

// TestDiagnose: too little data, a fit stopped by its iteration limit and a weight beyond
// MaxWeight are each a warning; a converged fit of enough games with sane weights has none
// (issue 33, item 16).
func TestDiagnose(t *testing.T) {
	sane := []Change{{Feature: "man", Old: 100, New: 100}, {Feature: "king", Old: 150, New: 129, Tuned: true}}
	wild := []Change{{Feature: "man", Old: 100, New: 100}, {Feature: "king", Old: 150, New: 8143, Tuned: true}}
	kinds := func(ws []Warning) string {
		var k []string
		for _, w := range ws {
			k = append(k, w.Kind)
		}
		return strings.Join(k, ",")
	}
	for _, tc := range []struct {
		games, tuned int
		status       string
		changes      []Change
		want         string
	}{
		{200, 8, "GradientThreshold", sane, ""},
		{25, 1, "FunctionConvergence", sane, ""},
		{18, 8, "GradientThreshold", sane, "too-little-data"},
		{199, 8, "GradientThreshold", sane, "too-little-data"},
		{5000, 8, "IterationLimit", sane, "not-converged"},
		{5000, 8, "GradientThreshold", wild, "diverged"},
		{18, 8, "IterationLimit", wild, "too-little-data,not-converged,diverged"},
	} {
		ws := Diagnose(tc.games, tc.tuned, tc.status, tc.changes)
		if got := kinds(ws); got != tc.want {
			t.Errorf("Diagnose(%d games, %d features, %s): %q, want %q", tc.games, tc.tuned, tc.status, got, tc.want)
		}
		for _, w := range ws {
			if w.Kind == "diverged" && !strings.Contains(w.Message, "king 150 -> 8143") {
				t.Errorf("diverged: %q does not name the weight", w.Message)
			}
		}
	}
}
