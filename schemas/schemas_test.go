package schemas

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
		{"workflow ref not a string", "spec:\n  components: []\n  workflow: {ref: 5}\n", "app.yaml:7:19: schema violation: Application spec.workflow.ref must be a string"},
		{"workflow mode not a string", "spec:\n  components: []\n  workflow: {mode: {steps: 5}}\n", "app.yaml:7:28: schema violation: Application spec.workflow.mode.steps must be a string"},
		{"sub-step mode not a string", "spec:\n  components: []\n  workflow: {mode: {subSteps: [DAG]}}\n", "schema violation: Application spec.workflow.mode.subSteps must be a string"},
		{"step alias not a string", "spec:\n  components: []\n  workflow: {steps: [{type: suspend, meta: {alias: 5}}]}\n", "app.yaml:7:52: schema violation: Application spec.workflow.steps[0].meta.alias must be a string"},
		{"group mode not a string", "spec:\n  components: []\n  workflow: {steps: [{type: step-group, mode: 5}]}\n", "app.yaml:7:47: schema violation: Application spec.workflow.steps[0].mode must be a string"},
		{"sub-step alias not a string", "spec:\n  components: []\n  workflow: {steps: [{type: step-group, subSteps: [{type: suspend, meta: {alias: [x]}}]}]}\n", "spec.workflow.steps[0].subSteps[0].meta.alias must be a string"},
		{"scope not a string", "spec:\n  components: [{name: c, type: t, scopes: {health: 5}}]\n", "app.yaml:6:52: schema violation: Application spec.components[0].scopes.health must be a string"},
		{"scopes ok", "spec:\n  components: [{name: c, type: t, scopes: {health: h}}]\n", ""},
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

// TestValidateWorkflowAndPolicy checks the core.oam.dev/v1alpha1 Workflow
// and Policy objects an Application may refer to.
func TestValidateWorkflowAndPolicy(t *testing.T) {
	tests := []struct {
		name, doc, want string
		validate        func(*manifest.Object) error
	}{
		{"workflow ok", "kind: Workflow\nmetadata: {name: w}\nmode: {steps: DAG}\nsteps: [{name: s, type: suspend}]\n", "", ValidateWorkflow},
		{"workflow step without type", "kind: Workflow\nmetadata: {name: w}\nsteps: [{name: s}]\n", `w.yaml:4:9: schema violation: Workflow steps[0]: missing required field "type"`, ValidateWorkflow},
		{"workflow mode not a string", "kind: Workflow\nmetadata: {name: w}\nmode: {steps: 1}\n", "w.yaml:4:15: schema violation: Workflow mode.steps must be a string", ValidateWorkflow},
		{"workflow steps not a list", "kind: Workflow\nmetadata: {name: w}\nsteps: {a: b}\n", "w.yaml:4:8: schema violation: Workflow steps must be a list", ValidateWorkflow},
		{"policy ok", "kind: Policy\nmetadata: {name: p}\ntype: topology\nproperties: {clusters: [local]}\n", "", ValidatePolicy},
		{"policy without type", "kind: Policy\nmetadata: {name: p}\n", `w.yaml:1:1: schema violation: Policy object: missing required field "type"`, ValidatePolicy},
		{"policy properties not a map", "kind: Policy\nmetadata: {name: p}\ntype: topology\nproperties: [local]\n", "w.yaml:5:13: schema violation: Policy properties must be a mapping", ValidatePolicy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("w.yaml", []byte("apiVersion: core.oam.dev/v1alpha1\n"+tt.doc), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := tt.validate(objs[0]); err != nil {
				got = err.Error()
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
