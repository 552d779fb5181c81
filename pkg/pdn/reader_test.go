package pdn

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// readString reads all games of in. It fails the test on errors other
// than *GameError.
func readString(t *testing.T, in string, configure func(*Reader)) ([]*Game, []error) {
	t.Helper()
	r := NewReader(strings.NewReader(in))
	if configure != nil {
		configure(r)
	}
	var gs []*Game
	var errs []error
	for {
		g, err := r.Next()
		if err == io.EOF {
			return gs, errs
		}
		var ge *GameError
		if err != nil && !errors.As(err, &ge) {
			t.Fatalf("Next(%q): unexpected error %v", in, err)
		}
		if err != nil {
			errs = append(errs, err)
		}
		gs = append(gs, g)
	}
}

// canon writes games as canonical PDN without wrapping.
func canon(t *testing.T, gs []*Game) string {
	t.Helper()
	var b strings.Builder
	w := NewWriter(&b)
	w.Width = -1
	for _, g := range gs {
		if err := w.Write(g); err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}

func warningKinds(gs []*Game) []string {
	var ks []string
	for _, g := range gs {
		for _, w := range g.Warnings {
			ks = append(ks, w.Kind.String())
		}
	}
	return ks
}

func TestReaderLenient(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string   // canonical PDN of all games
		warns []string // warning kinds in order
	}{
		{"simple", "1. 32-28 19-23 2. 28x19 14x23 *", "1. 32-28 19-23 2. 28x19 14x23 *", nil},
		{"1-1 result vs 1-10 move", "1. 1-10 1-1", "1. 1-10 1-1", nil},
		{"1-1 result after move", "32-28 1-1\n", "32-28 1-1", nil},
		{"all results", "32-28 2-0 32-28 0-2 32-28 0-0 32-28 1-0 32-28 0-1 32-28 1/2-1/2 32-28 *",
			"32-28 2-0\n\n32-28 0-2\n\n32-28 0-0\n\n32-28 1-0\n\n32-28 0-1\n\n32-28 1/2-1/2\n\n32-28 *", nil},
		{"full capture path", "1. 26x17x10x1 28x19x10 *", "1. 26x17x10x1 28x19x10 *", nil},
		{"algebraic", "1. c3-d4 b6:d4 2. a3b4 *", "1. c3-d4 b6:d4 2. a3b4 *", nil},
		{"upper case algebraic", "1. A3-B4 *", "1. a3-b4 *", []string{"move-syntax"}},
		{"zero padded", "01. 06-11 09x18 *", "1. 6-11 9x18 *", nil},
		{"move number 0", "0. 32-28 00... 19-23 *", "32-28 19-23 *", []string{"move-number", "move-number"}},
		{"split move number", "1.\n32-28 19-23 2.\n28x19 *", "1. 32-28 19-23 2. 28x19 *", nil},
		{"space after separator", "1. 34-29  1- 6 *", "1. 34-29 1-6 *", nil},
		{"continuation and placeholder", "1. ... 7-12 2... 12-17 *", "1. ... 7-12 2... 12-17 *", nil},
		{"strength and nags", "1. 32-28! 19-23(?) $4 2. 28x19?! $1 $2 *", "1. 32-28! 19-23(?) $4 2. 28x19?! $1 $2 *", nil},
		{"comments and variations", "{pre} 1. 32-28 {after} (1. 33-28 {alt} (1. 31-27)) 19-23 *",
			"{pre} 1. 32-28 {after} (1. 33-28 {alt} (1. 31-27)) 19-23 *", nil},
		{"setup command", `1. 32-28 /FEN "W:W31:B1"/ 19-23 *`, `1. 32-28 /FEN "W:W31:B1"/ 19-23 *`, nil},
		{"tags", "[Event \"E\"]\n[White \"A \\\"q\\\" \\\\\"]\n\n1. 32-28 *",
			"[Event \"E\"]\n[White \"A \\\"q\\\" \\\\\"]\n\n1. 32-28 *", nil},
		{"percent comment", "% header\n[Event \"E\"] % more\n1. 32-28 *", "[Event \"E\"]\n\n1. 32-28 *", nil},
		{"semicolon comment", "1. 32-28 ; note\n19-23 *", "1. 32-28 { note} 19-23 *", []string{"line-comment"}},
		{"missing terminator before next tags", "[Event \"a\"]\n1. 32-28\n\n[Event \"b\"]\n1. 33-28 *",
			"[Event \"a\"]\n\n1. 32-28 *\n\n[Event \"b\"]\n\n1. 33-28 *", []string{"missing-terminator"}},
		{"missing terminator at end", "1. 32-28", "1. 32-28 *", []string{"no-terminator-at-end"}},
		{"tags only", "[FEN \"W:W31:B1\"] *\n[FEN \"B:W31:B1\"] *", "[FEN \"W:W31:B1\"]\n\n*\n\n[FEN \"B:W31:B1\"]\n\n*", nil},
		{"crlf", "[Event \"E\"]\r\n1. 32-28 *\r\n", "[Event \"E\"]\n\n1. 32-28 *", nil},
		{"lone cr", "[Event \"E\"]\r1. 32-28 *\r", "[Event \"E\"]\n\n1. 32-28 *", []string{"lone-cr"}},
		{"literal backslash r", "[Event \"E\"]\\r\n[Site \"\"]\\r\n1. 32-28 *\\r\n", "[Event \"E\"]\n[Site \"\"]\n\n1. 32-28 *",
			[]string{"literal-cr", "literal-cr"}},
		{"bom", "\xEF\xBB\xBF[Event \"E\"]\n*", "[Event \"E\"]\n\n*", []string{"bom"}},
		{"italian tags", "[Dati \"D\"]\n[Bianco \"B\"]\n[Nero \"N\"]\n[Risultato \"1-0\"]\n1. 21-17 1-0",
			"[Event \"D\"]\n[White \"B\"]\n[Black \"N\"]\n[Result \"1-0\"]\n\n1. 21-17 1-0",
			[]string{"localized-tag", "localized-tag", "localized-tag", "localized-tag"}},
		{"entity tag names", "[R&#x00e9;sultat \"1-1\"]\n[Type de jeu \"20\"]\n32-28 1-1",
			"[Result \"1-1\"]\n[GameType \"20\"]\n\n32-28 1-1", []string{"tag-name", "tag-name"}},
		{"empty pseudo tag", "[Empty] 1. 32-28 *", "1. 32-28 *", []string{"tag-syntax"}},
		{"unknown moves", "[Event \"E\"]\n1. - - 2. 32-28 *", "[Event \"E\"]\n\n2. 32-28 *", []string{"unknown-move", "unknown-move"}},
		{"stray dot", "1. 32-28 . 1-0", "1. 32-28 1-0", []string{"stray-token"}},
		{"glued text", "1. 8-11Redoverstepped. 0-1", "1. 8-11 {Redoverstepped.} 0-1", []string{"stray-text"}},
		{"nested comment", "1. 33-29 { a { b } } *", "1. 33-29 { a { b } *", []string{"stray-token"}},
		{"dangling move number", "[Event \"E\"]\n1. 32-28 19-23 2. 1-0", "[Event \"E\"]\n\n1. 32-28 19-23 1-0", []string{"move-number"}},
		{"star move", "1. 32-28* 19-23 *", "1. 32-28* 19-23 *", []string{"strength"}},
		{"result mismatch", "[Result \"1-0\"]\n32-28 0-1", "[Result \"1-0\"]\n\n32-28 0-1", []string{"result-mismatch"}},
		{"unknown result tag", "[Result \"*\"]\n32-28 0-1", "[Result \"*\"]\n\n32-28 0-1", nil},
		{"duplicate tag", "[Event \"a\"]\n[Event \"b\"]\n*", "[Event \"a\"]\n[Event \"b\"]\n\n*", []string{"duplicate-tag"}},
		{"unclosed variation", "32-28 (33-28 *", "32-28 (33-28) *", []string{"unbalanced"}},
		{"stray close paren", "32-28 ) 19-23 *", "32-28 19-23 *", []string{"unbalanced"}},
		{"four digit move", "1. 3228 1823 *", "1. 32-28 18-23 *", []string{"move-syntax", "move-syntax"}},
		{"whole game on one line", `[Event "a"] [Site "b"] 1.33-29 19-23 2-0 [Event "c"] 1.32-28 *`,
			"[Event \"a\"]\n[Site \"b\"]\n\n1. 33-29 19-23 2-0\n\n[Event \"c\"]\n\n1. 32-28 *", nil},
		{"empty input", "", "", nil},
		{"only whitespace and comments", "  \n% nothing\n", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readString(t, tc.in, nil)
			if len(errs) > 0 {
				t.Fatalf("read %q: unexpected errors %v", tc.in, errs)
			}
			if got := canon(t, gs); got != tc.want {
				t.Errorf("read %q:\ngot  %q\nwant %q", tc.in, got, tc.want)
			}
			if got := warningKinds(gs); !slices.Equal(got, tc.warns) {
				t.Errorf("read %q: warnings %v, want %v", tc.in, got, tc.warns)
			}
		})
	}
}

