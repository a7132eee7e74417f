package workflow

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/policy"
)

// The workflow KubeVela generates for an Application that names no steps
// (its WorkflowStepGenerator chain, after the ref generator).

// generateSteps is KubeVela's step generator chain after the ref one:
// the existing steps if any; else one deploy per topology policy (with
// every override), or a single deploy for overrides only; else the
// env-binding policies' deploy2env steps; else one apply-component step
// per component.
func (w *workflowRun) generateSteps(existing []render.WorkflowStep) ([]render.WorkflowStep, error) {
	if len(existing) > 0 {
		return existing, nil
	}
	if steps := generateDeploySteps(w.app); len(steps) > 0 {
		return steps, nil
	}
	steps, err := w.generateEnvBindingSteps()
	if err != nil || len(steps) > 0 {
		return steps, err
	}
	return generateApplySteps(w.app), nil
}

// generateDeploySteps is KubeVela's DeployWorkflowStepGenerator.
func generateDeploySteps(app *render.Application) []render.WorkflowStep {
	var topologies, overrides []any
	for _, p := range app.Policies {
		switch p.Type {
		case "topology":
			topologies = append(topologies, p.Name)
		case "override":
			overrides = append(overrides, p.Name)
		}
	}
	var steps []render.WorkflowStep
	for _, t := range topologies {
		pols := append(append([]any{}, overrides...), t)
		steps = append(steps, render.WorkflowStep{Name: "deploy-" + t.(string), Type: "deploy", Properties: map[string]any{"policies": pols}})
	}
	hasRef := false
	for _, c := range app.Components {
		hasRef = hasRef || c.Type == "ref-objects"
	}
	if len(topologies) == 0 && (len(overrides) > 0 || hasRef) {
		steps = append(steps, render.WorkflowStep{Name: "deploy", Type: "deploy", Properties: map[string]any{"policies": overrides}})
	}
	return steps
}

// generateEnvBindingSteps is KubeVela's Deploy2EnvWorkflowStepGenerator:
// a deploy2env step per env of each env-binding policy.
func (w *workflowRun) generateEnvBindingSteps() ([]render.WorkflowStep, error) {
	var steps []render.WorkflowStep
	for i := range w.app.Policies {
		p := &w.app.Policies[i]
		if p.Type != "env-binding" || p.Properties == nil {
			continue
		}
		var spec policy.EnvBindingSpec
		if err := render.DecodeLoose(p.Properties, &spec); err != nil {
			return nil, w.admitErr(p.Path.Child("properties").Join(render.ErrorPath(p.Properties, err)), fmt.Sprintf("policy %q", p.Name),
				"failed to parseWorkflowSteps: %s: %v", generatorFailed, err)
		}
		for _, env := range spec.Envs {
			steps = append(steps, render.WorkflowStep{Name: "deploy-" + p.Name + "-" + env.Name, Type: "deploy2env", Path: p.Path,
				Properties: map[string]any{"policy": p.Name, "env": env.Name}})
		}
	}
	return steps, nil
}

// generateApplySteps is KubeVela's ApplyComponentWorkflowStepGenerator:
// one apply-component step per component.
func generateApplySteps(app *render.Application) []render.WorkflowStep {
	var steps []render.WorkflowStep
	producer := map[string]string{}
	for _, c := range app.Components {
		for _, o := range c.Outputs {
			producer[o.Name] = c.Name
		}
	}
	for _, c := range app.Components {
		// A step whose inputs are not produced yet waits for them.
		deps := append([]string(nil), c.DependsOn...)
		for _, in := range c.Inputs {
			if p, ok := producer[strings.SplitN(in.From, ".", 2)[0]]; ok && p != c.Name && !slices.Contains(deps, p) {
				deps = append(deps, p)
			}
		}
		steps = append(steps, render.WorkflowStep{Name: c.Name, Type: "apply-component", DependsOn: deps, Path: c.Path,
			Properties: map[string]any{"component": c.Name}, FromComponent: true})
	}
	return steps
}
