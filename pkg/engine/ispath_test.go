package engine_test

import (
	"slices"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// TestIsPath checks IsPath against Paths in the captures of sample positions of every
// variant: each path of a move is one of its paths, and paths changed (a landing square
// moved, two swapped, one dropped or repeated) or taken from another capture are one only
// when Paths has them.
func TestIsPath(t *testing.T) {
	for _, v := range engine.Variants() {
		checked := 0
		for _, p := range samplePositions(v, 100) {
			moves := v.Generate(nil, &p)
			for _, m := range moves {
				if !m.IsCapture() {
					break
				}
				paths := v.Paths(&p, m)
				if len(paths) == 0 {
					t.Fatalf("%s %s: no path for capture %v", v.Name, v.FEN(p), m)
				}
				var tries [][]engine.Square
				for _, path := range paths {
					tries = append(tries, path)
					for i := 1; i < len(path); i++ {
						moved := slices.Clone(path)
						moved[i] = moved[i]%engine.Square(v.Squares()) + 1
						tries = append(tries, moved, slices.Delete(slices.Clone(path), i, i+1),
							slices.Insert(slices.Clone(path), i, path[i]))
						if i+1 < len(path) {
							swapped := slices.Clone(path)
							swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
							tries = append(tries, swapped)
						}
					}
				}
				long := slices.Repeat(paths[0][:1], 20) // longer than IsPath looks for without Paths
				tries = append(tries, append(long, paths[0]...))
				for _, o := range moves {
					tries = append(tries, v.Paths(&p, o)...)
				}
				for _, try := range tries {
					want := slices.ContainsFunc(paths, func(path []engine.Square) bool { return slices.Equal(path, try) })
					if got := v.IsPath(&p, m, try); got != want {
						t.Fatalf("%s %s: IsPath(%v, %v) = %v, Paths %v", v.Name, v.FEN(p), m, try, got, paths)
					}
					checked++
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no capture in the sample positions", v.Name)
		}
	}
}
