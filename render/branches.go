package render

import (
	"encoding/json"
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"

	"github.com/drydock-dev/drydock/manifest"
)

// Branch is an `if` of a definition's template: where it is and its
// condition as written.
type Branch struct {
	Pos       manifest.Pos
	Condition string
}

// Branches lists the `if` clauses of d's template, in source order (none
// for a definition without a CUE template).
func (d *Definition) Branches() []Branch {
	if d.Template == "" {
		return nil
	}
	f, err := parser.ParseFile(d.TemplateFile, d.RenderedTemplate())
	if err != nil {
		return nil
	}
	var out []Branch
	ast.Walk(f, func(n ast.Node) bool {
		if c, ok := n.(*ast.IfClause); ok {
			b, err := format.Node(c.Condition)
			if err == nil {
				out = append(out, Branch{Pos: TokenPos(c.Pos()), Condition: string(b)})
			}
		}
		return true
	}, nil)
	return out
}

// BranchOutcomes evaluates each branch's condition with the parameter
// the properties give (the template's defaults filled in) and the
// context's fields: true or false, or nil when the condition reads
// something else of the template (undecided).
func (d *Definition) BranchOutcomes(branches []Branch, properties, context map[string]any) []*bool {
	out := make([]*bool, len(branches))
	if properties == nil {
		properties = map[string]any{}
	}
	ctx := cuecontext.New()
	tmpl := ctx.CompileString(d.RenderedTemplate() + "\ncontext: _\nparameter: _\n")
	param := tmpl.LookupPath(cue.ParsePath("parameter")).Unify(ctx.Encode(properties))
	pj, err := json.Marshal(defaultsOf(param))
	if err != nil {
		return out
	}
	cj, err := json.Marshal(context)
	if err != nil {
		return out
	}
	for i, b := range branches {
		v := ctx.CompileString(fmt.Sprintf("parameter: %s\ncontext: %s\nx: %s\n", pj, cj, b.Condition))
		if r, err := v.LookupPath(cue.ParsePath("x")).Bool(); err == nil {
			out[i] = &r
		}
	}
	return out
}

// defaultsOf is v with its defaults taken, as far as it is concrete.
func defaultsOf(v cue.Value) any {
	if d, ok := v.Default(); ok {
		v = d
	}
	switch v.IncompleteKind() {
	case cue.StructKind:
		m := map[string]any{}
		for it, _ := v.Fields(); it.Next(); {
			if x := defaultsOf(it.Value()); x != nil {
				m[it.Selector().Unquoted()] = x
			}
		}
		return m
	}
	var x any
	if v.IsConcrete() && v.Decode(&x) == nil {
		return x
	}
	return nil
}
