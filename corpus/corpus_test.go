package corpus

import (
	"math"
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestPerftChecks: every row of a suite is a check per convention, or is skipped over
// the node limit; a row marked both is checked with keep and with unique.
func TestPerftChecks(t *testing.T) {
	for _, v := range engine.Variants() {
		cases, err := PerftSuite(v)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, pc := range cases {
			want += len(pc.Conventions())
		}
		checks, skipped, err := PerftChecks([]*engine.Variant{v}, math.MaxUint64)
		if err != nil || len(checks) != want || skipped != 0 {
			t.Errorf("%s: %d checks, %d skipped, %v; want %d, 0", v.Name, len(checks), skipped, err, want)
		}
		for _, k := range checks {
			if k.Variant != v || v.FEN(k.Position) != v.FEN(mustFEN(t, v, k.Case.FEN)) || !slices.Contains(k.Case.Conventions(), k.Duplicates) {
				t.Errorf("%s: check %+v", v.Name, k)
			}
		}
		if checks, skipped, err := PerftChecks([]*engine.Variant{v}, 0); err != nil || len(checks) != 0 || skipped != len(cases) {
			t.Errorf("%s under 0 nodes: %d checks, %d skipped, %v; want 0, %d", v.Name, len(checks), skipped, err, len(cases))
		}
	}
}

func mustFEN(t *testing.T, v *engine.Variant, fen string) engine.Position {
	t.Helper()
	p, err := v.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
