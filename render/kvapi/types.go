// Package kvapi holds mirrors of KubeVela's API types: the definition
// specs package render decodes strictly, as KubeVela's `vela def` does,
// and the application and definition types render/revision hashes.
package kvapi

// Mirrors of the KubeVela API types its revision hashes walk. KubeVela
// hashes Go values with hashstructure (FormatV2), which reads each struct's
// type name, its exported fields' names in declaration order, and their Go
// kinds (a bool is an int8, an int32 four bytes, a nil pointer or
// interface an int 0). So these types keep KubeVela's type names, field
// names, field order and field types exactly; JSON tags only decode them.
//
// Sources: kubevela 5a44b5f apis/core.oam.dev/common/types.go,
// apis/core.oam.dev/v1beta1/{application_types,componentdefinition_types,
// core_types,policy_definition,workflow_step_definition}.go; kubevela/pkg
// v1.10.0 apis/oam/v1alpha1/workflow_types.go; terraform-controller
// v0.8.1-0.20250707044258-c0557127de25 api/types/crossplane-runtime;
// k8s.io/api core/v1 SecretReference; k8s.io/apimachinery runtime.RawExtension.

import "bytes"

// RawExtension is k8s.io/apimachinery's runtime.RawExtension: the JSON
// bytes of a preserved-unknown-fields value. Object is never set when
// KubeVela decodes JSON (a nil runtime.Object hashes as an int 0).
type RawExtension struct {
	Raw    []byte
	Object any
}

// UnmarshalJSON keeps the bytes, as RawExtension.UnmarshalJSON does (a
// JSON null leaves Raw nil).
func (r *RawExtension) UnmarshalJSON(in []byte) error {
	if !bytes.Equal(in, []byte("null")) {
		r.Raw = append(r.Raw[0:0], in...)
	}
	return nil
}

// ApplicationSpec is v1beta1.ApplicationSpec.
type ApplicationSpec struct {
	Components []ApplicationComponent `json:"components"`
	Policies   []AppPolicy            `json:"policies,omitempty"`
	Workflow   *Workflow              `json:"workflow,omitempty"`
}

// AppPolicy is v1beta1.AppPolicy.
type AppPolicy struct {
	Name       string        `json:"name,omitempty"`
	Type       string        `json:"type"`
	Properties *RawExtension `json:"properties,omitempty"`
}

// Workflow is v1beta1.Workflow (an Application's spec.workflow).
type Workflow struct {
	Ref   string               `json:"ref,omitempty"`
	Mode  *WorkflowExecuteMode `json:"mode,omitempty"`
	Steps []WorkflowStep       `json:"steps,omitempty"`
}

// ApplicationComponent is common.ApplicationComponent. ReplicaKey has no
// JSON form: the replication policy sets it.
type ApplicationComponent struct {
	Name             string             `json:"name"`
	Type             string             `json:"type"`
	ExternalRevision string             `json:"externalRevision,omitempty"`
	Properties       *RawExtension      `json:"properties,omitempty"`
	DependsOn        []string           `json:"dependsOn,omitempty"`
	Inputs           []InputItem        `json:"inputs,omitempty"`
	Outputs          []OutputItem       `json:"outputs,omitempty"`
	Traits           []ApplicationTrait `json:"traits,omitempty"`
	Scopes           map[string]string  `json:"scopes,omitempty"`
	ReplicaKey       string             `json:"-"`
}

// ApplicationTrait is common.ApplicationTrait.
type ApplicationTrait struct {
	Type       string        `json:"type"`
	Properties *RawExtension `json:"properties,omitempty"`
}

// InputItem is kubevela/pkg's v1alpha1.InputItem.
type InputItem struct {
	ParameterKey string `json:"parameterKey,omitempty"`
	From         string `json:"from"`
}

// OutputItem is kubevela/pkg's v1alpha1.OutputItem.
type OutputItem struct {
	ValueFrom string `json:"valueFrom"`
	Name      string `json:"name"`
}

// WorkflowStepMeta is kubevela/pkg's v1alpha1.WorkflowStepMeta.
type WorkflowStepMeta struct {
	Alias string `json:"alias,omitempty"`
}

// WorkflowStepBase is kubevela/pkg's v1alpha1.WorkflowStepBase.
type WorkflowStepBase struct {
	Name       string            `json:"name,omitempty"`
	Type       string            `json:"type"`
	Meta       *WorkflowStepMeta `json:"meta,omitempty"`
	If         string            `json:"if,omitempty"`
	Timeout    string            `json:"timeout,omitempty"`
	DependsOn  []string          `json:"dependsOn,omitempty"`
	Inputs     []InputItem       `json:"inputs,omitempty"`
	Outputs    []OutputItem      `json:"outputs,omitempty"`
	Properties *RawExtension     `json:"properties,omitempty"`
}

// WorkflowStep is kubevela/pkg's v1alpha1.WorkflowStep.
type WorkflowStep struct {
	WorkflowStepBase `json:",inline"`
	Mode             string             `json:"mode,omitempty"`
	SubSteps         []WorkflowStepBase `json:"subSteps,omitempty"`
}

