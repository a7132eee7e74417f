package cueval

import (
	"sort"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Undeclared is a property its definition's parameter does not declare:
// KubeVela unifies it into the open parameter struct and nothing reads
// it, so a typo (replica for replicas) changes nothing, silently.
type Undeclared struct {
	// Path is the property's path under properties (replica,
	// ports[0].expose).
	Path fieldpath.Path
	// Closest is the declared name nearest to it ("" when none is close).
	Closest string
}

// Undeclared lists the properties of props that d's parameter does not
// declare, in path order. A struct that takes any field (a pattern such
// as [string]: string, or no field declared: {...}), a disjunction and a
// definition without a CUE template declare everything.
func (e *Engine) Undeclared(d *render.Definition, props map[string]any) []Undeclared {
	if d == nil || len(props) == 0 {
		return nil
	}
	tmpl, err := e.template(d)
	if err != nil {
		return nil
	}
	var out []Undeclared
	undeclared(tmpl.LookupPath(cue.ParsePath("parameter")), props, nil, &out)
	sort.Slice(out, func(i, j int) bool { return out[i].Path.String() < out[j].Path.String() })
	return out
}

func undeclared(decl cue.Value, v any, at fieldpath.Path, out *[]Undeclared) {
	if !decl.Exists() {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if decl.IncompleteKind() != cue.StructKind {
			return
		}
		if decl.LookupPath(cue.MakePath(cue.AnyString)).Exists() {
			return // a pattern takes any field
		}
		// What decl declares is read only when a property is not
		// found in it (Expr and Fields cost).
		var names []string
		anyField := func() bool {
			if names == nil {
				names = []string{}
				for it, _ := decl.Fields(cue.Optional(true)); it.Next(); {
					names = append(names, it.Selector().Unquoted())
				}
			}
			// {} or {...} take any object (k8s-objects' objects); which
			// disjunct applies is the evaluation's business.
			return len(names) == 0 || disjunction(decl)
		}
		lookup := func(in cue.Value, k string) cue.Value {
			field := in.LookupPath(cue.MakePath(cue.Str(k)))
			if !field.Exists() {
				field = in.LookupPath(cue.MakePath(cue.Str(k).Optional()))
			}
			return field
		}
		// A field declared by a comprehension (if type == "pvc" {
		// claimName: string }) shows once the other properties fill
		// the struct.
		var filled *cue.Value
		for k, sub := range v {
			p := at.Child(k)
			field := lookup(decl, k)
			if !field.Exists() {
				if anyField() {
					return
				}
				if filled == nil {
					f := fillKnown(decl, v, lookup)
					filled = &f
				}
				if filled.Err() != nil {
					continue // the properties conflict with it: the render says so
				}
				field = lookup(*filled, k)
			}
			if !field.Exists() {
				if !conditional(decl) {
					*out = append(*out, Undeclared{Path: p, Closest: manifest.Closest(k, names)})
				}
				continue
			}
			undeclared(field, sub, p, out)
		}
	case []any:
		if decl.IncompleteKind() != cue.ListKind {
			return
		}
		elem := decl.LookupPath(cue.MakePath(cue.AnyIndex))
		for i, sub := range v {
			undeclared(elem, sub, at.At(i), out)
		}
	}
}

// disjunction reports whether v is (or is unified with) a disjunction.
func disjunction(v cue.Value) bool {
	op, args := v.Expr()
	switch op {
	case cue.OrOp:
		return true
	case cue.AndOp:
		for _, a := range args {
			if disjunction(a) {
				return true
			}
		}
	}
	return false
}

// fillKnown unifies decl with the properties of v it declares outright.
func fillKnown(decl cue.Value, v map[string]any, lookup func(cue.Value, string) cue.Value) cue.Value {
	known := map[string]any{}
	for k, sub := range v {
		if lookup(decl, k).Exists() {
			known[k] = NormalizeNumbers(sub)
		}
	}
	return decl.Unify(decl.Context().Encode(known))
}

// conditional reports whether a struct of decl's declares fields under a
// comprehension whose condition reads something outside the struct (if
// parameter.mode == "Block" { devicePath: string }): what it declares
// cannot be told from the struct's own properties, which fillKnown
// resolves.
func conditional(decl cue.Value) bool {
	for _, c := range conjuncts(decl) {
		src := c.Source()
		if e, ok := src.(*ast.Ellipsis); ok { // a list's [...{...}]
			src = e.Type
		}
		st, ok := src.(*ast.StructLit)
		if !ok {
			continue
		}
		local := map[string]bool{}
		for _, el := range st.Elts {
			if f, ok := el.(*ast.Field); ok {
				if name, _, err := ast.LabelName(f.Label); err == nil {
					local[name] = true
				}
			}
		}
		for _, el := range st.Elts {
			comp, ok := el.(*ast.Comprehension)
			if !ok {
				continue
			}
			outer := false
			for _, clause := range comp.Clauses {
				ast.Walk(clause, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && !local[id.Name] {
						outer = true
					}
					return !outer
				}, nil)
			}
			if outer {
				return true
			}
		}
	}
	return false
}

// conjuncts are the values v unifies.
func conjuncts(v cue.Value) []cue.Value {
	if op, args := v.Expr(); op == cue.AndOp {
		var out []cue.Value
		for _, a := range args {
			out = append(out, conjuncts(a)...)
		}
		return out
	}
	return []cue.Value{v}
}
