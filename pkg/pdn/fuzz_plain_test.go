package pdn

import (
	"reflect"
	"testing"
)

// FuzzPlain proves the Reader's fast paths equal to its one grammar, the
// Scanner's tokens, on whatever input the fuzzer makes: reading with
// plainTag, plainTags and plainMovetext gives the same games, positions,
// warnings and errors as reading token by token (leniently and strictly,
// whole reads and reads cut in half), and Scanner.scanNumberFast the same
// tokens as scanNumber alone. The seeds (testdata/fuzz/FuzzPlain, and
// those below) are small hand-written cases at the edges of the fast
// paths; TestPlainMovetext and TestScanNumberFast run the same
// comparisons over the corpus.
//
//	go test ./pkg/pdn -run '^$' -fuzz FuzzPlain -fuzztime 5m
func FuzzPlain(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n[Site \"y\"]\n1. 11-15 24-20 2. 8-11 28-24 *",
		"1. 32-28 19-23 2. 28x19 14x23 3. 05-09 1-10 1-1",
		"[Result \"1-0\"]\r\n1. 11-15\r\n2.\t8-11 3.9-13 4. 0. 22x18 5. 6. 15:22 1-0",
		"1. 26x17x10x1 28x19x10 26:17:10 26x17-10 26x17x100 26x17x0 26x17x 10 26x17X10 *",
		"[Event\"x\"]\n[Site  \"a\\\"b\"]\n[Date \"x\" ]\n[1Event \"x\"]\n[Round \"\xc3\xa9\"]\n1. 11-15 *",
		"[Event \"abcdefghij\rklm\"]\n[Date \"abcdefgh\x01\x7f\xffij\"]\n1. 11-15 *",
		"1. 11-15 2. 3. 9-14 22-18x 11-15-19 11-155 100. 1-2 2x1 0-1\n1. 9-13X18 2-1 2-2 *",
		"1. 30-25 % comment\n   \t  \n2. 5-10 \\r 2-0",
		"7... 12-16 8. 12-16! 9-14 {c} 10. 1-1\r 11. 10-14 32-28 1/2-1/2",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			for _, half := range []bool{false, true} {
				ga, ea := readPlain(t, data, strict, false, half)
				gb, eb := readPlain(t, data, strict, true, half)
				if len(ga) != len(gb) {
					t.Fatalf("%q (strict %v, half %v): %d games, %d read token by token", data, strict, half, len(ga), len(gb))
				}
				for i := range ga {
					if !reflect.DeepEqual(ga[i], gb[i]) || !reflect.DeepEqual(ea[i], eb[i]) {
						t.Fatalf("%q (strict %v, half %v): game %d differs:\n%+v %v\ntoken by token:\n%+v %v", data, strict, half, i+1,
							ga[i], ea[i], gb[i], eb[i])
					}
				}
			}
		}
		if fast, slow := scanTokens(t, data, false), scanTokens(t, data, true); !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: tokens differ without scanNumberFast:\n%+v\n%+v", data, fast, slow)
		}
	})
}
