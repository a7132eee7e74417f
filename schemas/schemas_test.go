package schemas

import (
	"errors"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

func TestValidateApplication(t *testing.T) {
	head := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: a\n"
	tests := []struct {
		name, spec, want string
	}{
		{"ok", "spec:\n  components:\n  - name: c\n    type: webservice\n    traits:\n    - type: scaler\n", ""},
		{"missing type", "spec:\n  components:\n  - name: c\n", `app.yaml:7:5: schema violation: Application spec.components[0]: missing required field "type"`},
		{"type not a string", "spec:\n  components:\n  - name: c\n    type: [x]\n", "app.yaml:8:11: schema violation: Application spec.components[0].type must be a string"},
		{"properties not a map", "spec:\n  components:\n  - name: c\n    type: t\n    properties: 3\n", "app.yaml:9:17: schema violation: Application spec.components[0].properties must be a mapping"},
		{"trait without type", "spec:\n  components:\n  - name: c\n    type: t\n    traits:\n    - properties: {}\n", `missing required field "type"`},
		{"label not a string", "spec:\n  components: []\n", ""},
		{"null component", "spec:\n  components:\n  - null\n", "app.yaml:7:5: schema violation: Application spec.components[0]: null item (want a mapping)"},
		{"null trait", "spec:\n  components:\n  - name: c\n    type: t\n    traits: [null]\n", "app.yaml:9:14: schema violation: Application spec.components[0].traits[0]: null item (want a mapping)"},
		{"null policy", "spec:\n  components: []\n  policies: [{type: topology}, ~]\n", "spec.policies[1]: null item (want a mapping)"},
		{"null step", "spec:\n  components: []\n  workflow: {steps: [null]}\n", "spec.workflow.steps[0]: null item (want a mapping)"},
		{"null sub-step", "spec:\n  components: []\n  workflow: {steps: [{type: step-group, subSteps: [null]}]}\n", "spec.workflow.steps[0].subSteps[0]: null item (want a mapping)"},
		{"null input", "spec:\n  components: [{name: c, type: t, inputs: [null]}]\n", "spec.components[0].inputs[0]: null item (want a mapping)"},
		{"null output", "spec:\n  components: [{name: c, type: t, outputs: [null]}]\n", "spec.components[0].outputs[0]: null item (want a mapping)"},
		{"null dependsOn", "spec:\n  components: [{name: c, type: t, dependsOn: [null]}]\n", "spec.components[0].dependsOn[0]: null item (want a string)"},
		{"sub-step without type", "spec:\n  components: []\n  workflow:\n    steps:\n    - type: step-group\n      subSteps:\n      - name: x\n", `spec.workflow.steps[0].subSteps[0]: missing required field "type"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("app.yaml", []byte(head+tt.spec), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = ValidateApplication(objs[0])
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}
