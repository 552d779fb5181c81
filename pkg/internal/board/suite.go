package board

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// PerftCase is one row of a perft suite: a published count with its source.
type PerftCase struct {
	Variant  *Variant
	Position string // a name: "start", "Woldouby", ...
	FEN      string
	Depth    int
	Nodes    uint64
	// Duplicates is "keep", "unique", "paths" or "both" (the count holds for keep and
	// unique).
	Duplicates string
	Source     string
	Confidence string
	Line       int // line in the suite file
}

// Conventions returns the duplicate conventions the count holds for.
func (c PerftCase) Conventions() []Duplicates {
	switch c.Duplicates {
	case "keep":
		return []Duplicates{Keep}
	case "unique":
		return []Duplicates{Unique}
	case "paths":
		return []Duplicates{Paths}
	}
	return []Duplicates{Keep, Unique}
}

// ReadPerftSuite reads a perft suite in the tab-separated format of corpus/perft: a header
// line "position fen depth nodes duplicates source confidence", rows, and '#' comments.
// variant names the variant of every row; name is used in error messages.
func ReadPerftSuite(r io.Reader, name string, variant *Variant) ([]PerftCase, error) {
	var out []PerftCase
	sc := bufio.NewScanner(r)
	line := 0
	header := false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if !header {
			header = true
			if f[0] == "position" {
				continue
			}
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("engine: %s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		if len(f) != 7 {
			return nil, bad("want 7 tab-separated fields, got %d", len(f))
		}
		depth, err := strconv.Atoi(f[2])
		if err != nil || depth < 0 {
			return nil, bad("bad depth %q", f[2])
		}
		nodes, err := strconv.ParseUint(f[3], 10, 64)
		if err != nil {
			return nil, bad("bad count %q", f[3])
		}
		switch f[4] {
		case "keep", "unique", "paths", "both":
		default:
			return nil, bad("bad duplicates %q (keep, unique, paths or both)", f[4])
		}
		if _, err := variant.ParseFEN(f[1]); err != nil {
			return nil, bad("%v", err)
		}
		out = append(out, PerftCase{Variant: variant, Position: f[0], FEN: f[1], Depth: depth, Nodes: nodes,
			Duplicates: f[4], Source: f[5], Confidence: f[6], Line: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("engine: %s: %w", name, err)
	}
	return out, nil
}
