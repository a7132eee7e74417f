package schemas

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestValidateDefinition checks definitions against their CRDs' types
// and required fields.
func TestValidateDefinition(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"trait ok", "kind: TraitDefinition\nmetadata: {name: t}\nspec: {appliesToWorkloads: [deployments.apps], podDisruptive: true, schematic: {cue: {template: 'patch: {}'}}}\n", ""},
		{"appliesToWorkloads a string", "kind: TraitDefinition\nmetadata: {name: t}\nspec: {appliesToWorkloads: deployments.apps}\n",
			`d.yaml:4:28: TraitDefinition "t": spec.appliesToWorkloads must be a list`},
		{"podDisruptive a string", "kind: TraitDefinition\nmetadata: {name: t}\nspec: {podDisruptive: 'yes'}\n",
			`d.yaml:4:23: TraitDefinition "t": spec.podDisruptive must be a boolean`},
		{"cue without template", "kind: TraitDefinition\nmetadata: {name: t}\nspec: {schematic: {cue: {}}}\n",
			`d.yaml:4:25: TraitDefinition "t": spec.schematic.cue: missing required field "template"`},
		{"definitionRef without name", "kind: TraitDefinition\nmetadata: {name: t}\nspec: {definitionRef: {version: v1}}\n",
			`d.yaml:4:23: TraitDefinition "t": spec.definitionRef: missing required field "name"`},
		{"component without workload", "kind: ComponentDefinition\nmetadata: {name: c}\nspec: {schematic: {cue: {template: 'output: {}'}}}\n",
			`d.yaml:4:7: ComponentDefinition "c": spec: missing required field "workload"`},
		{"workload definition without kind", "kind: ComponentDefinition\nmetadata: {name: c}\nspec: {workload: {definition: {apiVersion: v1}}}\n",
			`d.yaml:4:31: ComponentDefinition "c": spec.workload.definition: missing required field "kind"`},
		{"priority a string", "kind: PolicyDefinition\nmetadata: {name: p}\nspec: {priority: high}\n",
			`d.yaml:4:18: PolicyDefinition "p": spec.priority must be an integer`},
		{"workflow step ok", "kind: WorkflowStepDefinition\nmetadata: {name: s}\nspec: {schematic: {cue: {template: 'x: 1'}}}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("d.yaml", []byte("apiVersion: core.oam.dev/v1beta1\n"+tt.doc), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := ValidateDefinition(objs[0]); err != nil {
				got = manifest.Format(err, nil)
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("error %v does not wrap ErrInvalid", err)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
