package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
)

// generator holds the loaded package and what was decided about its objects.
type generator struct {
	cfg    *config
	fset   *token.FileSet
	pkg    *packages.Package
	info   *types.Info
	scope  *types.Scope
	narrow *types.Named            // the narrow type N
	names  map[types.Object]string // package-level objects referred to by a new name
	// foreign holds the objects of imported packages referred to by another name of
	// their package (-rename pkg.Old=pkg.New, -narrow pkg.N -wide pkg.W): the new name
	foreign map[types.Object]string
	copied  map[types.Object]bool // package-level objects declared by the copy

	constExprs map[*types.Const]ast.Expr // the defining expression of each package-level const
	constDeps  map[*types.Const]bool     // memo of constDependsOnRenamed

	imports map[*types.PkgName]bool // imports used by the copy
	errs    []posError
}

// posError is an error at a position of the original source.
type posError struct {
	pos token.Position
	msg string
}

// errorf records an error at pos.
func (g *generator) errorf(pos token.Pos, format string, args ...any) {
	g.errs = append(g.errs, posError{g.fset.Position(pos), fmt.Sprintf(format, args...)})
}

// err returns the recorded errors, sorted by position, as one error.
func (g *generator) err() error {
	if len(g.errs) == 0 {
		return nil
	}
	sort.SliceStable(g.errs, func(i, j int) bool {
		a, b := g.errs[i].pos, g.errs[j].pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	var lines []string
	for _, e := range g.errs {
		pos := e.pos
		if pos.Filename != "" {
			pos.Filename = shortPath(pos.Filename)
			lines = append(lines, pos.String()+": "+e.msg)
		} else {
			lines = append(lines, e.msg)
		}
	}
	return errors.New(strings.Join(slices.Compact(lines), "\n"))
}

// shortPath returns path relative to the working directory when that is shorter.
func shortPath(path string) string {
	if rel, err := filepath.Rel(".", path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	if abs, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(abs, path); err == nil && len(rel) < len(path) {
			return rel
		}
	}
	return path
}

// decl is one declaration of the copy: the original declaration, or a GenDecl holding
// the copied specs of one.
type decl struct {
	node ast.Decl
	obj  types.Object // the object the doc comment is about, nil if none
}

// generate loads the package of cfg and returns the gofmt'ed wide file.
func generate(cfg *config) ([]byte, error) {
	g := &generator{
		cfg:        cfg,
		fset:       token.NewFileSet(),
		names:      map[types.Object]string{},
		foreign:    map[types.Object]string{},
		copied:     map[types.Object]bool{},
		constDeps:  map[*types.Const]bool{},
		constExprs: map[*types.Const]ast.Expr{},
		imports:    map[*types.PkgName]bool{},
	}
	if err := g.load(); err != nil {
		return nil, err
	}
	decls := g.selectDecls()
	if err := g.err(); err != nil {
		return nil, err
	}
	g.checkTypeErrors(decls)
	if err := g.err(); err != nil {
		return nil, err
	}
	for i := range decls {
		decls[i].node = g.rewriteDecl(decls[i].node)
	}
	if err := g.err(); err != nil {
		return nil, err
	}
	return g.print(decls)
}

// load loads the package in cfg.dir, without the generated file.
func (g *generator) load() error {
	pcfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo |
			packages.NeedImports | packages.NeedDeps, // types from source: export data would need the package to compile
		Dir:        g.cfg.dir,
		Fset:       g.fset,
		BuildFlags: []string{"-tags=widegen"},
	}
	pkgs, err := packages.Load(pcfg, ".")
	if err != nil {
		return fmt.Errorf("loading %s: %v", g.cfg.dir, err)
	}
	if len(pkgs) != 1 {
		return fmt.Errorf("loading %s: found %d packages, want 1", g.cfg.dir, len(pkgs))
	}
	g.pkg = pkgs[0]
	var errs []string
	for _, e := range g.pkg.Errors {
		if e.Kind != packages.TypeError {
			errs = append(errs, e.Error())
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	if g.pkg.Types == nil || g.pkg.TypesInfo == nil {
		return fmt.Errorf("loading %s: no type information", g.cfg.dir)
	}
	g.info, g.scope = g.pkg.TypesInfo, g.pkg.Types.Scope()

	if err := g.loadForeign(); err != nil {
		return err
	}
	tn, _ := g.scope.Lookup(g.cfg.narrow).(*types.TypeName)
	if isQualified(g.cfg.narrow) {
		tn, _ = g.lookupForeign(g.cfg.narrow).(*types.TypeName)
	}
	if tn == nil {
		return fmt.Errorf("%s: no type %s in package %s", g.cfg.dir, g.cfg.narrow, g.pkg.Name)
	}
	named, _ := types.Unalias(tn.Type()).(*types.Named)
	if b, ok := tn.Type().Underlying().(*types.Basic); named == nil || !ok || b.Kind() != types.Uint64 {
		return fmt.Errorf("%s: the narrow type %s must be a named type with underlying uint64", g.pos(tn.Pos()), g.cfg.narrow)
	}
	g.narrow = named
	if !isQualified(g.cfg.narrow) {
		g.names[tn] = g.cfg.wide
	}

	// the defining expressions of the package-level constants, for constDependsOnRenamed
	for _, f := range g.pkg.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			var last []ast.Expr
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Values) > 0 {
					last = vs.Values
				}
				for i, name := range vs.Names {
					if c, ok := g.info.Defs[name].(*types.Const); ok && i < len(last) {
						g.constExprs[c] = last[i]
					}
				}
			}
		}
	}
	return nil
}

