package revision

import (
	"fmt"
	"sort"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
)

// Inputs are what an Application's first ApplicationRevision records, as
// drydock knows them: KubeVela's gatherRevisionSpec reads them from the
// parsed Appfile.
type Inputs struct {
	App         *render.Application
	Definitions *render.Definitions
	// Steps are the workflow steps the parser ends with: the
	// Application's own, its Workflow object's, or the generated ones.
	Steps []render.WorkflowStep
	// Workflow is the Workflow object spec.workflow.ref names (nil: none).
	Workflow *render.Workflow
	// ExternalPolicies are the Policy objects deploy steps name.
	ExternalPolicies []*render.Policy
	// ReferredObjects are the objects ref-objects components refer to, as
	// dispatched (cleared of server-populated fields).
	ReferredObjects []map[string]any
}

// builtinPolicies are the policy types the parser handles itself: they
// load no PolicyDefinition (kubevela 5a44b5f pkg/appfile/parser.go
// parsePolicies).
var builtinPolicies = map[string]bool{
	"garbage-collect": true, "apply-once": true, "shared-resource": true, "take-over": true,
	"read-only": true, "resource-update": true, "env-binding": true, "topology": true,
	"replication": true, "debug": true, "override": true,
}

// builtinSteps are the step types that load no WorkflowStepDefinition
// (kubevela 5a44b5f pkg/workflow/step/generator.go IsBuiltinWorkflowStepType).
var builtinSteps = map[string]bool{"suspend": true, "apply-component": true, "builtin-apply-component": true, "step-group": true}

// AppRevisionHash is the app.oam.dev/app-revision-hash KubeVela gives the
// Application's first revision: gatherRevisionSpec then
// ComputeAppRevisionHash (kubevela 5a44b5f
// pkg/controller/core.oam.dev/v1beta1/application/revision.go).
func AppRevisionHash(in Inputs) (string, error) {
	rev, err := gather(in)
	if err != nil {
		return "", fmt.Errorf("application %q revision: %w", in.App.Name, err)
	}
	return rev.Hash()
}

// gather builds the revision's recorded parts from the inputs.
func gather(in Inputs) (*Revision, error) {
	spec, err := AppSpec(in.App)
	if err != nil {
		return nil, err
	}
	rev := &Revision{Spec: spec}
	if rev.Definitions, err = usedDefinitions(in); err != nil {
		return nil, err
	}
	if len(in.ExternalPolicies) > 0 {
		rev.Policies = map[string]Policy{}
	}
	for _, p := range in.ExternalPolicies {
		var po Policy
		if err := decode(p.Object.Data, &po); err != nil {
			return nil, fmt.Errorf("policy %q: %w", p.Name, err)
		}
		rev.Policies[p.Object.Namespace()+"/"+p.Object.Name()] = po
	}
	if in.Workflow != nil {
		var wf struct {
			Steps []WorkflowStep `json:"steps,omitempty"`
		}
		if err := decode(in.Workflow.Object.Data, &wf); err != nil {
			return nil, fmt.Errorf("workflow %q: %w", in.Workflow.Name, err)
		}
		rev.Workflow = &wf.Steps
	}
	rev.ReferredObjects, err = referredObjects(in.ReferredObjects)
	return rev, err
}

// AppSpec is the Application's spec as the controller hashes it: decoded
// into KubeVela's structs, with the names KubeVela's mutating webhook
// gives unnamed steps (step-<i>, step-<i>-<j>) and the parser gives
// unnamed policies (<type>-auto-gen-<i>), each component's properties
// normalised.
func AppSpec(app *render.Application) (ApplicationSpec, error) {
	var spec ApplicationSpec
	if raw := app.Object.Data["spec"]; raw != nil {
		if err := decode(raw, &spec); err != nil {
			return spec, fmt.Errorf("spec: %w", err)
		}
	}
	for i := range spec.Policies {
		if spec.Policies[i].Name == "" {
			spec.Policies[i].Name = fmt.Sprintf("%s-auto-gen-%d", spec.Policies[i].Type, i)
		}
	}
	if spec.Workflow != nil {
		nameSteps(spec.Workflow.Steps)
	}
	for i := range spec.Components {
		normalizeProperties(spec.Components[i].Properties)
	}
	return spec, nil
}

