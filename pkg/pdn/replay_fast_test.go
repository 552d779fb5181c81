package pdn

import (
	"reflect"
	"slices"
	"testing"
)

// TestResolveShortcut replays every game of the corpus with and without
// the quiet-step shortcut of resolve, and counting only (which plays quiet
// moves in place), and wants the same moves, the same errors and the same
// warnings.
func TestResolveShortcut(t *testing.T) {
	paths := corpusFiles(t)
	if testing.Short() && len(paths) > 50 {
		paths = paths[:50]
	}
	fast, slow, count := &Replayer{}, &Replayer{slow: true}, &Replayer{CountOnly: true}
	games, plies := 0, 0
	for _, path := range paths {
		eachGame(t, path, false, func(r *Reader, g *Game, _ error) {
			games++
			a, errA := fast.Replay(g)
			aPlies, aVars, aWarn, aFinal := append([]Resolved(nil), a.Plies...), append([]Resolved(nil), a.Variations...), append([]ReplayWarning(nil), a.Warnings...), a.Final
			c, errC := count.Replay(g)
			cWarn, cFinal, cComplete := append([]ReplayWarning(nil), c.Warnings...), c.Final, c.Complete
			b, errB := slow.Replay(g)
			// CountOnly plays quiet moves in place (PlayQuiet): the same
			// verdict.
			if !slices.Equal(cWarn, b.Warnings) || cFinal != b.Final || cComplete != b.Complete || !reflect.DeepEqual(errC, errB) {
				t.Fatalf("%s: game %d: CountOnly changes the replay: %v / %v (final %v / %v, warnings %v / %v)", path, r.Games(), errC, errB,
					cFinal, b.Final, cWarn, b.Warnings)
			}
			plies += len(b.Plies)
			if !slices.Equal(aPlies, b.Plies) || !slices.Equal(aVars, b.Variations) ||
				!slices.Equal(aWarn, b.Warnings) || aFinal != b.Final || !reflect.DeepEqual(errA, errB) {
				for i := range min(len(aPlies), len(b.Plies)) {
					if aPlies[i] != b.Plies[i] {
						t.Errorf("ply %d: %+v / %+v", i, aPlies[i].Move, b.Plies[i].Move)
						break
					}
				}
				t.Fatalf("%s: game %d: the shortcut changes the replay: %v / %v (%d/%d plies, %d/%d var, %v/%v)", path, r.Games(), errA, errB,
					len(aPlies), len(b.Plies), len(aVars), len(b.Variations), aWarn, b.Warnings)
			}
		})
	}
	t.Logf("%d files, %d games, %d plies", len(paths), games, plies)
}