// WorkflowExecuteMode is kubevela/pkg's v1alpha1.WorkflowExecuteMode.
type WorkflowExecuteMode struct {
	Steps    string `json:"steps,omitempty"`
	SubSteps string `json:"subSteps,omitempty"`
}

// ComponentDefinitionSpec is v1beta1.ComponentDefinitionSpec.
type ComponentDefinitionSpec struct {
	Version            string                 `json:"version,omitempty"`
	Workload           WorkloadTypeDescriptor `json:"workload"`
	ChildResourceKinds []ChildResourceKind    `json:"childResourceKinds,omitempty"`
	RevisionLabel      string                 `json:"revisionLabel,omitempty"`
	PodSpecPath        string                 `json:"podSpecPath,omitempty"`
	Status             *Status                `json:"status,omitempty"`
	Schematic          *Schematic             `json:"schematic,omitempty"`
	Extension          *RawExtension          `json:"extension,omitempty"`
}

// WorkloadDefinitionSpec is v1beta1.WorkloadDefinitionSpec.
type WorkloadDefinitionSpec struct {
	Reference          DefinitionReference `json:"definitionRef"`
	ChildResourceKinds []ChildResourceKind `json:"childResourceKinds,omitempty"`
	RevisionLabel      string              `json:"revisionLabel,omitempty"`
	PodSpecPath        string              `json:"podSpecPath,omitempty"`
	Status             *Status             `json:"status,omitempty"`
	Schematic          *Schematic          `json:"schematic,omitempty"`
	Extension          *RawExtension       `json:"extension,omitempty"`
}

// TraitDefinitionSpec is v1beta1.TraitDefinitionSpec.
type TraitDefinitionSpec struct {
	Reference          DefinitionReference `json:"definitionRef,omitempty"`
	RevisionEnabled    bool                `json:"revisionEnabled,omitempty"`
	WorkloadRefPath    string              `json:"workloadRefPath,omitempty"`
	PodDisruptive      bool                `json:"podDisruptive,omitempty"`
	AppliesToWorkloads []string            `json:"appliesToWorkloads,omitempty"`
	ConflictsWith      []string            `json:"conflictsWith,omitempty"`
	Schematic          *Schematic          `json:"schematic,omitempty"`
	Status             *Status             `json:"status,omitempty"`
	Extension          *RawExtension       `json:"extension,omitempty"`
	ManageWorkload     bool                `json:"manageWorkload,omitempty"`
	ControlPlaneOnly   bool                `json:"controlPlaneOnly,omitempty"`
	Stage              string              `json:"stage,omitempty"`
	Version            string              `json:"version,omitempty"`
}

// PolicyDefinitionSpec is v1beta1.PolicyDefinitionSpec.
type PolicyDefinitionSpec struct {
	Reference         DefinitionReference `json:"definitionRef,omitempty"`
	Schematic         *Schematic          `json:"schematic,omitempty"`
	ManageHealthCheck bool                `json:"manageHealthCheck,omitempty"`
	Version           string              `json:"version,omitempty"`
	Scope             string              `json:"scope,omitempty"`
	Global            bool                `json:"global,omitempty"`
	Priority          int32               `json:"priority,omitempty"`
}

// WorkflowStepDefinitionSpec is v1beta1.WorkflowStepDefinitionSpec.
type WorkflowStepDefinitionSpec struct {
	Reference DefinitionReference `json:"definitionRef,omitempty"`
	Schematic *Schematic          `json:"schematic,omitempty"`
	Version   string              `json:"version,omitempty"`
}

// WorkloadTypeDescriptor is common.WorkloadTypeDescriptor.
type WorkloadTypeDescriptor struct {
	Type       string      `json:"type,omitempty"`
	Definition WorkloadGVK `json:"definition,omitempty"`
}

// WorkloadGVK is common.WorkloadGVK.
type WorkloadGVK struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// ChildResourceKind is common.ChildResourceKind.
type ChildResourceKind struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Selector   map[string]string `json:"selector,omitempty"`
}

// Status is common.Status.
type Status struct {
	CustomStatus string `json:"customStatus,omitempty"`
	HealthPolicy string `json:"healthPolicy,omitempty"`
	Details      string `json:"details,omitempty"`
}

// Schematic is common.Schematic.
type Schematic struct {
	CUE       *CUE       `json:"cue,omitempty"`
	Terraform *Terraform `json:"terraform,omitempty"`
}

// CUE is common.CUE.
type CUE struct {
	Template string `json:"template"`
}

// Terraform is common.Terraform.
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

// SecretReference is both terraform-controller's and core/v1's
// SecretReference: same name, fields and kinds, so the same hash.
type SecretReference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// Reference is terraform-controller's crossplane-runtime Reference.
type Reference struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
}

// DefinitionReference is common.DefinitionReference.
type DefinitionReference struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// ReferredObject is common.ReferredObject: an object a ref-objects
// component refers to, inline.
type ReferredObject struct {
	RawExtension `json:",inline"`
}