func TestReaderModel(t *testing.T) {
	in := "[Event \"E\"]\n1. 32-28 {c} 19-23 (19x28x37! $3) 2... c3:e5 1-0"
	gs, errs := readString(t, in, nil)
	if len(errs) > 0 || len(gs) != 1 {
		t.Fatalf("read %q: %d games, errors %v", in, len(gs), errs)
	}
	g := gs[0]
	if got := g.Get("Event"); got != "E" {
		t.Errorf("Tag(Event) = %q, want E", got)
	}
	if g.Result != "1-0" || g.GameResult() != "1-0" {
		t.Errorf("Result = %q, GameResult() = %q, want 1-0", g.Result, g.GameResult())
	}
	ms := g.Mainline()
	if len(ms) != 3 || g.Plies() != 3 {
		t.Fatalf("Mainline() has %d moves, Plies() = %d, want 3", len(ms), g.Plies())
	}
	m := ms[0]
	if m.Number != 1 || m.Continuation || m.Text != "32-28" || m.Sep != '-' || !slices.Equal(m.Squares, []Square{32, 28}) {
		t.Errorf("move 1 = %+v, want number 1, text 32-28, squares [32 28]", m)
	}
	m = ms[2]
	if m.Number != 2 || !m.Continuation || m.Sep != ':' || !m.IsCapture() || m.From() != AlgSquare('c', 3) || m.To() != AlgSquare('e', 5) {
		t.Errorf("move 3 = %+v, want 2... c3:e5", m)
	}
	var kinds []string
	for _, n := range g.Moves {
		kinds = append(kinds, n.Kind.String())
	}
	if want := []string{"move", "comment", "move", "variation", "move"}; !slices.Equal(kinds, want) {
		t.Errorf("node kinds %v, want %v", kinds, want)
	}
	v := g.Moves[3].Variation
	if len(v) != 2 || v[0].Move.Text != "19x28x37" || v[0].Move.Strength != "!" || v[1].NAG != 3 {
		t.Errorf("variation = %+v, want 19x28x37! $3", v)
	}
	if g.Pos.Line != 1 || g.Pos.Column != 1 || g.Moves[2].Pos.Line != 2 || g.Moves[2].Pos.Column != 14 {
		t.Errorf("positions: game %v, third node %v; want 1:1 and 2:14", g.Pos, g.Moves[2].Pos)
	}
}

