package board

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// TestPublicAPIUsesKernel checks that the exported functions and methods reach the hot
// code through the kernel only: a call from one of them to a function or method that
// has a generated wide instance would play a canadian board with the 64-bit code, which
// drops its squares of index 64 and above. The width is chosen in NewVariant alone.
func TestPublicAPIUsesKernel(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	parsed := map[string]*ast.File{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
	}
	// the functions and methods of the hot code that have a wide instance, by their
	// narrow names: methods keep their name, functions lose the prefix
	hot := map[string]bool{"bitOf": true}
	for _, d := range parsed["wide_gen.go"].Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv == nil {
			name = strings.TrimPrefix(name, "wide")
			name = string(unicode.ToLower(rune(name[0]))) + name[1:]
		}
		hot[name] = true
	}
	if len(hot) < 50 {
		t.Fatalf("only %d hot functions found in wide_gen.go", len(hot))
	}
	// the exported functions and methods, and the unexported helpers (by name) they may
	// reach outside the hot code
	var public []*ast.FuncDecl
	helpers := map[string][]*ast.FuncDecl{}
	for name, f := range parsed {
		switch name {
		case "wide_gen.go", "wide.go", "kernel.go", "shared.go":
			continue // the two instances, the kernel, and the search's view of the 64-bit code
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			switch {
			case !ok || fd.Body == nil:
			case fd.Name.IsExported():
				public = append(public, fd)
			case !hot[fd.Name.Name]:
				helpers[fd.Name.Name] = append(helpers[fd.Name.Name], fd)
			}
		}
	}
	bad := map[string]bool{}
	seen := map[*ast.FuncDecl]bool{}
	var walk func(root string, fd *ast.FuncDecl)
	walk = func(root string, fd *ast.FuncDecl) {
		if seen[fd] {
			return
		}
		seen[fd] = true
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var callee string
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				callee = fun.Name
			case *ast.SelectorExpr:
				if sel, ok := fun.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "k" {
					return true // the kernel
				}
				callee = fun.Sel.Name
			}
			switch {
			case widthFree[callee] != "" || allowed[fd.Name.Name+" "+callee] != "":
			case hot[callee]:
				bad[fset.Position(call.Pos()).String()+": "+fd.Name.Name+" (from "+root+") calls "+callee] = true
			default:
				for _, h := range helpers[callee] {
					walk(root, h)
				}
			}
			return true
		})
	}
	for _, fd := range public {
		clear(seen)
		walk(fd.Name.Name, fd)
	}
	var list []string
	for b := range bad {
		list = append(list, b)
	}
	sort.Strings(list)
	for _, b := range list {
		t.Errorf("%s: the public API must hand the work to the kernel (v.k)", b)
	}
}

// widthFree lists the functions of the hot code that the public API may call on every
// board, and why.
var widthFree = map[string]string{
	"restrict": "reads the position through held and the moves through IsCapture",
	"blocked":  "reads the position through held and the move through IsCapture",
	"held":     "reads the position through hasMen, which sees the whole board",
	"material": "counts the low part, to which Material adds the high one",
}

// allowed lists the calls ("caller callee") from the public API to the 64-bit code that
// the caller guards, and how.
var allowed = map[string]string{
	"bitboardTables shift": "NewVariant builds the 64-bit tables of a board that fits 64 bits",
	"play apply":           "Position.play hands a move on an index of 64 or above to playWide",
	"Clear clear":          "PerftTable.Clear calls the builtin clear on its slots, not a searcher's clear",
}

// TestPublicPackagesWidthFree checks that pkg/engine and pkg/search, which name the public
// API, never see the width of a board: they hand every call to this package, whose
// exported functions and methods TestPublicAPIUsesKernel checks, or to
// pkg/search/internal/core, which picks its kernel once (kernelOf). An identifier of theirs
// that names the wide instance (wide, isWide, wideVariant, ...) would be a width test.
func TestPublicPackagesWidthFree(t *testing.T) {
	for _, dir := range []string{"../../engine", "../../search"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			n++
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "wide") {
					t.Errorf("%s: %s names the wide instance: the width is board's choice", name, id.Name)
				}
				return true
			})
		}
		if n == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
	}
}
