package workflow

import (
	"fmt"
	"reflect"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
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
		def := w.defs.Get(render.KindPolicy, p.Type)
		if goPolicies[p.Type] || (def == nil && runtimePolicies[p.Type]) {
			continue
		}
		if def == nil {
			return &render.Error{Pos: w.pos(p.Path + ".type"), App: w.app.Name,
				Err: fmt.Errorf("policy %q: %w: no PolicyDefinition %q", p.Name, render.ErrUnknownDefinition, p.Type)}
		}
		if def.Template == "" && runtimePolicies[p.Type] {
			continue
		}
		rs, err := w.e.RenderPolicy(w.app, p, def)
		if err != nil {
			return err
		}
		for _, r := range rs {
			w.write(r, "", []string{p.Name})
		}
	}
	return nil
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
		var of []*render.Policy
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
		err := render.DecodeLoose(merged, dst)
		if err == nil {
			continue
		}
		// Locate the value in the first policy whose own properties fail.
		at, field := of[0], render.ErrorPath(merged, err)
		for _, p := range of {
			if render.DecodeLoose(p.Properties, rp.new()) != nil {
				at, field = p, render.ErrorPath(p.Properties, err)
				break
			}
		}
		return w.policyFieldErr(at, field, "failed to parse %s policy: failed to unmarshal %s: %v", rp.typ, render.KubeVelaTypeName(reflect.TypeOf(dst)), err)
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
