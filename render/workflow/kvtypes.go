package workflow

// KubeVela decodes the properties of deploy steps and of ref-objects
// components into Go structs with encoding/json, strictly (unknown fields
// refused), and reports the decoder's error. The kv* types below have
// those structs' shapes, field names and JSON tags, so that decoding the
// same JSON with render.DecodeStrict fails at the same place with the
// same words (render.KubeVelaTypeName drops the kv).

// kvDeployWorkflowStepSpec is step.DeployWorkflowStepSpec.
type kvDeployWorkflowStepSpec struct {
	Auto                     *bool    `json:"auto,omitempty"`
	Policies                 []string `json:"policies,omitempty"`
	Parallelism              *int     `json:"parallelism,omitempty"`
	IgnoreTerraformComponent *bool    `json:"ignoreTerraformComponent,omitempty"`
}

// kvRefObjectsComponentSpec is v1alpha1.RefObjectsComponentSpec.
type kvRefObjectsComponentSpec struct {
	Objects []kvObjectReferrer `json:"objects,omitempty"`
	URLs    []string           `json:"urls,omitempty"`
}

// kvObjectReferrer is v1alpha1.ObjectReferrer.
type kvObjectReferrer struct {
	kvObjectTypeIdentifier `json:",inline"`
	kvObjectSelector       `json:",inline"`
}

// kvObjectTypeIdentifier is v1alpha1.ObjectTypeIdentifier.
type kvObjectTypeIdentifier struct {
	Resource                     string `json:"resource"`
	Group                        string `json:"group"`
	kvLegacyObjectTypeIdentifier `json:",inline"`
}

// kvLegacyObjectTypeIdentifier is v1alpha1.LegacyObjectTypeIdentifier.
type kvLegacyObjectTypeIdentifier struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// kvObjectSelector is v1alpha1.ObjectSelector.
type kvObjectSelector struct {
	Name                    string            `json:"name,omitempty"`
	Namespace               string            `json:"namespace,omitempty"`
	Cluster                 string            `json:"cluster,omitempty"`
	LabelSelector           map[string]string `json:"labelSelector,omitempty"`
	DeprecatedLabelSelector map[string]string `json:"selector,omitempty"`
}
