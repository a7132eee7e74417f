package revision_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/revision"
)

func yamlDef(t *testing.T, doc string) *render.Definition {
	t.Helper()
	objs, err := manifest.Decode("def.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := render.DefinitionFromObject(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func defHash(t *testing.T, d *render.Definition) string {
	t.Helper()
	h, err := revision.DefinitionHash(d)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestDefinitionHash: a definition hashes as the cluster holds it: with
// the CRD's defaults of a Terraform schematic (deleteResource true,
// providerRef.namespace default), and for a `vela def` CUE file as the
// spec `vela def apply` writes (attributes, and the template printed by
// CUE's formatter); SpecHash, when set, is the hash.
func TestDefinitionHash(t *testing.T) {
	const head = "apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\nmetadata: {name: db}\nspec:\n  workload: {type: configurations.terraform.core.oam.dev}\n"
	defaulted := defHash(t, yamlDef(t, head+"  schematic: {terraform: {configuration: 'x', providerRef: {name: aws}}}\n"))
	explicit := defHash(t, yamlDef(t, head+"  schematic: {terraform: {configuration: 'x', deleteResource: true, providerRef: {name: aws, namespace: default}}}\n"))
	if defaulted != explicit {
		t.Errorf("CRD defaults: %s and %s, want one hash", defaulted, explicit)
	}
	kept := defHash(t, yamlDef(t, head+"  schematic: {terraform: {configuration: 'x', deleteResource: false}}\n"))
	if kept == defaulted {
		t.Errorf("deleteResource: false hashes as the default")
	}

	const cueFile = `import "strings"

web: {
	type: "component"
	attributes: workload: definition: {apiVersion: "apps/v1", kind: "Deployment"}
}
template: {
	output: {apiVersion: "apps/v1", kind: "Deployment", metadata: name: strings.ToLower(context.name)}
	parameter: {}
}
`
	ds, err := render.ParseCUEDefinitions("web.cue", []byte(cueFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"workload": map[string]any{"definition": map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}},
		"schematic": map[string]any{"cue": map[string]any{"template": "import \"strings\"\n" +
			"output: {apiVersion: \"apps/v1\", kind: \"Deployment\", metadata: name: strings.ToLower(context.name)}\nparameter: {}\n"}},
	}
	if diff := cmp.Diff(want, ds[0].Spec()); diff != "" {
		t.Errorf("vela def spec (-want +got):\n%s", diff)
	}
	asYAML := defHash(t, yamlDef(t, "apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\nmetadata: {name: web}\nspec:\n"+
		"  workload: {definition: {apiVersion: apps/v1, kind: Deployment}}\n  schematic:\n    cue:\n      template: |\n"+
		"        import \"strings\"\n        output: {apiVersion: \"apps/v1\", kind: \"Deployment\", metadata: name: strings.ToLower(context.name)}\n        parameter: {}\n"))
	if got := defHash(t, ds[0]); got != asYAML {
		t.Errorf("vela def file hashes %s, its YAML form %s", got, asYAML)
	}

	ds[0].SpecHash = "abc"
	if got := defHash(t, ds[0]); got != "abc" {
		t.Errorf("SpecHash set: hash %q, want it", got)
	}
	if _, err := revision.DefinitionHash(&render.Definition{Kind: "ScopeDefinition", Name: "s"}); err == nil || !strings.Contains(err.Error(), "not a definition kind") {
		t.Errorf("ScopeDefinition: error %v", err)
	}
}

// TestDefinitionHashKinds: each kind decodes into its own spec struct, so
// one spec hashes differently as a trait, a policy, a step and a
// workload definition.
func TestDefinitionHashKinds(t *testing.T) {
	seen := map[string]string{}
	for _, kind := range []string{"TraitDefinition", "PolicyDefinition", "WorkflowStepDefinition", "WorkloadDefinition", "ComponentDefinition"} {
		doc := "apiVersion: core.oam.dev/v1beta1\nkind: " + kind + "\nmetadata: {name: x}\nspec:\n  definitionRef: {name: x.example.com}\n"
		if kind == "ComponentDefinition" {
			doc += "  workload: {type: autodetects.core.oam.dev}\n"
		} else if kind != "WorkloadDefinition" {
			doc = "apiVersion: core.oam.dev/v1beta1\nkind: " + kind + "\nmetadata: {name: x}\nspec:\n  schematic: {cue: {template: 'parameter: {}'}}\n"
		}
		h := defHash(t, yamlDef(t, doc))
		if other, ok := seen[h]; ok {
			t.Errorf("%s and %s hash the same", kind, other)
		}
		seen[h] = kind
	}
}
