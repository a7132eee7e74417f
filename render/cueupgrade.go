package render

import (
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
)

// KubeVela v1.11 rewrites legacy CUE of component, trait and policy
// templates before it renders them (kubevela 5a44b5f, "Feat: auto
// remediate cue issues (#7199)", pkg/cue/upgrade/upgrade.go and
// upgrade_1_11.go, called from pkg/cue/definition/template.go and
// application/application_policies.go): list arithmetic, an error in
// CUE v0.14, becomes list.Concat and list.Repeat, and an unquoted `error`
// field label is quoted. This is that rewrite.

// cueUpgrades are the v1.11 upgrades in registry order.
var cueUpgrades = []struct {
	precheck func(string) bool
	upgrade  func(*ast.File)
}{
	{func(s string) bool { return strings.Contains(s, "+") || strings.Contains(s, "*") }, upgradeListArithmetic},
	{func(s string) bool { return errorFieldLabel().MatchString(s) }, upgradeErrorFieldLabel},
}

// upgradeLegacyCUE is EnsureCueVersionCompatibility: the template with
// every applicable upgrade, and whether one changed it. KubeVela fails
// open (a template that does not parse is left as it is). When nothing
// changes, the original text is kept: KubeVela's reformatting alone does
// not change meaning, and the original keeps error positions.
func upgradeLegacyCUE(src string) (string, bool) {
	result, err := formatCUE(src)
	if err != nil {
		return src, false
	}
	applied := false
	for _, u := range cueUpgrades {
		if !u.precheck(result) {
			continue
		}
		f, err := parser.ParseFile("", result, parser.ParseComments)
		if err != nil {
			return src, false
		}
		u.upgrade(f)
		b, err := format.Node(f)
		if err != nil {
			return src, false
		}
		if rewritten := strings.TrimRight(string(b), "\n"); rewritten != result {
			applied = true
			result = rewritten
		}
	}
	if !applied {
		return src, false
	}
	if out, err := formatCUE(result); err == nil {
		result = out
	}
	return result + "\n", true
}

// formatCUE is normalizeCUEWhitespace.
func formatCUE(src string) (string, error) {
	f, err := parser.ParseFile("", src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	b, err := format.Node(f)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(string(b), "\n"), nil
}

// upgradeListArithmetic is upgradeListConcatenationAST: a + chain of
// lists becomes one list.Concat, list * n and n * list list.Repeat, with
// "list" imported when needed. Which operands are lists is guessed from
// the file's declarations, as upstream does.
func upgradeListArithmetic(file *ast.File) {
	lists := listDeclarations(file)
	needsImport := false
	astutil.Apply(file, func(c astutil.Cursor) bool {
		bin, ok := c.Node().(*ast.BinaryExpr)
		if !ok {
			return true
		}
		switch bin.Op {
		case token.ADD:
			if ops := addChain(bin, lists); len(ops) >= 2 {
				c.Replace(listCall("Concat", &ast.ListLit{Elts: ops}))
				needsImport = true
			}
		case token.MUL:
			var l, n ast.Expr
			if isListExpr(bin.X, lists) && isNumericExpr(bin.Y, lists) {
				l, n = bin.X, bin.Y
			} else if isNumericExpr(bin.X, lists) && isListExpr(bin.Y, lists) {
				n, l = bin.X, bin.Y
			}
			if l != nil {
				ast.SetRelPos(l, 0)
				ast.SetRelPos(n, 0)
				c.Replace(listCall("Repeat", l, n))
				needsImport = true
			}
		}
		return true
	}, nil)
	if needsImport {
		ensureListImport(file)
	}
}

func listCall(fn string, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent("list"), Sel: ast.NewIdent(fn)}, Args: args}
}

// addChain is collectAddChain: the operands of a left-associative +
// chain, nil when one is not a list; list.Concat([...]) operands are
// inlined.
func addChain(expr ast.Expr, lists map[string]bool) []ast.Expr {
	bin, ok := expr.(*ast.BinaryExpr)
	if !ok || bin.Op != token.ADD {
		if isListExpr(expr, lists) {
			return concatArgs(expr)
		}
		return nil
	}
	left := addChain(bin.X, lists)
	if left == nil || !isListExpr(bin.Y, lists) {
		return nil
	}
	return append(left, concatArgs(bin.Y)...)
}

// concatArgs is extractListConcatArgs.
func concatArgs(expr ast.Expr) []ast.Expr {
	if call, ok := expr.(*ast.CallExpr); ok && len(call.Args) == 1 && isListFunc(call, "Concat") {
		if l, ok := call.Args[0].(*ast.ListLit); ok {
			return l.Elts
		}
	}
	return []ast.Expr{expr}
}

// isListFunc reports whether call calls list.<name> ("" any).
func isListFunc(call *ast.CallExpr, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if base, ok := sel.X.(*ast.Ident); !ok || base.Name != "list" {
		return false
	}
	if name == "" {
		return true
	}
	s, ok := sel.Sel.(*ast.Ident)
	return ok && s.Name == name
}

