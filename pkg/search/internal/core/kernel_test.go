package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
	"unicode"
)

// TestAPIUsesKernel checks that core's exported functions and methods reach the hot code
// only through the kernel (kernelOf, a Searcher's k): a direct call to a function or
// method that has a generated wide instance would search a canadian board with the 64-bit
// code. The width is chosen in kernelOf alone.
func TestAPIUsesKernel(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// the functions and methods with a wide instance, by their narrow names
	hot := map[string]bool{}
	for _, d := range parse("wide_gen.go").Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			name := fd.Name.Name
			if fd.Recv == nil {
				name = strings.TrimPrefix(name, "wide")
				name = string(unicode.ToLower(rune(name[0]))) + name[1:]
			}
			hot[name] = true
		}
	}
	if len(hot) < 15 {
		t.Fatalf("only %d hot functions found in wide_gen.go", len(hot))
	}
	var public []*ast.FuncDecl
	helpers := map[string][]*ast.FuncDecl{}
	for _, name := range []string{"core.go", "search.go", "eval.go"} {
		for _, d := range parse(name).Decls {
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
				if x, ok := fun.X.(*ast.CallExpr); ok && isIdent(x.Fun, "kernelOf") {
					return true // the kernel
				}
				if x, ok := fun.X.(*ast.SelectorExpr); ok && x.Sel.Name == "k" {
					return true // a Searcher's kernel
				}
				if isIdent(fun.X, "board") {
					return true // board's view, whose twins the generated code calls
				}
				callee = fun.Sel.Name
			}
			if hot[callee] {
				t.Errorf("%s: %s (from %s) calls %s: the API must hand the work to the kernel", fset.Position(call.Pos()), fd.Name.Name, root, callee)
			}
			for _, h := range helpers[callee] {
				walk(root, h)
			}
			return true
		})
	}
	for _, fd := range public {
		clear(seen)
		walk(fd.Name.Name, fd)
	}
	if len(public) < 6 {
		t.Fatalf("only %d exported functions and methods found", len(public))
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}
