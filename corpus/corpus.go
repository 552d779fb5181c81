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
