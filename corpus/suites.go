package corpus

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// SuitesFS holds the embedded test suites, suites/<variant>.epd: positions with the moves
// that solve them, in the EPD-like format of docs/suites.md, each line with its source in
// its id and comment; suites/README.md says how they were made.
//
//go:embed suites/*.epd suites/README.md
var SuitesFS embed.FS

// SuiteVariants returns the variants that have a shipped suite, sorted.
func SuiteVariants() []string {
	entries, err := fs.ReadDir(SuitesFS, "suites")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".epd"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Suite returns the shipped test suite of a variant and its path in SuitesFS.
func Suite(variant string) (data []byte, path string, err error) {
	path = "suites/" + variant + ".epd"
	data, err = SuitesFS.ReadFile(path)
	if err != nil {
		return nil, path, fmt.Errorf("corpus: no test suite for %s (have %s)", variant, strings.Join(SuiteVariants(), ", "))
	}
	return data, path, nil
}
