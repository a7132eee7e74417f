package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// traitDef is a TraitDefinition t whose patch sets spec.replicas from
// parameter.n.
const traitDef = "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: t}\nspec:\n  schematic:\n    cue:\n      template: |\n" +
	"        patch: spec: replicas: parameter.n\n        parameter: n: int\n---\n"

// TestIncomplete: an object left incomplete names the trait or
// component definition that left it so, and the required parameter the
// properties do not give, at the properties.
func TestIncomplete(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"trait parameter not given", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - name: web\n    type: webservice\n    properties: {image: nginx}\n    traits:\n    - type: sidecar\n      properties: {name: log}\n",
			`app.yaml:11:19: application "a" component "web" trait "sidecar": properties.image is required and not given (parameter.image: incomplete value string), which leaves output.spec.template.spec.containers.1.image incomplete`},
		{"list item parameter not given", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - name: web\n    type: webservice\n    properties:\n      image: nginx\n      volumeMounts:\n        pvc:\n        - {name: a, mountPath: /a, claimName: ca}\n        - {name: b, mountPath: /b}\n",
			`app.yaml:13:11: application "a" component "web": properties.volumeMounts.pvc[1].claimName is required and not given (parameter.volumeMounts.pvc.1.claimName: incomplete value string), which leaves output.spec.template.spec.volumes.1.persistentVolumeClaim.claimName incomplete`},
		{"component parameter not given", "apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\nmetadata: {name: box}\nspec:\n  workload: {type: autodetects.core.oam.dev}\n  schematic:\n    cue:\n      template: |\n" +
			"        output: {apiVersion: \"v1\", kind: \"ConfigMap\", data: x: parameter.missing}\n        parameter: {image: string, missing: string}\n---\n" +
			"apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: api, type: box, properties: {image: nginx}}]\n",
			`app.yaml:16:51: application "a" component "api": properties.missing is required and not given (parameter.missing: incomplete value string), which leaves output.data.x incomplete`},
		{"YAML 1.1 boolean key", traitDef + "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx}, traits: [{type: t, properties: {n: 1}}]}\n",
			`app.yaml:16:98: application "a" component "web" trait "t": properties.n is required and not given (parameter.n: incomplete value int), which leaves output.spec.replicas incomplete; the properties have the key "false" instead: YAML 1.1 reads an unquoted n as false (quote the key: "n")`},
		{"quoted key", traitDef + "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx}, traits: [{type: t, properties: {\"n\": 1}}]}\n", ""},
		{"trait without properties", traitDef + "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx}, traits: [{type: t}]}\n",
			`app.yaml:16:72: application "a" component "web" trait "t": properties.n is required and not given (parameter.n: incomplete value int), which leaves output.spec.replicas incomplete`},
		{"trait output parameter not given", "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: o}\nspec:\n  schematic:\n    cue:\n      template: |\n" +
			"        outputs: cm: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: parameter.cm}\n        parameter: cm: string\n---\n" +
			"apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx}, traits: [{type: o, properties: {}}]}\n",
			`app.yaml:16:94: application "a" component "web" trait "o": properties.cm is required and not given (parameter.cm: incomplete value string), which leaves outputs.cm.metadata.name incomplete`},
		{"incomplete without a parameter", "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: r}\nspec:\n  schematic:\n    cue:\n      template: |\n" +
			"        patch: spec: replicas: int\n---\n" +
			"apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx}, traits: [{type: r}]}\n",
			`app.yaml:15:72: application "a" component "web" trait "r": output: spec.replicas: incomplete value int`},
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
