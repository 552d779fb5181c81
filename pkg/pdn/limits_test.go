package pdn

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// readText reads every game of text, and the errors Next returns with them; a non-game
// error ends the reading and is returned last.
func readText(t *testing.T, text string) (games []*Game, errs []error, end error) {
	t.Helper()
	r := NewReader(strings.NewReader(text))
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, errs, nil
		}
		if err != nil && !isGameError(err) {
			return games, errs, err
		}
		games, errs = append(games, g), append(errs, err)
	}
}

// TestNotPDN: text without a tag pair, a move or a result is not read as a game (issue 33,
// item 14: pdn stats go.mod counted one game and exited 0).
func TestNotPDN(t *testing.T) {
	for _, text := range []string{
		"module github.com/rafle/rafle\n\ngo 1.26\n\nrequire (\n\tgithub.com/urfave/cli/v2 v2.27.5\n)\n",
		"# rafle\n\nA toolkit for draughts { and checkers }.\n",
		strings.Repeat("x", 3<<20), // one line of 3 MiB
		"{only a comment}",
	} {
		games, _, end := readText(t, text)
		if len(games) != 0 || !errors.Is(end, ErrNotPDN) || ErrorKind(end) != "not-pdn" {
			t.Errorf("read %.40q: %d games, end %v; want no game and ErrNotPDN", text, len(games), end)
		}
	}
	// Stray text in a game of PDN is kept as comments, up to MaxStrayText.
	text := "[Event \"a\"]\n\n" + strings.Repeat("word ", 1<<20) + "1. 11-15 *\n"
	games, errs, end := readText(t, text)
	if len(games) != 1 || end != nil || errs[0] != nil {
		t.Fatalf("read a game with 5 MiB of stray text: %d games, %v, %v", len(games), errs, end)
	}
	kept, dropped := 0, false
	for _, n := range games[0].Moves {
		if n.Kind == CommentNode {
			kept += len(n.Text)
		}
	}
	for _, w := range games[0].Warnings {
		dropped = dropped || w.Kind == WarnStrayText && strings.Contains(w.Text, "the rest is dropped")
	}
	if kept > MaxStrayText || !dropped || games[0].Moves[len(games[0].Moves)-1].Kind != MoveNode {
		t.Errorf("stray text kept: %d bytes (at most %d), dropped said %v; the move after it kept: %v", kept, MaxStrayText, dropped,
			games[0].Moves[len(games[0].Moves)-1].Kind == MoveNode)
	}
}

// TestTruncated: a last game cut in a tag pair, after a move number, in a variation or in
// a move has an error; a last game whose input ends with a line break, or with a whole
// move, has none (issue 33, item 14: a file cut mid-tag or mid-move passed with warnings).
func TestTruncated(t *testing.T) {
	const first = "[Event \"a\"]\n\n1. 11-15 23-19 *\n\n"
	for _, tc := range []struct {
		last string
		cut  bool
	}{
		{"[Event \"b\"]\n[Bla", true},
		{"[Event \"b\"]\n[Black \"x\"]", true},
		{"[Event \"b\"]\n\n1. 9-13 22-18 2.", true},
		{"[Event \"b\"]\n\n1. 9-13 22-18 2. 10-", true},
		{"[Event \"b\"]\n\n1. 9-13 (1. 11-15", true},
		{"[Event \"b\"]\n\n1. 9-13 22-18", false}, // wiegerw/pdn's unicode.pdn ends so
		{"[Event \"b\"]\n\n1. 9-13 22-18 2. 10-\n", false},
		{"[Event \"b\"]\n[Black \"x\"]\n", false},
	} {
		games, errs, end := readText(t, first+tc.last)
		if len(games) != 2 || end != nil || errs[0] != nil {
			t.Errorf("read %q: %d games, %v, %v", tc.last, len(games), errs, end)
			continue
		}
		if got := errors.Is(errs[1], ErrTruncated); got != tc.cut {
			t.Errorf("last game %q: error %v; want truncated %v", tc.last, errs[1], tc.cut)
		}
	}
}

// TestLimitsNamed: a comment longer than the token limit is an error that names the limit,
// and the rest of the game is kept; more than MaxTags tag pairs, or MaxTagBytes of them, is
// an error and the tags beyond are dropped (issue 33, item 15).
func TestLimitsNamed(t *testing.T) {
	text := "[Event \"a\"]\n\n1. 11-15 {" + strings.Repeat("c", DefaultMaxTokenSize) + "} 23-19 2. 8-11 *\n"
	games, errs, end := readText(t, text)
	if len(games) != 1 || end != nil || !errors.Is(errs[0], ErrTokenTooLong) || !strings.Contains(errs[0].Error(), "comment longer than 1 MiB") {
		t.Fatalf("a comment of 1 MiB: %d games, %v, %v; want an error naming the limit", len(games), errs, end)
	}
	if moves := len(games[0].Mainline()); moves != 3 {
		t.Errorf("a comment of 1 MiB: %d moves kept, want 3", moves)
	}

	var b strings.Builder
	for i := range MaxTags + 500 {
		b.WriteString("[T" + string(rune('a'+i%26)) + strings.Repeat("x", i%7) + " \"v\"]\n")
	}
	big := strings.Repeat("v", 300<<10)
	for _, tags := range []string{b.String(), strings.Repeat("[Annotator \""+big+"\"]\n", 5)} {
		games, errs, end := readText(t, tags+"\n1. 11-15 23-19 *\n")
		if len(games) != 1 || end != nil || !errors.Is(errs[0], ErrTooManyTags) || ErrorKind(errs[0]) != "too-many-tags" {
			t.Fatalf("%d bytes of tags: %d games, %v, %v; want ErrTooManyTags", len(tags), len(games), errs, end)
		}
		size := 0
		for _, tg := range games[0].Tags {
			size += len(tg.Name) + len(tg.Value)
		}
		if len(games[0].Tags) > MaxTags || size > MaxTagBytes || len(games[0].Mainline()) != 2 {
			t.Errorf("%d bytes of tags: %d tags of %d bytes kept, %d moves", len(tags), len(games[0].Tags), size, len(games[0].Mainline()))
		}
	}
}
