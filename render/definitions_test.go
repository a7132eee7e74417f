package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDefinitionFromObject: the spec fields the render path reads from a
// definition object (KubeVela's appfile.loadSchematicToTemplate and the
// definition types in apis/core.oam.dev/v1beta1).
func TestDefinitionFromObject(t *testing.T) {
	tests := []struct {
		name, doc string
		want      *Definition
	}{
		{"cue template keeps the file's lines", `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: box, namespace: vela-system}
spec:
  workload: {type: deployments.apps}
  schematic:
    cue:
      template: |
        output: {
        	kind: "Deployment"
        }
`, &Definition{Kind: KindComponent, Name: "box", Namespace: "vela-system", WorkloadType: "deployments.apps",
			Template: strings.Repeat("\n", 8) + "        output: {\n        \tkind: \"Deployment\"\n        }\n", TemplateFile: "d.yaml"}},
		// A trait's stage (v1beta1.TraitDefinitionSpec.Stage).
		{"post-dispatch trait", `apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata: {name: t}
spec:
  stage: PostDispatch
  schematic: {cue: {template: "patch: {}"}}
`, &Definition{Kind: KindTrait, Name: "t", Stage: StagePostDispatch, Template: "patch: {}", TemplateFile: "d.yaml"}},
		// loadSchematicToTemplate: without a CUE schematic, the legacy
		// spec.extension.template.
		{"legacy extension template", `apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata: {name: t}
spec:
  extension:
    template: |
      patch: {}
`, &Definition{Kind: KindTrait, Name: "t", Template: "\n\n\n\n\n\n      patch: {}\n", TemplateFile: "d.yaml"}},
		// A definition that only names a CRD has no template.
		{"definitionRef only", `apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata: {name: t}
spec:
  definitionRef: {name: foos.example.com}
`, &Definition{Kind: KindTrait, Name: "t"}},
		// loadSchematicToTemplate: a terraform schematic, its type hcl
		// unless given (the CRD's default), wins over a CUE one.
		{"terraform schematic", `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: oss, annotations: {definition.oam.dev/description: OSS}}
spec:
  workload: {definition: {apiVersion: terraform.core.oam.dev/v1beta2, kind: Configuration}}
  schematic:
    cue: {template: "output: {}"}
    terraform:
      configuration: 'resource "a" "b" {}'
      writeConnectionSecretToRef: {name: conn}
      providerRef: {name: aws, namespace: default}
      gitCredentialsSecretReference: {name: git}
`, &Definition{Kind: KindComponent, Name: "oss", Terraform: &TerraformSchematic{Configuration: `resource "a" "b" {}`, Type: "hcl",
			WriteConnectionSecretToRef: map[string]any{"name": "conn"}, ProviderRef: map[string]any{"name": "aws", "namespace": "default"},
			GitCredentialsSecretRef: map[string]any{"name": "git"}, Annotations: map[string]any{"definition.oam.dev/description": "OSS"}}}},
		{"remote terraform module", `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: ack}
spec:
  workload: {definition: {apiVersion: terraform.core.oam.dev/v1beta1, kind: Configuration}}
  schematic: {terraform: {configuration: "https://github.com/m.git", type: remote, path: cs}}
`, &Definition{Kind: KindComponent, Name: "ack", Terraform: &TerraformSchematic{Configuration: "https://github.com/m.git", Type: "remote", Path: "cs"}}},
		// newTemplateOfCompDefinition: the annotation type: terraform makes a
		// Terraform component of a CUE one.
		{"terraform by annotation", `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: c, annotations: {type: terraform}}
spec:
  workload: {type: autodetects.core.oam.dev}
  schematic: {cue: {template: "output: {}"}}
`, &Definition{Kind: KindComponent, Name: "c", WorkloadType: "autodetects.core.oam.dev", Template: "output: {}", TemplateFile: "d.yaml",
			Terraform: &TerraformSchematic{Type: "hcl", Category: true, Annotations: map[string]any{"type": "terraform"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := DefinitionFromObject(decodeOne(t, "d.yaml", tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Source.File, tt.want.Source.Line, tt.want.Source.Col = "d.yaml", 1, 1
			if diff := cmp.Diff(tt.want, d, cmpopts.IgnoreUnexported(Definition{})); diff != "" {
				t.Errorf("definition (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDefinitionsLookup: the type an Application names resolves to the
// definition of that kind and name; type@vN names a DefinitionRevision,
// checked as KubeVela's ConvertDefinitionRevName does (its cases from
// pkg/oam/util TestConvertDefinitionRevName) and otherwise not available
// offline (docs/divergences.md, "Definition revisions").
func TestDefinitionsLookup(t *testing.T) {
	defs := NewDefinitions()
	worker := &Definition{Kind: KindComponent, Name: "worker"}
	defs.Add(worker)
	defs.Add(&Definition{Kind: KindTrait, Name: "worker"})
	newer := &Definition{Kind: KindComponent, Name: "worker", Template: "output: {}"}
	clone := defs.Clone()
	clone.Add(newer)
	clone.Add(&Definition{Kind: KindPolicy, Name: "p"})

	const qualified = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	long := strings.Repeat("w", 60)
	tests := []struct {
		defs       *Definitions
		kind, typ  string
		want       *Definition
		wantErr    string
		notDefined bool
	}{
		{defs: defs, kind: KindComponent, typ: "worker", want: worker},
		// A later Add of the same kind and name replaces the earlier one;
		// the clone's additions stay out of the original.
		{defs: clone, kind: KindComponent, typ: "worker", want: newer},
		{defs: defs, kind: KindPolicy, typ: "p", wantErr: `unknown type: no PolicyDefinition "p"`, notDefined: true},
		{defs: defs, kind: KindComponent, typ: "webservice", wantErr: `unknown type: no ComponentDefinition "webservice"`, notDefined: true},
		{defs: defs, kind: KindComponent, typ: "worker@v2", notDefined: true,
			wantErr: `unknown type: "worker@v2" names a revision of ComponentDefinition "worker": DefinitionRevision objects are not available offline (drydock renders with the definitions it is given; use "worker")`},
		{defs: defs, kind: KindComponent, typ: "worker@v10", notDefined: true,
			wantErr: `unknown type: "worker@v10" names a revision of ComponentDefinition "worker": DefinitionRevision objects are not available offline (drydock renders with the definitions it is given; use "worker")`},
		{defs: defs, kind: KindComponent, typ: "webservice@@v2", wantErr: "invalid definitionRevision name webservice@:" + qualified},
		{defs: defs, kind: KindComponent, typ: "webservice@v10@v3", wantErr: "invalid definitionRevision name webservice:" + qualified},
		{defs: defs, kind: KindComponent, typ: "@v10", wantErr: "invalid definitionRevision name @v10:" + qualified},
		// Split on "@v" finds none: the whole type is checked.
		{defs: defs, kind: KindComponent, typ: "worker@2", wantErr: "invalid definitionRevision name worker@2:" + qualified},
		// validation.IsQualifiedName: at most 63 characters.
		{defs: defs, kind: KindTrait, typ: long + "@v1234", wantErr: "invalid definitionRevision name " + long + ":name part must be no more than 63 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.kind+" "+tt.typ, func(t *testing.T) {
			got, err := tt.defs.Lookup(tt.kind, tt.typ)
			if got != tt.want {
				t.Errorf("Lookup = %+v, want %+v", got, tt.want)
			}
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if errors.Is(err, ErrUnknownDefinition) != tt.notDefined {
				t.Errorf("errors.Is(%v, ErrUnknownDefinition) = %v", err, !tt.notDefined)
			}
		})
	}
	if defs.Get(KindPolicy, "p") != nil || defs.Get(KindTrait, "worker") == nil {
		t.Errorf("Clone shares its set with the original")
	}
}

// TestIsDefinitionKind: the X-Definition kinds of core.oam.dev.
func TestIsDefinitionKind(t *testing.T) {
	got := map[string]bool{}
	for _, k := range []string{"ComponentDefinition", "TraitDefinition", "PolicyDefinition", "WorkflowStepDefinition",
		"WorkloadDefinition", "Application", "DefinitionRevision"} {
		got[k] = IsDefinitionKind(k)
	}
	want := map[string]bool{"ComponentDefinition": true, "TraitDefinition": true, "PolicyDefinition": true,
		"WorkflowStepDefinition": true, "WorkloadDefinition": true,
		"Application": false, "DefinitionRevision": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("IsDefinitionKind (-want +got):\n%s", diff)
	}
}
