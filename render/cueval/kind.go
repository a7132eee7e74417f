package cueval

import (
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// checkKind refuses an object a template outputs (field, e.g. "output"
// or `outputs.svc`) whose kind the API server would not take
// (manifest.KindName), naming the definition and located at the
// template line of the kind. A kind that is not a concrete string is
// left to the checks of the object that follow.
func (r *componentRun) checkKind(def *render.Definition, obj cue.Value, field string, path render.FieldRef, trait string) error {
	k := obj.LookupPath(cue.ParsePath("kind"))
	kind, err := k.String()
	if err != nil {
		return nil
	}
	msg := manifest.KindName(kind)
	if msg == "" {
		return nil
	}
	e := r.newErr(r.app.FieldPos(path), trait, fmt.Errorf("%s %q: %s.kind: %s", def.Kind, def.Name, field, msg))
	if p := templatePos(def, []token.Pos{k.Pos()}); p.IsValid() {
		e.Pos, e.Template = p, p
	}
	return render.Locate(e)
}
