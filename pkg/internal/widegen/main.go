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
