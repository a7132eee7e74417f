package addon

import (
	"errors"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestCUEDefinition checks the conversion of definitions/*.cue as
// KubeVela's Definition.FromCUEString and FromCUE do (pkg/definition),
// then RenderDefinitions (namespace vela-system): the one top-level label
// names the definition, `type` gives the kind, `alias` and `description`
// become annotations, user annotations and labels not mentioning oam.dev
// get the custom.definition.oam.dev/ prefix, `attributes` become the
// spec, and spec.schematic.cue.template is the imports then the template
// body, formatted with format.Simplify.
func TestCUEDefinition(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want map[string]any
	}{
		{
			name: "trait with everything",
			src: `import (
	"strings"
)

scaler: {
	type:        "trait"
	alias:       "sc"
	description: "Scales"
	annotations: {
		"note":              "n"
		"example.oam.dev/x": "kept"
	}
	labels: {
		"ui-hidden":         "true"
		"custom.oam.dev/ok": "v"
	}
	attributes: {
		podDisruptive: false
		appliesToWorkloads: ["deployments.apps"]
		status: healthPolicy: "isHealth: true"
	}
}

template: {
	"patch": spec: replicas: parameter.replicas
	parameter: {
		replicas: *1 | int
		name:     strings.ToLower("X")
	}
}
`,
			want: map[string]any{
				"apiVersion": "core.oam.dev/v1beta1",
				"kind":       "TraitDefinition",
				"metadata": map[string]any{
					"name":      "scaler",
					"namespace": "vela-system",
					"annotations": map[string]any{
						"definition.oam.dev/alias":       "sc",
						"definition.oam.dev/description": "Scales",
						"custom.definition.oam.dev/note": "n",
						"example.oam.dev/x":              "kept",
					},
					"labels": map[string]any{
						"custom.definition.oam.dev/ui-hidden": "true",
						"custom.oam.dev/ok":                   "v",
					},
				},
				"spec": map[string]any{
					"podDisruptive":      false,
					"appliesToWorkloads": []any{"deployments.apps"},
					"status":             map[string]any{"healthPolicy": "isHealth: true"},
					"schematic": map[string]any{"cue": map[string]any{
						"template": "import (\n\t\"strings\"\n)\n" +
							"patch: spec: replicas: parameter.replicas\nparameter: {\n\treplicas: *1 | int\n\tname:     strings.ToLower(\"X\")\n}\n",
					}},
				},
			},
		},
		{
			// only the fields present: no alias annotation, empty labels
			name: "bare component",
			src:  "web: {\n\ttype: \"component\"\n\tdescription: \"\"\n}\ntemplate: {\n\toutput: {}\n\tparameter: {}\n}\n",
			want: map[string]any{
				"apiVersion": "core.oam.dev/v1beta1",
				"kind":       "ComponentDefinition",
				"metadata": map[string]any{
					"name": "web", "namespace": "vela-system",
					"annotations": map[string]any{"definition.oam.dev/description": ""},
					"labels":      map[string]any{},
				},
				"spec": map[string]any{"schematic": map[string]any{"cue": map[string]any{"template": "output: {}\nparameter: {}\n"}}},
			},
		},
		{
			// the template in attributes is replaced by the file's
			name: "workflow step with a schematic attribute",
			src:  "\"step-x\": {\n\ttype: \"workflow-step\"\n\tattributes: schematic: cue: template: \"old\"\n}\ntemplate: {\n\tparameter: {}\n}\n",
			want: map[string]any{
				"apiVersion": "core.oam.dev/v1beta1",
				"kind":       "WorkflowStepDefinition",
				"metadata": map[string]any{
					"name": "step-x", "namespace": "vela-system",
					"annotations": map[string]any{}, "labels": map[string]any{},
				},
				"spec": map[string]any{"schematic": map[string]any{"cue": map[string]any{"template": "parameter: {}\n"}}},
			},
		},
		{
			name: "policy with definitionRef",
			src:  "p: {\n\ttype: \"policy\"\n\tattributes: {manageHealthCheck: true, definitionRef: name: \"x\"}\n}\ntemplate: {\n\tparameter: {}\n}\n",
			want: map[string]any{
				"apiVersion": "core.oam.dev/v1beta1",
				"kind":       "PolicyDefinition",
				"metadata": map[string]any{
					"name": "p", "namespace": "vela-system",
					"annotations": map[string]any{}, "labels": map[string]any{},
				},
				"spec": map[string]any{
					"manageHealthCheck": true,
					"definitionRef":     map[string]any{"name": "x"},
					"schematic":         map[string]any{"cue": map[string]any{"template": "parameter: {}\n"}},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRender(t, withMeta(map[string]string{"definitions/d.cue": tt.src}), Options{})
			if diff := cmp.Diff(tt.want, res.Objects[1].Data); diff != "" {
				t.Errorf("definition (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCUEDefinitionErrors checks what FromCUEString, FromCUE and
// validateSpec (a strict unmarshal into the typed spec) refuse.
func TestCUEDefinitionErrors(t *testing.T) {
	const tmpl = "template: {\n\tparameter: {}\n}\n"
	tests := []struct {
		name, src, want string
	}{
		{
			name: "syntax error",
			src:  "x: {\n",
			want: "definitions/d.cue:1:6: addon demo: expected '}', found 'EOF'",
		},
		{
			name: "no metadata",
			src:  tmpl,
			want: "definitions/d.cue: addon demo: no definition metadata found",
		},
		{
			name: "no template",
			src:  "x: {type: \"trait\"}\n",
			want: "definitions/d.cue: addon demo: no template found",
		},
		{
			name: "empty template",
			src:  "x: {type: \"trait\"}\ntemplate: {}\n",
			want: "definitions/d.cue: addon demo: no template found",
		},
		{
			name: "template not a struct",
			src:  "x: {type: \"trait\"}\ntemplate: 5\n",
			want: "definitions/d.cue:2:1: addon demo: template must be a struct",
		},
		{
			name: "interpolated label",
			src:  "n: \"x\"\n\"\\(n)\": {type: \"trait\"}\n" + tmpl,
			want: "definitions/d.cue:2:1: addon demo: found unexpected declaration when parsing the definition",
		},
		{
			name: "two definitions",
			src:  "a: {type: \"trait\"}\nb: {type: \"trait\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: duplicated definition name found, a and b",
		},
		{
			name: "unknown type",
			src:  "a: {type: \"gadget\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition type gadget",
		},
		{
			// no type leaves the object without a kind, which
			// passDefInAppAnnotation cannot file
			name: "no type",
			src:  "a: {alias: \"x\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: cannot handle definition types , name a",
		},
		{
			name: "type not a string",
			src:  "a: {type: 1}\n" + tmpl,
			want: "definitions/d.cue:1:11: addon demo: definition type: a.type: cannot use value 1 (type int) as string",
		},
		{
			name: "alias not a string",
			src:  "a: {type: \"trait\", alias: true}\n" + tmpl,
			want: "definitions/d.cue:1:27: addon demo: definition alias: a.alias: cannot use value true (type bool) as string",
		},
		{
			name: "metadata conflict",
			src:  "a: {type: \"trait\"}\na: {type: \"policy\"}\n" + tmpl,
			want: `definitions/d.cue:1:11: addon demo: definition: a.type: conflicting values "policy" and "trait"`,
		},
		{
			name: "annotation not a string",
			src:  "a: {type: \"trait\", annotations: {x: 1}}\n" + tmpl,
			want: "definitions/d.cue: addon demo: definition annotations and labels must be strings: json: cannot unmarshal number into Go value of type string",
		},
		{
			name: "attributes not a struct",
			src:  "a: {type: \"trait\", attributes: [1]}\n" + tmpl,
			want: "definitions/d.cue: addon demo: definition attributes must be a struct",
		},
		{
			name: "attribute of the wrong type",
			src:  "a: {type: \"trait\", attributes: podDisruptive: \"yes\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition spec: spec.podDisruptive: cannot unmarshal string into a bool",
		},
		{
			name: "list attribute not a list",
			src:  "a: {type: \"trait\", attributes: appliesToWorkloads: \"deployments.apps\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition spec: spec.appliesToWorkloads: cannot unmarshal string into a list",
		},
		{
			name: "list item of the wrong type",
			src:  "a: {type: \"trait\", attributes: conflictsWith: [\"x\", 1]}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition spec: spec.conflictsWith[1]: cannot unmarshal number into a string",
		},
		{
			name: "object attribute not an object",
			src:  "a: {type: \"component\", attributes: workload: \"deployments\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition spec: spec.workload: cannot unmarshal string into a object",
		},
		{
			name: "selector not a string map",
			src:  "a: {type: \"component\", attributes: childResourceKinds: [{apiVersion: \"v1\", kind: \"Service\", selector: [1]}]}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition spec: spec.childResourceKinds[0].selector: cannot unmarshal array into a map of strings",
		},
		{
			name: "selector value not a string",
			src:  "a: {type: \"component\", attributes: childResourceKinds: [{selector: {app: 1}}]}\n" + tmpl,
			want: "definitions/d.cue: addon demo: invalid definition spec: spec.childResourceKinds[0].selector.app: cannot unmarshal number into a string",
		},
		{
			name: "schematic not an object",
			src:  "a: {type: \"trait\", attributes: schematic: \"cue\"}\n" + tmpl,
			want: "definitions/d.cue: addon demo: spec.schematic is not a map",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(addonFS(withMeta(map[string]string{"definitions/d.cue": tt.src})), Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCUEDefinitionCaseInsensitiveFields: encoding/json, behind
// KubeVela's strict unmarshal, matches spec fields case-insensitively.
func TestCUEDefinitionCaseInsensitiveFields(t *testing.T) {
	src := "a: {type: \"trait\", attributes: PodDisruptive: true}\ntemplate: {\n\tparameter: {}\n}\n"
	res := mustRender(t, withMeta(map[string]string{"definitions/d.cue": src}), Options{})
	spec, _ := res.Objects[1].Data["spec"].(map[string]any)
	if diff := cmp.Diff(true, spec["PodDisruptive"]); diff != "" {
		t.Errorf("spec.PodDisruptive (-want +got):\n%s", diff)
	}
}

// TestYAMLDefinitionNamespace: RenderDefinitions forces vela-system on
// YAML definitions, adding metadata when it is missing.
func TestYAMLDefinitionNamespace(t *testing.T) {
	res := mustRender(t, withMeta(map[string]string{
		"definitions/a.yml": "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\n",
	}), Options{})
	want := map[string]any{"apiVersion": "core.oam.dev/v1beta1", "kind": "TraitDefinition", "metadata": map[string]any{"namespace": "vela-system"}}
	if diff := cmp.Diff(want, res.Objects[1].Data); diff != "" {
		t.Errorf("definition (-want +got):\n%s", diff)
	}
}
