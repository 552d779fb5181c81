package corpus

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// OpeningsFS holds the embedded opening sets, openings/<variant>-<set>.txt. Each file is
// tab-separated text: an id, the moves from the variant's start position separated by
// spaces, a name, and an optional barred flag (yes or no); lines starting with # are
// comments, and the header says where the facts come from.
//
//go:embed openings/*
var OpeningsFS embed.FS

// OpeningSets returns the names of the opening sets shipped for a variant, sorted (for
// example "2move" and "3move" for english); nil when there are none.
func OpeningSets(variant string) []string {
	entries, err := fs.ReadDir(OpeningsFS, "openings")
	if err != nil {
		return nil
	}
	var sets []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok {
			continue
		}
		if set, ok := strings.CutPrefix(name, variant+"-"); ok {
			sets = append(sets, set)
		}
	}
	sort.Strings(sets)
	return sets
}

// OpeningSet returns the contents of a shipped opening set and its path in OpeningsFS. The
// error names the sets that exist when set is not one of them.
func OpeningSet(variant, set string) (data []byte, path string, err error) {
	path = "openings/" + variant + "-" + set + ".txt"
	data, err = OpeningsFS.ReadFile(path)
	if err != nil {
		sets := OpeningSets(variant)
		if len(sets) == 0 {
			return nil, path, fmt.Errorf("corpus: no opening sets for %s", variant)
		}
		return nil, path, fmt.Errorf("corpus: no opening set %q for %s (have %s)", set, variant, strings.Join(sets, ", "))
	}
	return data, path, nil
}

// DefaultOpeningSet returns the set a match of variant plays unless told otherwise:
// "3move" (english, international), else "idf" (russian, brazilian), else the first set
// shipped (a generated one: "gen"); "" when none is shipped.
func DefaultOpeningSet(variant string) string {
	sets := OpeningSets(variant)
	for _, want := range []string{"3move", "idf"} {
		for _, s := range sets {
			if s == want {
				return s
			}
		}
	}
	if len(sets) == 0 {
		return ""
	}
	return sets[0]
}
