package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// The rewrite of a declaration is one astutil.Apply pass. The pre-order step looks at
// each node while its children are still the original ones, which types.Info knows
// about, and records the plan for the node (or an error at its position); the
// post-order step builds the new node from the plan and the already rewritten children.
// Constants of the narrow type are replaced whole in the pre-order step.

// kind is what happens to a node.
type kind int

const (
	keep       kind = iota
	rename          // an identifier of a renamed or copied object: plan.name
	method          // x op y -> x.M(y)
	shift           // x << n -> x.Shl(uint(n))
	clearFirst      // x & (x - 1) -> x.ClearFirst()
	isZero          // x == 0 -> x.IsZero(), x != 0 -> !x.IsZero()
	not             // ^x -> x.Not()
	negate          // -x -> wide{}.Sub(x)
	unparen         // +x -> x, N(x) -> x
	widen           // N(e) -> wide{lo: uint64(e)}
	opAssign        // x op= y -> x = x.M(y)
	incDec          // x++ -> x = x.Add(wide{lo: 1})
)

type plan struct {
	kind    kind
	name    string // the new identifier, or the method
	convert bool   // shift: wrap the count in uint(); widen: wrap e in uint64()
	right   bool   // clearFirst, isZero: the operand is Y, not X
	negated bool   // isZero: x != 0

	// The literals for operands that are untyped constants: inside a constant expression
	// that is rewritten rather than folded, go/types leaves those untyped.
	x, y ast.Expr
}

type rewriter struct {
	g     *generator
	plans map[ast.Node]plan
	// unwritable holds the literals the wide type of another package cannot express:
	// the position of their constant, an error if they end up in the output
	unwritable map[ast.Expr]token.Pos
}

// rewriteDecl returns the wide copy of d. Errors are recorded in g.
func (g *generator) rewriteDecl(d ast.Decl) ast.Decl {
	r := &rewriter{g: g, plans: map[ast.Node]plan{}, unwritable: map[ast.Expr]token.Pos{}}
	out := astutil.Apply(d, r.pre, r.post).(ast.Decl)
	if len(r.unwritable) > 0 {
		ast.Inspect(out, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && r.unwritable[e].IsValid() {
				g.errorf(r.unwritable[e], "cannot rewrite constant %s of type %s: %s has no exported low word (only 0 can be written)",
					types.ExprString(e.(*ast.CompositeLit).Elts[0].(*ast.KeyValueExpr).Value), g.cfg.narrow, g.cfg.wide)
			}
			return true
		})
	}
	return out
}

var methods = map[token.Token]string{
	token.AND: "And", token.OR: "Or", token.XOR: "Xor", token.AND_NOT: "AndNot",
	token.ADD: "Add", token.SUB: "Sub", token.SHL: "Shl", token.SHR: "Shr",
	token.AND_ASSIGN: "And", token.OR_ASSIGN: "Or", token.XOR_ASSIGN: "Xor", token.AND_NOT_ASSIGN: "AndNot",
	token.ADD_ASSIGN: "Add", token.SUB_ASSIGN: "Sub", token.SHL_ASSIGN: "Shl", token.SHR_ASSIGN: "Shr",
}

