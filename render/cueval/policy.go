package cueval

import (
	"errors"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// RenderPolicy renders policy p of app with def, its PolicyDefinition:
// the template's output and outputs, named and labelled as KubeVela
// applies them to the hub before the workflow runs. Errors name the
// policy.
func (e *Engine) RenderPolicy(app *render.Application, p *render.Policy, def *render.Definition) ([]*Resource, error) {
	defer e.maybeRecycle()
	comp := &render.Component{Name: p.Name, Path: p.Path}
	ctxData := baseContext(app, comp, Placement{})
	ctxData["artifacts"] = map[string]any{}
	if p.Properties != nil {
		ctxData["parameter"] = NormalizeNumbers(p.Properties)
	}
	run := &componentRun{e: e, app: app, comp: comp, ctxData: ctxData, policy: true}
	s := subject{def: def, stage: manifest.StageProperty, name: p.Name, path: p.Path}
	if e.provenance {
		run.trace = &tracer{}
	}
	v, err := e.evaluateMarked(def, p.Properties, ctxData, run.mark(s))
	if err != nil {
		return nil, run.cueErrIn(def, v, p.Path, "", err)
	}
	if err := run.collectOutputs(def, v, p.Type, false, p.Path, "", s); err != nil {
		return nil, err
	}
	objs := run.aux
	if out := v.LookupPath(cue.ParsePath("output")); out.Exists() {
		o := auxiliary{obj: rendered{val: out}}
		if obj, err := o.obj.object(); err == nil && run.trace != nil {
			o.prov = run.record(out, obj, s)
		}
		objs = append([]auxiliary{o}, objs...)
	}
	var out []*Resource
	for i := range objs {
		obj, err := objs[i].obj.object()
		if err != nil {
			return nil, run.errAt(p.Path, "", errors.New(render.CUEMessage(err)))
		}
		prov := objs[i].prov
		var before map[string]any
		if prov != nil {
			before = withMetadataCopy(obj)
		}
		addLabels(obj, map[string]string{render.LabelAppName: app.Name, render.LabelAppComponent: p.Name, render.LabelAppRevision: app.RevisionName()})
		if manifest.String(obj, "metadata", "name") == "" {
			manifest.SetNested(obj, p.Name, "metadata", "name")
		}
		if manifest.String(obj, "metadata", "namespace") == "" {
			manifest.SetNested(obj, app.Namespace, "metadata", "namespace")
		}
		addLabels(obj, map[string]string{render.LabelAppName: app.Name, render.LabelAppNamespace: app.Namespace})
		if manifest.String(obj, "metadata", "labels", render.LabelAppCluster) == "" {
			addLabels(obj, map[string]string{render.LabelAppCluster: ""})
		}
		if prov != nil {
			prov.Update(before, obj, func(path fieldpath.Path, _ any) []manifest.Origin { return []manifest.Origin{run.contractOrigin(path)} })
		}
		out = append(out, &Resource{Object: obj, Component: p.Name, Policy: p.Name, Provenance: prov})
	}
	return out, nil
}
