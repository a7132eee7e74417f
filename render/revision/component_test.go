package revision_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/revision"
)

// TestComponentRevision: context.revision is the spec hash of the
// ApplicationComponent KubeVela renders: its replica key counts, and an
// apply-component step's component carries no dependsOn, inputs or
// outputs.
func TestComponentRevision(t *testing.T) {
	comp := &render.Component{Name: "api", Type: "webservice",
		Properties: map[string]any{"image": "nginx", "port": int64(80)},
		Traits:     []render.Trait{{Type: "scaler", Properties: map[string]any{"replicas": int64(2)}}, {Type: "expose"}},
		DependsOn:  []string{"db"},
		Inputs:     []render.Input{{From: "addr", ParameterKey: "env"}},
		Outputs:    []render.Output{{Name: "ip", ValueFrom: "output.status.ip"}},
		Raw:        map[string]any{"externalRevision": "api-v3", "scopes": map[string]any{"healthscopes.core.oam.dev": "h"}},
	}
	rev := func(c *render.Component, key string, stepped bool) string {
		h, err := revision.ComponentRevision(c, key, stepped)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	want, err := revision.SpecHash(revision.ApplicationComponent{
		Name: "api", Type: "webservice", ExternalRevision: "api-v3",
		Properties: &revision.RawExtension{Raw: []byte(`{"image":"nginx","port":80}`)},
		DependsOn:  []string{"db"},
		Inputs:     []revision.InputItem{{ParameterKey: "env", From: "addr"}},
		Outputs:    []revision.OutputItem{{ValueFrom: "output.status.ip", Name: "ip"}},
		Traits: []revision.ApplicationTrait{{Type: "scaler", Properties: &revision.RawExtension{Raw: []byte(`{"replicas":2}`)}},
			{Type: "expose"}},
		Scopes: map[string]string{"healthscopes.core.oam.dev": "h"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, rev(comp, "", false)); diff != "" {
		t.Errorf("deploy's component (-want +got):\n%s", diff)
	}
	bare := *comp
	bare.DependsOn, bare.Inputs, bare.Outputs = nil, nil, nil
	if diff := cmp.Diff(rev(&bare, "", false), rev(comp, "", true)); diff != "" {
		t.Errorf("apply-component's component (-without links +stepped):\n%s", diff)
	}
	if rev(comp, "beijing", false) == rev(comp, "", false) {
		t.Errorf("the replica key does not count")
	}
}
