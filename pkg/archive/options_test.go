package archive

import "testing"

// TestParseOptions checks that every option value parses back from its
// String form, and that a bad value's error lists the valid ones.
func TestParseOptions(t *testing.T) {
	for _, n := range []Notation{NotationKeep, NotationNumeric, NotationAlgebraic} {
		if got, err := ParseNotation(n.String()); got != n || err != nil {
			t.Errorf("ParseNotation(%q) = %v, %v, want %v", n.String(), got, err, n)
		}
	}
	for _, c := range []Captures{CapturesKeep, CapturesShort, CapturesFull} {
		if got, err := ParseCaptures(c.String()); got != c || err != nil {
			t.Errorf("ParseCaptures(%q) = %v, %v, want %v", c.String(), got, err, c)
		}
	}
	for _, f := range []Format{FormatPDN, FormatJSON, FormatCSV, FormatFEN} {
		if got, err := ParseFormat(f.String()); got != f || err != nil {
			t.Errorf("ParseFormat(%q) = %v, %v, want %v", f.String(), got, err, f)
		}
	}
	for _, tc := range []struct {
		parse func(string) error
		in    string
		want  string
	}{
		{func(s string) error { _, err := ParseNotation(s); return err }, "Numeric", `archive: notation "Numeric": want numeric or algebraic`},
		{func(s string) error { _, err := ParseCaptures(s); return err }, "long", `archive: captures "long": want short or full`},
		{func(s string) error { _, err := ParseFormat(s); return err }, "", `archive: format "": want pdn, json, csv or fen`},
	} {
		if err := tc.parse(tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("parse %q: error %v, want %s", tc.in, err, tc.want)
		}
	}
}
