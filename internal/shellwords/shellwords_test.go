package shellwords

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	for in, want := range map[string][]string{
		``:                          nil,
		`  `:                        nil,
		`scan hub`:                  {"scan", "hub"},
		`  a   b  `:                 {"a", "b"},
		`"my engine" -x`:            {"my engine", "-x"},
		`'it''s'`:                   {"its"},
		`a\ b c`:                    {"a b", "c"},
		`"a \"q\" \\ \n"`:           {`a "q" \ \n`},
		`'a "b" \c'`:                {`a "b" \c`},
		`x"y z"w`:                   {"xy zw"},
		`""`:                        {""},
		"tab\tsep\nnl":              {"tab", "sep", "nl"},
		`./perft --fen 'W:W1,2:B3'`: {"./perft", "--fen", "W:W1,2:B3"},
	} {
		got, err := Split(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Split(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`"a`, `'a`, `a\`, `"a\"`} {
		if got, err := Split(bad); err == nil {
			t.Errorf("Split(%q) = %q, want an error", bad, got)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{`a "b c" 'd'`, `\`, `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = Split(s) // must not panic
	})
}
