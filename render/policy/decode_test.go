package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
)

// TestDecodeWording decodes properties into the mirrors of KubeVela's
// structs and expects encoding/json's words with KubeVela's type names,
// and the path of the offending value.
func TestDecodeWording(t *testing.T) {
	tests := []struct {
		name     string
		props    map[string]any
		dst      any
		strict   bool
		want     string
		wantPath string
	}{
		{"embedded struct", map[string]any{"clusters": "local"}, &TopologyPolicySpec{}, true,
			"json: cannot unmarshal string into Go struct field TopologyPolicySpec.Placement.clusters of type []string", "clusters"},
		{"map value", map[string]any{"clusterLabelSelector": map[string]any{"a": "x", "b": int64(5)}}, &TopologyPolicySpec{}, true,
			"json: cannot unmarshal number into Go struct field TopologyPolicySpec.Placement.clusterLabelSelector of type string", "clusterLabelSelector.b"},
		{"nested list", map[string]any{"components": []any{map[string]any{"name": "web", "traits": map[string]any{}}}}, &OverridePolicySpec{}, false,
			"json: cannot unmarshal object into Go struct field EnvComponentPatch.components.traits of type []v1alpha1.EnvTraitPatch", "components[0].traits"},
		{"list of structs", map[string]any{"components": "web"}, &OverridePolicySpec{}, false,
			"json: cannot unmarshal string into Go struct field OverridePolicySpec.components of type []v1alpha1.EnvComponentPatch", "components"},
		{"any properties", map[string]any{"components": []any{map[string]any{"properties": "x"}}}, &OverridePolicySpec{}, true, "", ""},
		{"named string", map[string]any{"rules": []any{map[string]any{"strategy": int64(1)}}}, &GarbageCollectPolicySpec{}, false,
			"json: cannot unmarshal number into Go struct field GarbageCollectPolicyRule.rules.strategy of type v1alpha1.GarbageCollectStrategy", "rules[0].strategy"},
		{"common package", map[string]any{"envs": []any{map[string]any{"placement": map[string]any{"clusterSelector": "x"}}}}, &EnvBindingSpec{}, false,
			"json: cannot unmarshal string into Go struct field EnvPlacement.envs.placement.clusterSelector of type common.ClusterSelector", "envs[0].placement.clusterSelector"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decode := render.DecodeLoose
			if tt.strict {
				decode = render.DecodeStrict
			}
			got, path := "", ""
			if err := decode(tt.props, tt.dst); err != nil {
				got, path = err.Error(), render.ErrorPath(tt.props, err).String()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPath, path); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
		})
	}
}
