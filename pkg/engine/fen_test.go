package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rafle/rafle/pkg/engine"
)

func TestParseFENForms(t *testing.T) {
	for _, tc := range []struct {
		variant string
		in      string
		want    string // canonical FEN
	}{
		{"english", "B:W21-32:B1-12", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
		{"english", "B:B1-12:W21-32.", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"},
		{"english", " W:WK3,18:B09,K22:H0:F1 ", "W:WK3,18:B9,K22"},
		{"english", `"W:W18:B14"`, "W:W18:B14"},
		{"international", "W:W31-35,K1:B", "W:WK1,31,32,33,34,35:B"},
		{"international", "W:WK1-K3:B45", "W:WK1,K2,K3:B45"},
		{"russian", "W:Wa1,c3,Kh8:Bb8", "W:Wa1,c3,Kh8:Bb8"},
		{"russian", "W:W29,22,K4:B1", "W:Wa1,c3,Kh8:Bb8"},
		{"brazilian", "B:WKe1:Bd8,f8", "B:WKe1:Bd8,f8"},
	} {
		v := engine.MustLookup(tc.variant)
		p, err := v.ParseFEN(tc.in)
		if err != nil {
			t.Errorf("%s: ParseFEN(%q): %v", tc.variant, tc.in, err)
			continue
		}
		if got := v.FEN(p); got != tc.want {
			t.Errorf("%s: FEN(ParseFEN(%q)) = %q, want %q", tc.variant, tc.in, got, tc.want)
		}
		if p.Hash != p.ComputeHash() {
			t.Errorf("%s: ParseFEN(%q): hash not set", tc.variant, tc.in)
		}
	}
}

func TestParseFENErrors(t *testing.T) {
	for _, tc := range []struct {
		variant, in, token string
	}{
		{"english", "X:W21:B1", "X"},                                              // bad side to move
		{"english", "W:W33:B1", "33"},                                             // unknown square
		{"english", "W:W21,21:B1", "21"},                                          // two pieces on a square
		{"english", "W:W21:B21", "21"},                                            // two pieces on a square
		{"english", "W:W1:B30", "1"},                                              // a white man on its crowning row
		{"english", "W:W21:B30", "30"},                                            // a black man on its crowning row
		{"international", "W:W31-29:B1", "31-29"},                                 // a range backwards
		{"international", "W:W31:Q1", "Q1"},                                       // an unknown block
		{"international", "W:W31:W32", "W32"},                                     // a second white block
		{"russian", "W:Wa2:Bb8", "a2"},                                            // a light square
		{"russian", "W:Wz9:Bb8", "z9"},                                            // off the board
		{"english", "W:Wx:B1", "x"},                                               // not a square
		{"english", "W:W18,:B1,,2", ""},                                           // empty items are allowed: no error
		{"international", "W:W0:B1", "0"},                                         // square 0
		{"international", "W:W4-:B1", "4-"},                                       // an open range
		{"english", "", ""},                                                       // nothing at all
		{"english", "W:W18:B14:H", "H"},                                           // a clock field without its number
		{"international", "W:W31:B1:F1x", "F1x"},                                  // a bad clock field
		{"international", "WW:W31:B1", "WW"},                                      // bad side to move
		{"english", "B:W18:Bk1", ""},                                              // a lower-case king mark: accepted
		{"english", "B:W18:BK1-K3,K5", ""},                                        // king ranges: accepted
		{"english", "B:W18:B5-3", "5-3"},                                          // backwards range
		{"english", "B:W18:B1-99", "1-99"},                                        // range off the board
		{"english", "B:W18:B-1", "-1"},                                            // a range with no start
		{"english", "B:W18:B1--2", "1--2"},                                        // a doubled separator
		{"english", "B:W18:B1.5", "1.5"},                                          // a stray dot
		{"english", "B:W18:B 1 , 2", ""},                                          // spaces round items: accepted
		{"english", "B:W18:B1:B2", "B2"},                                          // a second black block
		{"english", "B:W18:B1:W19", "W19"},                                        // a second white block
		{"russian", "W:Wa1:Bh8,a1", "a1"},                                         // two pieces on a1
		{"russian", "W:Wa1:Bb8:", ""},                                             // a trailing colon: accepted
		{"international", "W:W46:B5", ""},                                         // men far from their crowning rows: fine
		{"international", "W:W1:B5", "1"},                                         // a white man on its crowning row
		{"international", "W:W46:B50", "50"},                                      // a black man on its crowning row
		{"international", "W:WK1:BK50", ""},                                       // kings there are fine
		{"international", "W:W51:B1", "51"},                                       // unknown square
		{"brazilian", "W:Wb2:Bh9", "h9"},                                          // off the board
		{"brazilian", "B:Wb2:B", ""},                                              // black without pieces: a valid FEN
		{"english", "B", "no piece list"},                                         // no list at all (PDN 3.0: at least one)
		{"english", "W:", "no piece list"},                                        // likewise
		{"english", "W::", "no piece list"},                                       // likewise
		{"english", "W::.", "no piece list"},                                      // likewise (wiegerw succeed/bridges.pdn)
		{"english", "W:H0:F1", "no piece list"},                                   // clocks are not lists
		{"english", "W:W", ""},                                                    // one empty list: an empty board
		{"english", "W:W18:B14.", ""},                                             // trailing dot
		{"english", "W:W18:B14..", "B14."},                                        // two dots
		{"english", "W:W18:B14 junk", "14 junk"},                                  // junk after a square
		{"english", "W:W18:B1K", "1K"},                                            // K after the number
		{"english", "W:W18:BKK1", "KK1"},                                          // doubled K
		{"english", "W:W18,B14", "18,B14"},                                        // missing colon
		{"english", "W::W18", ""},                                                 // an empty field: accepted
		{"english", "W:W18:B14:G", "G"},                                           // unknown field
		{"english", "w:w18:b14", ""},                                              // lower case: accepted
		{"english", "W:W+18:B14", "+18"},                                          // a sign
		{"english", "W:W18:B1e1", "1e1"},                                          // not a decimal number
		{"english", "W:W18:B0x1", "0x1"},                                          // not a decimal number
		{"english", "W:W18:B١", "١"},                                              // not an ASCII digit
		{"english", "W:W18:B" + strings.Repeat("9", 40), strings.Repeat("9", 40)}, // overflow
	} {
		v := engine.MustLookup(tc.variant)
		_, err := v.ParseFEN(tc.in)
		if tc.token == "" && tc.in != "" {
			if err != nil {
				t.Errorf("%s: ParseFEN(%q): %v, want no error", tc.variant, tc.in, err)
			}
			continue
		}
		var fe *engine.FENError
		if !errors.As(err, &fe) || !errors.Is(err, engine.ErrInvalidFEN) {
			t.Errorf("%s: ParseFEN(%q) = %v, want a *FENError", tc.variant, tc.in, err)
			continue
		}
		if tc.token != "" && !strings.Contains(err.Error(), tc.token) {
			t.Errorf("%s: ParseFEN(%q) = %q, want the offending token %q named", tc.variant, tc.in, err, tc.token)
		}
	}
}

// FuzzParseFEN: any input either fails with a FENError or gives a position whose canonical
// FEN reads back to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{"B:W21-32:B1-12", "W:WK1,31:B5", "W:Wa1,c3:Bh8", "W:W18:B14:H0:F1.", "W:W1-50:B"} {
		f.Add("english", s)
		f.Add("international", s)
		f.Add("russian", s)
	}
	f.Fuzz(func(t *testing.T, variant, s string) {
		v, err := engine.Lookup(variant)
		if err != nil {
			return
		}
		p, err := v.ParseFEN(s)
		if err != nil {
			if !errors.Is(err, engine.ErrInvalidFEN) {
				t.Fatalf("ParseFEN(%q): %v is not an ErrInvalidFEN", s, err)
			}
			return
		}
		q, err := v.ParseFEN(v.FEN(p))
		if err != nil || q != p {
			t.Fatalf("ParseFEN(%q) = %s, which reads back as %v, %v", s, v.FEN(p), q, err)
		}
	})
}

