package revision

import (
	"fmt"

	"github.com/drydock-dev/drydock/render"
)

// Revision is what ComputeAppRevisionHash reads of an ApplicationRevision.
type Revision struct {
	// Spec is the Application's spec (see AppSpec).
	Spec ApplicationSpec
	// Definitions are the spec hashes of the definitions the revision
	// records, by kind (render.KindComponent, ...) and name.
	Definitions map[string]map[string]string
	// Policies are the external Policy objects by "namespace/name".
	Policies map[string]Policy
	// Workflow is the steps of the Workflow object the Application refers
	// to (nil: none).
	Workflow *[]WorkflowStep
	// ReferredObjects are the objects ref-objects components refer to.
	ReferredObjects []ReferredObject
}

// Policy is the part of a core.oam.dev/v1alpha1 Policy object the hash
// reads.
type Policy struct {
	Type       string        `json:"type"`
	Properties *RawExtension `json:"properties,omitempty"`
}

// Hash is ComputeAppRevisionHash (kubevela 5a44b5f
// pkg/controller/core.oam.dev/v1beta1/application/revision.go): the spec
// hash of a struct of the parts' spec hashes. The struct is anonymous
// there too, so its type name is empty.
func (r *Revision) Hash() (string, error) {
	revHash := struct {
		ApplicationSpecHash        string
		WorkloadDefinitionHash     map[string]string
		ComponentDefinitionHash    map[string]string
		TraitDefinitionHash        map[string]string
		ScopeDefinitionHash        map[string]string
		PolicyDefinitionHash       map[string]string
		WorkflowStepDefinitionHash map[string]string
		PolicyHash                 map[string]string
		WorkflowHash               string
		ReferredObjectsHash        string
	}{
		WorkloadDefinitionHash:     r.definitions(render.KindWorkload),
		ComponentDefinitionHash:    r.definitions(render.KindComponent),
		TraitDefinitionHash:        r.definitions(render.KindTrait),
		ScopeDefinitionHash:        map[string]string{},
		PolicyDefinitionHash:       r.definitions(render.KindPolicy),
		WorkflowStepDefinitionHash: r.definitions(render.KindWorkflowStep),
		PolicyHash:                 map[string]string{},
	}
	var err error
	if revHash.ApplicationSpecHash, err = SpecHash(r.Spec); err != nil {
		return "", err
	}
	for key, po := range r.Policies {
		h, err := SpecHash(po.Properties)
		if err != nil {
			return "", err
		}
		revHash.PolicyHash[key] = h + po.Type
	}
	if r.Workflow != nil {
		if revHash.WorkflowHash, err = SpecHash(*r.Workflow); err != nil {
			return "", err
		}
	}
	if revHash.ReferredObjectsHash, err = SpecHash(r.ReferredObjects); err != nil {
		return "", err
	}
	return SpecHash(&revHash)
}

func (r *Revision) definitions(kind string) map[string]string {
	out := map[string]string{}
	for name, h := range r.Definitions[kind] {
		out[name] = h
	}
	return out
}

// DefinitionHash is the spec hash of a definition as a cluster holds it
// (d.SpecHash when drydock does not carry its spec): its spec decoded into
// KubeVela's struct of its kind, with the CRD's defaults the API server
// applies.
func DefinitionHash(d *render.Definition) (string, error) {
	if d.SpecHash != "" {
		return d.SpecHash, nil
	}
	var spec any
	switch d.Kind {
	case render.KindComponent:
		spec = &ComponentDefinitionSpec{}
	case render.KindTrait:
		spec = &TraitDefinitionSpec{}
	case render.KindPolicy:
		spec = &PolicyDefinitionSpec{}
	case render.KindWorkflowStep:
		spec = &WorkflowStepDefinitionSpec{}
	case render.KindWorkload:
		spec = &WorkloadDefinitionSpec{}
	default:
		return "", fmt.Errorf("%s %q: not a definition kind", d.Kind, d.Name)
	}
	if s := d.Spec(); s != nil {
		if err := decode(s, spec); err != nil {
			return "", fmt.Errorf("%s %q: %w", d.Kind, d.Name, err)
		}
	}
	terraformDefaults(d.Spec(), spec)
	return SpecHash(spec)
}

// terraformDefaults applies the definition CRDs' only defaults
// (charts/vela-core/crds): schematic.terraform.deleteResource true and
// providerRef.namespace "default".
func terraformDefaults(raw map[string]any, spec any) {
	var s *Schematic
	switch v := spec.(type) {
	case *ComponentDefinitionSpec:
		s = v.Schematic
	case *TraitDefinitionSpec:
		s = v.Schematic
	case *PolicyDefinitionSpec:
		s = v.Schematic
	case *WorkflowStepDefinitionSpec:
		s = v.Schematic
	case *WorkloadDefinitionSpec:
		s = v.Schematic
	}
	if s == nil || s.Terraform == nil {
		return
	}
	schematic, _ := raw["schematic"].(map[string]any)
	tf, _ := schematic["terraform"].(map[string]any)
	if _, set := tf["deleteResource"]; !set {
		s.Terraform.DeleteResource = true
	}
	if p := s.Terraform.ProviderReference; p != nil && p.Namespace == "" {
		p.Namespace = "default"
	}
}
