// Widegen generates the 128-bit instance of the engine's hot code.
//
// The engine keeps one source of its move generation, perft, evaluation and search,
// written for a 64-bit bitboard: a named type with underlying uint64 (board.bitboard)
// used with Go's integer operators. Boards with more than 64 squares (12x12 needs 77
// bits) need a second instance of that code over a 128-bit set, a hand-written struct
// type with methods (board's wide: And, Or, Xor, AndNot, Not, Shl, Shr, Sub, Add,
// IsZero, ClearFirst, and Has, Count, First like Bitboard's). Widegen writes that
// instance, so that the hot code is edited in one place only.
//
// It loads the package with full type information, copies the top-level declarations of
// the listed files and rewrites them, deciding from the types of the original code:
// every expression of the narrow type becomes an expression of the wide type.
//
//	x & y, x | y, x ^ y, x &^ y   x.And(y), x.Or(y), x.Xor(y), x.AndNot(y)
//	x + y, x - y, -x              x.Add(y), x.Sub(y), wide{}.Sub(x)
//	x & (x - 1)                   x.ClearFirst()
//	x << n, x >> n                x.Shl(uint(n)), x.Shr(uint(n))
//	^x                            x.Not()
//	x == 0, x != 0                x.IsZero(), !x.IsZero()
//	x op= y, x++, x--             x = x.Op(y), x = x.Add(wide{lo: 1}), ...
//	constant c                    wide{lo: c} (wide{} for 0)
//	1 << i                        wide{lo: 1}.Shl(uint(i))
//	Bitboard(e)                   e, or wide{lo: uint64(e)} for other integer types
//	Bitboard (as a type)          wide
//
// The copy means the source read with a 128-bit Bitboard: constants are folded with the
// narrow type only where the width cannot matter (a complement ^c or a reference to a
// renamed constant is rewritten instead). Package-level types, functions and (with
// -copy) constants and variables that are copied, or named in -rename, are referred to
// by their new names; everything else is shared with the narrow code. Constructs that
// cannot be rewritten faithfully (multiplication, ordered comparisons, conversions to
// other integer types, op-assignments to targets with side effects, ...) are errors
// reported with their position, never silently wrong output.
//
// Only the unexported code is copied: exported functions and methods are the public API,
// which works on every width and hands the work to one instance or the other, so they
// are shared; so are exported types, with their methods, and exported functions, unless
// -rename names them (an exported function so named is copied under its new name).
//
// The hot code may also live in another package than the representation it works on:
// with -narrow pkg.N -wide pkg.W, the bitboard types are those of the imported package
// pkg, and -rename pkg.Old=pkg.New entries give the wide twins of its objects that the
// copy uses (types, functions, constants). An object of pkg the copy refers to whose type
// is made with pkg.N or with a renamed type must be renamed so; the rest (pkg.Color,
// pkg.Game, ...) is shared. The wide type of another package has no exported low word,
// so the copy may use its zero value only (pkg.W{}): other constants, conversions of
// integers to N and ++/-- on N are errors there.
//
// Usage, from pkg/internal/board:
//
//	//go:generate go run ../widegen -narrow bitboard -wide wide -files movegen.go,perft.go -rename Position=widePosition -o wide_gen.go
//	//go:generate go run ../widegen -config widegen.conf
//
// Flags (the list flags may be repeated; their values add up):
//
//	-dir DIR          the package directory (default ".")
//	-narrow NAME      the narrow bitboard type (default Bitboard), or p.NAME: imported
//	-wide NAME        the hand-written 128-bit type (default wide), or p.NAME
//	-files a.go,...   the files whose top-level declarations are copied
//	-skip f,T,T.m,... unexported declarations of those files that stay shared (not copied)
//	-copy c,v,...     package-level consts and vars of those files to copy (shared otherwise)
//	-rename old=new   package-level objects to rename in the copy, copied or not
//	-rename p.Old=p.New  objects of the imported package p to refer to by another name
//	-prefix wide      the prefix of copied objects not in -rename (dedupe -> wideDedupe)
//	-o FILE           the output file, relative to -dir (default wide_gen.go)
//	-check            compare with FILE instead of writing it; exit status 1 if stale
//	-config FILE      read flags from FILE, relative to -dir: whitespace-separated
//	                  words, # to the end of a line is a comment
//
// Run with -check (in a test or CI) to verify that the committed file is up to date.
//
// The wide type must be a struct whose low 64 bits are the field lo: constants become
// wide{lo: c}. A conversion of a signed integer to the narrow type becomes
// wide{lo: uint64(e)}, without sign extension into the high word: the hot code converts
// non-negative values only.
//
// The output starts with the constraint //go:build !widegen, and the package is loaded
// with -tags=widegen, so that a stale generated file never takes part in its own
// generation. Type errors outside the copied declarations (hand-written code calling
// generated functions) are tolerated for the same reason.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// config is the parsed command line.
type config struct {
	dir    string
	narrow string
	wide   string
	prefix string
	files  []string
	skip   []string
	copy   []string
	rename map[string]string
	// foreign maps the qualified names of objects of imported packages to those the copy
	// uses instead (pkg.Old -> pkg.New): -rename entries, and -narrow to -wide when the
	// bitboard types are another package's
	foreign map[string]string
	out     string
	check   bool
}

