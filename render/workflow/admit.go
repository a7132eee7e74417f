package workflow

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/overrides/kubevela"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/policy"
)

// The checks of KubeVela's application parser (appfile.Parser.
// GenerateAppFile), which its validating webhook runs when the
// Application is created: parseComponents, parseWorkflowSteps,
// parsePolicies and parseReferredObjects, in that order. An Application
// they refuse never exists, so nothing of it renders.

// admit runs the parser's checks and returns the workflow that will run:
// the Application's steps, those of the Workflow it refers to, or the
// steps KubeVela generates.
func (w *workflowRun) admit() ([]render.WorkflowStep, error) {
	if err := w.admitComponents(); err != nil {
		return nil, err
	}
	steps, err := w.workflowSteps()
	if err != nil {
		return nil, err
	}
	if err := w.admitStepTypes(steps); err != nil {
		return nil, err
	}
	if err := w.loadExternalPolicies(steps); err != nil {
		return nil, err
	}
	if err := w.admitPolicies(); err != nil {
		return nil, err
	}
	return steps, w.admitRefObjects()
}

// admitErr is a parser refusal: where, what it is about (`step "d"`),
// the field path, and KubeVela's words.
func (w *workflowRun) admitErr(path render.FieldRef, subject, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if shown := path.String(); shown != "" {
		msg = shown + ": " + msg
	}
	return manifest.At(w.pos(path), "%w: application %q: %s: %s", render.ErrInvalidApplication, w.app.Name, subject, msg)
}

// admitComponents checks that every component and trait type names a
// definition (parseComponents).
func (w *workflowRun) admitComponents() error {
	for _, c := range w.app.Components {
		if _, err := w.defs.Lookup(render.KindComponent, c.Type); err != nil {
			return render.Locate(&render.Error{Pos: w.pos(c.Path.Child("type")), App: w.app.Name, Component: c.Name, Err: err})
		}
		for _, t := range c.Traits {
			if _, err := w.defs.Lookup(render.KindTrait, t.Type); err != nil {
				return render.Locate(&render.Error{Pos: w.pos(t.Path.Child("type")), App: w.app.Name, Component: c.Name, Trait: t.Type, Err: err})
			}
		}
	}
	return nil
}

// workflowSteps is the parser's loadWorkflowToAppfile: the Workflow
// object spec.workflow.ref names is read first when no mode is set, then
// the step generators run (ref, deploy, env-binding, apply-component).
func (w *workflowRun) workflowSteps() ([]render.WorkflowStep, error) {
	app := w.app
	if app.WorkflowRef == "" {
		return w.generateSteps(app.Workflow)
	}
	wf, found := w.opts.Workflows[app.Namespace+"/"+app.WorkflowRef]
	refPath := render.AppField("spec", "workflow", "ref")
	if !found && !app.HasWorkflowMode {
		return nil, w.admitErr(refPath, "workflow", "failed to parseWorkflowSteps: %s", notFound("workflows", app.WorkflowRef))
	}
	if app.HasWorkflow {
		return nil, w.admitErr(render.AppField("spec", "workflow", "steps"), "workflow", "failed to parseWorkflowSteps: %s: cannot set steps and ref in workflow at the same time", generatorFailed)
	}
	if !found {
		return nil, w.admitErr(refPath, "workflow", "failed to parseWorkflowSteps: %s: %s", generatorFailed, notFound("workflows", app.WorkflowRef))
	}
	w.wf = wf
	return w.generateSteps(wf.Steps)
}

// generatorFailed is how KubeVela's ChainWorkflowStepGenerator wraps a
// generator's error: it prints the name of the generator's type, which is
// a pointer type and so has none.
const generatorFailed = "generate step failed in WorkflowStepGenerator "

// notFound is the API server's NotFound message for a core.oam.dev
// resource.
func notFound(resource, name string) string {
	return fmt.Sprintf("%s.core.oam.dev %q not found", resource, name)
}

