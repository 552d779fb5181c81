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
	if code != 1 || !strings.Contains(out, "english (given)") {
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