// lookupForeign returns the object named by the qualified identifier pkg.Name, pkg being
// a package the loaded one imports, or nil.
func (g *generator) lookupForeign(qualified string) types.Object {
	pkg, name, _ := strings.Cut(qualified, ".")
	for _, imp := range g.pkg.Types.Imports() {
		if imp.Name() == pkg {
			return imp.Scope().Lookup(name)
		}
	}
	return nil
}

// loadForeign fills g.foreign from cfg.foreign.
func (g *generator) loadForeign() error {
	var errs []string
	for old, new := range g.cfg.foreign {
		obj := g.lookupForeign(old)
		if obj == nil {
			errs = append(errs, fmt.Sprintf("-rename %s=%s: package %s imports no %s", old, new, g.pkg.Name, old))
			continue
		}
		// new may be generated itself (excluded from the load by -tags=widegen): the
		// compiler checks it
		_, name, _ := strings.Cut(new, ".")
		g.foreign[obj] = name
	}
	sort.Strings(errs)
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "\n"))
	}
	return nil
}

// foreignRenamed reports whether obj is an object of another package that the copy
// refers to by another name.
func (g *generator) foreignRenamed(obj types.Object) bool {
	_, ok := g.foreign[obj]
	return ok
}

// pos formats pos for a message.
func (g *generator) pos(pos token.Pos) string {
	p := g.fset.Position(pos)
	p.Filename = shortPath(p.Filename)
	return p.String()
}