// run runs widegen with args and returns the exit status: 0 on success, 1 when
// generation fails or -check finds a stale file, 2 for a bad command line.
func run(args []string, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "widegen:", err)
		}
		return 2
	}
	src, err := generate(cfg)
	if err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(stderr, "widegen:", line)
		}
		return 1
	}
	out := cfg.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(cfg.dir, out)
	}
	if cfg.check {
		old, err := os.ReadFile(out)
		if err != nil || !bytes.Equal(old, src) {
			fmt.Fprintf(stderr, "widegen: %s is stale: run go generate\n", out)
			return 1
		}
		return 0
	}
	if err := os.WriteFile(out, src, 0o666); err != nil {
		fmt.Fprintln(stderr, "widegen:", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("widegen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{}
	var files, skip, cp, rename []string
	list := func(dst *[]string) func(string) error {
		return func(v string) error { *dst = append(*dst, splitList(v)...); return nil }
	}
	fs.StringVar(&cfg.dir, "dir", ".", "the package `directory`")
	fs.StringVar(&cfg.narrow, "narrow", "Bitboard", "the narrow bitboard type (underlying uint64)")
	fs.StringVar(&cfg.wide, "wide", "wide", "the hand-written 128-bit type")
	fs.StringVar(&cfg.prefix, "prefix", "wide", "the prefix of copied objects not in -rename")
	fs.Func("files", "comma-separated `files` whose declarations are copied (repeatable)", list(&files))
	fs.Func("skip", "comma-separated declarations (name or Type.Method) not copied (repeatable)", list(&skip))
	fs.Func("copy", "comma-separated package-level consts and vars to copy (repeatable)", list(&cp))
	fs.Func("rename", "comma-separated old=new renames of package-level objects (repeatable)", list(&rename))
	fs.StringVar(&cfg.out, "o", "wide_gen.go", "the output `file`, relative to -dir")
	fs.BoolVar(&cfg.check, "check", false, "check that the output file is up to date instead of writing it")
	// -config is listed for -help; expandConfig has replaced it by the file's words
	fs.String("config", "", "read flags from `FILE`, relative to the -dir before it: whitespace-separated words, # starts a comment")
	args, err := expandConfig(args)
	if err != nil {
		return nil, err
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg.files, cfg.skip, cfg.copy = files, skip, cp
	if len(cfg.files) == 0 {
		return nil, errors.New("no -files given")
	}
	cfg.rename, cfg.foreign = map[string]string{}, map[string]string{}
	for _, kv := range rename {
		old, new, ok := strings.Cut(kv, "=")
		switch {
		case ok && isIdent(old) && isIdent(new):
			cfg.rename[old] = new
		case ok && isQualified(old) && isQualified(new) && pkgOf(old) == pkgOf(new):
			cfg.foreign[old] = new
		default:
			return nil, fmt.Errorf("bad -rename entry %q: want old=new or pkg.Old=pkg.New", kv)
		}
	}
	if !isIdent(cfg.prefix) {
		return nil, fmt.Errorf("%q is not an identifier", cfg.prefix)
	}
	switch {
	case isIdent(cfg.narrow) && isIdent(cfg.wide):
	case isQualified(cfg.narrow) && isQualified(cfg.wide) && pkgOf(cfg.narrow) == pkgOf(cfg.wide):
		cfg.foreign[cfg.narrow] = cfg.wide
	default:
		return nil, fmt.Errorf("-narrow %s -wide %s: want two identifiers, or two names of one imported package (pkg.N, pkg.W)", cfg.narrow, cfg.wide)
	}
	return cfg, nil
}

// isQualified reports whether s is a qualified identifier, pkg.Name.
func isQualified(s string) bool {
	pkg, name, ok := strings.Cut(s, ".")
	return ok && isIdent(pkg) && isIdent(name)
}

// pkgOf returns the package name of the qualified identifier s.
func pkgOf(s string) string {
	pkg, _, _ := strings.Cut(s, ".")
	return pkg
}

// expandConfig replaces each -config FILE in args by the words of FILE (# to the end of
// a line is a comment). A relative FILE is taken in the -dir given before it.
func expandConfig(args []string) ([]string, error) {
	dir := "."
	var out []string
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || name != "config" && name != "dir" {
			out = append(out, args[i])
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, fmt.Errorf("flag needs an argument: -%s", name)
			}
			i++
			value = args[i]
		}
		if name == "dir" {
			dir = value
			out = append(out, "-dir", value)
			continue
		}
		if !filepath.IsAbs(value) {
			value = filepath.Join(dir, value)
		}
		text, err := os.ReadFile(value)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(text), "\n") {
			line, _, _ = strings.Cut(line, "#")
			out = append(out, strings.Fields(line)...)
		}
	}
	return out, nil
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var list []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			list = append(list, f)
		}
	}
	return list
}
