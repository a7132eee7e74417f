package kubevela

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// TestDecodeWording decodes properties into the mirrors of KubeVela's
// structs and expects encoding/json's words with KubeVela's type names
// (v1alpha1, not this package's), and the path of the offending value.
func TestDecodeWording(t *testing.T) {
	tests := []struct {
		name     string
		props    map[string]any
		strict   bool
		want     string
		wantPath string
	}{
		{"nested list", map[string]any{"components": []any{map[string]any{"name": "web", "traits": map[string]any{}}}}, false,
			"json: cannot unmarshal object into Go struct field EnvComponentPatch.components.traits of type []v1alpha1.EnvTraitPatch", "components[0].traits"},
		{"list of structs", map[string]any{"components": "web"}, false,
			"json: cannot unmarshal string into Go struct field OverridePolicySpec.components of type []v1alpha1.EnvComponentPatch", "components"},
		{"any properties", map[string]any{"components": []any{map[string]any{"properties": "x"}}}, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decode := render.DecodeLoose
			if tt.strict {
				decode = render.DecodeStrict
			}
			got, path := "", ""
			if err := decode(tt.props, &OverridePolicySpec{}); err != nil {
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