// selectDecls returns the declarations to copy, in source order, and fills g.names and
// g.copied.
func (g *generator) selectDecls() []decl {
	files := map[string]*ast.File{}
	for _, f := range g.pkg.Syntax {
		files[filepath.Base(g.fset.File(f.Pos()).Name())] = f
	}
	skip, cp := map[string]bool{}, map[string]bool{}
	for _, s := range g.cfg.skip {
		skip[s] = false
	}
	for _, s := range g.cfg.copy {
		cp[s] = false
	}
	var decls []decl
	var methods []*ast.FuncDecl
	for _, name := range g.cfg.files {
		f := files[filepath.Base(name)]
		if f == nil {
			g.errorf(token.NoPos, "%s: no such file in package %s (with -tags=widegen)", name, g.pkg.Name)
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				key, recv := d.Name.Name, ""
				if d.Recv != nil && len(d.Recv.List) == 1 {
					recv = recvTypeName(d.Recv.List[0].Type)
					key = recv + "." + key
				}
				if recv == g.cfg.narrow {
					continue // the methods of N: the wide type has its own
				}
				if _, ok := skip[key]; ok {
					skip[key] = true
					continue
				}
				_, renamed := g.cfg.rename[key]
				if ast.IsExported(d.Name.Name) && !(recv == "" && renamed) || g.shared(recv) {
					continue // the public API (but the functions -rename names), and the methods of shared types
				}
				if key == "init" {
					g.errorf(d.Pos(), "cannot copy an init function: list it in -skip")
					continue
				}
				if recv == "" {
					g.copied[g.info.Defs[d.Name]] = true
				} else {
					methods = append(methods, d)
				}
				decls = append(decls, decl{node: d, obj: g.info.Defs[d.Name]})
			case *ast.GenDecl:
				decls = append(decls, g.selectSpecs(d, skip, cp)...)
			}
		}
	}
	for _, m := range []map[string]bool{skip, cp} {
		for name, used := range m {
			if !used {
				g.errorf(token.NoPos, "%s: no such declaration in %s", name, strings.Join(g.cfg.files, ", "))
			}
		}
	}

	// the new names
	for old, new := range g.cfg.rename {
		obj := g.scope.Lookup(old)
		if obj == nil {
			g.errorf(token.NoPos, "-rename %s=%s: no package-level %s in package %s", old, new, old, g.pkg.Name)
			continue
		}
		g.names[obj] = new
	}
	for obj := range g.copied {
		name, ok := g.names[obj]
		if !ok {
			name = g.cfg.prefix + upperFirst(obj.Name())
			g.names[obj] = name
		}
		if other := g.scope.Lookup(name); other != nil {
			g.errorf(obj.Pos(), "the copy of %s would be named %s, which is declared at %s", obj.Name(), name, g.pos(other.Pos()))
		}
	}
	for _, m := range methods {
		if tn := g.scope.Lookup(recvTypeName(m.Recv.List[0].Type)); tn != nil && g.names[tn] == "" {
			g.errorf(m.Pos(), "method %s.%s is copied but its receiver type is neither copied nor renamed: list it in -skip or -rename the type", tn.Name(), m.Name.Name)
		}
	}
	return decls
}

// shared reports whether the type named name is shared with the narrow code without being
// listed in -skip: an exported type not named in -rename (the public API). "" is not.
func (g *generator) shared(name string) bool {
	_, renamed := g.cfg.rename[name]
	return ast.IsExported(name) && !renamed
}

// selectSpecs returns the copied parts of a GenDecl: types not skipped, and the consts
// and vars named in -copy (each in its own declaration).
func (g *generator) selectSpecs(d *ast.GenDecl, skip, cp map[string]bool) []decl {
	var decls []decl
	switch d.Tok {
	case token.TYPE:
		var specs []ast.Spec
		var obj types.Object
		for _, s := range d.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Name.Name == g.cfg.narrow {
				continue
			}
			if _, ok := skip[ts.Name.Name]; ok {
				skip[ts.Name.Name] = true
				continue
			}
			if g.shared(ts.Name.Name) {
				continue
			}
			obj = g.info.Defs[ts.Name]
			g.copied[obj] = true
			specs = append(specs, ts)
		}
		if len(specs) > 0 {
			nd := *d
			nd.Specs = specs
			if len(specs) > 1 {
				obj = nil
			}
			decls = append(decls, decl{node: &nd, obj: obj})
		}
	case token.CONST, token.VAR:
		for _, s := range d.Specs {
			vs := s.(*ast.ValueSpec)
			n := 0
			for _, name := range vs.Names {
				if _, ok := cp[name.Name]; ok {
					cp[name.Name] = true
					n++
				}
			}
			if n == 0 {
				continue
			}
			if n < len(vs.Names) {
				g.errorf(vs.Pos(), "-copy names only some of %s: copy all or none of a declaration's names", namesOf(vs))
				continue
			}
			tok := d.Tok
			if tok == token.CONST {
				if len(vs.Values) == 0 || usesIota(vs) {
					g.errorf(vs.Pos(), "cannot copy constant %s: it uses iota or an implicit value", namesOf(vs))
					continue
				}
				if g.isN(g.info.Defs[vs.Names[0]].Type()) {
					tok = token.VAR // a struct value cannot be a constant
				}
			}
			for _, name := range vs.Names {
				g.copied[g.info.Defs[name]] = true
			}
			doc := vs.Doc
			if doc == nil && !d.Lparen.IsValid() {
				doc = d.Doc
			}
			var obj types.Object
			if len(vs.Names) == 1 {
				obj = g.info.Defs[vs.Names[0]]
			}
			decls = append(decls, decl{node: &ast.GenDecl{Doc: doc, TokPos: d.TokPos, Tok: tok, Specs: []ast.Spec{vs}}, obj: obj})
		}
	}
	return decls
}

