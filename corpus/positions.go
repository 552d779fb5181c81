package corpus

import (
	"strings"

	"github.com/rafle/rafle/pkg/engine"
)

// StartName is the name of every variant's initial position, for NamedPosition.
const StartName = "start"

// PositionNames returns the names of the positions NamedPosition knows for v: "start",
// then the other positions of v's perft suite (corpus/perft/NAME.tsv), in file order.
func PositionNames(v *engine.Variant) []string {
	names := []string{StartName}
	cases, _ := PerftSuite(v) // the shipped suites are read by the tests: none fails
	for _, pc := range cases {
		if !containsFold(names, pc.Position) {
			names = append(names, pc.Position)
		}
	}
	return names
}

// NamedPosition returns the FEN of the position called name in variant v: "start" for the
// initial position, or the name of a position of v's perft suite ("Woldouby", ...), the
// case of letters aside. ok is false when v has no position of that name.
func NamedPosition(v *engine.Variant, name string) (fen string, ok bool) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, StartName) {
		return v.FEN(v.Start()), true
	}
	cases, _ := PerftSuite(v)
	for _, pc := range cases {
		if strings.EqualFold(pc.Position, name) {
			return pc.FEN, true
		}
	}
	return "", false
}

// NamedPositions describes every named position, for a command's help: "start (every
// variant); international: FrontRows, Woldouby; ...".
func NamedPositions() string {
	parts := []string{StartName + " (every variant)"}
	for _, v := range engine.Variants() {
		if names := PositionNames(v)[1:]; len(names) > 0 {
			parts = append(parts, v.Name+": "+strings.Join(names, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
