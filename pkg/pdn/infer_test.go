package pdn

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInferVariant infers the variant of inputs whose games have no GameType tag (or
// some have one) from what the whole input holds.
func TestInferVariant(t *testing.T) {
	game := func(tags, moves string) string { return tags + "\n" + moves + "\n\n" }
	tests := []struct {
		name, text   string
		want, reason string // want "": nothing to infer
		games        int
	}{
		{"english", game(`[Event "a"]`, "1. 11-15 23-19 2. 8-11 22-17 1-0"), "english", "square numbers up to 23", 1},
		{"a short international game after a long one",
			game(`[Event "a"]`, "1. 33-29 19-23 2. 35-30 20-25 *") + game(`[Event "b"]`, "1. 32-28 18-23 *"),
			"international", "square numbers up to 35", 2},
		{"a variation with a large square", "32-28 19-23 (18-23 38-32) 28x19 14x23\n", "international", "square numbers up to 38", 1},
		{"international first moves", game(`[White "x"]`, "32-28 19-23 *") + game("", "1. 31-27 *"),
			"international", "square numbers up to 32, with international first moves in 2 of 2 games", 2},
		{"english first moves win", game("", "32-28 *") + game("", "11-15 *") + game("", "9-13 *"), "english", "square numbers up to 32", 3},
		{"a FEN tag is not the start", game(`[FEN "W:W32:B5"]`, "32-28 *"), "english", "square numbers up to 32", 1},
		{"canadian", game("", "1. 62-57 *"), "canadian", "square numbers up to 62", 1},
		// Numbers up to 50 fit the 10x10 board and the 12x12 one: first moves
		// legal only in canadian tell them apart, as they do 8x8 and 10x10.
		{"canadian first moves", game("", "1. 43-37 *") + game("", "1. 45-39 *"), "canadian",
			"square numbers up to 45, with canadian first moves in 2 of 2 games", 2},
		{"algebraic", game("", "1. c3-d4 f6-e5 *"), "russian", "algebraic squares up to f6", 1},
		{"algebraic on 10x10", game("", "1. c3-d4 i7-h6 *"), "international", "algebraic squares up to i7", 1},
		{"FEN squares", game(`[FEN "W:W31,48:B1"]`, "48-43 *"), "international", "square numbers up to 48", 1},
		{"the GameType of the other games",
			game(`[GameType "20"]`, "1. 32-28 *") + game(`[GameType "20"]`, "1. 33-28 *") + game(`[Event "c"]`, "1. 11-15 *"),
			"international", "the GameType tag of the other games of the input", 1},
		{"GameType tags that disagree",
			game(`[GameType "20"]`, "1. 32-28 *") + game(`[GameType "21"]`, "1. 11-15 *") + game(`[Event "c"]`, "1. 11-15 *"),
			"english", "square numbers up to 15", 1},
		{"squares that do not fit the tagged variant",
			game(`[GameType "21"]`, "1. 11-15 *") + game("", "1. 33-28 *"), "international", "square numbers up to 33", 1},
		{"every game tagged", game(`[GameType "25"]`, "1. c3-d4 *"), "", "", 0},
		{"comments, strings and move numbers are not squares",
			game(`[Event "Round 45"]`, "{at move 47} 1. 11-15 ; 48-49\n 45... 23-19 % 50-44\n 1-0"), "english", "square numbers up to 23", 1},
		{"no moves", game(`[Event "a"]`, "*"), "english", "no moves (english by default)", 1},
		// Issue 33, item 13: a README read as PDN was canadian from squares up to 215.
		{"squares beyond every board", game("", "1. 88-83 *"), "",
			"square numbers up to 88, more than the 72 squares of the largest board, canadian's", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, input := range []struct {
				what string
				data []byte
			}{{"PDN", []byte(tc.text)}, {"JSON", jsonLines(t, tc.text)}} {
				inf, err := InferVariant(context.Background(), bytes.NewReader(input.data), ReaderOptions{})
				if err != nil {
					t.Fatalf("%s: %v", input.what, err)
				}
				got := ""
				if inf.Variant != nil {
					got = inf.Variant.Name
				}
				if tc.want == "" && tc.games == 0 && inf.String() != "nothing to infer" {
					t.Errorf("%s: %q, want nothing to infer", input.what, inf)
				}
				if got != tc.want || inf.Reason != tc.reason || inf.Games != tc.games {
					t.Errorf("%s: InferVariant(%q) = %q from %q (%d games), want %q from %q (%d games)",
						input.what, tc.text, got, inf.Reason, inf.Games, tc.want, tc.reason, tc.games)
				}
			}
		})
	}
}

