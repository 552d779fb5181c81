package engine

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// TestDocumented checks that go doc shows every exported name of the package with its
// comment: each type, function, method, constant, variable and exported struct field.
func TestDocumented(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.New(pkgs["engine"], "github.com/rafle/rafle/pkg/engine", 0)
	undocumented := func(what, doc string) {
		if strings.TrimSpace(doc) == "" {
			t.Errorf("%s has no doc comment", what)
		}
	}
	for _, f := range p.Funcs {
		undocumented(f.Name, f.Doc)
	}
	for _, v := range append(p.Consts, p.Vars...) {
		for _, s := range v.Decl.Specs {
			vs := s.(*ast.ValueSpec)
			if v.Doc == "" && vs.Doc.Text() == "" && vs.Comment.Text() == "" {
				t.Errorf("%s has no doc comment", vs.Names[0].Name)
			}
		}
	}
	types := 0
	for _, typ := range p.Types {
		types++
		undocumented(typ.Name, typ.Doc)
		for _, f := range append(typ.Funcs, typ.Methods...) {
			undocumented(typ.Name+"."+f.Name, f.Doc)
		}
		for _, v := range append(typ.Consts, typ.Vars...) {
			undocumented(typ.Name+" constants", v.Doc)
		}
		st, ok := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
		if !ok {
			continue
		}
		var fieldDoc string // the comment of a field names the fields declared after it until the next
		for _, f := range st.Fields.List {
			if f.Doc != nil || f.Comment != nil {
				fieldDoc = f.Doc.Text() + f.Comment.Text()
			}
			for _, n := range f.Names {
				if n.IsExported() && f.Doc == nil && f.Comment == nil && !strings.Contains(fieldDoc, n.Name) {
					t.Errorf("%s.%s has no doc comment", typ.Name, n.Name)
				}
			}
		}
	}
	if types < 20 {
		t.Errorf("%d types documented, want the 20 or more of the package", types)
	}
}
