package revision

import (
	"fmt"

	"github.com/drydock-dev/drydock/render"
)

// ComponentRevision is context.revision of a component's templates: the
// spec hash of the common.ApplicationComponent the controller renders
// (kubevela 5a44b5f pkg/controller/core.oam.dev/v1beta1/application/
// generator.go, prepareWorkloadAndManifests: ComputeSpecHash(comp)). That
// is the component after overrides, with its inputs filled and, for a
// replicated one, its replica key. A component an apply-component step
// renders (stepped) comes through the step's properties, which carry it
// without dependsOn, inputs and outputs (generator.go
// convertStepProperties).
func ComponentRevision(comp *render.Component, replicaKey string, stepped bool) (string, error) {
	m := map[string]any{"name": comp.Name, "type": comp.Type}
	for _, k := range []string{"externalRevision", "scopes"} {
		if v, ok := comp.Raw[k]; ok {
			m[k] = v
		}
	}
	if comp.Properties != nil {
		m["properties"] = comp.Properties
	}
	if len(comp.Traits) > 0 {
		traits := make([]any, len(comp.Traits))
		for i, t := range comp.Traits {
			tm := map[string]any{"type": t.Type}
			if t.Properties != nil {
				tm["properties"] = t.Properties
			}
			traits[i] = tm
		}
		m["traits"] = traits
	}
	if !stepped {
		addLinks(m, comp)
	}
	var ac ApplicationComponent
	if err := decode(m, &ac); err != nil {
		return "", fmt.Errorf("component %q: %w", comp.Name, err)
	}
	ac.ReplicaKey = replicaKey
	return SpecHash(ac)
}

// addLinks adds a component's dependsOn, inputs and outputs.
func addLinks(m map[string]any, comp *render.Component) {
	if len(comp.DependsOn) > 0 {
		m["dependsOn"] = comp.DependsOn
	}
	var inputs, outputs []any
	for _, in := range comp.Inputs {
		inputs = append(inputs, map[string]any{"from": in.From, "parameterKey": in.ParameterKey})
	}
	for _, out := range comp.Outputs {
		outputs = append(outputs, map[string]any{"name": out.Name, "valueFrom": out.ValueFrom})
	}
	if inputs != nil {
		m["inputs"] = inputs
	}
	if outputs != nil {
		m["outputs"] = outputs
	}
}
