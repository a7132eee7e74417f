package cueval

import (
	"fmt"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

func (r *componentRun) errAt(path render.FieldRef, trait string, err error) error {
	return render.Locate(r.newErr(r.app.FieldPos(path), trait, err))
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
func (r *componentRun) cueErr(def *render.Definition, path render.FieldRef, trait string, err error) error {
	return r.cueErrIn(def, cue.Value{}, path, trait, err)
}

// cueErrIn is cueErr for an error of evaluating def's template into v:
// an error CUE reports without a position (a structural cycle) is placed
// at its path in v. A structural cycle names the definition, whose
// template alone can hold it.
func (r *componentRun) cueErrIn(def *render.Definition, v cue.Value, path render.FieldRef, trait string, err error) error {
	e := r.newErr(r.app.FieldPos(path), trait, err)
	if render.IsStructuralCycle(err) {
		// Text only: CUEMessage shows a wrapped CUE error without context.
		e.Err = fmt.Errorf("%s %q: %s", def.Kind, def.Name, render.CUEMessage(err))
	}
	e.Template = templatePlace(def, v, err)
	var param []string
	for _, ce := range cueerrors.Errors(err) {
		if cpath := ce.Path(); param == nil && len(cpath) > 1 && cpath[0] == "parameter" {
			param = cpath[1:]
		}
	}
	switch {
	case param != nil:
		e.Pos = r.app.FieldPos(path.Join(render.PropertyPath(param)))
		// A value an override policy wrote is located in the policy.
		overlays := r.comp.Overlays
		if trait != "" {
			overlays = nil
			for _, t := range r.comp.Traits {
				if t.Path.Equal(path) && t.Type == trait {
					overlays = t.Overlays
				}
			}
		}
		for k := len(overlays) - 1; k >= 0; k-- {
			if op := overlays[k].Join(render.PropertyPath(param)); r.app.HasField(op) {
				e.Pos = r.app.FieldPos(op)
				break
			}
		}
	case e.Template.IsValid():
		e.Pos = e.Template
	}
	return render.Locate(e)
}

// templatePlace is where in def's template err arose: the first
// template position of its errors, else (no error has one) where v holds
// the path of the first error that can be placed so.
func templatePlace(def *render.Definition, v cue.Value, err error) manifest.Pos {
	errs := cueerrors.Errors(err)
	for _, ce := range errs {
		if p := templatePos(def, cueerrors.Positions(ce)); p.IsValid() {
			return p
		}
	}
	for _, ce := range errs {
		if p := templatePos(def, render.CUEPositions(v, ce)); p.IsValid() {
			return p
		}
	}
	return manifest.Pos{}
}

func templatePos(def *render.Definition, ps []token.Pos) manifest.Pos {
	for _, p := range ps {
		if p.IsValid() && p.Filename() == def.TemplateFile && def.TemplateFile != "" {
			return render.TokenPos(p)
		}
	}
	return manifest.Pos{}
}
