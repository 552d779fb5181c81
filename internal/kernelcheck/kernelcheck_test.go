package kernelcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

const src = `package p

func (k kern) Good() int { return k.k.count() }            // through the kernel
func Bad(v *V) int       { return helper(v) }              // reaches count through a helper
func Guarded(v *V) int   { return count(v) }               // allowed
func helper(v *V) int    { return len(list(count(v))) }    // count inside an argument
func count(v *V) int     { return 0 }
`

const wide = `package p

func wideCount(v *wideV) int { return 0 }
`

func TestCheck(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := parser.ParseFile(fset, "wide_gen.go", wide, 0)
	if err != nil {
		t.Fatal(err)
	}
	hot := Hot(w)
	if !hot["count"] || len(hot) != 1 {
		t.Fatalf("Hot = %v, want count alone", hot)
	}
	c := Checker{
		Hot: hot,
		Kernel: func(call *ast.CallExpr) bool {
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := sel.X.(*ast.SelectorExpr)
			return ok && x.Sel.Name == "k"
		},
		Allowed: func(caller, callee string) bool { return caller == "Guarded" },
	}
	bad, public := c.Check(fset, []*ast.File{f})
	if public != 3 {
		t.Errorf("%d exported functions walked, want 3", public)
	}
	if len(bad) != 1 || !strings.HasSuffix(bad[0], ": helper (from Bad) calls count") || !strings.HasPrefix(bad[0], "p.go:6:") {
		t.Errorf("bad = %q, want helper's call of count on line 6, from Bad", bad)
	}
}
