package render

import (
	"fmt"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/manifest"
)

// goPolicies are the policy types drydock implements in Go (deploy-time
// placement); runtimePolicies only steer a live controller and change no
// manifest, so they are accepted and recorded.
var (
	goPolicies      = map[string]bool{"topology": true, "override": true, "replication": true}
	runtimePolicies = map[string]bool{
		"apply-once": true, "garbage-collect": true, "shared-resource": true, "take-over": true,
		"read-only": true, "resource-update": true, "debug": true, "envbinding": true, "env-binding": true,
	}
)

// renderPolicies renders the outputs of policies defined by a
// PolicyDefinition template; KubeVela applies them to the hub before the
// workflow runs.
func (w *workflowRun) renderPolicies() error {
	for i := range w.app.Policies {
		p := &w.app.Policies[i]
		def := w.e.defs.Get(KindPolicy, p.Type)
		if goPolicies[p.Type] || (def == nil && runtimePolicies[p.Type]) {
			continue
		}
		if def == nil {
			return &Error{Pos: w.app.Object.FieldPos(p.Path + ".type"), App: w.app.Name,
				Err: fmt.Errorf("policy %q: %w: no PolicyDefinition %q", p.Name, ErrUnknownDefinition, p.Type)}
		}
		if def.Template == "" && runtimePolicies[p.Type] {
			continue
		}
		rs, err := w.e.renderPolicy(w.app, p, def)
		if err != nil {
			return err
		}
		for _, r := range rs {
			w.write(r, "", []string{p.Name})
		}
	}
	return nil
}

func (e *Engine) renderPolicy(app *Application, p *Policy, def *Definition) ([]*Resource, error) {
	defer e.maybeRecycle()
	comp := &Component{Name: p.Name, Path: p.Path}
	ctxData := baseContext(app, comp, Placement{})
	ctxData["artifacts"] = map[string]any{}
	if p.Properties != nil {
		ctxData["parameter"] = normalizeNumbers(p.Properties)
	}
	run := &componentRun{e: e, app: app, comp: comp, ctxData: ctxData}
	v, err := e.evaluate(def, p.Properties, ctxData)
	if err != nil {
		return nil, run.cueErr(def, p.Path, "", err)
	}
	var vals []cue.Value
	if out := v.LookupPath(cue.ParsePath("output")); out.Exists() {
		vals = append(vals, out)
	}
	if err := run.collectOutputs(def, v, p.Type, false, p.Path, ""); err != nil {
		return nil, err
	}
	for _, a := range run.aux {
		vals = append(vals, a.obj.val)
	}
	var out []*Resource
	for _, val := range vals {
		obj, err := toGo(val)
		if err != nil {
			return nil, run.errAt(p.Path, "", fmt.Errorf("policy %q: %s", p.Name, cueMessage(err)))
		}
		addLabels(obj, map[string]string{LabelAppName: app.Name, LabelAppComponent: p.Name, LabelAppRevision: app.RevisionName()})
		if manifest.String(obj, "metadata", "name") == "" {
			manifest.SetNested(obj, p.Name, "metadata", "name")
		}
		if manifest.String(obj, "metadata", "namespace") == "" {
			manifest.SetNested(obj, app.Namespace, "metadata", "namespace")
		}
		addLabels(obj, map[string]string{LabelAppName: app.Name, LabelAppNamespace: app.Namespace})
		if manifest.String(obj, "metadata", "labels", LabelAppCluster) == "" {
			addLabels(obj, map[string]string{LabelAppCluster: ""})
		}
		out = append(out, &Resource{Object: obj, Component: p.Name, Policy: p.Name})
	}
	return out, nil
}
