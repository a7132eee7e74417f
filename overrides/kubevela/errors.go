package kubevela

import (
	"fmt"

	"github.com/drydock-dev/drydock/render"
)

// policyErr is an error about policy p of app located at field (relative
// to its properties; the policy itself when it has none), worded as
// render/policy words its refusals.
func policyErr(app *render.Application, p *render.Policy, field, format string, args ...any) error {
	path := p.Path + ".properties"
	if field != "" {
		path += "." + field
	}
	if p.Properties == nil {
		path = p.Path
	}
	return render.Locate(&render.Error{Pos: p.FieldPos(app, path), App: app.Name,
		Err: fmt.Errorf("policy %q: %s", p.Name, fmt.Sprintf(format, args...))})
}

// policyFieldErr is a refusal of a policy's properties in KubeVela's
// words, naming the field (rel, relative to the properties).
func policyFieldErr(app *render.Application, p *render.Policy, rel, format string, args ...any) error {
	path := render.JoinField(p.Path+".properties", rel)
	if p.Properties == nil {
		path = p.Path
	}
	return render.Locate(&render.Error{Pos: p.FieldPos(app, path), App: app.Name,
		Err: fmt.Errorf("policy %q: %s: %s", p.Name, render.DisplayPath(path), fmt.Sprintf(format, args...))})
}
