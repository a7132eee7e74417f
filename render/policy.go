package render

import (
	"errors"
	"fmt"
	"reflect"

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
			return &Error{Pos: w.pos(p.Path + ".type"), App: w.app.Name,
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
	run := &componentRun{e: e, app: app, comp: comp, ctxData: ctxData, policy: true}
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
			return nil, run.errAt(p.Path, "", errors.New(cueMessage(err)))
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

// resourcePolicies are the policies KubeVela's resource keeper reads
// before anything else when it reconciles the Application; it merges the
// properties of the policies of one type (lists concatenated, a true bool
// wins, otherwise the first value) and decodes them, unknown fields
// allowed.
var resourcePolicies = []struct {
	typ string
	new func() any
}{
	{"apply-once", func() any { return &kvApplyOncePolicySpec{} }},
	{"garbage-collect", func() any { return &kvGarbageCollectPolicySpec{} }},
	{"shared-resource", func() any { return &kvSharedResourcePolicySpec{} }},
	{"take-over", func() any { return &kvTakeOverPolicySpec{} }},
	{"read-only", func() any { return &kvReadOnlyPolicySpec{} }},
	{"resource-update", func() any { return &kvResourceUpdatePolicySpec{} }},
}

// resourcePolicies is the resource keeper's parseApplicationResourcePolicy:
// a resource policy whose merged properties do not decode fails every
// reconcile, so the workflow never starts.
func (w *workflowRun) resourcePolicies() error {
	for _, rp := range resourcePolicies {
		var of []*Policy
		for i := range w.app.Policies {
			if p := &w.app.Policies[i]; p.Type == rp.typ && p.Properties != nil {
				of = append(of, p)
			}
		}
		if len(of) == 0 {
			continue
		}
		merged := map[string]any{}
		for _, p := range of {
			mergePolicyProperties(merged, manifest.DeepCopy(p.Properties).(map[string]any))
		}
		dst := rp.new()
		err := decodeLoose(merged, dst)
		if err == nil {
			continue
		}
		// Locate the value in the first policy whose own properties fail.
		at, field := of[0], errorPath(merged, err)
		for _, p := range of {
			if decodeLoose(p.Properties, rp.new()) != nil {
				at, field = p, errorPath(p.Properties, err)
				break
			}
		}
		return w.policyFieldErr(at, field, "failed to parse %s policy: failed to unmarshal %s: %v", rp.typ, kvTypeName(reflect.TypeOf(dst)), err)
	}
	return nil
}

// mergePolicyProperties is KubeVela's mergePolicies: lists concatenate,
// objects merge, true wins over false, otherwise base keeps its value.
func mergePolicyProperties(base, patch map[string]any) {
	for k, v := range patch {
		old, found := base[k]
		if !found {
			base[k] = v
			continue
		}
		l1, ok1 := old.([]any)
		l2, ok2 := v.([]any)
		if ok1 && ok2 {
			base[k] = append(l1, l2...)
			continue
		}
		m1, ok1 := old.(map[string]any)
		m2, ok2 := v.(map[string]any)
		if ok1 && ok2 {
			mergePolicyProperties(m1, m2)
			continue
		}
		if old == false && v == true {
			base[k] = true
		}
	}
}