func (r *rewriter) pre(c *astutil.Cursor) bool {
	g := r.g
	if e, ok := c.Node().(ast.Expr); ok {
		if lit := r.constant(e); lit != nil {
			c.Replace(lit)
			return false
		}
	}
	switch n := c.Node().(type) {
	case *ast.Ident:
		r.ident(n)
	case *ast.SelectorExpr:
		if id, ok := n.X.(*ast.Ident); ok {
			if pn, ok := g.info.Uses[id].(*types.PkgName); ok {
				g.imports[pn] = true
				r.qualified(c, n)
				return false
			}
		}
	case *ast.BinaryExpr:
		r.binary(n)
	case *ast.UnaryExpr:
		r.unary(n)
	case *ast.CallExpr:
		r.call(n)
	case *ast.AssignStmt:
		r.assign(n)
	case *ast.IncDecStmt:
		if g.isN(g.info.TypeOf(n.X)) {
			if isQualified(g.cfg.wide) {
				g.errorf(n.Pos(), "cannot rewrite %s%s: %s has no exported low word", types.ExprString(n.X), n.Tok, g.cfg.wide)
			} else if r.sideEffectFree(n.X) {
				r.plans[n] = plan{kind: incDec}
			} else {
				g.errorf(n.Pos(), "cannot rewrite %s%s: the operand may have side effects and would be evaluated twice", types.ExprString(n.X), n.Tok)
			}
		}
	case *ast.RangeStmt:
		if n.X != nil && g.isN(g.info.TypeOf(n.X)) {
			g.errorf(n.X.Pos(), "cannot range over %s of type %s", types.ExprString(n.X), g.cfg.narrow)
		}
	case *ast.StructType:
		for _, f := range n.Fields.List {
			if len(f.Names) > 0 {
				continue
			}
			// an embedded field is named after its type
			if tn, ok := g.info.Uses[embeddedName(f.Type)].(*types.TypeName); ok && g.names[tn] != "" {
				g.errorf(f.Pos(), "cannot rewrite embedded field %s: its type is renamed", types.ExprString(f.Type))
			}
		}
	}
	return true
}

func (r *rewriter) post(c *astutil.Cursor) bool {
	p, ok := r.plans[c.Node()]
	switch n := c.Node().(type) {
	case *ast.BinaryExpr:
		r.binaryPost(c, n, p)
	case *ast.UnaryExpr:
		x := or(p.x, n.X)
		switch p.kind {
		case not:
			c.Replace(call(x, "Not"))
		case negate:
			c.Replace(call(r.lit(0), "Sub", x))
		case unparen:
			c.Replace(primary(x))
		}
	case *ast.Ident:
		if ok && p.kind == rename {
			c.Replace(&ast.Ident{NamePos: n.NamePos, Name: p.name})
		}
	case *ast.CallExpr:
		switch p.kind {
		case unparen:
			c.Replace(primary(n.Args[0]))
		case widen:
			e := n.Args[0]
			if p.convert {
				e = &ast.CallExpr{Fun: ast.NewIdent("uint64"), Args: []ast.Expr{e}}
			}
			c.Replace(&ast.CompositeLit{
				Type: ast.NewIdent(r.g.cfg.wide),
				Elts: []ast.Expr{&ast.KeyValueExpr{Key: ast.NewIdent("lo"), Value: e}},
			})
		}
	case *ast.ParenExpr:
		switch n.X.(type) {
		case *ast.CallExpr, *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.BasicLit:
			c.Replace(n.X)
		}
	case *ast.AssignStmt:
		switch p.kind {
		case opAssign:
			x := n.Lhs[0]
			var rhs ast.Expr
			switch {
			case p.name == "ClearFirst":
				rhs = call(clone(x), p.name)
			case p.name == "Shl" || p.name == "Shr":
				rhs = call(clone(x), p.name, count(n.Rhs[0], p.convert))
			default:
				rhs = call(clone(x), p.name, n.Rhs[0])
			}
			c.Replace(&ast.AssignStmt{Lhs: []ast.Expr{x}, TokPos: n.TokPos, Tok: token.ASSIGN, Rhs: []ast.Expr{rhs}})
		}
	case *ast.IncDecStmt:
		if p.kind == incDec {
			m := "Add"
			if n.Tok == token.DEC {
				m = "Sub"
			}
			c.Replace(&ast.AssignStmt{Lhs: []ast.Expr{n.X}, TokPos: n.TokPos, Tok: token.ASSIGN, Rhs: []ast.Expr{call(clone(n.X), m, r.lit(1))}})
		}

	// A composite literal in the header of an if, for or switch statement must be in
	// parentheses, or its brace would open the block.
	case *ast.IfStmt:
		protectStmt(n.Init)
		n.Cond = protect(n.Cond)
	case *ast.ForStmt:
		protectStmt(n.Init)
		n.Cond = protect(n.Cond)
		protectStmt(n.Post)
	case *ast.SwitchStmt:
		protectStmt(n.Init)
		n.Tag = protect(n.Tag)
	case *ast.TypeSwitchStmt:
		protectStmt(n.Init)
		protectStmt(n.Assign)
	case *ast.RangeStmt:
		n.X = protect(n.X)
	}
	return true
}

