package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpus is the shared PDN corpus; tests that need it skip when it is absent.
const corpus = "../../../shared/pdn/corpus"

func corpusFile(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(corpus, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared corpus not found: %v", err)
	}
	return p
}

// TestInferredVariant: short international games whose squares are all 32 or below are
// international when the rest of their file says so (other games with larger squares,
// variations), or when their first moves are international ones; every message says the
// variant was inferred and from what, and -v overrides the inference.
func TestInferredVariant(t *testing.T) {
	for _, tc := range []struct{ file, reason string }{
		{"rhalbersma__mobydam/book/games/opening2.pdn", "square numbers up to 50"},
		{"wiegerw__pdn/games/succeed/variation.pdn", "square numbers up to 38"},
		{"wiegerw__pdn/games/succeed/string.pdn", "square numbers up to 32, with international first moves in 1 of 1 games"},
		{"wiegerw__pdn/games/succeed/unicode.pdn", "square numbers up to 32, with international first moves in 1 of 1 games"},
	} {
		path := corpusFile(t, tc.file)
		code, out, errOut := runPDN(t, "", "validate", path)
		if code != 0 || !strings.Contains(out, "international (inferred from "+tc.reason) {
			t.Errorf("validate %s: exit %d, stderr %q, output\n%s\nwant exit 0 and international inferred from %s", tc.file, code, errOut, out, tc.reason)
		}
		// The same from standard input.
		src, _ := os.ReadFile(path)
		if code, out, _ := runPDN(t, string(src), "validate", "-j", "1"); code != 0 || !strings.Contains(out, "international (inferred from "+tc.reason) {
			t.Errorf("validate < %s: exit %d, output\n%s", tc.file, code, out)
		}
	}
	str := corpusFile(t, "wiegerw__pdn/games/succeed/string.pdn")
	code, out, errOut := runPDN(t, "", "validate", "-v", "english", str)
	if code != 1 || !strings.Contains(out, "string.pdn:1:57: game 1: error: illegal-move: move 1 (black) 32-28: illegal move") || !strings.Contains(out, "english (given)") {
		t.Errorf("validate -v english string.pdn: exit %d, stderr %q, output\n%s\nwant exit 1, the illegal move in english (given)", code, errOut, out)
	}
	if code, out, errOut := runPDN(t, "", "validate", "--variant", "international", str); code != 0 || !strings.Contains(out, "international (given)") {
		t.Errorf("validate --variant international string.pdn: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	// stats and convert --to csv replay with the same inference.
	opening := corpusFile(t, "rhalbersma__mobydam/book/games/opening2.pdn")
	if code, out, errOut := runPDN(t, "", "convert", "--to", "csv", opening); code != 0 || !strings.Contains(errOut, "international, inferred from square numbers up to 50") ||
		!strings.Contains(out, "opening2.pdn:2,1,\"B:W") {
		t.Errorf("convert --to csv opening2.pdn: exit %d, stderr %q, output %.300q", code, errOut, out)
	}
}

// TestBookInfers: pdn book infers the variant as validate does (the OCA has no GameType
// tag) and says so.
func TestBookInfers(t *testing.T) {
	oca := corpusFile(t, "mzuluaga__checkers/OCA_2.0.pdn")
	code, out, errOut := runPDN(t, "", "book", "--max-ply", "2", oca)
	if code != 0 || !strings.Contains(out, `"variant":"english"`) || !strings.Contains(errOut, "english, inferred from square numbers up to 32") {
		t.Errorf("book OCA: exit %d, stderr %q, output %.100q", code, errOut, out)
	}
}

// TestConvertKeepsVariant: a game replayed without a GameType tag is written with the
// GameType of the variant it was replayed with, so that its rewritten moves read back:
// algebraic squares of an international game were read back as russian ("unknown
// square").
func TestConvertKeepsVariant(t *testing.T) {
	const intl = "[Event \"t\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *\n"
	for _, args := range [][]string{
		{"convert", "--notation", "algebraic"},
		{"convert", "--notation", "algebraic", "--variant", "international"},
		{"convert", "--notation", "algebraic", "--to", "json"},
	} {
		code, out, errOut := runPDN(t, intl, args...)
		if code != 0 || !strings.Contains(out, "GameType") || !strings.Contains(out, "20") {
			t.Errorf("pdn %v: exit %d, stderr %q, output %q; want exit 0 and GameType 20", args, code, errOut, out)
			continue
		}
		code, vout, errOut := runPDN(t, out, "validate")
		if code != 0 || !strings.Contains(vout, "international (GameType tag)") {
			t.Errorf("pdn %v | pdn validate: exit %d, stderr %q, output\n%s", args, code, errOut, vout)
		}
	}
	// Without replay, games are written as they are.
	if _, out, _ := runPDN(t, intl, "convert"); strings.Contains(out, "GameType") {
		t.Errorf("pdn convert (no replay) added a GameType:\n%s", out)
	}
}

// TestVariantFlagGameType: -v takes a GameType value, checked as the Reader checks
// GameType tags: one that gives the wrong board for its type is a usage error.
func TestVariantFlagGameType(t *testing.T) {
	for _, tc := range []struct {
		value string
		usage string // the usage error, or "" for none
	}{
		{"20,W,0,0,N2,0", "board 0x0 is not a size"},
		{"21,B,10,10,N1,0", "board 10x10, but type 21 is played on 8x8"},
		{"20,W,10,10,N2,0", ""},
		{"20", ""},
		{"international", ""},
		{"chess", "unknown variant"},
	} {
		for _, cmd := range []string{"validate", "convert", "stats", "book"} {
			// (games.pdn has an illegal move: exit 1 is no usage error.)
			code, _, errOut := runPDN(t, "", cmd, "-v", tc.value, "-j", "1", "--skip-bad", "testdata/games.pdn")
			if cmd == "validate" {
				code, _, errOut = runPDN(t, "", cmd, "-v", tc.value, "-j", "1", "testdata/games.pdn")
			}
			if (code == 2) != (tc.usage != "") || !strings.Contains(errOut, tc.usage) {
				t.Errorf("pdn %s -v %q: exit %d, stderr %q; want a usage error %q", cmd, tc.value, code, errOut, tc.usage)
			}
		}
	}
}
