package cueval

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/format"

	"github.com/drydock-dev/drydock/render"
)

// Parameter is one field of a definition's parameter, as `drydock show`
// lists it.
type Parameter struct {
	// Path is the field's path under parameter ("ports[].port").
	Path string
	// Type is the field's CUE type, as written ("int", "*1 | int",
	// "[...{...}]" shortened to "[...]").
	Type string
	// Default is the default value ("" for none).
	Default string
	// Required is true for a field without a default that is not
	// optional.
	Required bool
	// Usage is the field's +usage comment (KubeVela's parameter docs).
	Usage string
}

// Parameters lists the fields of d's parameter, nested ones after their
// parent, in the template's order.
func (e *Engine) Parameters(d *render.Definition) ([]Parameter, error) {
	tmpl, err := e.template(d)
	if err != nil {
		return nil, err
	}
	var out []Parameter
	parameters(tmpl.LookupPath(cue.ParsePath("parameter")), "", &out)
	return out, nil
}

func parameters(v cue.Value, at string, out *[]Parameter) {
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return
	}
	for it.Next() {
		f := it.Value()
		name := it.Selector().Unquoted()
		if at != "" {
			name = at + "." + name
		}
		p := Parameter{Path: name, Type: typeOf(f), Usage: usage(f)}
		if d, ok := f.Default(); ok && d.IsConcrete() {
			p.Default = fmt.Sprint(d)
		}
		p.Required = !it.IsOptional() && p.Default == ""
		*out = append(*out, p)
		switch f.IncompleteKind() {
		case cue.StructKind:
			if !disjunction(f) {
				parameters(f, name, out)
			}
		case cue.ListKind:
			if elem := f.LookupPath(cue.MakePath(cue.AnyIndex)); elem.Exists() && elem.IncompleteKind() == cue.StructKind && !disjunction(elem) {
				parameters(elem, name+"[]", out)
			}
		}
	}
}

// typeOf is a field's type as a short CUE expression.
func typeOf(v cue.Value) string {
	switch k := v.IncompleteKind(); k {
	case cue.StructKind:
		return "{...}"
	case cue.ListKind:
		return "[...]"
	}
	b, err := format.Node(v.Syntax(cue.Raw()))
	if err != nil {
		return v.IncompleteKind().String()
	}
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 60 {
		return v.IncompleteKind().String()
	}
	return s
}

// usage is the +usage comment above a field.
func usage(v cue.Value) string {
	for _, cg := range v.Doc() {
		for _, c := range cg.List {
			text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			if u, ok := strings.CutPrefix(text, "+usage="); ok {
				return strings.TrimSpace(u)
			}
		}
	}
	return ""
}
