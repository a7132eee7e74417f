package schemas

import (
	"errors"
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
		{"missing type", "spec:\n  components:\n  - name: c\n", `app.yaml:7:5: application "a" component "c": spec.components[0]: missing required field "type"`},
		{"missing name", "spec:\n  components:\n  - type: t\n", `app.yaml:7:5: application "a": spec.components[0]: missing required field "name"`},
		{"type not a string", "spec:\n  components:\n  - name: c\n    type: [x]\n", `app.yaml:8:11: application "a" component "c": spec.components[0].type must be a string`},
		{"properties not a map", "spec:\n  components:\n  - name: c\n    type: t\n    properties: 3\n", `app.yaml:9:17: application "a" component "c": spec.components[0].properties must be a mapping`},
		{"trait without type", "spec:\n  components:\n  - name: c\n    type: t\n    traits:\n    - properties: {}\n", `app.yaml:10:7: application "a" component "c": spec.components[0].traits[0]: missing required field "type"`},
		{"trait properties not a map", "spec:\n  components:\n  - name: c\n    type: t\n    traits:\n    - {type: scaler, properties: [1]}\n", `app.yaml:10:34: application "a" component "c" trait "scaler": spec.components[0].traits[0].properties must be a mapping`},
		{"no components", "spec:\n  components: []\n", ""},
		{"spec not a map", "spec: [a]\n", `app.yaml:5:7: application "a": spec must be a mapping`},
		// The CRD does not require spec: KubeVela admits the Application.
		{"spec missing", "", ""},
		{"spec null", "spec: null\n", ""},
		{"components null", "spec:\n  components: ~\n", `app.yaml:6:15: application "a": spec: missing required field "components" (null counts as absent: the API server drops null fields)`},
		{"trait type null", "spec:\n  components: [{name: c, type: t, traits: [{type: null}]}]\n", `app.yaml:6:51: application "a" component "c": spec.components[0].traits[0]: missing required field "type" (null counts as absent: the API server drops null fields)`},
		{"label not a string", "  labels: {v: 1}\nspec:\n  components: []\n", `app.yaml:5:15: application "a": metadata.labels.v must be a string`},
		{"name not a string", "spec:\n  components: []\n", ""},
		{"null component", "spec:\n  components:\n  - null\n", `app.yaml:7:5: application "a": spec.components[0]: null item (want a mapping)`},
		{"null trait", "spec:\n  components:\n  - name: c\n    type: t\n    traits: [null]\n", `app.yaml:9:14: application "a" component "c": spec.components[0].traits[0]: null item (want a mapping)`},
		{"null policy", "spec:\n  components: []\n  policies: [{type: topology}, ~]\n", `app.yaml:7:32: application "a": spec.policies[1]: null item (want a mapping)`},
		{"policy properties not a map", "spec:\n  components: []\n  policies: [{name: p, type: topology, properties: x}]\n", `app.yaml:7:52: application "a": policy "p": spec.policies[0].properties must be a mapping`},
		{"null step", "spec:\n  components: []\n  workflow: {steps: [null]}\n", `app.yaml:7:22: application "a": spec.workflow.steps[0]: null item (want a mapping)`},
		{"null sub-step", "spec:\n  components: []\n  workflow: {steps: [{name: g, type: step-group, subSteps: [null]}]}\n", `app.yaml:7:61: application "a": step "g": spec.workflow.steps[0].subSteps[0]: null item (want a mapping)`},
		{"null input", "spec:\n  components: [{name: c, type: t, inputs: [null]}]\n", `app.yaml:6:44: application "a" component "c": spec.components[0].inputs[0]: null item (want a mapping)`},
		{"null output", "spec:\n  components: [{name: c, type: t, outputs: [null]}]\n", `app.yaml:6:45: application "a" component "c": spec.components[0].outputs[0]: null item (want a mapping)`},
		{"null dependsOn", "spec:\n  components: [{name: c, type: t, dependsOn: [null]}]\n", `app.yaml:6:47: application "a" component "c": spec.components[0].dependsOn[0]: null item (want a string)`},
		{"workflow ref not a string", "spec:\n  components: []\n  workflow: {ref: 5}\n", `app.yaml:7:19: application "a": spec.workflow.ref must be a string`},
		{"workflow mode not a string", "spec:\n  components: []\n  workflow: {mode: {steps: 5}}\n", `app.yaml:7:28: application "a": spec.workflow.mode.steps must be a string`},
		{"sub-step mode not a string", "spec:\n  components: []\n  workflow: {mode: {subSteps: [DAG]}}\n", `app.yaml:7:31: application "a": spec.workflow.mode.subSteps must be a string`},
		{"step alias not a string", "spec:\n  components: []\n  workflow: {steps: [{type: suspend, meta: {alias: 5}}]}\n", `app.yaml:7:52: application "a": spec.workflow.steps[0].meta.alias must be a string`},
		{"step timeout not a string", "spec:\n  components: []\n  workflow: {steps: [{name: s, type: suspend, timeout: 5}]}\n", `app.yaml:7:56: application "a": step "s": spec.workflow.steps[0].timeout must be a string`},
		{"group mode not a string", "spec:\n  components: []\n  workflow: {steps: [{type: step-group, mode: 5}]}\n", `app.yaml:7:47: application "a": spec.workflow.steps[0].mode must be a string`},
		{"sub-step alias not a string", "spec:\n  components: []\n  workflow: {steps: [{name: g, type: step-group, subSteps: [{name: s, type: suspend, meta: {alias: [x]}}]}]}\n", `app.yaml:7:100: application "a": step "s": spec.workflow.steps[0].subSteps[0].meta.alias must be a string`},
		{"scope not a string", "spec:\n  components: [{name: c, type: t, scopes: {health: 5}}]\n", `app.yaml:6:52: application "a" component "c": spec.components[0].scopes.health must be a string`},
		{"scopes ok", "spec:\n  components: [{name: c, type: t, scopes: {health: h}}]\n", ""},
		{"sub-step without type", "spec:\n  components: []\n  workflow:\n    steps:\n    - type: step-group\n      subSteps:\n      - name: x\n", `app.yaml:11:9: application "a": step "x": spec.workflow.steps[0].subSteps[0]: missing required field "type"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("app.yaml", []byte(head+tt.spec), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := ValidateApplication(objs[0]); err != nil {
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

// TestValidateApplicationUnnamed checks that an Application without a
// usable name is named by its kind.
func TestValidateApplicationUnnamed(t *testing.T) {
	objs, err := manifest.Decode("app.yaml", []byte("kind: Application\nmetadata: {name: 5}\nspec: {components: []}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "app.yaml:2:18: Application: metadata.name must be a string"
	if diff := cmp.Diff(want, manifest.Format(ValidateApplication(objs[0]), nil)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
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
		{"workflow step without type", "kind: Workflow\nmetadata: {name: w}\nsteps: [{name: s}]\n", `w.yaml:4:9: workflow "w": step "s": steps[0]: missing required field "type"`, ValidateWorkflow},
		{"workflow mode not a string", "kind: Workflow\nmetadata: {name: w}\nmode: {steps: 1}\n", `w.yaml:4:15: workflow "w": mode.steps must be a string`, ValidateWorkflow},
		{"workflow steps not a list", "kind: Workflow\nmetadata: {name: w}\nsteps: {a: b}\n", `w.yaml:4:8: workflow "w": steps must be a list`, ValidateWorkflow},
		{"policy ok", "kind: Policy\nmetadata: {name: p}\ntype: topology\nproperties: {clusters: [local]}\n", "", ValidatePolicy},
		{"policy without type", "kind: Policy\nmetadata: {name: p}\n", `w.yaml:1:1: policy "p": missing required field "type"`, ValidatePolicy},
		{"policy properties not a map", "kind: Policy\nmetadata: {name: p}\ntype: topology\nproperties: [local]\n", `w.yaml:5:13: policy "p": properties must be a mapping`, ValidatePolicy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("w.yaml", []byte("apiVersion: core.oam.dev/v1alpha1\n"+tt.doc), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := tt.validate(objs[0]); err != nil {
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
