package main

import (
	"bytes"
	"flag"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/wide_gen.go.golden")

// fixtureArgs generates the wide copy of testdata/fixture/hot.go.
var fixtureArgs = []string{
	"-narrow", "Bitboard", "-wide", "wide",
	"-files", "hot.go",
	"-skip", "dump",
	"-copy", "top,all",
	"-rename", "maxIndex=wideMaxIndex",
}

// tempModule copies the files of testdata/fixture (or the given sources) into a new
// module "fixture" in a temporary directory and returns the directory.
func tempModule(t *testing.T, srcs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if srcs == nil {
		srcs = map[string]string{}
		entries, err := os.ReadDir("testdata/fixture")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join("testdata/fixture", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			srcs[e.Name()] = string(b)
		}
	}
	srcs["go.mod"] = "module fixture\n\ngo 1.26\n"
	for name, src := range srcs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	return dir
}

// widegen runs widegen with args and returns its exit status and error output.
func widegen(args ...string) (int, string) {
	var stderr bytes.Buffer
	code := run(args, &stderr)
	return code, stderr.String()
}

// TestFixture generates the wide copy of the fixture, compares it with the golden file,
// and runs the fixture's test in a copy: the output must compile (with go vet) and the
// wide functions must behave as the narrow ones.
func TestFixture(t *testing.T) {
	dir := tempModule(t, nil)
	if code, stderr := widegen(append(fixtureArgs, "-dir", dir)...); code != 0 {
		t.Fatalf("widegen: exit status %d\n%s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "wide_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if formatted, err := format.Source(got); err != nil || !bytes.Equal(formatted, got) {
		t.Errorf("the output is not gofmt'ed (%v)", err)
	}
	const golden = "testdata/wide_gen.go.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the output differs from %s (go test -update to rewrite it):\n%s", golden, got)
	}

	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in the fixture with the generated file: %v\n%s", err, out)
	}
}

// TestCheck checks that -check accepts a fresh file and rejects a stale or missing one.
func TestCheck(t *testing.T) {
	dir := tempModule(t, nil)
	args := append(fixtureArgs, "-dir", dir, "-o", "gen.go")
	if code, stderr := widegen(args...); code != 0 {
		t.Fatalf("widegen: exit status %d\n%s", code, stderr)
	}
	check := append(args, "-check")
	if code, stderr := widegen(check...); code != 0 {
		t.Fatalf("widegen -check on a fresh file: exit status %d\n%s", code, stderr)
	}
	// the generated file does not take part in its own generation (-tags=widegen): a
	// stale one that does not even compile changes nothing
	path := filepath.Join(dir, "gen.go")
	src, _ := os.ReadFile(path)
	stale := bytes.Replace(src, []byte("b.Men.Or(b.Kings)"), []byte("b.Men.Or(b.Men)"), 1)
	if bytes.Equal(stale, src) {
		t.Fatal("the generated file has no b.Men.Or(b.Kings)")
	}
	if err := os.WriteFile(path, stale, 0o666); err != nil {
		t.Fatal(err)
	}
	code, stderr := widegen(check...)
	if code != 1 || !strings.Contains(stderr, path) || !strings.Contains(stderr, "stale") {
		t.Errorf("widegen -check on a stale file: exit status %d, %q; want 1 and a message naming %s", code, stderr, path)
	}
	os.Remove(path)
	if code, _ := widegen(check...); code != 1 {
		t.Errorf("widegen -check on a missing file: exit status %d, want 1", code)
	}
	if code, stderr := widegen(args...); code != 0 {
		t.Fatalf("widegen over a stale file: exit status %d\n%s", code, stderr)
	}
	if fresh, _ := os.ReadFile(path); !bytes.Equal(fresh, src) {
		t.Error("regenerating gives another file")
	}
}

// base is the package around the erroneous files of TestErrors.
const base = `package fixture

import "math/bits"

type Bitboard uint64

type Index uint8

type wide struct{ lo, hi uint64 }

const maxIndex = 63

const top Bitboard = 1 << maxIndex

func pop(b Bitboard) int { return bits.OnesCount64(uint64(b)) }

type t struct{}
`

