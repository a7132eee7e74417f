package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCUEDefinitionAttributes: `vela def` makes a definition's spec of its
// attributes (pkg/definition Definition.FromCUE: "attributes" encodes to
// spec, the template goes to spec.schematic.cue.template), which the
// webhooks then check as they check a YAML definition's spec.
func TestCUEDefinitionAttributes(t *testing.T) {
	type read struct{ Kind, Name, WorkloadType, Stage string }
	tests := []struct {
		name, src string
		want      read
		wantErr   string
	}{
		{"component workload type", "web: {\n\ttype: \"component\"\n\tattributes: workload: type: \"deployments.apps\"\n}\ntemplate: {\n\toutput: {}\n}\n",
			read{KindComponent, "web", "deployments.apps", ""}, ""},
		// ValidateWorkload: a workload definition (apiVersion and kind) is
		// as good as a type.
		{"component workload definition", "web: {\n\ttype: \"component\"\n\tattributes: workload: definition: {apiVersion: \"apps/v1\", kind: \"Deployment\"}\n}\ntemplate: {\n\toutput: {}\n}\n",
			read{KindComponent, "web", "", ""}, ""},
		{"trait stage", "\"my-trait\": {\n\ttype: \"trait\"\n\tattributes: stage: \"PostDispatch\"\n}\ntemplate: {\n\tpatch: {}\n}\n",
			read{KindTrait, "my-trait", "", StagePostDispatch}, ""},
		{"policy", "p: {\n\ttype: \"policy\"\n}\ntemplate: {\n\tparameter: {}\n}\n", read{KindPolicy, "p", "", ""}, ""},
		// Workflow step templates are not validated by a webhook.
		{"workflow step", "s: {\n\ttype: \"workflow-step\"\n}\ntemplate: {\n\tx: 1 + \"s\"\n}\n", read{KindWorkflowStep, "s", "", ""}, ""},
		// webhook utils TestValidateSemanticVersion: 1.2.3 is a version,
		// 1.2.3-alpha and 1.2 are not.
		{"version", "p: {\n\ttype: \"policy\"\n\tattributes: version: \"1.2.3\"\n}\ntemplate: {\n\tparameter: {}\n}\n", read{KindPolicy, "p", "", ""}, ""},
		{"version with letters", "p: {\n\ttype: \"policy\"\n\tattributes: version: \"1.2.3-alpha\"\n}\ntemplate: {\n\tparameter: {}\n}\n", read{KindPolicy, "p", "", ""},
			`p.cue:1:1: PolicyDefinition "p": definition denied: Not a valid version`},
		{"version of two parts", "p: {\n\ttype: \"policy\"\n\tattributes: version: \"1.2\"\n}\ntemplate: {\n\tparameter: {}\n}\n", read{KindPolicy, "p", "", ""},
			`p.cue:1:1: PolicyDefinition "p": definition denied: Not a valid version`},
		// ValidateDefinitionReference: a definitionRef makes a template
		// unnecessary.
		{"trait with definitionRef", "t: {\n\ttype: \"trait\"\n\tattributes: definitionRef: name: \"foos.example.com\"\n}\ntemplate: {\n}\n",
			read{KindTrait, "t", "", ""}, ""},
		// An empty template body: vela def refuses the file (FromCUEString:
		// "no template found, invalid"); drydock refuses it in the
		// webhook's words (ValidateDefinitionReference).
		{"trait with an empty template", "t: {\n\ttype: \"trait\"\n}\ntemplate: {\n}\n", read{KindTrait, "t", "", ""},
			`p.cue:1:1: TraitDefinition "t": definition denied: if definition reference is omitted, patch or output with GVK is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := ParseCUEDefinitions("p.cue", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			d := ds[0]
			if diff := cmp.Diff(tt.want, read{d.Kind, d.Name, d.WorkloadType, d.Stage}); diff != "" {
				t.Errorf("definition (-want +got):\n%s", diff)
			}
			// Twice: the second admission is remembered.
			for range 2 {
				err := AdmitDefinition(d)
				if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
					t.Errorf("admission (-want +got):\n%s", diff)
				}
				// A `vela def` file's refusal points at its definition field.
				if err != nil && errPos(err) != "p.cue:1:1" {
					t.Errorf("position %q, want p.cue:1:1", errPos(err))
				}
			}
		})
	}
}