// builtinStepTypes are the step types KubeVela runs without a
// WorkflowStepDefinition (step.IsBuiltinWorkflowStepType).
var builtinStepTypes = map[string]bool{"suspend": true, "apply-component": true, "builtin-apply-component": true, "step-group": true}

// installedStepTypes are the WorkflowStepDefinitions a KubeVela
// installation has (charts/vela-core/templates/defwithtemplate); drydock
// emulates some of them (see workflowRun.step).
var installedStepTypes = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`apply-application-in-parallel apply-application apply-component apply-deployment
		apply-object apply-remaining apply-terraform-config apply-terraform-provider build-push-image check-metrics
		clean-jobs collect-service-endpoints create-config delete-config depends-on-app deploy-cloud-resource deploy
		deploy2env deploy2runtime export-data export-service export2config export2secret generate-jdbc-connection
		list-config notification print-message-in-status read-config read-object request restart-workflow
		share-cloud-resource step-group suspend vela-cli webhook`) {
		installedStepTypes[t] = true
	}
}

// admitStepTypes checks that every step's type has a definition
// (parseWorkflowSteps' fetchAndSetWorkflowStepDefinition).
func (w *workflowRun) admitStepTypes(steps []render.WorkflowStep) error {
	for _, s := range steps {
		for _, x := range append([]render.WorkflowStep{s}, s.SubSteps...) {
			if builtinStepTypes[x.Type] || installedStepTypes[x.Type] || w.defs.Get(render.KindWorkflowStep, x.Type) != nil {
				continue
			}
			known := w.defs.Names(render.KindWorkflowStep)
			for t := range installedStepTypes {
				known = append(known, t)
			}
			for t := range builtinStepTypes {
				known = append(known, t)
			}
			return w.admitErr(x.Path.Child("type"), fmt.Sprintf("step %q", x.Name), "failed to parseWorkflowSteps: failed to get workflow step definition %s: %s%s",
				x.Type, notFound("workflowstepdefinitions", x.Type), manifest.DidYouMean(x.Type, known))
		}
	}
	return nil
}

// loadExternalPolicies decodes the properties of every top-level deploy
// step strictly and adds the core.oam.dev/v1alpha1 Policy objects they
// name that the Application does not declare
// (step.LoadExternalPoliciesForWorkflow).
func (w *workflowRun) loadExternalPolicies(steps []render.WorkflowStep) error {
	for _, s := range steps {
		if s.Type != "deploy" || s.Properties == nil {
			continue
		}
		var spec kvDeployWorkflowStepSpec
		if err := render.DecodeStrict(s.Properties, &spec); err != nil {
			return w.admitErr(s.Path.Child("properties").Join(render.ErrorPath(s.Properties, err)), fmt.Sprintf("step %q", s.Name),
				"failed to parsePolicies: invalid WorkflowStep %s: %v", s.Name, err)
		}
		for i, name := range spec.Policies {
			if w.policy(name) != nil {
				continue
			}
			ext, ok := w.opts.Policies[w.app.Namespace+"/"+name]
			if !ok {
				return w.admitErr(s.Path.Child("properties").Child("policies").At(i), fmt.Sprintf("step %q", s.Name),
					"failed to parsePolicies: external policy %s not found", name)
			}
			w.external = append(w.external, ext)
		}
	}
	return nil
}

// admitPolicies makes parsePolicies' checks of every policy the workflow
// can use: properties present, override policies decodable and their
// component and trait types defined, other types defined by a
// PolicyDefinition.
func (w *workflowRun) admitPolicies() error {
	for _, p := range w.policies() {
		if p.Properties == nil && p.Type != "debug" {
			return w.admitErr(p.Path, fmt.Sprintf("policy %q", p.Name), "failed to parsePolicies: policy %s named %s must not have empty properties", p.Type, p.Name)
		}
		switch {
		case p.Type == "override":
			if err := w.admitOverride(p); err != nil {
				return err
			}
		case !policy.Builtin(p.Type):
			if _, err := w.defs.LookupAmong(render.KindPolicy, p.Type, policy.BuiltinTypes()); err != nil {
				return render.Locate(&render.Error{Pos: w.pos(p.Path.Child("type")), App: w.app.Name, Err: fmt.Errorf("policy %q: %w", p.Name, err)})
			}
		}
	}
	return nil
}

