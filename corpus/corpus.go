package corpus

import (
	"embed"

	"github.com/rafle/rafle/pkg/engine"
)

// FS holds the embedded data files.
//
//go:embed perft/*.tsv
var FS embed.FS

// PerftSuite returns the published perft rows of a variant (nil when none are shipped).
func PerftSuite(v *engine.Variant) ([]engine.PerftCase, error) {
	name := "perft/" + v.Name + ".tsv"
	f, err := FS.Open(name)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	return engine.ReadPerftSuite(f, name, v)
}

// PerftCheck is one check of rafle against a published count: a row of a perft suite
// under one of its duplicate conventions.
type PerftCheck struct {
	Variant    *engine.Variant
	Case       engine.PerftCase
	Position   engine.Position // the row's position, parsed
	Duplicates engine.Duplicates
}

// PerftChecks returns the checks of the perft suites of variants (PerftSuite) whose counts
// are at most maxNodes, a row marked both once with keep and once with unique, and the
// number of rows over maxNodes left out.
func PerftChecks(variants []*engine.Variant, maxNodes uint64) (checks []PerftCheck, skipped int, err error) {
	for _, v := range variants {
		cases, err := PerftSuite(v)
		if err != nil {
			return nil, 0, err
		}
		for _, pc := range cases {
			if pc.Nodes > maxNodes {
				skipped++
				continue
			}
			p, err := v.ParseFEN(pc.FEN)
			if err != nil {
				return nil, 0, err
			}
			for _, dup := range pc.Conventions() {
				checks = append(checks, PerftCheck{v, pc, p, dup})
			}
		}
	}
	return checks, skipped, nil
}
