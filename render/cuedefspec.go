package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/manifest"
)

// checkDefSpec is the check `vela def` (and the addon loader) makes of a
// CUE definition file before it becomes an object: its attributes, with
// the template at schematic.cue.template, decode strictly into the
// definition kind's spec type (kubevela pkg/definition/definition.go
// FromCUE and validateSpec, utils.StrictUnmarshal). An unknown attribute
// (a trait's attributes.workload) or one of the wrong type is refused in
// its words.
func checkDefSpec(m cue.Value, d *Definition) error {
	attrs := m.LookupPath(cue.ParsePath("attributes"))
	spec := map[string]any{}
	if attrs.Exists() {
		if err := attrs.Decode(&spec); err != nil {
			return manifest.At(cuePos(attrs, d.Source), "%s %q: attributes: %s", d.Kind, d.Name, CUEMessage(err))
		}
	}
	schematic, _ := spec["schematic"].(map[string]any)
	if schematic == nil {
		schematic = map[string]any{}
		spec["schematic"] = schematic
	}
	cueField, _ := schematic["cue"].(map[string]any)
	if cueField == nil {
		cueField = map[string]any{}
		schematic["cue"] = cueField
	}
	cueField["template"] = "" // FromCUE sets the template here.
	bs, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(bs))
	dec.DisallowUnknownFields()
	if err := dec.Decode(defSpecType(d.Kind)); err != nil {
		at := cuePos(attrs, d.Source)
		field, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
		field = strings.Trim(field, `"`)
		if te := (*json.UnmarshalTypeError)(nil); !ok && errors.As(err, &te) {
			field = te.Field
		}
		if f := attrs.LookupPath(cue.ParsePath(field)); field != "" && f.Exists() {
			at = cuePos(f, at)
		}
		return manifest.At(at, "%s %q: invalid definition spec: %s", d.Kind, d.Name, err)
	}
	return nil
}

// defSpecType is a new value of the spec type of kind. The types mirror
// KubeVela's (apis/core.oam.dev/v1beta1 and common), names included, so
// that decoding errors read as KubeVela's (`Go struct field
// TraitDefinitionSpec.podDisruptive`); they are local to keep them out of
// the package's API.
func defSpecType(kind string) any {
	type WorkloadGVK struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	type WorkloadTypeDescriptor struct {
		Type       string      `json:"type,omitempty"`
		Definition WorkloadGVK `json:"definition,omitempty"`
	}
	type DefinitionReference struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	}
	type ChildResourceKind struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Selector   map[string]string `json:"selector,omitempty"`
	}
	type Status struct {
		CustomStatus string `json:"customStatus,omitempty"`
		HealthPolicy string `json:"healthPolicy,omitempty"`
		Details      string `json:"details,omitempty"`
	}
	type CUE struct {
		Template string `json:"template"`
	}
	type SecretReference struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace,omitempty"`
	}
	type Reference struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace,omitempty"`
	}
	type Terraform struct {
		Configuration                    string           `json:"configuration"`
		Type                             string           `json:"type,omitempty"`
		Path                             string           `json:"path,omitempty"`
		WriteConnectionSecretToReference *SecretReference `json:"writeConnectionSecretToRef,omitempty"`
		ProviderReference                *Reference       `json:"providerRef,omitempty"`
		DeleteResource                   bool             `json:"deleteResource,omitempty"`
		Region                           string           `json:"customRegion,omitempty"`
		GitCredentialsSecretReference    *SecretReference `json:"gitCredentialsSecretReference,omitempty"`
	}
	type Schematic struct {
		CUE       *CUE       `json:"cue,omitempty"`
		Terraform *Terraform `json:"terraform,omitempty"`
	}
	type ComponentDefinitionSpec struct {
		Version            string                 `json:"version,omitempty"`
		Workload           WorkloadTypeDescriptor `json:"workload"`
		ChildResourceKinds []ChildResourceKind    `json:"childResourceKinds,omitempty"`
		RevisionLabel      string                 `json:"revisionLabel,omitempty"`
		PodSpecPath        string                 `json:"podSpecPath,omitempty"`
		Status             *Status                `json:"status,omitempty"`
		Schematic          *Schematic             `json:"schematic,omitempty"`
		Extension          json.RawMessage        `json:"extension,omitempty"`
	}
	type TraitDefinitionSpec struct {
		Reference          DefinitionReference `json:"definitionRef,omitempty"`
		RevisionEnabled    bool                `json:"revisionEnabled,omitempty"`
		WorkloadRefPath    string              `json:"workloadRefPath,omitempty"`
		PodDisruptive      bool                `json:"podDisruptive,omitempty"`
		AppliesToWorkloads []string            `json:"appliesToWorkloads,omitempty"`
		ConflictsWith      []string            `json:"conflictsWith,omitempty"`
		Schematic          *Schematic          `json:"schematic,omitempty"`
		Status             *Status             `json:"status,omitempty"`
		Extension          json.RawMessage     `json:"extension,omitempty"`
		ManageWorkload     bool                `json:"manageWorkload,omitempty"`
		ControlPlaneOnly   bool                `json:"controlPlaneOnly,omitempty"`
		Stage              string              `json:"stage,omitempty"`
		Version            string              `json:"version,omitempty"`
	}
	type PolicyDefinitionSpec struct {
		Reference         DefinitionReference `json:"definitionRef,omitempty"`
		Schematic         *Schematic          `json:"schematic,omitempty"`
		ManageHealthCheck bool                `json:"manageHealthCheck,omitempty"`
		Version           string              `json:"version,omitempty"`
		Scope             string              `json:"scope,omitempty"`
		Global            bool                `json:"global,omitempty"`
		Priority          int32               `json:"priority,omitempty"`
	}
	type WorkflowStepDefinitionSpec struct {
		Reference DefinitionReference `json:"definitionRef,omitempty"`
		Schematic *Schematic          `json:"schematic,omitempty"`
		Version   string              `json:"version,omitempty"`
	}
	switch kind {
	case KindComponent:
		return &ComponentDefinitionSpec{}
	case KindTrait:
		return &TraitDefinitionSpec{}
	case KindPolicy:
		return &PolicyDefinitionSpec{}
	}
	return &WorkflowStepDefinitionSpec{}
}
