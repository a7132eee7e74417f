package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// tfDef is a ComponentDefinition tf with the terraform schematic s.
func tfDef(s *render.TerraformSchematic) *render.Definition {
	return &render.Definition{Kind: render.KindComponent, Name: "tf", Terraform: s}
}

// TestTerraformSchematic renders components of a terraform schematic as
// KubeVela's generateTerraformConfigurationWorkload does (pkg/appfile/
// appfile.go; its TestGenerateTerraformConfigurationWorkload's cases):
// the properties decode into terraform-controller's ConfigurationSpec,
// the schematic's references fill those the properties leave out (a
// connection secret without a namespace gets the application's), its
// module is spec.hcl or spec.remote and path (nothing for json), and the
// properties less writeConnectionSecretToRef, customRegion, providerRef,
// forceDelete and gitCredentialsSecretReference are spec.variable. The
// definition's annotations are the Configuration's.
func TestTerraformSchematic(t *testing.T) {
	hcl := &render.TerraformSchematic{Configuration: "abc", Type: "hcl", Annotations: map[string]any{"definition.oam.dev/description": "d"}}
	tests := []struct {
		name, props, traits string
		schematic           *render.TerraformSchematic
		want, wantErr       string
	}{
		{name: "valid hcl workload", schematic: hcl, props: "{acl: private, writeConnectionSecretToRef: {name: oss, namespace: default}}", want: `
apiVersion: terraform.core.oam.dev/v1beta2
kind: Configuration
metadata: {name: test, annotations: {definition.oam.dev/description: d}}
spec: {hcl: abc, gitRef: {}, variable: {acl: private}, writeConnectionSecretToRef: {name: oss, namespace: default}}
`},
		{name: "custom params over the definition's references", props: "{acl: private, writeConnectionSecretToRef: {name: oss2, namespace: default2}, providerRef: {name: aws2, namespace: default2}}",
			schematic: &render.TerraformSchematic{Configuration: "def", Type: "hcl",
				WriteConnectionSecretToRef: map[string]any{"name": "oss", "namespace": "default"}, ProviderRef: map[string]any{"name": "aws", "namespace": "default"}}, want: `
apiVersion: terraform.core.oam.dev/v1beta2
kind: Configuration
metadata: {name: test}
spec: {hcl: def, gitRef: {}, variable: {acl: private}, writeConnectionSecretToRef: {name: oss2, namespace: default2}, providerRef: {name: aws2, namespace: default2}}
`},
		{name: "the definition's references, a secret in the app's namespace", props: "{acl: private}",
			schematic: &render.TerraformSchematic{Configuration: "abc", Type: "hcl", WriteConnectionSecretToRef: map[string]any{"name": "oss"},
				ProviderRef: map[string]any{"name": "aws", "namespace": "default"}, GitCredentialsSecretRef: map[string]any{"name": "git"}}, want: `
apiVersion: terraform.core.oam.dev/v1beta2
kind: Configuration
metadata: {name: test}
spec: {hcl: abc, gitRef: {}, variable: {acl: private}, writeConnectionSecretToRef: {name: oss, namespace: default}, providerRef: {name: aws, namespace: default}, gitCredentialsSecretReference: {name: git}}
`},
		{name: "remote hcl workload", props: "{acl: private, customRegion: cn-hongkong, forceDelete: true, deleteResource: false, gitRef: {branch: main}, gitCredentialsSecretReference: {name: g}}",
			schematic: &render.TerraformSchematic{Configuration: "https://xxx/a.git", Type: "remote", Path: "m/eip"}, want: `
apiVersion: terraform.core.oam.dev/v1beta2
kind: Configuration
metadata: {name: test}
spec: {remote: "https://xxx/a.git", path: m/eip, gitRef: {branch: main}, customRegion: cn-hongkong, forceDelete: true, deleteResource: false,
  gitCredentialsSecretReference: {name: g}, variable: {acl: private, deleteResource: false, gitRef: {branch: main}}}
`},
		{name: "json sets no module", schematic: &render.TerraformSchematic{Configuration: "{}", Type: "json"}, props: "{n: 1}", want: `
apiVersion: terraform.core.oam.dev/v1beta2
kind: Configuration
metadata: {name: test}
spec: {gitRef: {}, variable: {n: 1}}
`},
		{name: "no properties", schematic: hcl, want: `
apiVersion: terraform.core.oam.dev/v1beta2
kind: Configuration
metadata: {name: test, annotations: {definition.oam.dev/description: d}}
spec: {hcl: abc, gitRef: {}, variable: null}
`},
		{name: "a patch trait", schematic: hcl, props: "{acl: private}", traits: `[{type: k8s-update-strategy, properties: {}}]`,
			wantErr: `app.yaml:9:14: application "myapp" component "test" trait "k8s-update-strategy": patch trait k8s-update-strategy into an invalid workload`},
		{name: "workload's TF configuration is empty", schematic: &render.TerraformSchematic{Type: "hcl", Category: true}, props: "{acl: private}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": failed to generate Terraform Configuration workload for workload test: terraform configuration is not set`},
		{name: "a property of the wrong type", schematic: hcl, props: "{customRegion: 1}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": failed to generate Terraform Configuration workload for workload test: failed to convert Terraform component properties: json: cannot unmarshal number into Go struct field ConfigurationSpec.customRegion of type string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := renderFirst(t, withDefs(t, tfDef(tt.schematic)), parseApp(t, appWith("tf", tt.props, tt.traits)), cueval.Placement{})
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(obj(t, tt.want), bare("test", m.Workload).Object); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestTerraformTraits: the traits of a Terraform component render their
// outputs with no context.output (KubeVela evaluates them before it
// makes the Configuration), and the Configuration carries the OAM
// contract's labels as any workload.
func TestTerraformTraits(t *testing.T) {
	trait := cueDef(t, "outputs-ctx", "trait", "", `outputs: cm: {
	apiVersion: "v1"
	kind: "ConfigMap"
	data: hasOutput: "\(context.output != _|_)"
}`)
	defs := withDefs(t, tfDef(&render.TerraformSchematic{Configuration: "abc", Type: "hcl"}), trait)
	m, err := renderFirst(t, defs, parseApp(t, appWith("tf", "{acl: private}", "[{type: outputs-ctx}]")), cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	want := []out{
		{Object: obj(t, "apiVersion: terraform.core.oam.dev/v1beta2\nkind: Configuration\nmetadata: {name: test}\nspec: {hcl: abc, gitRef: {}, variable: {acl: private}}\n")},
		{Trait: "outputs-ctx", Output: "cm", Object: obj(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: test-outputs-ctx-*}\ndata: {hasOutput: \"false\"}\n")},
	}
	if diff := cmp.Diff(want, bareAll(m)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	labels := m.Workload.Object["metadata"].(map[string]any)["labels"].(map[string]any)
	if labels["workload.oam.dev/type"] != "tf" || labels["app.oam.dev/component"] != "test" || labels["app.oam.dev/resourceType"] != "WORKLOAD" {
		t.Errorf("labels = %v", labels)
	}
}
