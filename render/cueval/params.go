package cueval

import (
	"sort"
	"strconv"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/fieldpath"
)

// filler builds the parameter value as CUE syntax whose struct fields
// come in the order the template declares them, then the user's other
// fields sorted; mark, when set, positions each leaf.
//
// KubeVela compiles template and parameters as one file, so field order —
// visible to json.Marshal and to `for k, v in` over a struct — is the
// template's. Unifying a separately built value would put the user's order
// first. (Declared fields the user leaves out still follow the given ones:
// a placeholder for them would change which branch of a disjunction of
// closed structs matches.)
type filler struct {
	order orderCache
	mark  func(at fieldpath.Path) token.Pos
}

func (f *filler) expr(decl cue.Value, v any, path string, at fieldpath.Path) ast.Expr {
	e := f.leaf(decl, v, path, at)
	if f.mark != nil && !composite(v) {
		ast.SetPos(e, f.mark(at))
	}
	return e
}

func (f *filler) leaf(decl cue.Value, v any, path string, at fieldpath.Path) ast.Expr {
	switch x := v.(type) {
	case map[string]any:
		return f.structExpr(decl, x, path, at)
	case []any:
		elem := cue.Value{}
		if decl.Exists() && needsDecl(x) {
			elem = decl.LookupPath(cue.MakePath(cue.AnyIndex))
		}
		elts := make([]ast.Expr, len(x))
		for i, e := range x {
			elts[i] = f.expr(elem, e, path+"[]", at.At(i))
		}
		return ast.NewList(elts...)
	case string:
		return ast.NewString(x)
	case bool:
		return ast.NewBool(x)
	case nil:
		return ast.NewNull()
	case int64:
		return &ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(x, 10)}
	case float64:
		return &ast.BasicLit{Kind: token.FLOAT, Value: strconv.FormatFloat(x, 'g', -1, 64)}
	case int:
		return &ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(x)}
	}
	return ast.NewIdent("_")
}

// orderCache remembers, per parameter path of one template, the order in
// which the template declares struct fields (nil: no usable declaration).
type orderCache map[string][]string

func (c orderCache) declared(decl cue.Value, path string) []string {
	if names, ok := c[path]; ok {
		return names
	}
	var names []string
	if decl.Exists() && decl.IncompleteKind() == cue.StructKind && !isDisjunction(decl) {
		if it, err := decl.Fields(cue.Optional(true)); err == nil {
			for it.Next() {
				if it.Selector().IsString() {
					names = append(names, it.Selector().Unquoted())
				}
			}
		}
	}
	c[path] = names
	return names
}

// needsDecl reports whether a value has structs inside, whose field order
// the declaration decides.
func needsDecl(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return true
	case []any:
		for _, e := range x {
			if needsDecl(e) {
				return true
			}
		}
	}
	return false
}

func (f *filler) structExpr(decl cue.Value, m map[string]any, path string, at fieldpath.Path) ast.Expr {
	order := f.order
	fields := make([]any, 0, 2*len(m))
	done := make(map[string]bool, len(m))
	emit := func(name string) {
		var sub cue.Value
		if decl.Exists() && needsDecl(m[name]) {
			sub = decl.LookupPath(cue.MakePath(cue.Str(name)))
		}
		fields = append(fields, label(name), f.expr(sub, m[name], path+"."+name, at.Child(name)))
		done[name] = true
	}
	for _, name := range order.declared(decl, path) {
		if _, ok := m[name]; ok {
			emit(name)
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if !done[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		emit(k)
	}
	return ast.NewStruct(fields...)
}

func label(name string) ast.Label {
	return ast.NewString(name)
}

func isDisjunction(v cue.Value) bool {
	op, _ := v.Expr()
	return op == cue.OrOp
}

// composite reports whether v is a map or a list (not a leaf).
func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}
