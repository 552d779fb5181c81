package pdn

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

// replayFile replays every game of a file; it returns the games, the
// replay results (copied) and errors, by game.
func replayFile(t testing.TB, path string, def *engine.Variant) ([]*Game, []*Replayed, []error) {
	t.Helper()
	games, _ := readFile(t, path, false)
	res := make([]*Replayed, len(games))
	errs := make([]error, len(games))
	for i, g := range games {
		res[i], errs[i] = Replay(g, def)
		if re, ok := errs[i].(*ReplayError); ok {
			re.File, re.Game = filepath.Base(path), i+1
		}
	}
	return games, res, errs
}

// TestReplayErrors checks each kind of replay problem in the hand-made
// files of testdata/replay: the sentinel or warning kind, and the file,
// game, line, column, move number, move, side and FEN in the message.
func TestReplayErrors(t *testing.T) {
	tests := []struct {
		file       string
		game       int
		err        error  // nil: no error
		warn       string // a warning kind, or ""
		line, col  int
		move       int
		wantInMsgs []string
	}{
		{"illegal.pdn", 1, ErrIllegalMove, "", 5, 4, 3, []string{
			"illegal.pdn: game 1: line 5, column 4: move 3 (black) 19-23: illegal move",
			"position B:W17,19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15"}},
		{"illegal.pdn", 2, nil, "", 0, 0, 0, nil},
		{"frisian.pdn", 1, ErrIllegalMove, "", 7, 4, 4, []string{
			"frisian.pdn: game 1: line 7, column 4: move 4 (white) 17-22: illegal move",
			"the king on 17 has made 3 moves in a row"}},
		{"frisian.pdn", 2, nil, "", 0, 0, 0, nil},
		{"canadian.pdn", 1, nil, "", 0, 0, 0, nil},
		{"canadian.pdn", 2, nil, "", 0, 0, 0, nil},
		{"canadian.pdn", 3, ErrIllegalMove, "", 28, 4, 1, []string{
			"canadian.pdn: game 3: line 28, column 4: move 1 (white) 62-56: illegal move"}},
		{"ambiguous.pdn", 1, ErrAmbiguousMove, "", 6, 6, 1, []string{
			"ambiguous.pdn: game 1: line 6, column 6: move 1 (black) 2x18: ambiguous move",
			"candidates 2x9x18, 2x11x18", "position B:W6,7,14,15,30:B2"}},
		{"badfen.pdn", 1, ErrInvalidFEN, "", 4, 1, 0, []string{
			`badfen.pdn: game 1: line 4, column 1: FEN "B:W21-33:B1-12"`, `unknown square "33"`}},
		{"unsupported.pdn", 1, nil, KindUnsupportedVariant, 2, 1, 0, []string{`variant not supported: GameType "41"`}},
		{"result.pdn", 1, nil, KindResultContradicts, 5, 4, 0, []string{"result 1-0, but black has no legal move", "B:W15:B"}},
		{"result.pdn", 2, nil, "", 0, 0, 0, nil}, // antidraughts: no move wins
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%d", tc.file, tc.game), func(t *testing.T) {
			path := filepath.Join("testdata", "replay", tc.file)
			_, res, errs := replayFile(t, path, nil)
			err := errs[tc.game-1]
			var msg string
			var line, col, move int
			switch {
			case tc.err != nil:
				var re *ReplayError
				if !errors.Is(err, tc.err) || !errors.As(err, &re) {
					t.Fatalf("Replay(%s game %d) = %v, want a *ReplayError wrapping %v", tc.file, tc.game, err, tc.err)
				}
				msg, line, col, move = err.Error(), re.Pos.Line, re.Pos.Column, re.Move
			case err != nil:
				t.Fatalf("Replay(%s game %d) = %v, want no error", tc.file, tc.game, err)
			case tc.warn != "":
				ws := res[tc.game-1].Warnings
				if len(ws) != 1 || ws[0].Kind != tc.warn {
					t.Fatalf("Replay(%s game %d) warnings %+v, want one %s", tc.file, tc.game, ws, tc.warn)
				}
				msg, line, col = ws[0].Text, ws[0].Pos.Line, ws[0].Pos.Column
			default:
				if ws := res[tc.game-1].Warnings; len(ws) > 0 {
					t.Fatalf("Replay(%s game %d) warnings %+v, want none", tc.file, tc.game, ws)
				}
				return
			}
			if line != tc.line || col != tc.col || move != tc.move {
				t.Errorf("Replay(%s game %d): line %d, column %d, move %d; want %d, %d, %d (%s)", tc.file, tc.game,
					line, col, move, tc.line, tc.col, tc.move, msg)
			}
			for _, want := range tc.wantInMsgs {
				if !strings.Contains(msg, want) {
					t.Errorf("Replay(%s game %d) message %q does not contain %q", tc.file, tc.game, msg, want)
				}
			}
		})
	}
}

