package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAliasesComplete checks that inlineBodies calls every exported method of every
// type engine.go aliases (a method it leaves out is never inlined outside pkg/engine), and
// that the alias's doc comment names it and every exported field (go doc shows an alias
// without its fields and methods).
func TestAliasesComplete(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(name string) *ast.File {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	aliased := map[string]bool{}
	docs := map[string]string{}
	f, err := parser.ParseFile(fset, "engine.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, s := range gd.Specs {
				if ts := s.(*ast.TypeSpec); ts.Assign.IsValid() {
					aliased[ts.Name.Name] = true
					docs[ts.Name.Name] = gd.Doc.Text() + ts.Doc.Text()
				}
			}
		}
	}
	if len(aliased) < 10 {
		t.Fatalf("only %d aliases found in engine.go", len(aliased))
	}
	called := map[string]bool{}
	for _, d := range parse("inline.go").Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "inlineBodies" {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					if recv, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && len(recv.Args) == 1 {
						called[newType(recv)+"."+sel.Sel.Name] = true
					} else if star, ok := ast.Unparen(sel.X).(*ast.StarExpr); ok {
						if recv, ok := star.X.(*ast.CallExpr); ok && len(recv.Args) == 1 {
							called[newType(recv)+"."+sel.Sel.Name] = true
						}
					}
				}
			}
			return true
		})
	}
	files, err := filepath.Glob("../internal/board/*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "wide_gen.go") {
			continue
		}
		for _, d := range parse(name).Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok || !aliased[ts.Name.Name] {
						continue
					}
					for _, fld := range st.Fields.List {
						names := fld.Names
						if len(names) == 0 {
							if id, ok := fld.Type.(*ast.Ident); ok {
								names = []*ast.Ident{id} // an embedded field
							}
						}
						for _, n := range names {
							if n.IsExported() && !regexp.MustCompile(`\b`+n.Name+`\b`).MatchString(docs[ts.Name.Name]) {
								t.Errorf("the doc comment of %s in engine.go does not name its field %s", ts.Name.Name, n.Name)
							}
						}
					}
				}
			}
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !fd.Name.IsExported() {
				continue
			}
			rt := fd.Recv.List[0].Type
			if s, ok := rt.(*ast.StarExpr); ok {
				rt = s.X
			}
			id, ok := rt.(*ast.Ident)
			if !ok || !aliased[id.Name] {
				continue
			}
			n++
			if !called[id.Name+"."+fd.Name.Name] {
				t.Errorf("inlineBodies does not call %s.%s (%s)", id.Name, fd.Name.Name, fset.Position(fd.Pos()))
			}
			if !regexp.MustCompile(`\b` + fd.Name.Name + `\b`).MatchString(docs[id.Name]) {
				t.Errorf("the doc comment of %s in engine.go does not name its method %s", id.Name, fd.Name.Name)
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d exported methods of aliased types found in pkg/internal/board", n)
	}
}

// newType returns T of new(T).
func newType(newCall *ast.CallExpr) string {
	if id, ok := newCall.Args[0].(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
