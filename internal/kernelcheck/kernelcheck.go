package kernelcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"unicode"
)

// Checker describes what a package's API may call.
type Checker struct {
	// Hot holds the narrow names of the functions and methods that have a wide instance
	// (see Hot).
	Hot map[string]bool
	// Kernel reports whether a call hands the work to the kernel: it is neither reported
	// nor followed.
	Kernel func(call *ast.CallExpr) bool
	// Allowed reports whether caller may call callee, a hot function (width-free, or
	// guarded by the caller); nil allows none.
	Allowed func(caller, callee string) bool
}

// Hot returns the narrow names of the functions and methods declared in a generated wide
// file: methods keep their names, functions lose the prefix "wide".
func Hot(wide *ast.File) map[string]bool {
	hot := map[string]bool{}
	for _, d := range wide.Decls {
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
	return hot
}

// ParseFiles parses the named files of the current directory into fset, by name.
func ParseFiles(fset *token.FileSet, names []string) (map[string]*ast.File, error) {
	parsed := map[string]*ast.File{}
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		parsed[name] = f
	}
	return parsed, nil
}

// Check walks every exported function and method of files, and the unexported helpers
// outside the hot code that they reach, and returns, sorted, each call to a hot function
// that is not to the kernel nor allowed ("file:line:col: F (from Root) calls hot"), and
// the number of exported functions and methods it walked.
func (c Checker) Check(fset *token.FileSet, files []*ast.File) (bad []string, public int) {
	var roots []*ast.FuncDecl
	helpers := map[string][]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			switch {
			case !ok || fd.Body == nil:
			case fd.Name.IsExported():
				roots = append(roots, fd)
			case !c.Hot[fd.Name.Name]:
				helpers[fd.Name.Name] = append(helpers[fd.Name.Name], fd)
			}
		}
	}
	found := map[string]bool{}
	seen := map[*ast.FuncDecl]bool{}
	var walk func(root string, fd *ast.FuncDecl)
	walk = func(root string, fd *ast.FuncDecl) {
		if seen[fd] {
			return
		}
		seen[fd] = true
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || c.Kernel(call) {
				return true // look inside, at the arguments
			}
			var callee string
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				callee = fun.Name
			case *ast.SelectorExpr:
				callee = fun.Sel.Name
			}
			switch {
			case c.Allowed != nil && c.Allowed(fd.Name.Name, callee):
			case c.Hot[callee]:
				found[fset.Position(call.Pos()).String()+": "+fd.Name.Name+" (from "+root+") calls "+callee] = true
			default:
				for _, h := range helpers[callee] {
					walk(root, h)
				}
			}
			return true
		})
	}
	for _, fd := range roots {
		clear(seen)
		walk(fd.Name.Name, fd)
	}
	for b := range found {
		bad = append(bad, b)
	}
	sort.Strings(bad)
	return bad, len(roots)
}
