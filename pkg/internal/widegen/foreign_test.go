package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repSrc is a representation package, as board is for the search: a narrow Bitboard, its
// wide type, a position of each width, and functions with their wide twins.
const repSrc = `package rep

import "math/bits"

type Bitboard uint64

func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

type Wide struct{ lo, hi uint64 }

func W(lo, hi uint64) Wide               { return Wide{lo, hi} }
func (b Wide) Words() (lo, hi uint64)    { return b.lo, b.hi }
func (b Wide) And(c Wide) Wide           { return Wide{b.lo & c.lo, b.hi & c.hi} }
func (b Wide) Or(c Wide) Wide            { return Wide{b.lo | c.lo, b.hi | c.hi} }
func (b Wide) AndNot(c Wide) Wide        { return Wide{b.lo &^ c.lo, b.hi &^ c.hi} }
func (b Wide) IsZero() bool              { return b.lo|b.hi == 0 }
func (b Wide) Count() int                { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }
func (b Wide) Sub(c Wide) Wide {
	lo, borrow := bits.Sub64(b.lo, c.lo, 0)
	hi, _ := bits.Sub64(b.hi, c.hi, borrow)
	return Wide{lo, hi}
}
func (b Wide) ClearFirst() Wide {
	if b.lo != 0 {
		return Wide{b.lo & (b.lo - 1), b.hi}
	}
	return Wide{0, b.hi & (b.hi - 1)}
}
func (b Wide) Shl(n uint) Wide {
	if n >= 64 {
		return Wide{0, b.lo << (n - 64)}
	}
	return Wide{b.lo << n, b.hi<<n | b.lo>>(64-n)}
}

type Color uint8

type Pos struct{ Pieces [2]Bitboard }

type WidePos struct{ Pieces [2]Wide }

func Men(p *Pos, c Color) Bitboard      { return p.Pieces[c] }
func WideMen(p *WidePos, c Color) Wide  { return p.Pieces[c] }
func Up(b Bitboard) Bitboard            { return b << 1 }
func WideUp(b Wide) Wide                { return b.Shl(1) }
func Pop(b Bitboard) int                { return b.Count() }

const (
	Indices     = 64
	WideIndices = 128
)
`

// hotSrc is hot code in another package than its representation.
const hotSrc = `package hot

import "fixture/rep"

// table is indexed by square.
type table [rep.Indices]int8

// spread returns c's men and the squares one step up from them, but the lowest man.
func spread(p *rep.Pos, c rep.Color) rep.Bitboard {
	m := rep.Men(p, c)
	all := m | rep.Up(m)
	return all &^ (m &^ (m & (m - 1)))
}

// count counts c's men one at a time.
func count(p *rep.Pos, c rep.Color) (n int) {
	for b := rep.Men(p, c); b != 0; b &= b - 1 {
		n++
	}
	if rep.Men(p, c)&rep.Bitboard(0) != 0 {
		n = -1
	}
	return n + len(table{}) - rep.Indices
}
`

const hotTest = `package hot

import (
	"testing"

	"fixture/rep"
)

func TestWideMatchesNarrow(t *testing.T) {
	for _, x := range []uint64{0, 1, 0b1011, 1 << 62, 1<<63 | 5, ^uint64(0)} {
		p := rep.Pos{Pieces: [2]rep.Bitboard{rep.Bitboard(x), rep.Bitboard(x >> 3)}}
		wp := rep.WidePos{Pieces: [2]rep.Wide{rep.W(x, 0), rep.W(x>>3, 0)}}
		for c := rep.Color(0); c < 2; c++ {
			got, want := wideSpread(&wp, c), spread(&p, c)
			lo, hi := got.Words()
			// the man on 63 steps up onto 64, which the narrow set drops
			if lo != uint64(want) || hi != uint64(rep.Men(&p, c))>>63 {
				t.Errorf("spread(%#x, %d): wide %#x %#x, narrow %#x", x, c, hi, lo, want)
			}
			if g, w := wideCount(&wp, c), count(&p, c); g != w {
				t.Errorf("count(%#x, %d): wide %d, narrow %d", x, c, g, w)
			}
		}
	}
}
`