func (r *rewriter) binaryPost(c *astutil.Cursor, n *ast.BinaryExpr, p plan) {
	x, y := or(p.x, n.X), or(p.y, n.Y)
	switch p.kind {
	case method:
		c.Replace(call(x, p.name, y))
	case shift:
		c.Replace(call(x, p.name, count(y, p.convert)))
	case clearFirst:
		c.Replace(call(pick(x, y, p.right), "ClearFirst"))
	case isZero:
		var e ast.Expr = call(pick(x, y, p.right), "IsZero")
		if p.negated {
			e = &ast.UnaryExpr{Op: token.NOT, X: e}
		}
		c.Replace(e)
	}
}

// untyped returns the wide literal for e if e is an untyped constant, nil otherwise.
func (r *rewriter) untyped(e ast.Expr) ast.Expr {
	tv := r.g.info.Types[e]
	if b, ok := tv.Type.(*types.Basic); !ok || tv.Value == nil || b.Info()&types.IsUntyped == 0 {
		return nil
	}
	u, exact := constant.Uint64Val(constant.ToInt(tv.Value))
	if !exact {
		r.g.errorf(e.Pos(), "constant %s is not a uint64", tv.Value)
		return nil
	}
	return r.lit(u)
}

func or(a, b ast.Expr) ast.Expr {
	if a != nil {
		return a
	}
	return b
}

// constant returns the literal for e if e is a constant of the narrow type whose value
// does not depend on the width: nil otherwise.
func (r *rewriter) constant(e ast.Expr) ast.Expr {
	g := r.g
	tv, ok := g.info.Types[e]
	if !ok || tv.Value == nil || !g.isN(tv.Type) {
		return nil
	}
	dependent := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if obj := g.info.Uses[n]; obj != nil && g.isPkgLevel(obj) {
				if _, ok := g.names[obj]; ok && obj != g.narrow.Obj() {
					dependent = true // a renamed or copied object: its wide value may differ
				}
				if c, ok := obj.(*types.Const); ok && g.constDependsOnRenamed(c) {
					dependent = true // reported by ident
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.XOR && g.isN(g.info.TypeOf(n.X)) {
				dependent = true // ^c sets the bits above 63 in the wide code
			}
		}
		return !dependent
	})
	if dependent {
		return nil
	}
	u, exact := constant.Uint64Val(constant.ToInt(tv.Value))
	if !exact {
		g.errorf(e.Pos(), "constant %s of type %s is not a uint64", tv.Value, g.cfg.narrow)
		return nil
	}
	lit := r.lit(u)
	if u != 0 && isQualified(g.cfg.wide) {
		r.unwritable[lit] = e.Pos() // an error if it stays in the output (x & (x - 1) drops its 1)
	}
	return lit
}

// lit returns the wide constant with low word u.
func (r *rewriter) lit(u uint64) ast.Expr {
	lit := &ast.CompositeLit{Type: ast.NewIdent(r.g.cfg.wide)}
	if u != 0 {
		v := fmt.Sprint(u)
		if u > 9 {
			v = fmt.Sprintf("%#x", u)
		}
		lit.Elts = []ast.Expr{&ast.KeyValueExpr{Key: ast.NewIdent("lo"), Value: &ast.BasicLit{Kind: token.INT, Value: v}}}
	}
	return lit
}

// qualified rewrites pkg.Name, a reference to an object of an imported package: to
// pkg.New where -rename (or -narrow/-wide) gives it another name, which it must when its
// type is made with the narrow type or with a renamed type.
func (r *rewriter) qualified(c *astutil.Cursor, n *ast.SelectorExpr) {
	g := r.g
	obj := g.info.Uses[n.Sel]
	if obj == nil {
		return
	}
	if name, ok := g.foreign[obj]; ok {
		c.Replace(&ast.SelectorExpr{X: n.X, Sel: &ast.Ident{NamePos: n.Sel.NamePos, Name: name}})
		return
	}
	switch obj.(type) {
	case *types.Func, *types.Var, *types.TypeName, *types.Const:
		if g.mentionsN(obj.Type(), map[types.Type]bool{}) {
			g.errorf(n.Pos(), "%s is shared with the narrow code but its type mentions %s or a renamed type: -rename %s=%s.<its wide twin>", types.ExprString(n), g.cfg.narrow, types.ExprString(n), types.ExprString(n.X))
		}
	}
}