// TestReaderStrictPositions checks error positions. The marker § in the
// input is where the error must be reported; it is removed before reading.
func TestReaderStrictPositions(t *testing.T) {
	tests := []struct {
		name string
		in   string
		err  error
	}{
		{"missing terminator", "[Event \"a\"]\n1. 32-28\n§[Event \"b\"]\n1. 33-28 *", ErrMissingTerminator},
		{"stray dot", "1. 32-28 §. 1-0", ErrUnexpectedToken},
		{"unknown move", "[Event \"a\"]\n  1. §- - *", ErrInvalidMove},
		{"dangling number", "1. 32-28 19-23 §2. 1-0", ErrUnexpectedToken},
		{"nested comment", "1. 33-29 { a { b } §} *", ErrUnexpectedToken},
		{"upper case", "1. §A3-B4 *", ErrInvalidMove},
		{"line comment", "1. 32-28 §; x\n*", ErrUnexpectedToken},
		{"unterminated comment", "1. 32-28 §{ x\n", ErrUnterminatedComment},
		{"empty game", "32-28 * §*", ErrEmptyGame},
		{"bad tag name", "§[white \"x\"]\n*", ErrInvalidTag},
		{"literal cr", "[Event \"x\"]§\\r\n*", ErrUnexpectedToken},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := strings.Index(tc.in, "§")
			in := strings.Replace(tc.in, "§", "", 1)
			wantLine := strings.Count(in[:i], "\n") + 1
			wantCol := i - strings.LastIndex(in[:i], "\n")
			_, errs := readString(t, in, func(r *Reader) { r.Strict = true })
			if len(errs) == 0 {
				t.Fatalf("strict read %q: no error, want %v", in, tc.err)
			}
			var ge *GameError
			var se *SyntaxError
			if !errors.As(errs[0], &ge) || !errors.As(errs[0], &se) {
				t.Fatalf("strict read %q: error %T %v, want *GameError wrapping *SyntaxError", in, errs[0], errs[0])
			}
			if !errors.Is(errs[0], tc.err) {
				t.Errorf("strict read %q: error %v, want %v", in, errs[0], tc.err)
			}
			if se.Pos.Line != wantLine || se.Pos.Column != wantCol || ge.Pos != se.Pos {
				t.Errorf("strict read %q: error at %v (game error at %v), want %d:%d", in, se.Pos, ge.Pos, wantLine, wantCol)
			}
			if !strings.HasPrefix(errs[0].Error(), "pdn: game ") || !strings.HasPrefix(se.Error(), "pdn: line ") {
				t.Errorf("messages %q / %q, want prefixes \"pdn: game \" / \"pdn: line \"", errs[0].Error(), se.Error())
			}
		})
	}
}

