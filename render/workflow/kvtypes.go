package workflow

import (
	"bytes"
	"encoding/json"
)

// KubeVela decodes the properties of its built-in policies, of deploy
// steps and of ref-objects components into Go structs with encoding/json,
// some strictly (unknown fields refused), and reports the decoder's error.
// The kv* types below have those structs' shapes, field names and JSON
// tags, so that decoding the same JSON with render.DecodeStrict or
// render.DecodeLoose fails at the same place with the same words.

// kvDeployWorkflowStepSpec is step.DeployWorkflowStepSpec.
type kvDeployWorkflowStepSpec struct {
	Auto                     *bool    `json:"auto,omitempty"`
	Policies                 []string `json:"policies,omitempty"`
	Parallelism              *int     `json:"parallelism,omitempty"`
	IgnoreTerraformComponent *bool    `json:"ignoreTerraformComponent,omitempty"`
}

// kvTopologyPolicySpec is v1alpha1.TopologyPolicySpec.
type kvTopologyPolicySpec struct {
	kvPlacement `json:",inline"`
	Namespace   string `json:"namespace,omitempty"`
}

// kvPlacement is v1alpha1.Placement.
type kvPlacement struct {
	Clusters                  []string          `json:"clusters,omitempty"`
	ClusterLabelSelector      map[string]string `json:"clusterLabelSelector,omitempty"`
	AllowEmpty                bool              `json:"allowEmpty,omitempty"`
	DeprecatedClusterSelector map[string]string `json:"clusterSelector,omitempty"`
}

// kvOverridePolicySpec is v1alpha1.OverridePolicySpec.
type kvOverridePolicySpec struct {
	Components []kvEnvComponentPatch `json:"components,omitempty"`
	Selector   []string              `json:"selector,omitempty"`
}

// kvEnvComponentPatch is v1alpha1.EnvComponentPatch.
type kvEnvComponentPatch struct {
	Name             string            `json:"name"`
	Type             string            `json:"type"`
	Properties       *kvRawExtension   `json:"properties,omitempty"`
	Traits           []kvEnvTraitPatch `json:"traits,omitempty"`
	ExternalRevision string            `json:"externalRevision,omitempty"`
}

// kvEnvTraitPatch is v1alpha1.EnvTraitPatch.
type kvEnvTraitPatch struct {
	Type       string          `json:"type"`
	Properties *kvRawExtension `json:"properties,omitempty"`
	Disable    bool            `json:"disable,omitempty"`
}

// kvRawExtension is runtime.RawExtension: any JSON value but null.
type kvRawExtension struct{ raw json.RawMessage }

// UnmarshalJSON keeps the value, as RawExtension does.
func (r *kvRawExtension) UnmarshalJSON(in []byte) error {
	if !bytes.Equal(in, []byte("null")) {
		r.raw = append(r.raw[:0], in...)
	}
	return nil
}

// kvReplicationPolicySpec is v1alpha1.ReplicationPolicySpec.
type kvReplicationPolicySpec struct {
	Keys     []string `json:"keys,omitempty"`
	Selector []string `json:"selector,omitempty"`
}

// kvEnvBindingSpec is v1alpha1.EnvBindingSpec (the env-binding policy).
type kvEnvBindingSpec struct {
	Envs []kvEnvConfig `json:"envs"`
}

// kvEnvConfig is v1alpha1.EnvConfig.
type kvEnvConfig struct {
	Name      string         `json:"name"`
	Placement kvEnvPlacement `json:"placement,omitempty"`
	Selector  *kvEnvSelector `json:"selector,omitempty"`
	Patch     kvEnvPatch     `json:"patch,omitempty"`
}

// kvEnvPlacement is v1alpha1.EnvPlacement.
type kvEnvPlacement struct {
	ClusterSelector   *kvClusterSelector   `json:"clusterSelector,omitempty"`
	NamespaceSelector *kvNamespaceSelector `json:"namespaceSelector,omitempty"`
}

// kvClusterSelector is common.ClusterSelector.
type kvClusterSelector struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// kvNamespaceSelector is v1alpha1.NamespaceSelector.
type kvNamespaceSelector struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// kvEnvSelector is v1alpha1.EnvSelector.
type kvEnvSelector struct {
	Components []string `json:"components,omitempty"`
}