// ident plans the renaming of an identifier and checks that a shared object it refers to
// can be shared with the wide code.
func (r *rewriter) ident(id *ast.Ident) {
	g := r.g
	obj := g.info.Uses[id]
	if obj == nil {
		obj = g.info.Defs[id]
	}
	if obj == nil || !g.isPkgLevel(obj) {
		return
	}
	if name, ok := g.names[obj]; ok {
		r.plans[id] = plan{kind: rename, name: name}
		return
	}
	switch obj := obj.(type) {
	case *types.Const:
		if g.constDependsOnRenamed(obj) {
			g.errorf(id.Pos(), "constant %s is shared but depends on a renamed or copied object: -copy or -rename it", id.Name)
		}
	case *types.Func, *types.Var, *types.TypeName:
		if g.mentionsN(obj.Type(), map[types.Type]bool{}) {
			g.errorf(id.Pos(), "%s is shared with the narrow code but its type mentions %s: copy it (list its file in -files) or -rename it", id.Name, g.cfg.narrow)
		}
	}
}

func (r *rewriter) binary(n *ast.BinaryExpr) {
	g := r.g
	t, xt, yt := g.info.TypeOf(n), g.info.TypeOf(n.X), g.info.TypeOf(n.Y)
	switch n.Op {
	case token.SHL, token.SHR:
		if g.isN(yt) {
			g.errorf(n.Y.Pos(), "cannot rewrite a shift count of type %s", g.cfg.narrow)
		} else if g.isN(t) {
			r.plans[n] = plan{kind: shift, name: methods[n.Op], convert: r.needsUint(n.Y), x: r.untyped(n.X)}
		}
	case token.AND, token.OR, token.XOR, token.AND_NOT, token.ADD, token.SUB:
		if !g.isN(t) {
			return
		}
		switch {
		case n.Op == token.AND && r.isMinusOne(n.X, n.Y):
			r.plans[n] = plan{kind: clearFirst}
		case n.Op == token.AND && r.isMinusOne(n.Y, n.X):
			r.plans[n] = plan{kind: clearFirst, right: true}
		default:
			r.plans[n] = plan{kind: method, name: methods[n.Op], x: r.untyped(n.X), y: r.untyped(n.Y)}
		}
	case token.MUL, token.QUO, token.REM:
		if g.isN(t) {
			g.errorf(n.OpPos, "cannot rewrite %s on %s: the wide type has no such operation", n.Op, g.cfg.narrow)
		}
	case token.EQL, token.NEQ:
		if !g.isN(xt) && !g.isN(yt) {
			return
		}
		switch {
		case r.isZeroConst(n.Y):
			r.plans[n] = plan{kind: isZero, negated: n.Op == token.NEQ}
		case r.isZeroConst(n.X):
			r.plans[n] = plan{kind: isZero, negated: n.Op == token.NEQ, right: true}
		}
		// otherwise struct equality, with a constant operand as a composite literal
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if g.isN(xt) || g.isN(yt) {
			g.errorf(n.OpPos, "cannot rewrite the ordered comparison %s on %s", n.Op, g.cfg.narrow)
		}
	}
}

func (r *rewriter) unary(n *ast.UnaryExpr) {
	g := r.g
	if !g.isN(g.info.TypeOf(n)) {
		return
	}
	switch n.Op {
	case token.XOR:
		r.plans[n] = plan{kind: not, x: r.untyped(n.X)}
	case token.SUB:
		r.plans[n] = plan{kind: negate, x: r.untyped(n.X)}
	case token.ADD:
		r.plans[n] = plan{kind: unparen, x: r.untyped(n.X)}
	}
}

