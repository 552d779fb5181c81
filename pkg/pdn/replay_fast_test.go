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
		eachSampledGame(t, path, false, func(r *Reader, g *Game, _ error) {
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

// TestQuickPath replays english games whose captures are written in full,
// which counting only plays in place (Variant.PlayPath), with counting
// only and with neither shortcut, and wants the same verdict: the capture
// played (and a variation after it branching off before it), with a
// warning when written with '-'; a capture stopped half-way or a path that
// does not exist an error.
func TestQuickPath(t *testing.T) {
	const fen = `[GameType "21"] [FEN "W:W14,23,30:B5,9"] ` // Black's only capture after 30-26: 9x18x27
	type verdict struct {
		err  bool
		warn int
	}
	for in, want := range map[string]verdict{
		fen + `1. 30-26 9x18x27 (1... 9x27) 2. 26-22 *`: {},
		fen + `1. 30-26 9-18-27 *`:                      {warn: 1}, // (a capture written with '-')
		fen + `1. 30-26 9x18 *`:                         {err: true},
		fen + `1. 30-26 9x18x25 *`:                      {err: true},
		// The capture written in full is the first ply: a variation after it
		// that fits only the position it leads to reads on from there.
		`[GameType "21"] [FEN "B:W14,23,30:B5,9"] 1... 9x18x27 (2. 30-26) *`: {},
	} {
		gs, errs := readString(t, in, nil)
		if len(gs) != 1 || len(errs) > 0 {
			t.Fatalf("%s: %d games, %v", in, len(gs), errs)
		}
		count, slow := &Replayer{CountOnly: true}, &Replayer{slow: true}
		c, errC := count.Replay(gs[0])
		cWarn, cFinal := append([]ReplayWarning(nil), c.Warnings...), c.Final
		b, errB := slow.Replay(gs[0])
		if (errB != nil) != want.err || len(b.Warnings) != want.warn {
			t.Fatalf("%s: error %v, warnings %v", in, errB, b.Warnings)
		}
		if !slices.Equal(cWarn, b.Warnings) || cFinal != b.Final || !reflect.DeepEqual(errC, errB) {
			t.Fatalf("%s: counting only: %v, %v, final %v; without shortcuts: %v, %v, final %v", in, errC, cWarn, cFinal, errB, b.Warnings, b.Final)
		}
	}
}