// TestReaderSkipsBadGame checks that an error in one game does not stop
// the reader: the next game is read normally.
func TestReaderSkipsBadGame(t *testing.T) {
	in := "[Event \"1\"]\n1. 32-28 { never closed\n"
	gs, errs := readString(t, in, nil)
	if len(gs) != 1 || len(errs) != 1 || !errors.Is(errs[0], ErrUnterminatedComment) {
		t.Fatalf("read %q: %d games, errors %v; want 1 game with ErrUnterminatedComment", in, len(gs), errs)
	}
	in = "[Event \"1\"]\n1. 32-28 19-23 2. 1-0\n[Event \"2\"]\n1. 33-28 *\n[Event \"3\"]\n1. 31-27 *"
	gs, errs = readString(t, in, func(r *Reader) { r.Strict = true })
	if len(gs) != 3 || len(errs) != 1 {
		t.Fatalf("strict read %q: %d games, %d errors; want 3 games, 1 error", in, len(gs), len(errs))
	}
	var ge *GameError
	if !errors.As(errs[0], &ge) || ge.Game != 1 {
		t.Errorf("error %v: want game 1", errs[0])
	}
	if got := gs[2].Get("Event"); got != "3" {
		t.Errorf("third game Event = %q, want 3", got)
	}
}

func TestReaderMaxTokenSize(t *testing.T) {
	in := "1. 32-28 {" + strings.Repeat("x", 5000) + "} 19-23 *\n1. 33-28 *"
	gs, errs := readString(t, in, func(r *Reader) { r.MaxTokenSize = 1000 })
	if len(gs) != 2 || len(errs) != 1 || !errors.Is(errs[0], ErrTokenTooLong) {
		t.Fatalf("read long comment: %d games, errors %v; want 2 games, ErrTokenTooLong", len(gs), errs)
	}
	if got := canon(t, gs[:1]); got != "1. 32-28 19-23 *" {
		t.Errorf("game with long comment = %q, want the comment dropped", got)
	}
}

func TestReaderMaxDepth(t *testing.T) {
	in := "32-28 " + strings.Repeat("(", 20) + "19-23" + strings.Repeat(")", 20) + " 33-28 *"
	gs, errs := readString(t, in, func(r *Reader) { r.MaxDepth = 5 })
	if len(gs) != 1 || len(errs) != 1 || !errors.Is(errs[0], ErrTooDeep) {
		t.Fatalf("read deep variations: %d games, errors %v; want ErrTooDeep", len(gs), errs)
	}
	if gs[0].Plies() != 2 {
		t.Errorf("plies = %d, want 2 (game continues after the skipped variation)", gs[0].Plies())
	}
}

func TestReaderEncoding(t *testing.T) {
	tests := []struct {
		name string
		in   string
		enc  Encoding
		want string
		warn string
	}{
		{"utf-8", "[White \"Léman\"] *", EncodingAuto, "Léman", ""},
		{"latin-1 detected", "[White \"L\xe9man \xe0 Gen\xe8ve\"] *", EncodingAuto, "Léman à Genève", "encoding"},
		{"cp1251 detected", "[White \"\xcf\xe5\xf0\xe2\xe5\xed\xf1\xf2\xe2\xee \xd1\xd1\xd1\xd0\"] *", EncodingAuto, "Первенство СССР", "encoding"},
		{"cp1251 forced", "[White \"\xe9\"] *", CP1251, "й", "encoding"},
		{"latin-1 forced", "[White \"\xcf\xe5\"] *", Latin1, "Ïå", "encoding"},
		{"invalid utf-8 forced", "[White \"L\xe9man\"] *", UTF8, "Léman", "invalid-utf8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs, errs := readString(t, tc.in, func(r *Reader) { r.Encoding = tc.enc })
			if len(gs) != 1 || len(errs) > 0 {
				t.Fatalf("read %q: %d games, errors %v", tc.in, len(gs), errs)
			}
			if got := gs[0].Get("White"); got != tc.want {
				t.Errorf("read %q as %v: White = %q, want %q", tc.in, tc.enc, got, tc.want)
			}
			ws := warningKinds(gs)
			if tc.warn == "" && len(ws) > 0 || tc.warn != "" && !slices.Contains(ws, tc.warn) {
				t.Errorf("read %q: warnings %v, want %q", tc.in, ws, tc.warn)
			}
		})
	}
}