func (r *rewriter) call(n *ast.CallExpr) {
	g := r.g
	fun := g.info.Types[n.Fun]
	if !fun.IsType() || len(n.Args) != 1 {
		return
	}
	from := g.info.TypeOf(n.Args[0])
	switch {
	case g.isN(fun.Type):
		if g.isN(from) {
			r.plans[n] = plan{kind: unparen}
			return
		}
		b, ok := from.Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsInteger == 0 {
			g.errorf(n.Pos(), "cannot rewrite the conversion of %s of type %s to %s", types.ExprString(n.Args[0]), from, g.cfg.narrow)
			return
		}
		if isQualified(g.cfg.wide) {
			g.errorf(n.Pos(), "cannot rewrite the conversion of %s to %s: %s has no exported low word", types.ExprString(n.Args[0]), g.cfg.narrow, g.cfg.wide)
			return
		}
		r.plans[n] = plan{kind: widen, convert: !types.Identical(from, types.Typ[types.Uint64])}
	case g.isN(from):
		if !types.IsInterface(fun.Type) {
			g.errorf(n.Pos(), "cannot rewrite the conversion of %s from %s to %s: the wide value does not fit", types.ExprString(n.Args[0]), g.cfg.narrow, fun.Type)
		}
	}
}

func (r *rewriter) assign(n *ast.AssignStmt) {
	g := r.g
	if n.Tok == token.ASSIGN || n.Tok == token.DEFINE || len(n.Lhs) != 1 || len(n.Rhs) != 1 {
		return
	}
	x, y := n.Lhs[0], n.Rhs[0]
	if (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && g.isN(g.info.TypeOf(y)) {
		g.errorf(y.Pos(), "cannot rewrite a shift count of type %s", g.cfg.narrow)
		return
	}
	if !g.isN(g.info.TypeOf(x)) {
		return
	}
	m, ok := methods[n.Tok]
	if !ok {
		g.errorf(n.TokPos, "cannot rewrite %s on %s: the wide type has no such operation", n.Tok, g.cfg.narrow)
		return
	}
	if !r.sideEffectFree(x) {
		g.errorf(x.Pos(), "cannot rewrite %s %s ...: the target may have side effects and would be evaluated twice", types.ExprString(x), n.Tok)
		return
	}
	p := plan{kind: opAssign, name: m}
	switch n.Tok {
	case token.AND_ASSIGN:
		if r.isMinusOne(x, y) {
			p.name = "ClearFirst"
		}
	case token.SHL_ASSIGN, token.SHR_ASSIGN:
		p.convert = r.needsUint(y)
	}
	r.plans[n] = p
}

// needsUint reports whether a shift count must be converted to uint: unless it is an
// untyped constant or a uint.
func (r *rewriter) needsUint(n ast.Expr) bool {
	tv := r.g.info.Types[n]
	if b, ok := tv.Type.(*types.Basic); ok && (b.Kind() == types.Uint || tv.Value != nil && b.Info()&types.IsUntyped != 0) {
		return false
	}
	return true
}

// isMinusOne reports whether y is x - 1, with x free of side effects.
func (r *rewriter) isMinusOne(x, y ast.Expr) bool {
	b, ok := ast.Unparen(y).(*ast.BinaryExpr)
	if !ok || b.Op != token.SUB || !r.sideEffectFree(x) || !r.same(x, b.X) {
		return false
	}
	tv := r.g.info.Types[b.Y]
	return tv.Value != nil && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1))
}

