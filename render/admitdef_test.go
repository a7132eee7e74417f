package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// yamlDef is a definition object of kind and name with spec (a flow
// mapping) and a template (indented under schematic.cue.template: |).
func yamlDef(kind, name, spec string, template ...string) string {
	doc := "apiVersion: core.oam.dev/v1beta1\nkind: " + kind + "\nmetadata: {name: " + name + "}\nspec:\n"
	if spec != "" {
		doc += "  " + spec + "\n"
	}
	if len(template) > 0 {
		doc += "  schematic:\n    cue:\n      template: |\n        " + strings.Join(template, "\n        ") + "\n"
	}
	return doc
}

const workload = "workload: {type: autodetects.core.oam.dev}"

// TestAdmitDefinition: what the API server and KubeVela's definition
// webhooks refuse when a definition is applied, used or not.
func TestAdmitDefinition(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"component ok", yamlDef(KindComponent, "c", workload, `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name}`, `parameter: {}`), ""},
		{"component without workload type or definition", yamlDef(KindComponent, "c", "workload: {}", `output: {}`),
			`d.yaml:5:13: ComponentDefinition "c": definition denied: neither the type nor the definition of the workload field in the ComponentDefinition c can be empty`},
		{"syntax error", yamlDef(KindComponent, "c", workload, `output: {`),
			`d.yaml:9:19: ComponentDefinition "c": definition denied: template: expected '}', found 'EOF'`},
		{"type error", yamlDef(KindComponent, "c", workload, `output: {apiVersion: "v1", kind: "ConfigMap", data: v: 1 + "s"}`),
			`d.yaml:9:64: ComponentDefinition "c": definition denied: template: output.data.v: invalid operands 1 and "s" to '+' (type int and string)`},
		{"structural cycle", yamlDef(KindComponent, "c", workload, `output: {apiVersion: "v1", kind: "ConfigMap"}`, `a: b: a`),
			`d.yaml:10:12: ComponentDefinition "c": definition denied: template: a.b: structural cycle`},
		{"import not found", yamlDef(KindComponent, "c", workload, `import "example.com/nope"`, `output: {data: x: nope.X}`),
			`d.yaml:9:16: ComponentDefinition "c": definition denied: template: import "example.com/nope": package not found (a template may import CUE's standard library)`},
		{"list arithmetic is upgraded", yamlDef(KindTrait, "t", "", `patch: spec: args: parameter.a + ["x"]`, `parameter: a: [...string]`), ""},
		// The upgrade makes templating.list: list.Concat(...), whose `list`
		// is the field itself (kubevela/catalog's grafana-dashboard trait):
		// admission judges the authored template, as the shared addon
		// corpus expects.
		{"an upgrade shadowing the list import is admitted", yamlDef(KindTrait, "t", "", `a: [1]`, `b: [2]`, `patch: templating: list: a + b`), ""},
		{"vela packages are not judged", yamlDef(KindTrait, "t", "", `import "vela/op"`, `patch: {}`), ""},
		{"trait without template or definitionRef", yamlDef(KindTrait, "t", "podDisruptive: true"),
			`d.yaml:5:3: TraitDefinition "t": definition denied: if definition reference is omitted, patch or output with GVK is required`},
		{"trait with definitionRef", yamlDef(KindTrait, "t", "definitionRef: {name: foos.example.com}"), ""},
		{"trait named badly", yamlDef(KindTrait, "Bad_Trait", "", `patch: {}`),
			`d.yaml:3:18: TraitDefinition "Bad_Trait": metadata.name: Invalid value: "Bad_Trait": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"appliesToWorkloads not a list", yamlDef(KindTrait, "t", "appliesToWorkloads: deployments.apps", `patch: {}`),
			`d.yaml:5:23: TraitDefinition "t": spec.appliesToWorkloads must be a list`},
		{"policy without a CUE schematic", yamlDef(KindPolicy, "p", "priority: 1"),
			`d.yaml:5:3: PolicyDefinition "p": definition denied: invalid PolicyDefinition: [policy must have a CUE schematic]`},
		{"bad version", yamlDef(KindPolicy, "p", "version: v1", `parameter: {}`),
			`d.yaml:5:12: PolicyDefinition "p": definition denied: Not a valid version`},
		// KubeVela v1.9 removed schematic.kube; v1.11's CRD has no such field.
		{"kube schematic", yamlDef(KindComponent, "c", "workload: {definition: {apiVersion: apps/v1, kind: Deployment}}\n  schematic:\n    kube: {template: {apiVersion: apps/v1, kind: Deployment}}"),
			`d.yaml:7:11: ComponentDefinition "c": strict decoding error: unknown field "spec.schematic.kube" (KubeVela removed the kube schematic in v1.9; use a CUE template)`},
		{"workflow step templates are not validated", yamlDef(KindWorkflowStep, "s", "", `x: {`), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("d.yaml", []byte(tt.doc), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			d, err := DefinitionFromObject(objs[0])
			if err == nil {
				err = AdmitDefinition(d)
				if err != nil && !errors.Is(err, ErrDefinitionDenied) {
					t.Errorf("error %v does not wrap ErrDefinitionDenied", err)
				}
			}
			got := ""
			if err != nil {
				got = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAdmitCUEDefinition: a `vela def` file becomes an object named after
// its field and with its attributes as spec.
func TestAdmitCUEDefinition(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"ok", "box: {\n\ttype: \"component\"\n\tattributes: workload: type: \"autodetects.core.oam.dev\"\n}\ntemplate: {\n\toutput: {}\n}\n", ""},
		{"unknown type", "box: {\n\ttype: \"widget\"\n}\ntemplate: {\n\toutput: {}\n}\n",
			`box.cue:2:2: definition "box": unknown type "widget" (want component, trait, policy or workflow-step)`},
		{"name not a DNS-1123 subdomain", "\"Bad_Trait\": {\n\ttype: \"trait\"\n}\ntemplate: {\n\tpatch: {}\n}\n",
			`box.cue:1:1: TraitDefinition "Bad_Trait": metadata.name: Invalid value: "Bad_Trait": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"component without workload", "box: {\n\ttype: \"component\"\n}\ntemplate: {\n\toutput: {}\n}\n",
			`box.cue:1:1: ComponentDefinition "box": spec.workload: Required value (vela def makes the spec of the attributes: give attributes.workload)`},
		// vela def's FromCUE decodes the attributes strictly into the
		// kind's spec type (validateSpec, utils.StrictUnmarshal).
		{"trait with attributes.workload", "box: {\n\ttype: \"trait\"\n\tattributes: {\n\t\tworkload: type: \"deployments.apps\"\n\t}\n}\ntemplate: {\n\tpatch: {}\n}\n",
			`box.cue:4:3: TraitDefinition "box": invalid definition spec: json: unknown field "workload"`},
		{"attribute of the wrong type", "box: {\n\ttype: \"trait\"\n\tattributes: podDisruptive: \"yes\"\n}\ntemplate: {\n\tpatch: {}\n}\n",
			`box.cue:3:14: TraitDefinition "box": invalid definition spec: json: cannot unmarshal string into Go struct field TraitDefinitionSpec.podDisruptive of type bool`},
		{"nested attribute of the wrong type", "box: {\n\ttype: \"component\"\n\tattributes: workload: definition: kind: 5\n}\ntemplate: {\n\toutput: {}\n}\n",
			`box.cue:3:36: ComponentDefinition "box": invalid definition spec: json: cannot unmarshal number into Go struct field WorkloadGVK.workload.definition.kind of type string`},
		{"policy attributes", "box: {\n\ttype: \"policy\"\n\tattributes: {priority: 2, global: true, scope: \"Application\"}\n}\ntemplate: {\n\tparameter: {}\n}\n", ""},
		{"step attributes", "box: {\n\ttype: \"workflow-step\"\n\tattributes: stage: \"x\"\n}\ntemplate: {\n\tparameter: {}\n}\n",
			`box.cue:3:14: WorkflowStepDefinition "box": invalid definition spec: json: unknown field "stage"`},
		{"template structural cycle", "box: {\n\ttype: \"trait\"\n}\ntemplate: {\n\tpatch: {}\n\ta: b: a\n}\n",
			`box.cue:6:5: TraitDefinition "box": definition denied: template: a.b: structural cycle`},
		{"template type error", "box: {\n\ttype: \"trait\"\n}\ntemplate: {\n\tpatch: x: 1 + \"s\"\n}\n",
			`box.cue:5:12: TraitDefinition "box": definition denied: template: patch.x: invalid operands 1 and "s" to '+' (type int and string)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := ParseCUEDefinitions("box.cue", []byte(tt.src))
			if err == nil {
				err = AdmitDefinition(ds[0])
			}
			got := ""
			if err != nil {
				got = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
