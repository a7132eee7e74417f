package workflow

import (
	"fmt"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/policy"
)

// templated are the runtime-only policy types whose PolicyDefinition's
// template KubeVela evaluates: parsePolicies (pkg/appfile/parser.go)
// handles the others (garbage-collect, apply-once, shared-resource,
// take-over, read-only, resource-update, env-binding, debug) itself and
// never reads their definitions, which the vela-core chart installs.
// "envbinding" is the chart's PolicyDefinition name, not KubeVela's
// env-binding type, so it renders from its definition.
var templated = map[string]bool{"envbinding": true}

// renderPolicies renders the outputs of policies defined by a
// PolicyDefinition template; KubeVela applies them to the hub before the
// workflow runs.
func (w *workflowRun) renderPolicies() error {
	for i := range w.app.Policies {
		p := &w.app.Policies[i]
		def := w.defs.Get(render.KindPolicy, p.Type)
		if policy.AppliedByDeploy(p.Type) || (policy.RuntimeOnly(p.Type) && (def == nil || def.Template == "" || !templated[p.Type])) {
			continue
		}
		if def == nil {
			return render.Locate(&render.Error{Pos: w.pos(p.Path.Child("type")), App: w.app.Name,
				Err: fmt.Errorf("policy %q: %w: no PolicyDefinition %q", p.Name, render.ErrUnknownDefinition, p.Type)})
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

// policies are the Application's policies and the external ones its
// deploy steps load, in that order.
func (w *workflowRun) policies() []*render.Policy {
	out := make([]*render.Policy, 0, len(w.app.Policies)+len(w.external))
	for i := range w.app.Policies {
		out = append(out, &w.app.Policies[i])
	}
	return append(out, w.external...)
}

// policy finds a policy by name among policies().
func (w *workflowRun) policy(name string) *render.Policy {
	for _, p := range w.policies() {
		if p.Name == name {
			return p
		}
	}
	return nil
}