// isZeroConst reports whether e is the constant 0.
func (r *rewriter) isZeroConst(e ast.Expr) bool {
	tv := r.g.info.Types[e]
	return tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// sideEffectFree reports whether evaluating e twice is the same as once: e is made of
// identifiers, constants, selectors, index expressions, dereferences, conversions and
// operators (but no receive).
func (r *rewriter) sideEffectFree(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.ParenExpr:
		return r.sideEffectFree(e.X)
	case *ast.SelectorExpr:
		return r.sideEffectFree(e.X)
	case *ast.IndexExpr:
		return r.sideEffectFree(e.X) && r.sideEffectFree(e.Index)
	case *ast.StarExpr:
		return r.sideEffectFree(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.ARROW && r.sideEffectFree(e.X)
	case *ast.BinaryExpr:
		return r.sideEffectFree(e.X) && r.sideEffectFree(e.Y)
	case *ast.CallExpr:
		return r.g.info.Types[e.Fun].IsType() && len(e.Args) == 1 && r.sideEffectFree(e.Args[0])
	}
	return false
}

// same reports whether the side-effect-free expressions a and b are the same.
func (r *rewriter) same(a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		return ok && a.Name == b.Name && r.g.info.ObjectOf(a) == r.g.info.ObjectOf(b)
	case *ast.BasicLit:
		b, ok := b.(*ast.BasicLit)
		return ok && a.Kind == b.Kind && a.Value == b.Value
	case *ast.SelectorExpr:
		b, ok := b.(*ast.SelectorExpr)
		return ok && a.Sel.Name == b.Sel.Name && r.same(a.X, b.X)
	case *ast.IndexExpr:
		b, ok := b.(*ast.IndexExpr)
		return ok && r.same(a.X, b.X) && r.same(a.Index, b.Index)
	case *ast.StarExpr:
		b, ok := b.(*ast.StarExpr)
		return ok && r.same(a.X, b.X)
	case *ast.UnaryExpr:
		b, ok := b.(*ast.UnaryExpr)
		return ok && a.Op == b.Op && r.same(a.X, b.X)
	case *ast.BinaryExpr:
		b, ok := b.(*ast.BinaryExpr)
		return ok && a.Op == b.Op && r.same(a.X, b.X) && r.same(a.Y, b.Y)
	}
	return false
}

// isN reports whether t is the narrow type.
func (g *generator) isN(t types.Type) bool {
	return t != nil && types.Identical(t, g.narrow)
}

// isPkgLevel reports whether obj is declared at the top level of the package.
func (g *generator) isPkgLevel(obj types.Object) bool {
	return obj.Pkg() == g.pkg.Types && obj.Parent() == g.scope
}

// mentionsN reports whether the type t is made with the narrow type: such a type cannot
// be shared with the wide code.
func (g *generator) mentionsN(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if g.isN(t) {
			return true
		}
		if g.foreignRenamed(t.Obj()) {
			return true // another package's type with a wide twin
		}
		return g.mentionsN(t.Underlying(), seen)
	case *types.Pointer:
		return g.mentionsN(t.Elem(), seen)
	case *types.Slice:
		return g.mentionsN(t.Elem(), seen)
	case *types.Array:
		return g.mentionsN(t.Elem(), seen)
	case *types.Map:
		return g.mentionsN(t.Key(), seen) || g.mentionsN(t.Elem(), seen)
	case *types.Chan:
		return g.mentionsN(t.Elem(), seen)
	case *types.Struct:
		for i := range t.NumFields() {
			if g.mentionsN(t.Field(i).Type(), seen) {
				return true
			}
		}
	case *types.Signature:
		return g.mentionsN(t.Params(), seen) || g.mentionsN(t.Results(), seen)
	case *types.Tuple:
		for i := range t.Len() {
			if g.mentionsN(t.At(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// constDependsOnRenamed reports whether the definition of the package-level constant c
// refers, directly or through other constants, to a renamed or copied object: its value
// in the wide code would then differ from its (narrow) value.
func (g *generator) constDependsOnRenamed(c *types.Const) bool {
	if dep, ok := g.constDeps[c]; ok {
		return dep
	}
	g.constDeps[c] = false // against cycles
	dep := false
	if e := g.constExprs[c]; e != nil {
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || dep {
				return !dep
			}
			obj := g.info.Uses[id]
			if obj == nil || !g.isPkgLevel(obj) {
				return true
			}
			if _, ok := g.names[obj]; ok && obj != g.narrow.Obj() {
				dep = true
			} else if oc, ok := obj.(*types.Const); ok && g.constDependsOnRenamed(oc) {
				dep = true
			}
			return !dep
		})
	}
	g.constDeps[c] = dep
	return dep
}

// call returns recv.name(args...).
func call(recv ast.Expr, name string, args ...ast.Expr) *ast.CallExpr {
	for i, a := range args {
		args[i] = ast.Unparen(a)
	}
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: primary(recv), Sel: ast.NewIdent(name)}, Args: args}
}

