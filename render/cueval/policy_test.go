package cueval_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// policyDef is a PolicyDefinition mypol with the given template (indented
// under template: |), followed by an Application with a component web
// and a policy p of type mypol with the given properties.
func policyDef(properties string, template ...string) string {
	return "apiVersion: core.oam.dev/v1beta1\nkind: PolicyDefinition\nmetadata: {name: mypol}\nspec:\n  schematic:\n    cue:\n      template: |\n        " + strings.Join(template, "\n        ") + "\n---\n" +
		"apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" +
		"  components: [{name: web, type: webservice, properties: {image: nginx}}]\n" +
		"  policies: [{name: p, type: mypol, properties: " + properties + "}]\n"
}

// TestPolicyDefinitionErrors: errors in a policy rendered by its
// PolicyDefinition name the policy, not a component.
func TestPolicyDefinitionErrors(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"ok", policyDef("{x: 1}", `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "p", data: v: "\(parameter.x)"}`, `parameter: x: int`), ""},
		{"syntax error", policyDef("{x: 1}", `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "p" data: {}}`),
			`app.yaml:8:75: application "a": policy "p": missing ',' in struct literal; expected '}', found 'EOF'`},
		{"parameter conflict", policyDef("{x: one}", `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "p", data: v: "\(parameter.x)"}`, `parameter: x: int`),
			`app.yaml:16:53: application "a": policy "p": parameter.x: conflicting values "one" and int (mismatched types string and int) (template app.yaml:9:23)`},
		{"type error in output", policyDef("{x: 1}", `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "p", data: v: 1 + "s"}`),
			`app.yaml:8:85: application "a": policy "p": output.data.v: invalid operands 1 and "s" to '+' (type int and string)`},
		{"incomplete output", policyDef("{}", `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "p", data: v: parameter.x}`, `parameter: x: string`),
			`app.yaml:16:14: application "a": policy "p": output.data.v: incomplete value string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := renderDoc(t, tt.doc)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
