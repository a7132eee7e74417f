package schemas

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestServed: a core.oam.dev kind in a version its v1.11 CRD does not
// serve is refused as the API server's REST mapping refuses it.
func TestServed(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"Application v1beta1", "apiVersion: core.oam.dev/v1beta1\nkind: Application\n", ""},
		{"Application v1alpha2", "apiVersion: core.oam.dev/v1alpha2\nkind: Application\n",
			`app.yaml:1:13: no matches for kind "Application" in version "core.oam.dev/v1alpha2" (KubeVela v1.11 serves core.oam.dev/v1beta1)`},
		{"Policy v1beta1", "apiVersion: core.oam.dev/v1beta1\nkind: Policy\n",
			`app.yaml:1:13: no matches for kind "Policy" in version "core.oam.dev/v1beta1" (KubeVela v1.11 serves core.oam.dev/v1alpha1)`},
		{"Workflow v1alpha1", "apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\n", ""},
		{"WorkloadDefinition v1alpha2", "apiVersion: core.oam.dev/v1alpha2\nkind: WorkloadDefinition\n", ""},
		{"WorkloadDefinition v1", "apiVersion: core.oam.dev/v1\nkind: WorkloadDefinition\n",
			`app.yaml:1:13: no matches for kind "WorkloadDefinition" in version "core.oam.dev/v1" (KubeVela v1.11 serves core.oam.dev/v1alpha2 and core.oam.dev/v1beta1)`},
		{"other groups pass", "apiVersion: example.com/v9\nkind: Application\n", ""},
		{"other kinds pass", "apiVersion: core.oam.dev/v1alpha2\nkind: ResourceTracker\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("app.yaml", []byte(tt.doc+"metadata: {name: a}\n"), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := Served(objs[0]); err != nil {
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
