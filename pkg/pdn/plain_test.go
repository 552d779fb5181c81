package pdn

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rafle/rafle/internal/testcorpus"
)

// readPlain reads every game of data, with or without Reader.plainMovetext
// and plainTag, each read of the input cut to half (iotest.HalfReader) if
// half is set, into an Arena with plain reading and full reads, and
// returns the games and the errors Next returned with them.
func readPlain(t *testing.T, data []byte, strict, tokensOnly, half bool) ([]*Game, []error) {
	t.Helper()
	r := testReader(data, strict, tokensOnly, half)
	if !tokensOnly && !half {
		r.SetArena(new(Arena)) // (never reset: the games stay valid)
	}
	var games []*Game
	var errs []error
	for {
		g, err := r.Next()
		if err == io.EOF {
			return games, errs
		}
		var ge *GameError
		if err != nil && !errors.As(err, &ge) && !errors.Is(err, ErrNotPDN) {
			t.Fatalf("Next: %v", err)
		}
		games, errs = append(games, g), append(errs, err)
	}
}

// TestPlainMovetext reads the whole corpus, and tags and movetext written
// to try the edges of plainTag and plainMovetext, with and without them,
// leniently and strictly, and wants the same games (positions and
// warnings included) and errors.
func TestPlainMovetext(t *testing.T) {
	inputs := map[string][]byte{
		"edges": []byte("[Event \"x\"]\r\n1. 11-15 24-20\r\n2.\t8-11 28-24 3.9-13 05-09 4. 0. 22x18 5. 6. 15:22 1-10\n" +
			"6. 1-0 7... 12-16 8. 12-16! 9-14 {c} 10. 1-1\r 11. 10-14 32-28 1/2-1/2 *\n" +
			"1. 11-15 2. 3. 9-14 22-18x 11-15-19 11-155 100. 1-2 2x1 0-1\n1. 9-13X18 22-18X 2. 2-1 2-2 1-2 *\n\n1. 30-25 % comment\n   \t  \n2. 5-10 \\r 2-0"),
		"tags": []byte("[Event\"x\"]\n[Site  \"a\\\"b\"]\n[Date \"x\" ]\n[1Event \"x\"]\n[Ev-ent \"x\"]\n[Round \"\xc3\xa9\"]\n" +
			"[White \"\xe9\"]\n[Dati \"x\"]\n[GameType \"21\"]\n[GameType \"99,Z\"]\n[FEN \"\"]\n[Event \"y\"]\n[Black \"\"]\n[ Result \"1-0\"]\n" +
			"[Result\t\"1-0\"]\n[Annotator \"x\"\n[Event \"" + strings.Repeat("v", 400) + "\"]\n[" + strings.Repeat("N", 100) + " \"x\"]\n1. 11-15 *\n" +
			"[Event \"z\"] [Site \"w\"][Date \"v\"]\n1. 11-15 *\n" +
			// Values past a word of 8 bytes (plainValue), each with a byte it stops at.
			"[Event \"abcdefghij\rklm\"]\n[Site \"abcdefghijklmnop\nq\"]\n[Date \"abcdefgh\x01\x7f\xffij\"]\n" +
			"[Round \"abcdefghijkl\\\"mn\"]\n[White \"abcdefghijklmnopqrstuvw\"xyz\"]\n[Black \"abcdefgh\"]\n1. 11-15 *"),
	}
	readFiles(t, inputs, corpusFiles(t))
	games := 0
	for name, data := range inputs {
		for _, strict := range []bool{false, true} {
			for _, half := range []bool{false, true} {
				if half && len(data) > 1<<20 {
					continue
				}
				ga, ea := readPlain(t, data, strict, false, half)
				gb, eb := readPlain(t, data, strict, true, half)
				games += len(gb)
				if len(ga) != len(gb) {
					t.Fatalf("%s (strict %v, half %v): %d games, %d read token by token", name, strict, half, len(ga), len(gb))
				}
				for i := range ga {
					if !reflect.DeepEqual(ga[i], gb[i]) || !reflect.DeepEqual(ea[i], eb[i]) {
						t.Fatalf("%s (strict %v, half %v): game %d differs:\n%+v %v\ntoken by token:\n%+v %v", name, strict, half, i+1,
							ga[i], ea[i], gb[i], eb[i])
					}
				}
			}
		}
	}
	if games == 0 || !strings.Contains(fmtGames(readPlain(t, inputs["edges"], false, false, false)), "5-9") {
		t.Fatalf("no games read, or 05-09 not read as 5-9")
	}
}

func fmtGames(gs []*Game, _ []error) string {
	var b strings.Builder
	for _, g := range gs {
		for _, n := range g.Moves {
			if n.Kind == MoveNode {
				b.WriteString(n.Move.Text + " ")
			}
		}
	}
	return b.String()
}

// TestMayBeLocalized: every localised tag name passes the prefilter, and
// the standard names of the Open Checkers Archive's headers do not.
func TestMayBeLocalized(t *testing.T) {
	for k := range localizedTags {
		if !mayBeLocalized(k) {
			t.Errorf("mayBeLocalized(%q) = false", k)
		}
	}
	for _, k := range []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"} {
		if mayBeLocalized(k) {
			t.Errorf("mayBeLocalized(%q) = true: its tags are looked up in the map", k)
		}
	}
}