// TestReplayCanadian: a canadian game replays to the end with its GameType and without
// one (squares above 50), through the wide instance of the engine.
func TestReplayCanadian(t *testing.T) {
	_, res, errs := replayFile(t, filepath.Join("testdata", "replay", "canadian.pdn"), nil)
	for i, want := range []struct {
		from  VariantSource
		plies int
	}{{FromGameType, 124}, {FromInferred, 20}} {
		if errs[i] != nil {
			t.Fatalf("game %d: %v", i+1, errs[i])
		}
		if r := res[i]; r.Variant.Name != "canadian" || r.VariantFrom != want.from || len(r.Plies) != want.plies {
			t.Errorf("game %d: %s (%s), %d plies; want canadian (%s), %d plies", i+1, r.Variant.Name, r.VariantFrom, len(r.Plies), want.from, want.plies)
		}
	}
}

// TestReplayCorpus replays real files of the shared corpus and reports
// how many games replay cleanly, with the problems by kind.
func TestReplayCorpus(t *testing.T) {
	tests := []struct {
		path      string
		variant   string // expected variant of the games
		minClean  float64
		wantGames int
	}{
		// Open Checkers Archive: every game replays (22,621 games).
		{"mzuluaga__checkers/OCA_2.0.pdn", "english", 1, 22621},
		// Tinsley: one game has an illegal move in the archive itself
		// (game 541, 62... 32-28 with no black piece on 32).
		{"eygilbert__CheckerBoard/games/tinsley.pdn", "english", 0.99, 724},
		{"wiegerw__pdn/games/succeed/ussr1947.pdn", "russian", 1, 153},
		{"wiegerw__pdn/games/fail/abatsiev.pdn", "russian", 1, 56},
		{"rhalbersma__mobydam/book/games/babasy1.pdn", "international", 1, 43},
		{"Yodachess__BrunoGUI_Dames/Dames_PartiesPdn_FEN/Championnat de France 2021.pdn", "international", 1, 58},
		{"wiegerw__pdn/games/succeed/kurnik.pdn", "international", 1, 4},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			if testing.Short() && strings.Contains(tc.path, "OCA") {
				t.Skip("OCA is long")
			}
			path := corpusPath(t, tc.path)
			games, res, errs := replayFile(t, path, nil)
			clean := 0
			kinds := map[string]int{}
			for i := range games {
				if games[i].Plies() > 0 && (res[i].Variant == nil || res[i].Variant.Name != tc.variant) {
					t.Errorf("%s game %d: variant %v, want %s", tc.path, i+1, res[i].Variant.Name, tc.variant)
				}
				if errs[i] == nil {
					clean++
				} else {
					kinds[ErrorKind(errs[i])]++
					if kinds[ErrorKind(errs[i])] <= 3 {
						t.Logf("%v", errs[i])
					}
				}
				for _, w := range res[i].Warnings {
					kinds[w.Kind]++
				}
			}
			t.Logf("%s: %d games, %d replay cleanly; problems %v", tc.path, len(games), clean, kinds)
			if len(games) != tc.wantGames || float64(clean) < tc.minClean*float64(len(games)) {
				t.Errorf("%s: %d of %d games replay cleanly, want %d games and at least %.0f%%", tc.path, clean, len(games),
					tc.wantGames, 100*tc.minClean)
			}
		})
	}
}

// TestReplayCountOnly checks that a Replayer with CountOnly finds what one
// without finds, errors and warnings included, and keeps no moves.
func TestReplayCountOnly(t *testing.T) {
	files, _ := filepath.Glob("testdata/replay/*.pdn")
	files = append(files, corpusPath(t, "eygilbert__CheckerBoard/games/tinsley.pdn"),
		corpusPath(t, "wiegerw__pdn/games/succeed/ussr1947.pdn"))
	for _, path := range files {
		full, count := &Replayer{}, &Replayer{CountOnly: true}
		eachGame(t, path, false, func(_ *Reader, g *Game, _ error) {
			want, werr := full.Replay(g)
			got, gerr := count.Replay(g)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || fmt.Sprint(got.Warnings) != fmt.Sprint(want.Warnings) ||
				got.Final != want.Final || got.Complete != want.Complete || got.Variant != want.Variant {
				t.Errorf("%s: CountOnly: %v %v %v, without: %v %v %v", path, gerr, got.Warnings, got.Complete, werr, want.Warnings, want.Complete)
			}
			if len(got.Plies) != 0 || len(got.Variations) != 0 {
				t.Errorf("%s: CountOnly kept %d plies, %d variation moves", path, len(got.Plies), len(got.Variations))
			}
		})
	}
}
