package cueval

import (
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

func (r *componentRun) errAt(path, trait string, err error) error {
	return render.Locate(r.newErr(r.app.Object.FieldPos(path), trait, err))
}

// newErr is an Error about what r renders (a component or its trait, or
// a policy's definition), to be located with render.Locate.
func (r *componentRun) newErr(pos manifest.Pos, trait string, err error) *render.Error {
	if r.policy {
		return &render.Error{Pos: pos, App: r.app.Name, Policy: r.comp.Name, Err: err}
	}
	return &render.Error{Pos: pos, App: r.app.Name, Component: r.comp.Name, Trait: trait, Err: err}
}

// cueErr locates a CUE evaluation error: a parameter error points at the
// property in the Application, anything else at the template line.
func (r *componentRun) cueErr(def *render.Definition, path, trait string, err error) error {
	e := r.newErr(r.app.Object.FieldPos(path), trait, err)
	var param []string
	for _, ce := range cueerrors.Errors(err) {
		if p := templatePos(def, cueerrors.Positions(ce)); p.IsValid() && !e.Template.IsValid() {
			e.Template = p
		}
		if cpath := ce.Path(); param == nil && len(cpath) > 1 && cpath[0] == "parameter" {
			param = cpath[1:]
		}
	}
	switch {
	case param != nil:
		e.Pos = r.app.Object.FieldPos(render.PropertyPath(path, param))
		// A value an override policy wrote is located in the policy.
		overlays := r.comp.Overlays
		if trait != "" {
			overlays = nil
			for _, t := range r.comp.Traits {
				if t.Path == path && t.Type == trait {
					overlays = t.Overlays
				}
			}
		}
		for k := len(overlays) - 1; k >= 0; k-- {
			if op := render.PropertyPath(overlays[k], param); r.app.Object.HasField(op) {
				e.Pos = r.app.Object.FieldPos(op)
				break
			}
		}
	case e.Template.IsValid():
		e.Pos = e.Template
	}
	return render.Locate(e)
}

func templatePos(def *render.Definition, ps []token.Pos) manifest.Pos {
	for _, p := range ps {
		if p.IsValid() && p.Filename() == def.TemplateFile && def.TemplateFile != "" {
			return render.TokenPos(p)
		}
	}
	return manifest.Pos{}
}