// kvEnvPatch is v1alpha1.EnvPatch.
type kvEnvPatch struct {
	Components []kvEnvComponentPatch `json:"components,omitempty"`
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

// The resource policies KubeVela's resource keeper reads (pkg/resourcekeeper).

// kvApplyOncePolicySpec is v1alpha1.ApplyOncePolicySpec.
type kvApplyOncePolicySpec struct {
	Enable bool                    `json:"enable"`
	Rules  []kvApplyOncePolicyRule `json:"rules,omitempty"`
}

// kvApplyOncePolicyRule is v1alpha1.ApplyOncePolicyRule.
type kvApplyOncePolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector,omitempty"`
	Strategy *kvApplyOnceStrategy         `json:"strategy,omitempty"`
}

// kvApplyOnceStrategy is v1alpha1.ApplyOnceStrategy.
type kvApplyOnceStrategy struct {
	Path                    []string                  `json:"path"`
	ApplyOnceAffectStrategy kvApplyOnceAffectStrategy `json:"affect"`
}

// kvGarbageCollectPolicySpec is v1alpha1.GarbageCollectPolicySpec.
type kvGarbageCollectPolicySpec struct {
	ApplicationRevisionLimit *int                         `json:"applicationRevisionLimit,omitempty"`
	KeepLegacyResource       bool                         `json:"keepLegacyResource,omitempty"`
	ContinueOnFailure        bool                         `json:"continueOnFailure,omitempty"`
	Order                    kvGarbageCollectOrder        `json:"order,omitempty"`
	Rules                    []kvGarbageCollectPolicyRule `json:"rules,omitempty"`
}

// kvGarbageCollectPolicyRule is v1alpha1.GarbageCollectPolicyRule.
type kvGarbageCollectPolicyRule struct {
	Selector    kvResourcePolicyRuleSelector `json:"selector"`
	Strategy    kvGarbageCollectStrategy     `json:"strategy"`
	Propagation *kvGarbageCollectPropagation `json:"propagation"`
}

// kvSharedResourcePolicySpec is v1alpha1.SharedResourcePolicySpec.
type kvSharedResourcePolicySpec struct {
	Rules []kvSharedResourcePolicyRule `json:"rules"`
}

// kvSharedResourcePolicyRule is v1alpha1.SharedResourcePolicyRule.
type kvSharedResourcePolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
}

// kvTakeOverPolicySpec is v1alpha1.TakeOverPolicySpec.
type kvTakeOverPolicySpec struct {
	Rules []kvTakeOverPolicyRule `json:"rules"`
}

// kvTakeOverPolicyRule is v1alpha1.TakeOverPolicyRule.
type kvTakeOverPolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
}

// kvReadOnlyPolicySpec is v1alpha1.ReadOnlyPolicySpec.
type kvReadOnlyPolicySpec struct {
	Rules []kvReadOnlyPolicyRule `json:"rules"`
}

// kvReadOnlyPolicyRule is v1alpha1.ReadOnlyPolicyRule.
type kvReadOnlyPolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
}

// kvResourceUpdatePolicySpec is v1alpha1.ResourceUpdatePolicySpec.
type kvResourceUpdatePolicySpec struct {
	Rules []kvResourceUpdatePolicyRule `json:"rules"`
}

// kvResourceUpdatePolicyRule is v1alpha1.ResourceUpdatePolicyRule.
type kvResourceUpdatePolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
	Strategy kvResourceUpdateStrategy     `json:"strategy,omitempty"`
}

// kvResourceUpdateStrategy is v1alpha1.ResourceUpdateStrategy.
type kvResourceUpdateStrategy struct {
	Op             kvResourceUpdateOp `json:"op,omitempty"`
	RecreateFields []string           `json:"recreateFields,omitempty"`
}

// kvResourcePolicyRuleSelector is v1alpha1.ResourcePolicyRuleSelector.
type kvResourcePolicyRuleSelector struct {
	CompNames        []string `json:"componentNames,omitempty"`
	CompTypes        []string `json:"componentTypes,omitempty"`
	OAMResourceTypes []string `json:"oamTypes,omitempty"`
	TraitTypes       []string `json:"traitTypes,omitempty"`
	ResourceTypes    []string `json:"resourceTypes,omitempty"`
	ResourceNames    []string `json:"resourceNames,omitempty"`
}

type (
	kvApplyOnceAffectStrategy   string
	kvGarbageCollectOrder       string
	kvGarbageCollectStrategy    string
	kvGarbageCollectPropagation string
	kvResourceUpdateOp          string
)