// TestSimpleMoves checks the table of two-square move texts against
// Square.appendTo, every slot.
func TestSimpleMoves(t *testing.T) {
	simpleOnce.Do(buildSimple)
	for k, sep := range []byte{'-', 'x', ':'} {
		for a := 1; a < 100; a++ {
			for b := 1; b < 100; b++ {
				want := string(Square(b).appendTo(append(Square(a).appendTo(nil), sep)))
				off := ((k*100+a)*100 + b) * simpleSlot
				if got := simpleMoves[off : off+len(want)]; got != want {
					t.Fatalf("slot %d-%c-%d: %q, want %q", a, sep, b, got, want)
				}
			}
		}
	}
}

// readFiles reads the files at paths (with -short, 50 of them spread
// over the list) into inputs, by path: a sample of those over 1 MB (testcorpus.Sample).
func readFiles(t *testing.T, inputs map[string][]byte, paths []string) {
	t.Helper()
	step := 1
	if testing.Short() && len(paths) > 50 {
		step = len(paths) / 50
	}
	for i := 0; i < len(paths); i += step {
		p := paths[i]
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[p] = testcorpus.Sample(data) // the Open Checkers Archive: 1 MB of it
	}
}

// testReader returns a Reader of data, strict or not, reading with tokens
// only (no plainMovetext or plainTag) if tokensOnly is set, each read of
// the input cut to half (iotest.HalfReader) if half is set.
func testReader(data []byte, strict, tokensOnly, half bool) *Reader {
	var in io.Reader = bytes.NewReader(data)
	if half {
		in = iotest.HalfReader(in)
	}
	r := NewReader(in)
	r.Strict, r.tokensOnly = strict, tokensOnly
	return r
}

// TestPlainValue checks plainValue, which scans a tag value 8 bytes at a
// time, against a scan byte by byte: where it stops in values of every
// length up to 40 with each byte it stops at (and others) at every place,
// and that it hashes what it read as strHash does, from every word on.
func TestPlainValue(t *testing.T) {
	stops := []byte{'"', '\\', '\n', '\r', 0, 0x1f, 0x7f, 0x80, 0xff}
	others := []byte{' ', '!', '#', '[', ']', '~', 'a', '0'}
	for n := 0; n <= 40; n++ {
		for at := 0; at <= n; at++ {
			for _, c := range append(stops, others...) {
				b := []byte(strings.Repeat("v", 4) + strings.Repeat("x", n) + "\"]" + strings.Repeat(" ", 12))
				if at < n {
					b[4+at] = c
				}
				want := 4
				for want < len(b) && b[want] >= ' ' && b[want] < 0x7f && b[want] != '"' && b[want] != '\\' {
					want++
				}
				k, h, hashed := plainValue(b, 4)
				if k != want || hashed && h != strHash(b[4:k]) || !hashed && k+8 <= len(b) {
					t.Fatalf("plainValue(%q): %d, hashed %v (%x); want %d and strHash %x", b, k, hashed, h, want, strHash(b[4:want]))
				}
			}
		}
	}
}

// TestScanNumberFast reads the corpus and moves written to try the edges
// of Scanner.scanNumberFast and scanCapture with and without them, and
// wants the same tokens.
func TestScanNumberFast(t *testing.T) {
	inputs := map[string][]byte{
		"edges": []byte("1. 26x17x10x1 28x19x10 9x18x27x36x45x54 26:17:10 1x2x3 26x17-10 26x17x100 26x17x0 26x17x 10 26x17X10 " +
			"11-15-19 11x15-19 " + strings.Repeat("12x", 20) + "12 26x17x10) 26x17x10! 1-0 2x1x3 05x09x14 26x17x10x1x2x3x4x5x6x7x8x9x10x11x12x13x14 " +
			"26x17x10x1x2x3x4x5x6x7x8x9x10x11x12x13x14x15 " + strings.Repeat("9x", 70) + "9 26x17x10x"),
	}
	readFiles(t, inputs, corpusFiles(t))
	for name, data := range inputs {
		fast, slow := scanTokens(t, data, false), scanTokens(t, data, true)
		if !reflect.DeepEqual(fast, slow) {
			for i := range min(len(fast), len(slow)) {
				if !reflect.DeepEqual(fast[i], slow[i]) {
					t.Fatalf("%s: token %d: %+v, without scanNumberFast %+v", name, i, fast[i], slow[i])
				}
			}
			t.Fatalf("%s: %d tokens, %d without scanNumberFast", name, len(fast), len(slow))
		}
	}
}

// scanned is a token as the tests compare them, with the warnings the
// Scanner gave before it.
type scanned struct {
	Kind    TokenKind
	Pos     Pos
	Text    string
	Squares []Square
	Sep     Sep
	Num     int
	Err     error
	Warns   []Warning
}

// scanTokens returns the tokens of data up to TokEOF, read with
// scanNumberFast or without it (slow).
func scanTokens(t *testing.T, data []byte, slow bool) []scanned {
	t.Helper()
	s := NewScanner(bytes.NewReader(data))
	s.slow = slow
	var warns []Warning
	s.Warn = func(w Warning) { warns = append(warns, w) }
	var out []scanned
	for {
		tk, err := s.Next()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, scanned{tk.Kind, tk.Pos, string(tk.Text()), append([]Square(nil), tk.Squares()...), tk.Sep(), tk.Number(), tk.Err, warns})
		warns = nil
		if tk.Kind == TokEOF {
			return out
		}
	}
}
