package render

import (
	"sort"
	"strconv"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// paramExpr builds the parameter value as CUE syntax whose struct fields
// come in the order the template declares them, then the user's other
// fields sorted.
//
// KubeVela compiles template and parameters as one file, so field order —
// visible to json.Marshal and to `for k, v in` over a struct — is the
// template's. Unifying a separately built value would put the user's order
// first. (Declared fields the user leaves out still follow the given ones:
// a placeholder for them would change which branch of a disjunction of
// closed structs matches.)
func paramExpr(decl cue.Value, v any) ast.Expr {
	switch x := v.(type) {
	case map[string]any:
		return structExpr(decl, x)
	case []any:
		elem := cue.Value{}
		if decl.Exists() {
			elem = decl.LookupPath(cue.MakePath(cue.AnyIndex))
		}
		elts := make([]ast.Expr, len(x))
		for i, e := range x {
			elts[i] = paramExpr(elem, e)
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

func structExpr(decl cue.Value, m map[string]any) ast.Expr {
	var fields []any
	done := map[string]bool{}
	if decl.Exists() && decl.IncompleteKind() == cue.StructKind && !isDisjunction(decl) {
		if it, err := decl.Fields(cue.Optional(true)); err == nil {
			for it.Next() {
				name := it.Selector().Unquoted()
				if !it.Selector().IsString() {
					continue
				}
				if v, ok := m[name]; ok {
					fields = append(fields, label(name), paramExpr(it.Value(), v))
					done[name] = true
				}
			}
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
		var sub cue.Value
		if decl.Exists() && !isDisjunction(decl) {
			sub = decl.LookupPath(cue.MakePath(cue.Str(k)))
		}
		fields = append(fields, label(k), paramExpr(sub, m[k]))
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