// count returns the shift count n, converted to uint if convert.
func count(n ast.Expr, convert bool) ast.Expr {
	if !convert {
		return n
	}
	return &ast.CallExpr{Fun: ast.NewIdent("uint"), Args: []ast.Expr{ast.Unparen(n)}}
}

func pick(x, y ast.Expr, right bool) ast.Expr {
	if right {
		return y
	}
	return x
}

// primary returns e, in parentheses unless it is a primary expression.
func primary(e ast.Expr) ast.Expr {
	switch e.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.CompositeLit, *ast.ParenExpr, *ast.SelectorExpr,
		*ast.IndexExpr, *ast.SliceExpr, *ast.TypeAssertExpr, *ast.CallExpr:
		return e
	}
	return &ast.ParenExpr{X: e}
}

// clone returns a copy of the side-effect-free expression e, without positions.
func clone(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.Ident:
		return ast.NewIdent(e.Name)
	case *ast.BasicLit:
		return &ast.BasicLit{Kind: e.Kind, Value: e.Value}
	case *ast.ParenExpr:
		return &ast.ParenExpr{X: clone(e.X)}
	case *ast.SelectorExpr:
		return &ast.SelectorExpr{X: clone(e.X), Sel: ast.NewIdent(e.Sel.Name)}
	case *ast.IndexExpr:
		return &ast.IndexExpr{X: clone(e.X), Index: clone(e.Index)}
	case *ast.StarExpr:
		return &ast.StarExpr{X: clone(e.X)}
	case *ast.UnaryExpr:
		return &ast.UnaryExpr{Op: e.Op, X: clone(e.X)}
	case *ast.BinaryExpr:
		return &ast.BinaryExpr{X: clone(e.X), Op: e.Op, Y: clone(e.Y)}
	case *ast.CallExpr:
		args := make([]ast.Expr, len(e.Args))
		for i, a := range e.Args {
			args[i] = clone(a)
		}
		return &ast.CallExpr{Fun: clone(e.Fun), Args: args}
	case *ast.CompositeLit:
		elts := make([]ast.Expr, len(e.Elts))
		for i, a := range e.Elts {
			elts[i] = clone(a)
		}
		return &ast.CompositeLit{Type: clone(e.Type), Elts: elts}
	case *ast.KeyValueExpr:
		return &ast.KeyValueExpr{Key: clone(e.Key), Value: clone(e.Value)}
	case *ast.ArrayType:
		return &ast.ArrayType{Len: clone(e.Len), Elt: clone(e.Elt)}
	case nil:
		return nil
	}
	return e
}

// protect puts the composite literals of e that are not inside brackets in parentheses.
func protect(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.CompositeLit:
		return &ast.ParenExpr{X: x}
	case *ast.BinaryExpr:
		x.X, x.Y = protect(x.X), protect(x.Y)
	case *ast.UnaryExpr:
		x.X = protect(x.X)
	case *ast.StarExpr:
		x.X = protect(x.X)
	case *ast.SelectorExpr:
		x.X = protect(x.X)
	case *ast.CallExpr:
		x.Fun = protect(x.Fun)
	case *ast.IndexExpr:
		x.X = protect(x.X)
	case *ast.SliceExpr:
		x.X = protect(x.X)
	case *ast.TypeAssertExpr:
		x.X = protect(x.X)
	}
	return e
}

// protectStmt protects the expressions of a simple statement in a header.
func protectStmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		for i := range s.Lhs {
			s.Lhs[i] = protect(s.Lhs[i])
		}
		for i := range s.Rhs {
			s.Rhs[i] = protect(s.Rhs[i])
		}
	case *ast.ExprStmt:
		s.X = protect(s.X)
	case *ast.IncDecStmt:
		s.X = protect(s.X)
	case *ast.SendStmt:
		s.Chan, s.Value = protect(s.Chan), protect(s.Value)
	}
}

// embeddedName returns the type name of an embedded field's type.
func embeddedName(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	case *ast.IndexExpr:
		return embeddedName(x.X)
	}
	return nil
}
