package core

import (
	"go/ast"
	"go/token"
	"testing"

	"github.com/rafle/rafle/internal/kernelcheck"
)

// TestAPIUsesKernel checks that core's exported functions and methods reach the hot code
// only through the kernel (kernelOf, a Searcher's k): a direct call to a function or
// method that has a generated wide instance would search a canadian board with the 64-bit
// code. The width is chosen in kernelOf alone.
func TestAPIUsesKernel(t *testing.T) {
	fset := token.NewFileSet()
	parsed, err := kernelcheck.ParseFiles(fset, []string{"wide_gen.go", "core.go", "search.go", "eval.go"})
	if err != nil {
		t.Fatal(err)
	}
	hot := kernelcheck.Hot(parsed["wide_gen.go"])
	if len(hot) < 15 {
		t.Fatalf("only %d hot functions found in wide_gen.go", len(hot))
	}
	c := kernelcheck.Checker{
		Hot: hot,
		Kernel: func(call *ast.CallExpr) bool {
			fun, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			switch x := fun.X.(type) {
			case *ast.CallExpr: // kernelOf(v).method(...)
				id, ok := x.Fun.(*ast.Ident)
				return ok && id.Name == "kernelOf"
			case *ast.SelectorExpr: // s.k.method(...)
				return x.Sel.Name == "k"
			case *ast.Ident: // board's view, whose twins the generated code calls
				return x.Name == "board"
			}
			return false
		},
	}
	bad, public := c.Check(fset, []*ast.File{parsed["core.go"], parsed["search.go"], parsed["eval.go"]})
	for _, b := range bad {
		t.Errorf("%s: the API must hand the work to the kernel", b)
	}
	if public < 6 {
		t.Fatalf("only %d exported functions and methods found", public)
	}
}
