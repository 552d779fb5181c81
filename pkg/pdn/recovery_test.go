package pdn

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// gamesText returns n small games in the layout of the Open Checkers
// Archive: tags, a blank line, movetext with a comment over two lines, a
// blank line. sep goes between games instead of the blank line when set.
func gamesText(n int, sep string) []string {
	gs := make([]string, n)
	for i := range gs {
		gs[i] = fmt.Sprintf("[Event \"Game %d\"]\n[Date \"1965-07-%02d\"]\n[Result \"1-0\"]\n\n"+
			"1. 11-15 23-19 2. 8-11 {a comment\nover two lines, [with a bracket]} 22-17 3. 4-8 1-0\n%s",
			i+1, i%28+1, sep)
	}
	return gs
}

// checkDamage reads damaged, a copy of the games of good with game bad
// (1-based) altered, and checks that every other game reads as in good
// and that game bad comes with a *GameError that unwraps to want, at the
// position of the marker § in damaged (removed before reading).
func checkDamage(t *testing.T, good []string, damaged string, bad int, want error) []*Game {
	t.Helper()
	i := strings.Index(damaged, "§")
	if i < 0 {
		t.Fatal("no § marker in the damaged input")
	}
	in := strings.Replace(damaged, "§", "", 1)
	wantLine := strings.Count(in[:i], "\n") + 1
	wantCol := i - strings.LastIndex(in[:i], "\n")
	goodGames, errs := readString(t, strings.Join(good, ""), nil)
	if len(errs) > 0 {
		t.Fatalf("undamaged input: errors %v", errs)
	}
	for _, strict := range []bool{false, true} {
		r := NewReader(strings.NewReader(in))
		r.Strict = strict
		var gs []*Game
		for {
			g, err := r.Next()
			if g == nil {
				break
			}
			gs = append(gs, g)
			n := len(gs)
			if n == bad {
				var ge *GameError
				if !errors.As(err, &ge) || !errors.Is(err, want) {
					t.Fatalf("strict %v: game %d read with error %v, want a *GameError for %v", strict, n, err, want)
				}
				if ge.Game != bad || ge.Pos.Line != wantLine || ge.Pos.Column != wantCol {
					t.Errorf("strict %v: error %v at game %d, %v; want game %d, line %d, column %d",
						strict, err, ge.Game, ge.Pos, bad, wantLine, wantCol)
				}
				if !strings.Contains(err.Error(), fmt.Sprintf("game %d: line %d, column %d", bad, wantLine, wantCol)) {
					t.Errorf("message %q does not give the game and position", err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("strict %v: game %d: unexpected error %v", strict, n, err)
			}
			if n > len(goodGames) {
				continue
			}
			if got, want := canon(t, gs[n-1:]), canon(t, goodGames[n-1:n]); got != want {
				t.Fatalf("strict %v: game %d reads\n%s\nwant\n%s", strict, n, got, want)
			}
		}
		if len(gs) != len(good) {
			t.Fatalf("strict %v: read %d games, want %d", strict, len(gs), len(good))
		}
		if !strict {
			goodGames = gs
		}
	}
	return goodGames
}

// TestReaderUnterminatedTagValue checks that a tag value whose closing
// quote is missing ends at the end of its line: the game is marked, the
// value is kept, and the following games are read as if nothing happened.
func TestReaderUnterminatedTagValue(t *testing.T) {
	good := gamesText(20, "\n")
	tests := []struct {
		name, old, new string
		value          string // the damaged tag's value as read
	}{
		{"closing quote", `[Result "1-0"]`, `[Result §"1-0]`, "1-0"},
		{"closing quote and bracket", `[Result "1-0"]`, `[Result §"1-0`, "1-0"},
		{"blank before bracket", `[Result "1-0"]`, `[Result §"1-0 ] `, "1-0 "},
		{"escaped last quote", `[Result "1-0"]`, `[Result §"1-0\"]`, `1-0"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games := append([]string(nil), good...)
			games[6] = strings.Replace(games[6], tc.old, tc.new, 1)
			gs := checkDamage(t, good, strings.Join(games, ""), 7, ErrUnterminatedString)
			if got := gs[6].Get("Result"); got != tc.value {
				t.Errorf("damaged tag value %q, want %q", got, tc.value)
			}
			if got := gs[6].Get("Event"); got != "Game 7" {
				t.Errorf("damaged game's Event %q, want Game 7", got)
			}
		})
	}
}

// TestReaderUnterminatedComment checks that a comment without its '}'
// stops at the next line that starts with a tag, so that it swallows no
// game.
func TestReaderUnterminatedComment(t *testing.T) {
	for _, layout := range []struct{ name, sep string }{
		{"blank line between games", "\n"},
		{"no blank line", ""},
	} {
		t.Run(layout.name, func(t *testing.T) {
			good := gamesText(40, layout.sep)
			games := append([]string(nil), good...)
			games[19] = strings.Replace(games[19], "22-17", "22-17 §{ never closed", 1)
			gs := checkDamage(t, good, strings.Join(games, ""), 20, ErrUnterminatedComment)
			g := gs[19]
			if g.Plies() != 4 || g.Result != "*" {
				t.Errorf("damaged game: %d plies, result %q; want 4 plies and *", g.Plies(), g.Result)
			}
		})
	}
	// A tag line inside a comment that is closed ends the comment too:
	// the '}' that would have closed it is then a stray token.
	in := "1. 32-28 {see\n[Event \"x\"]} 19-23 *\n"
	gs, errs := readString(t, in, nil)
	if len(gs) != 2 || len(errs) != 1 || !errors.Is(errs[0], ErrUnterminatedComment) {
		t.Errorf("read %q: %d games, errors %v; want 2 games, the first with ErrUnterminatedComment", in, len(gs), errs)
	}
}

// TestOCADamaged damages the Open Checkers Archive the way issue 15 did
// (one closing quote removed from a tag, one closing brace from a
// comment) and checks that every other game is still read unchanged.
func TestOCADamaged(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the 11.5 MB archive three times")
	}
	data, err := os.ReadFile(corpusPath(t, "mzuluaga__checkers/OCA_2.0.pdn"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	// Line 120001 is a Result tag: drop its closing quote (awk
	// 'NR==120001{sub(/"\]/,"]")}').
	if !strings.HasSuffix(lines[120000], "\"]\n") {
		t.Fatalf("line 120001 is %q, not a tag", lines[120000])
	}
	lines[120000] = strings.Replace(lines[120000], "\"]", "]", 1)
	// The first comment after line 150000 loses its closing brace.
	k := 150000
	for !strings.Contains(lines[k], "{") || !strings.Contains(lines[k], "}") {
		k++
	}
	j := strings.Index(lines[k], "{")
	lines[k] = lines[k][:j] + strings.Replace(lines[k][j:], "}", " ", 1)
	damaged := strings.Join(lines, "")

	good, _ := readString(t, text, nil)
	gs, errs := readString(t, damaged, nil)
	if len(gs) != len(good) || len(errs) != 2 {
		t.Fatalf("damaged OCA: %d games, %d errors %v; want %d games and 2 errors", len(gs), len(errs), errs, len(good))
	}
	var bad []int
	for _, err := range errs {
		var ge *GameError
		errors.As(err, &ge)
		bad = append(bad, ge.Game)
		if ge.Pos.Line != 120001 && ge.Pos.Line != k+1 {
			t.Errorf("error %v: want line 120001 or %d", err, k+1)
		}
	}
	changed := 0
	for i := range gs {
		if canon(t, gs[i:i+1]) != canon(t, good[i:i+1]) {
			changed++
			if i+1 != bad[0] && i+1 != bad[1] {
				t.Errorf("game %d changed and has no error", i+1)
			}
		}
	}
	if changed == 0 {
		t.Errorf("no game changed: the damage was not where expected")
	}
}
