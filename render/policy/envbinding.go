package policy

import "github.com/drydock-dev/drydock/overrides/kubevela"

// The env-binding policy, which topology and override policies replaced:
// KubeVela still generates a deploy2env step per env (render/workflow),
// which drydock does not emulate.

// EnvBindingSpec is KubeVela's v1alpha1.EnvBindingSpec (the env-binding policy).
type EnvBindingSpec struct {
	Envs []EnvConfig `json:"envs"`
}

// EnvConfig is KubeVela's v1alpha1.EnvConfig.
type EnvConfig struct {
	Name      string       `json:"name"`
	Placement EnvPlacement `json:"placement,omitempty"`
	Selector  *EnvSelector `json:"selector,omitempty"`
	Patch     EnvPatch     `json:"patch,omitempty"`
}

// EnvPlacement is KubeVela's v1alpha1.EnvPlacement.
type EnvPlacement struct {
	ClusterSelector   *ClusterSelector   `json:"clusterSelector,omitempty"`
	NamespaceSelector *NamespaceSelector `json:"namespaceSelector,omitempty"`
}

// ClusterSelector is KubeVela's common.ClusterSelector.
type ClusterSelector struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// NamespaceSelector is KubeVela's v1alpha1.NamespaceSelector.
type NamespaceSelector struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// EnvSelector is KubeVela's v1alpha1.EnvSelector.
type EnvSelector struct {
	Components []string `json:"components,omitempty"`
}

// EnvPatch is KubeVela's v1alpha1.EnvPatch: an override policy's
// component patches (overrides/kubevela), per env.
type EnvPatch struct {
	Components []kubevela.EnvComponentPatch `json:"components,omitempty"`
}