// foreignModule writes a module "fixture" with the packages rep and hot (hot.go being
// src) into a temporary directory and returns the directory of hot.
func foreignModule(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module fixture\n\ngo 1.26\n", "rep/rep.go": repSrc,
		"hot/hot.go": src, "hot/hot_test.go": hotTest,
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	return filepath.Join(dir, "hot")
}

// foreignArgs generate the wide copy of hot.go with rep's types and twins.
var foreignArgs = []string{
	"-narrow", "rep.Bitboard", "-wide", "rep.Wide", "-files", "hot.go",
	"-rename", "rep.Pos=rep.WidePos,rep.Men=rep.WideMen,rep.Up=rep.WideUp,rep.Indices=rep.WideIndices",
}

// TestForeign generates the wide copy of hot code that works on another package's
// representation (as pkg/search/internal/core on board's): rep's names are replaced by
// their twins, the zero constant is rep.Wide{}, and the copy compiles and computes what
// the narrow code does.
func TestForeign(t *testing.T) {
	dir := foreignModule(t, hotSrc)
	if code, stderr := widegen(append(foreignArgs, "-dir", dir)...); code != 0 {
		t.Fatalf("widegen: exit status %d\n%s", code, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "wide_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"type wideTable [rep.WideIndices]int8",
		"func wideSpread(p *rep.WidePos, c rep.Color) rep.Wide {",
		"m := rep.WideMen(p, c)",
		"all := m.Or(rep.WideUp(m))",
		"for b := rep.WideMen(p, c); !b.IsZero(); b = b.ClearFirst() {",
		"rep.WideMen(p, c).And(rep.Wide{})",
		"len(wideTable{}) - rep.WideIndices",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the output has no %q:\n%s", want, got)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test with the generated file: %v\n%s\n%s", err, out, got)
	}
}

// TestForeignErrors: what the copy cannot write with another package's wide type, and a
// function of that package used without its twin, are reported at their position.
func TestForeignErrors(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"shared function", "func f(b rep.Bitboard) int { return rep.Pop(b) }",
			`hot.go:5:37: rep.Pop is shared with the narrow code but its type mentions rep.Bitboard`},
		{"shared type", "func f(p rep.Pos) {}",
			`hot.go:5:10: rep.Pos is shared`},
		{"constant", "func f(b rep.Bitboard) rep.Bitboard { return b | 1 }",
			`hot.go:5:50: cannot rewrite constant 1 of type rep.Bitboard: rep.Wide has no exported low word`},
		{"conversion", "func f(x uint64) rep.Bitboard { return rep.Bitboard(x) }",
			`hot.go:5:40: cannot rewrite the conversion of x to rep.Bitboard`},
		{"increment", "func f(b rep.Bitboard) rep.Bitboard {\n\tb++\n\treturn b\n}",
			`hot.go:6:2: cannot rewrite b\+\+: rep.Wide has no exported low word`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := foreignModule(t, "package hot\n\nimport \"fixture/rep\"\n\n"+tt.body+"\n")
			args := []string{"-dir", dir, "-narrow", "rep.Bitboard", "-wide", "rep.Wide", "-files", "hot.go"}
			if tt.name == "shared type" {
				args = append(args, "-rename", "rep.Men=rep.WideMen")
			}
			code, stderr := widegen(args...)
			if code != 1 || !regexp.MustCompile(tt.want).MatchString(stderr) {
				t.Errorf("exit status %d, error output:\n%s\nwant 1 and a match for %s", code, stderr, tt.want)
			}
		})
	}
	// a qualified -rename must stay in its package
	if _, err := parseFlags([]string{"-files", "a.go", "-rename", "rep.A=other.B"}, os.Stderr); err == nil {
		t.Error("-rename rep.A=other.B accepted")
	}
}
