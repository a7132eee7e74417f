package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
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
				got, path = manifest.Format(err, nil), render.ErrorPath(tt.props, err).String()
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