func namesOf(vs *ast.ValueSpec) string {
	var names []string
	for _, n := range vs.Names {
		names = append(names, n.Name)
	}
	return strings.Join(names, ", ")
}

func usesIota(vs *ast.ValueSpec) bool {
	found := false
	for _, v := range vs.Values {
		ast.Inspect(v, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
				found = true
			}
			return !found
		})
	}
	return found
}

// recvTypeName returns the name of a receiver's base type.
func recvTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// checkTypeErrors reports the type errors inside copied declarations: their types must
// be right. Errors elsewhere (hand-written code calling generated functions, which are
// left out of the load) do not matter.
func (g *generator) checkTypeErrors(decls []decl) {
	for _, te := range g.pkg.TypeErrors {
		for _, d := range decls {
			if d.node.Pos() <= te.Pos && te.Pos < d.node.End() {
				g.errorf(te.Pos, "type error in copied code: %s", te.Msg)
				break
			}
		}
	}
}

// print returns the generated file.
func (g *generator) print(decls []decl) ([]byte, error) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by widegen from %s; DO NOT EDIT.\n\n", strings.Join(g.cfg.files, ", "))
	buf.WriteString("//go:build !widegen\n\n")
	fmt.Fprintf(&buf, "package %s\n\n", g.pkg.Types.Name())

	var imports []string
	for pn := range g.imports {
		spec := strconv.Quote(pn.Imported().Path())
		if pn.Name() != pn.Imported().Name() {
			spec = pn.Name() + " " + spec
		}
		imports = append(imports, spec)
	}
	// the standard library first, then the others (a path with a dot in its first
	// element), as goimports groups them
	sort.Slice(imports, func(i, j int) bool {
		if a, b := notStd(imports[i]), notStd(imports[j]); a != b {
			return b
		}
		return imports[i] < imports[j]
	})
	switch len(imports) {
	case 0:
	case 1:
		fmt.Fprintf(&buf, "import %s\n\n", imports[0])
	default:
		buf.WriteString("import (\n")
		for i, spec := range imports {
			if i > 0 && notStd(spec) && !notStd(imports[i-1]) {
				buf.WriteString("\n")
			}
			fmt.Fprintf(&buf, "\t%s\n", spec)
		}
		buf.WriteString(")\n\n")
	}
	for _, d := range decls {
		g.renameDoc(d)
		if err := format.Node(&buf, g.fset, d.node); err != nil {
			return nil, err
		}
		buf.WriteString("\n\n")
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the output: %v (a bug in widegen)", err)
	}
	return src, nil
}

// renameDoc renames the subject of a doc comment that starts with the old name.
func (g *generator) renameDoc(d decl) {
	if d.obj == nil || g.names[d.obj] == "" {
		return
	}
	var doc **ast.CommentGroup
	switch n := d.node.(type) {
	case *ast.FuncDecl:
		doc = &n.Doc
	case *ast.GenDecl:
		doc = &n.Doc
		if n.Doc == nil && len(n.Specs) == 1 {
			if ts, ok := n.Specs[0].(*ast.TypeSpec); ok {
				doc = &ts.Doc
			}
		}
	}
	if *doc == nil || len((*doc).List) == 0 {
		return
	}
	first := (*doc).List[0]
	old := "// " + d.obj.Name() + " "
	if !strings.HasPrefix(first.Text, old) {
		return
	}
	list := slices.Clone((*doc).List)
	list[0] = &ast.Comment{Slash: first.Slash, Text: "// " + g.names[d.obj] + " " + strings.TrimPrefix(first.Text, old)}
	*doc = &ast.CommentGroup{List: list}
}

// notStd reports whether the import spec (a quoted path, perhaps after a name) is of a
// package outside the standard library: the first element of its path has a dot.
func notStd(spec string) bool {
	path := spec[strings.IndexByte(spec, '"')+1:]
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".")
}

// upperFirst returns s with its first letter upper-cased.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// isIdent reports whether s is a Go identifier.
func isIdent(s string) bool {
	return token.IsIdentifier(s)
}
