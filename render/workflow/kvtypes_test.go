package workflow

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
		{"unknown field", map[string]any{"policies": []any{}, "foo": "bar"}, &kvDeployWorkflowStepSpec{}, true,
			`json: unknown field "foo"`, "foo"},
		{"unknown fields are fine loosely", map[string]any{"foo": "bar"}, &kvDeployWorkflowStepSpec{}, false, "", ""},
		{"pointer to int", map[string]any{"parallelism": "5"}, &kvDeployWorkflowStepSpec{}, true,
			"json: cannot unmarshal string into Go struct field DeployWorkflowStepSpec.parallelism of type int", "parallelism"},
		{"list item", map[string]any{"policies": []any{"a", int64(1)}}, &kvDeployWorkflowStepSpec{}, true,
			"json: cannot unmarshal number into Go struct field DeployWorkflowStepSpec.policies of type string", "policies[1]"},
		{"doubly embedded", map[string]any{"objects": []any{map[string]any{"kind": int64(1)}}}, &kvRefObjectsComponentSpec{}, true,
			"json: cannot unmarshal number into Go struct field ObjectReferrer.objects.ObjectTypeIdentifier.LegacyObjectTypeIdentifier.kind of type string", "objects[0].kind"},
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