// ensureListImport adds import "list" unless the file has it.
func ensureListImport(file *ast.File) {
	for _, imp := range file.Imports {
		if imp.Path != nil && imp.Path.Value == `"list"` {
			return
		}
	}
	for _, d := range file.Decls {
		if id, ok := d.(*ast.ImportDecl); ok {
			for _, s := range id.Specs {
				if s.Path != nil && s.Path.Value == `"list"` {
					return
				}
			}
		}
	}
	spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: `"list"`}}
	file.Imports = append([]*ast.ImportSpec{spec}, file.Imports...)
	file.Decls = append([]ast.Decl{&ast.ImportDecl{Specs: []*ast.ImportSpec{spec}}}, file.Decls...)
}

// listDeclarations is collectListDeclarations: the names (plain and
// dotted from their top field) of fields declared as lists, then,
// until nothing changes, of fields computed by list operations.
func listDeclarations(file *ast.File) map[string]bool {
	lists := map[string]bool{}
	visitFields(file, func(name string, v ast.Expr) bool {
		return isListLit(v)
	}, lists)
	for changed := true; changed; {
		changed = visitFields(file, func(name string, v ast.Expr) bool {
			return !lists[name] && isListOpResult(v, lists)
		}, lists)
	}
	return lists
}

// visitFields marks every identifier-labelled field whose value matches,
// under its own name and its dotted name within the top field's structs
// (upstream's first and second passes); it reports whether it marked one.
func visitFields(file *ast.File, match func(string, ast.Expr) bool, lists map[string]bool) bool {
	changed := false
	var nested func(s *ast.StructLit, prefix string)
	nested = func(s *ast.StructLit, prefix string) {
		for _, e := range s.Elts {
			f, ok := e.(*ast.Field)
			if !ok {
				continue
			}
			l, ok := f.Label.(*ast.Ident)
			if !ok {
				continue
			}
			q := prefix + "." + l.Name
			if !lists[q] && match(q, f.Value) {
				lists[q], lists[l.Name], changed = true, true, true
			} else if st, ok := f.Value.(*ast.StructLit); ok {
				nested(st, q)
			}
		}
	}
	astutil.Apply(file, func(c astutil.Cursor) bool {
		f, ok := c.Node().(*ast.Field)
		if !ok {
			return true
		}
		l, ok := f.Label.(*ast.Ident)
		if !ok {
			return true
		}
		if !lists[l.Name] && match(l.Name, f.Value) {
			lists[l.Name], changed = true, true
		} else if st, ok := f.Value.(*ast.StructLit); ok {
			nested(st, l.Name)
		}
		return true
	}, nil)
	return changed
}

// isListLit is isListLiteral.
func isListLit(expr ast.Expr) bool {
	switch e := expr.(type) {
	case *ast.ListLit, *ast.Comprehension, *ast.Ellipsis:
		return true
	case *ast.CallExpr:
		return isListFunc(e, "")
	case *ast.BinaryExpr:
		return e.Op == token.OR && (isListLit(e.X) || isListLit(e.Y))
	case *ast.UnaryExpr:
		return isListLit(e.X)
	}
	return false
}

// isListExpr is isListExpression.
func isListExpr(expr ast.Expr, lists map[string]bool) bool {
	switch e := expr.(type) {
	case *ast.ListLit:
		return true
	case *ast.CallExpr:
		return isListFunc(e, "")
	case *ast.Ident:
		return lists[e.Name]
	case *ast.SelectorExpr:
		base, ok1 := e.X.(*ast.Ident)
		sel, ok2 := e.Sel.(*ast.Ident)
		return ok1 && ok2 && lists[base.Name+"."+sel.Name]
	}
	return false
}

// isNumericExpr is isNumericExpression.
func isNumericExpr(expr ast.Expr, lists map[string]bool) bool {
	switch e := expr.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT || e.Kind == token.FLOAT
	case *ast.Ident:
		return !lists[e.Name]
	case *ast.UnaryExpr:
		return isNumericExpr(e.X, lists)
	}
	return false
}

// isListOpResult is isListOperationResult.
func isListOpResult(expr ast.Expr, lists map[string]bool) bool {
	switch e := expr.(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD:
			return isListExpr(e.X, lists) && isListExpr(e.Y, lists)
		case token.MUL:
			return (isListExpr(e.X, lists) && isNumericExpr(e.Y, lists)) || (isNumericExpr(e.X, lists) && isListExpr(e.Y, lists))
		}
	case *ast.CallExpr:
		return isListFunc(e, "Concat") || isListFunc(e, "Repeat")
	}
	return false
}

// upgradeErrorFieldLabel quotes every field label `error`.
func upgradeErrorFieldLabel(file *ast.File) {
	astutil.Apply(file, func(c astutil.Cursor) bool {
		if f, ok := c.Node().(*ast.Field); ok {
			if id, ok := f.Label.(*ast.Ident); ok && id.Name == "error" {
				f.Label = ast.NewString("error")
			}
		}
		return true
	}, nil)
}
