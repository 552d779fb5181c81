package pdn

import (
	"errors"
	"fmt"
	"os"
	"slices"
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

func TestReaderTagValues(t *testing.T) {
	tests := []struct {
		tag  string
		want string // in the warning's text; "" for no warning
	}{
		{`[GameType "20"]`, ""},
		{`[GameType "20,W,10,10,N2,0"]`, ""},
		{`[GameType "20,W,10,10,N1,0"]`, ""}, // kurnik: the type decides
		{`[GameType "41,W,10,8,A0"]`, ""},
		{`[GameType "20,W,0,0,N,0"]`, `board 0x0 is not a size; notation "N" is not A, N or S and a digit 0-3`},
		{`[GameType "21,B,10,10,N1,0"]`, "board 10x10, but type 21 is played on 8x8"},
		{`[GameType "20,X,10,10,N2,2"]`, `start colour "X" is not W or B; invert flag "2" is not 0 or 1`},
		{`[GameType "20,W,10"]`, "3 fields"},
		{`[GameType "draughts"]`, `type "draughts" is not a number`},
		{`[GameType ""]`, `type "" is not a number`},
		{`[FEN "W:W31:B1"]`, ""},
		{`[FEN ""]`, "empty FEN tag"},
		{`[FEN " "]`, "empty FEN tag"},
	}
	for _, tc := range tests {
		in := "[Event \"e\"]\n" + tc.tag + "\n1. 32-28 *\n"
		gs, errs := readString(t, in, nil)
		if len(gs) != 1 || len(errs) != 0 {
			t.Fatalf("read %q: %d games, errors %v", in, len(gs), errs)
		}
		var got []Warning
		for _, w := range gs[0].Warnings {
			if w.Kind == WarnTagValue {
				got = append(got, w)
			}
		}
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("%s: warnings %v, want none", tc.tag, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0].Text, tc.want) || got[0].Pos.Line != 2 || got[0].Pos.Column != 1):
			t.Errorf("%s: warnings %v, want one at 2:1 saying %q", tc.tag, got, tc.want)
		}
		if tc.want != "" {
			_, errs := readString(t, in, func(r *Reader) { r.Strict = true })
			if len(errs) != 1 || !errors.Is(errs[0], ErrInvalidTag) {
				t.Errorf("%s, strict: errors %v, want ErrInvalidTag", tc.tag, errs)
			}
		}
	}
}

// TestReaderTrailingDamage checks that input after the last game that is
// dropped with an error, or with warnings, comes back as a game of its
// own rather than vanishing.
func TestReaderTrailingDamage(t *testing.T) {
	tests := []struct {
		in   string
		err  error
		warn WarningKind
	}{
		{"1. 32-28 *\n\"abc", ErrUnterminatedString, WarnStrayToken},
		{"1. 32-28 *\n{abc", ErrUnterminatedComment, 0},
		{"1. 32-28 *\n[[[", ErrTruncated, WarnTagSyntax}, // cut in a tag pair (issue 33, item 14)
		{"1. 32-28 *\n)", nil, WarnUnbalanced},
	}
	for _, tc := range tests {
		gs, errs := readString(t, tc.in, nil)
		if len(gs) != 2 {
			t.Errorf("read %q: %d games, want 2", tc.in, len(gs))
			continue
		}
		if tc.err != nil && (len(errs) != 1 || !errors.Is(errs[0], tc.err)) || tc.err == nil && len(errs) > 0 {
			t.Errorf("read %q: errors %v, want %v", tc.in, errs, tc.err)
		}
		if tc.warn != 0 && !slices.ContainsFunc(gs[1].Warnings, func(w Warning) bool { return w.Kind == tc.warn }) {
			t.Errorf("read %q: trailing game's warnings %v, want %v", tc.in, gs[1].Warnings, tc.warn)
		}
	}
	// Whitespace, % comments and notes after the last game are no game.
	for _, in := range []string{"1. 32-28 *\n  % end\n", "1. 32-28 *\\r\n"} {
		if gs, _ := readString(t, in, nil); len(gs) != 1 {
			t.Errorf("read %q: %d games, want 1", in, len(gs))
		}
	}
}

// TestReaderMaxWarnings checks that a game keeps MaxWarnings warnings and
// counts the others in a last one.
func TestReaderMaxWarnings(t *testing.T) {
	in := "1. 32-28 " + strings.Repeat(") ", MaxWarnings+500) + "19-23 *"
	gs, _ := readString(t, in, nil)
	if len(gs) != 1 {
		t.Fatalf("%d games, want 1", len(gs))
	}
	ws := gs[0].Warnings
	if len(ws) != MaxWarnings+1 {
		t.Fatalf("%d warnings, want %d", len(ws), MaxWarnings+1)
	}
	last := ws[MaxWarnings]
	wantCol := len("1. 32-28 ") + 2*MaxWarnings + 1
	if last.Kind != WarnTooMany || !strings.HasPrefix(last.Text, "500 more warnings") || last.Pos.Column != wantCol {
		t.Errorf("last warning %v, want too-many-warnings at column %d: 500 more", last, wantCol)
	}
	if gs[0].Plies() != 2 {
		t.Errorf("%d plies, want 2", gs[0].Plies())
	}
}
