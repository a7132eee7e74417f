package cueval

import (
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"

	"github.com/drydock-dev/drydock/render"
)

// contextUse is which fields of `context` a template can read: the
// fields it selects by name (context.name), or every field when it uses
// `context` any other way (a bare reference, an index, a field of that
// name, an alias of it). A template sees only the context fields it can
// read: converting the rest (a trait's context.output is the whole
// workload) into CUE and evaluating them again with every template was
// a third of a trait's cost, and a field nothing references changes no
// other field of the result.
type contextUse struct {
	all    bool
	fields map[string]bool
}

// reads reports whether the template can read context field k.
func (u contextUse) reads(k string) bool { return u.all || u.fields[k] }

// contextUseOf reads the template's syntax; a template that does not
// parse reads everything (its compile error is reported elsewhere).
func contextUseOf(src string) contextUse {
	f, err := parser.ParseFile("template.cue", src)
	if err != nil {
		return contextUse{all: true}
	}
	u := contextUse{fields: map[string]bool{}}
	selected := map[*ast.Ident]bool{}
	ast.Walk(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "context" {
				name, _, err := ast.LabelName(x.Sel)
				if err != nil {
					u.all = true
					return true
				}
				selected[id] = true
				u.fields[name] = true
			}
		case *ast.Ident:
			if x.Name == "context" && !selected[x] {
				u.all = true
			}
		}
		return true
	}, nil)
	return u
}

// contextUse returns d's context use, read once per engine.
func (e *Engine) contextUse(d *render.Definition) contextUse {
	if u, ok := e.ctxUse[d]; ok {
		return u
	}
	if e.ctxUse == nil {
		e.ctxUse = map[*render.Definition]contextUse{}
	}
	u := contextUseOf(d.RenderedTemplate())
	e.ctxUse[d] = u
	return u
}

// readable returns the fields of context the template of d can read (context
// itself when it reads them all).
func (e *Engine) readable(d *render.Definition, context map[string]any) map[string]any {
	u := e.contextUse(d)
	if u.all {
		return context
	}
	out := make(map[string]any, len(u.fields))
	for k, v := range context {
		if u.fields[k] {
			out[k] = v
		}
	}
	return out
}