// FuzzParseMove: move parsing never panics, and a move it accepts is legal and written back
// the same way.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"32-28", "19x28", "28x19x10", "c3-d4", "c3:e5", "c3:e5:g3", "11-15", "x", "1-", "99x1"} {
		f.Add("english", "", s)
		f.Add("international", "W:WK46:B28,19", s)
		f.Add("russian", "W:WK29:B22,10", s)
	}
	f.Fuzz(func(t *testing.T, variant, fen, s string) {
		v, err := engine.Lookup(variant)
		if err != nil {
			return
		}
		p := v.Start()
		if fen != "" {
			if p, err = v.ParseFEN(fen); err != nil {
				return
			}
		}
		m, err := v.ParseMove(&p, s)
		if err != nil {
			if !errors.Is(err, engine.ErrInvalidMove) && !errors.Is(err, engine.ErrIllegalMove) && !errors.Is(err, engine.ErrAmbiguousMove) {
				t.Fatalf("ParseMove(%q): %v has no move error kind", s, err)
			}
			return
		}
		text := v.FormatMove(&p, m, false)
		if back, err := v.ParseMove(&p, text); err != nil || back != m {
			t.Fatalf("ParseMove(%q) = %s, which reads back as %v, %v", s, text, back, err)
		}
	})
}