// TestInferPerGame: a game without a GameType tag whose first move is not one of the board
// of the other games' tags, and is one of the board its own squares fit, is replayed with
// its own variant; the others take the tags' (issue 33, item 13: one game tagged 20 made
// five english games international, four false illegal moves). A game whose squares no
// board holds is an error, never a variant too small for them.
func TestInferPerGame(t *testing.T) {
	text := `[GameType "20"]` + "\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
	for _, moves := range []string{"1. 11-15 23-19 2. 8-11 22-17 *", "1. 9-13 22-18 *", "1. 10-14 24-20 *",
		"1. 12-16 21-17 *", "1. 11-16 22-18 *", "1. 31-27 *"} {
		text += `[Event "x"]` + "\n\n" + moves + "\n\n"
	}
	inf, err := InferVariant(context.Background(), strings.NewReader(text), ReaderOptions{})
	if err != nil || inf.Variant == nil || inf.Variant.Name != "international" {
		t.Fatalf("InferVariant: %v, %v; want international from the tag", inf, err)
	}
	want := []string{"international", "english", "english", "english", "english", "english", "international"}
	r := NewReader(strings.NewReader(text))
	for i := 0; ; i++ {
		g, err := r.Next()
		if err != nil {
			break
		}
		for _, rp := range []*Replayer{{Inferred: inf}, {Inferred: inf, CountOnly: true}} {
			res, err := rp.Replay(g)
			if err != nil || res.Variant == nil || res.Variant.Name != want[i] {
				t.Errorf("game %d (count only %v): %v, %v; want %s", i+1, rp.CountOnly, res.Variant, err, want[i])
			}
		}
	}
	// The same through a Reader that replays as it reads.
	rp := &Replayer{Inferred: inf, CountOnly: true}
	r = NewReader(strings.NewReader(text))
	r.SetReplayer(rp)
	for i := 0; ; i++ {
		g, err := r.Next()
		if err != nil {
			break
		}
		if res, err := rp.Replay(g); err != nil || res.Variant.Name != want[i] {
			t.Errorf("streamed game %d: %v, %v; want %s", i+1, res.Variant, err, want[i])
		}
	}

	g, err := NewReader(strings.NewReader("1. 88-83 *\n")).Next()
	if err != nil {
		t.Fatal(err)
	}
	for _, rp := range []*Replayer{{}, {CountOnly: true}} {
		_, err = rp.Replay(g)
		var re *ReplayError
		if !errors.As(err, &re) || !errors.Is(err, ErrNoVariant) || ErrorKind(err) != "no-variant" || !strings.Contains(err.Error(), "up to 88") {
			t.Errorf("squares up to 88: %v; want a ReplayError, no-variant, naming them", err)
		}
	}
}

// jsonLines converts PDN text to JSON lines.
func jsonLines(t *testing.T, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := NewJSONWriter(&b)
	r := NewReader(strings.NewReader(text))
	for {
		g, err := r.Next()
		if err != nil {
			break
		}
		w.Write(g)
	}
	w.Flush()
	return b.Bytes()
}

// TestInferVariantCorpus: on every file of the corpus, InferVariant, which keeps only the
// squares of the movetext it reads, comes to the inference that the whole games the Reader
// reads give.
func TestInferVariantCorpus(t *testing.T) {
	for _, path := range corpusFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := InferVariant(context.Background(), bytes.NewReader(data), ReaderOptions{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		var e evidence
		eachGame(t, path, false, func(_ *Reader, g *Game, _ error) { e.game(g) })
		if want := e.decide(); got.Variant != want.Variant || got.Reason != want.Reason || got.Games != want.Games {
			t.Errorf("%s: InferVariant infers %v (%d games), the games %v (%d games)", filepath.Base(path), got, got.Games, want, want.Games)
		}
	}
}

// BenchmarkInferVariant infers the variant of the Open Checkers Archive, as the pdn command
// does before replaying a file.
func BenchmarkInferVariant(b *testing.B) {
	data := loadOCA(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		inf, err := InferVariant(context.Background(), bytes.NewReader(data), ReaderOptions{})
		if err != nil || inf.Variant.Name != "english" || inf.Games != 22621 {
			b.Fatalf("InferVariant(OCA) = %v, %v", inf, err)
		}
	}
}

// FuzzInferVariant: the inference never panics or loops, whatever the input.
func FuzzInferVariant(f *testing.F) {
	for _, s := range []string{"[GameType \"20\"]\n1. 32-28 *", "1. 11-15 {x} (2... 9-14) 1-0\n[FEN \"W:W31:B1\"]", "[\n\"x\\\"]%\n;c3:e5\\r/W:Wa1/ 3228 1/2-1/2",
		"12.32-28 19x28x37 $4 ! * [Type de jeu \"21\"] 9-13"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := InferVariant(context.Background(), bytes.NewReader(data), ReaderOptions{}); err != nil && !errors.Is(err, ErrBinary) {
			t.Fatalf("InferVariant(%q): %v", data, err)
		}
	})
}
