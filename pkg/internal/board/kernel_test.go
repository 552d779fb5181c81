package board

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rafle/rafle/internal/kernelcheck"
)

// TestPublicAPIUsesKernel checks that the exported functions and methods reach the hot
// code through the kernel only: a call from one of them to a function or method that
// has a generated wide instance would play a canadian board with the 64-bit code, which
// drops its squares of index 64 and above. The width is chosen in NewVariant alone.
func TestPublicAPIUsesKernel(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(name string) bool { return strings.HasSuffix(name, "_test.go") })
	parsed, err := kernelcheck.ParseFiles(fset, names)
	if err != nil {
		t.Fatal(err)
	}
	hot := kernelcheck.Hot(parsed["wide_gen.go"])
	if len(hot) < 50 {
		t.Fatalf("only %d hot functions found in wide_gen.go", len(hot))
	}
	hot["bitOf"] = true // generated as wideBit, with bit
	var files []*ast.File
	for name, f := range parsed {
		switch name {
		case "wide_gen.go", "wide.go", "kernel.go", "shared.go":
			// the two instances, the kernel, and the search's view of the 64-bit code
		default:
			files = append(files, f)
		}
	}
	c := kernelcheck.Checker{
		Hot: hot,
		Kernel: func(call *ast.CallExpr) bool { // v.k.method(...)
			fun, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			sel, ok := fun.X.(*ast.SelectorExpr)
			return ok && sel.Sel.Name == "k"
		},
		Allowed: func(caller, callee string) bool {
			return widthFree[callee] != "" || allowed[caller+" "+callee] != ""
		},
	}
	bad, public := c.Check(fset, files)
	for _, b := range bad {
		t.Errorf("%s: the public API must hand the work to the kernel (v.k)", b)
	}
	if public < 50 {
		t.Fatalf("only %d exported functions and methods found", public)
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