// TestErrors checks that what cannot be rewritten is reported at its position.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		args      []string
		want      string // a regular expression
	}{
		{"conversion", "func f(b Bitboard) uint64 {\n\treturn uint64(b)\n}", nil,
			`bad.go:4:9: cannot rewrite the conversion of b from Bitboard to uint64`},
		{"int conversion", "func f(b Bitboard) int { return int(b) }", nil,
			`bad.go:3:33: cannot rewrite the conversion`},
		{"multiplication", "func f(a, b Bitboard) Bitboard { return a * b }", nil,
			`bad.go:3:43: cannot rewrite \* on Bitboard`},
		{"op-assign side effect", "func next() int { return 0 }\n\nfunc f(a []Bitboard, b Bitboard) {\n\ta[next()] |= b\n}", nil,
			`bad.go:6:2: cannot rewrite a\[next\(\)\] \|= \.\.\.: the target may have side effects`},
		{"increment side effect", "func f(a []*Bitboard) {\n\t*a[len(a)-1]++\n\t(*<-make(chan *Bitboard))++\n}", nil,
			`bad.go:5:2: cannot rewrite \(\*<-make\(chan \*Bitboard\)\)\+\+`},
		{"op-assign multiplication", "func f(a Bitboard) Bitboard {\n\ta *= 3\n\treturn a\n}", nil,
			`bad.go:4:4: cannot rewrite \*= on Bitboard`},
		{"ordered comparison", "func f(a, b Bitboard) bool { return a < b }", nil,
			`bad.go:3:39: cannot rewrite the ordered comparison < on Bitboard`},
		{"range", "func f(b Bitboard) (n int) {\n\tfor range b {\n\t\tn++\n\t}\n\treturn n\n}", nil,
			`bad.go:4:12: cannot range over b`},
		{"shared function", "func f(b Bitboard) int { return pop(b) }", nil,
			`bad.go:3:33: pop is shared with the narrow code but its type mentions Bitboard`},
		{"shared constant", "func f(b Bitboard) Bitboard { return b & top }", []string{"-rename", "maxIndex=wideMaxIndex"},
			`bad.go:3:42: constant top is shared but depends on a renamed or copied object`},
		{"type error", "func f(b Bitboard) Bitboard { return b & undefined }", nil,
			`bad.go:3:42: type error in copied code: undefined: undefined`},
		{"shared receiver", "func (t) m(b Bitboard) {}", nil,
			`bad.go:3:1: method t.m is copied but its receiver type is neither copied nor renamed`},
		{"init", "func init() {}", nil,
			`bad.go:3:1: cannot copy an init function`},
		{"unknown skip", "func f() {}", []string{"-skip", "g"},
			`g: no such declaration in bad.go`},
		{"name clash", "func pop2() {}\n\nfunc g() {}", []string{"-prefix", "p"},
			`bad.go:3:6: the copy of pop2 would be named pPop2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srcs := map[string]string{"base.go": base, "bad.go": "package fixture\n\n" + tt.src + "\n"}
			if tt.name == "name clash" {
				srcs["base.go"] += "\nfunc pPop2() {}\n"
			}
			dir := tempModule(t, srcs)
			code, stderr := widegen(append([]string{"-dir", dir, "-files", "bad.go"}, tt.args...)...)
			if code != 1 || !regexp.MustCompile(tt.want).MatchString(stderr) {
				t.Errorf("exit status %d, error output:\n%s\nwant 1 and a match for %s", code, stderr, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "wide_gen.go")); err == nil {
				t.Error("wide_gen.go written despite the error")
			}
		})
	}
}

// TestConfigFile: -config reads flags from a file, with comments, and list flags add up
// whether they come from the file or the command line.
func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	conf := "# a comment\n-files a.go,b.go # the files\n-files c.go\n-rename A=wideA\n-skip X\n"
	if err := os.WriteFile(filepath.Join(dir, "w.conf"), []byte(conf), 0o666); err != nil {
		t.Fatal(err)
	}
	cfg, err := parseFlags([]string{"-dir", dir, "-config", "w.conf", "-skip", "Y.m", "-o", "out.go"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.files, []string{"a.go", "b.go", "c.go"}) || !slices.Equal(cfg.skip, []string{"X", "Y.m"}) ||
		cfg.rename["A"] != "wideA" || cfg.out != "out.go" {
		t.Errorf("parsed %+v", cfg)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.conf"), []byte("-files a.go stray\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := parseFlags([]string{"-dir", dir, "-config", "bad.conf"}, io.Discard); err == nil || !strings.Contains(err.Error(), "stray") {
		t.Errorf("a stray word in the config file: error %v", err)
	}
}