// nameSteps is the mutating webhook's handleWorkflow (kubevela 5a44b5f
// pkg/webhook/core.oam.dev/v1beta1/application/mutating_handler.go).
func nameSteps(steps []WorkflowStep) {
	for i := range steps {
		if steps[i].Name == "" {
			steps[i].Name = fmt.Sprintf("step-%d", i)
		}
		for j := range steps[i].SubSteps {
			if steps[i].SubSteps[j].Name == "" {
				steps[i].SubSteps[j].Name = fmt.Sprintf("step-%d-%d", i, j)
			}
		}
	}
}

// referredObjects sorts the objects as parseReferredObjects does (by
// group/version, kind, namespace/name) and encodes each as
// ConvertUnstructuredsToReferredObjects does.
func referredObjects(objs []map[string]any) ([]ReferredObject, error) {
	key := func(o map[string]any) string {
		api := manifest.String(o, "apiVersion")
		group, version := "", api
		for i := len(api) - 1; i >= 0; i-- {
			if api[i] == '/' {
				group, version = api[:i], api[i+1:]
				break
			}
		}
		return group + "/" + version + ", Kind=" + manifest.String(o, "kind") + "|" +
			manifest.String(o, "metadata", "namespace") + "/" + manifest.String(o, "metadata", "name")
	}
	sorted := append([]map[string]any(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool { return key(sorted[i]) < key(sorted[j]) })
	var out []ReferredObject
	for _, o := range sorted {
		var r RawExtension
		if err := decode(o, &r); err != nil {
			return nil, fmt.Errorf("referred object: %w", err)
		}
		out = append(out, ReferredObject{RawExtension: r})
	}
	return out, nil
}

// usedDefinitions are the definitions the revision records, with their
// spec hashes: those of the components' and traits' types, of the policy
// types the parser renders, of the component and trait types override
// policies name, and of the workflow's step types (kubevela 5a44b5f
// pkg/appfile/parser.go, gatherRevisionSpec).
func usedDefinitions(in Inputs) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	var err error
	add := func(kind, typ string) {
		if typ == "" || err != nil {
			return
		}
		if out[kind] == nil {
			out[kind] = map[string]string{}
		}
		if d := in.Definitions.Get(kind, typ); d != nil {
			out[kind][d.Name], err = DefinitionHash(d)
		} else if h := builtin.ChartSpecHash(kind, typ); h != "" {
			// A type drydock emulates without a definition (the deploy
			// step): the cluster's is the chart's.
			out[kind][typ] = h
		}
	}
	for _, c := range in.App.Components {
		add(render.KindComponent, c.Type)
		for _, t := range c.Traits {
			add(render.KindTrait, t.Type)
		}
	}
	policies := append(append([]*render.Policy(nil), pointers(in.App.Policies)...), in.ExternalPolicies...)
	for _, p := range policies {
		switch {
		case p.Type == "override":
			for _, c := range listOf(p.Properties["components"]) {
				add(render.KindComponent, manifest.String(c, "type"))
				for _, t := range listOf(c["traits"]) {
					add(render.KindTrait, manifest.String(t, "type"))
				}
			}
		case !builtinPolicies[p.Type] && !applicationScoped(in.Definitions.Get(render.KindPolicy, p.Type)):
			add(render.KindPolicy, p.Type)
		}
	}
	for _, s := range in.Steps {
		if !builtinSteps[s.Type] {
			add(render.KindWorkflowStep, s.Type)
		}
		for _, sub := range s.SubSteps {
			if !builtinSteps[sub.Type] {
				add(render.KindWorkflowStep, sub.Type)
			}
		}
	}
	return out, err
}

func pointers(ps []render.Policy) []*render.Policy {
	out := make([]*render.Policy, len(ps))
	for i := range ps {
		out[i] = &ps[i]
	}
	return out
}

// listOf is the maps of a JSON list (nil when v is not a list).
func listOf(v any) []map[string]any {
	l, _ := v.([]any)
	var out []map[string]any
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// applicationScoped is true for a PolicyDefinition with a scope: the
// parser leaves such policies to the Application-scoped policy pipeline
// (parser.go isApplicationScopedPolicy), which the default feature gates
// switch off, so the revision records no definition of theirs.
func applicationScoped(d *render.Definition) bool {
	return d != nil && manifest.String(d.Spec(), "scope") != ""
}