// admitOverride is ParseOverridePolicyRelatedDefinitions: the spec
// decodes (unknown fields allowed) and every component and trait type it
// names has a definition, whether or not it patches anything.
func (w *workflowRun) admitOverride(p *render.Policy) error {
	subject := fmt.Sprintf("policy %q", p.Name)
	var spec kubevela.OverridePolicySpec
	if err := render.DecodeLoose(p.Properties, &spec); err != nil {
		return w.admitErr(p.Path.Child("properties").Join(render.ErrorPath(p.Properties, err)), subject,
			"failed to parsePolicies: invalid override policy spec: %v", err)
	}
	for i, c := range spec.Components {
		if c.Type != "" && w.defs.Get(render.KindComponent, c.Type) == nil {
			return w.admitErr(p.Path.Child("properties").Child("components").At(i).Child("type"), subject,
				"failed to parsePolicies: failed to get component definition %s for override policy %s: %s", c.Type, p.Name, notFound("componentdefinitions", c.Type))
		}
	}
	for i, c := range spec.Components {
		for j, t := range c.Traits {
			if t.Type != "" && w.defs.Get(render.KindTrait, t.Type) == nil {
				return w.admitErr(p.Path.Child("properties").Child("components").At(i).Child("traits").At(j).Child("type"), subject,
					"failed to parsePolicies: failed to get trait definition %s for override policy %s: %s", t.Type, p.Name, notFound("traitdefinitions", t.Type))
			}
		}
	}
	return nil
}

// admitRefObjects is parseReferredObjects: a ref-objects component's
// properties decode strictly and its selectors select.
func (w *workflowRun) admitRefObjects() error {
	for i := range w.app.Components {
		c := &w.app.Components[i]
		if c.Type != "ref-objects" {
			continue
		}
		rc, err := w.refObjects(c)
		if err != nil {
			return err
		}
		// A selector that selects nothing leaves no objects.
		objs, _ := rc.Properties["objects"].([]any)
		for _, o := range objs {
			w.referred = appendObject(w.referred, o.(map[string]any))
		}
	}
	return nil
}

// pos locates a field path in the Application or in an external object.
func (w *workflowRun) pos(path render.FieldRef) manifest.Pos {
	if !path.IsExternal() {
		return w.app.Object.FieldPos(path.Path)
	}
	var obj *manifest.Object
	switch path.Kind {
	case "Workflow":
		if w.wf != nil && w.wf.Name == path.Name {
			obj = w.wf.Object
		}
	case "Policy":
		if p := w.opts.Policies[w.app.Namespace+"/"+path.Name]; p != nil {
			obj = p.Object
		}
	}
	if obj == nil {
		return w.app.Object.Pos
	}
	return obj.FieldPos(path.Path)
}

// noSpec notes an Application without spec (or with spec: null, which
// the API server drops): the CRD does not require spec
// (charts/vela-core/crds/core.oam.dev_applications.yaml), so KubeVela
// admits it, and its parser finds no components and generates no steps:
// nothing renders.
func (w *workflowRun) noSpec() {
	if w.app.Object == nil || w.app.Object.Data["spec"] != nil {
		return
	}
	at := render.AppField()
	how := "has no spec"
	if _, ok := w.app.Object.Data["spec"]; ok {
		at, how = render.AppField("spec"), "has spec: null (the API server drops it)"
	}
	w.warnings = append(w.warnings, fmt.Sprintf("%s: application %q %s: KubeVela admits it and renders nothing for it", w.pos(at), w.app.Name, how))
}
