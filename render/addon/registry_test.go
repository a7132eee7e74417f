package addon

import (
	"encoding/base64"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestDependencies checks enabling from a registry (Installer.installDependency
// and getDependencyArgs in pkg/addon/addon.go): the dependency is enabled
// first, labelled with the registry's name, with the parameters
// {clusters: <getClusters of the user's parameters>} when that is not nil
// and none otherwise (so no Secret); the dependent's own parameters stay
// its own.
func TestDependencies(t *testing.T) {
	registry := fstest.MapFS{
		"dep/metadata.yaml": {Data: []byte("name: dep\nversion: 1.2.0\ndeployTo:\n  runtimeCluster: true\n")},
		"dep/NOTES.cue":     {Data: []byte("notes: \"dep notes\"\n")},
	}
	files := map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: dep\n    version: \">=v1.0.0\"\n"}
	const appName = "Application/addon-"
	tests := []struct {
		name      string
		params    map[string]any
		want      []string
		depSecret string // the dependency's stored parameters, "" for none
		policy    any    // the dependency's Application's spec.policies
	}{
		{
			name:   "no parameters",
			want:   []string{appName + "dep", appName + "demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
		{
			name:   "parameters other than clusters",
			params: map[string]any{"x": int64(1)},
			want:   []string{appName + "dep", appName + "demo", "Secret/addon-secret-demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
		{
			name:      "clusters passed on",
			params:    map[string]any{"clusters": []any{"c1"}, "x": int64(1)},
			want:      []string{appName + "dep", "Secret/addon-secret-dep", appName + "demo", "Secret/addon-secret-demo"},
			depSecret: `{"clusters":["c1"]}`,
			policy:    []any{map[string]any{"name": "deploy-addon-to-specified-clusters", "type": "topology", "properties": map[string]any{"clusters": []any{"c1", "local"}}}},
		},
		{
			// getClusters returns nil for a clusters parameter that is not
			// a list, and getDependencyArgs then passes no parameters
			name:   "clusters not a list",
			params: map[string]any{"clusters": "c1"},
			want:   []string{appName + "dep", appName + "demo", "Secret/addon-secret-demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
		{
			name:   "clusters without strings",
			params: map[string]any{"clusters": []any{int64(1)}},
			want:   []string{appName + "dep", appName + "demo", "Secret/addon-secret-demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRender(t, files, Options{Params: tt.params, Registry: registry, RegistryName: "myreg", Clusters: []string{"c1"}})
			if diff := cmp.Diff(tt.want, objectNames(res.Objects)); diff != "" {
				t.Fatalf("objects (-want +got):\n%s", diff)
			}
			for _, name := range []string{"addon-dep", "addon-demo"} {
				if got := find(res, "Application", name).Labels()["addons.oam.dev/registry"]; got != "myreg" {
					t.Errorf("%s registry label = %q, want myreg", name, got)
				}
			}
			spec, _ := res.Objects[0].Data["spec"].(map[string]any)
			if diff := cmp.Diff(tt.policy, spec["policies"]); diff != "" {
				t.Errorf("dependency policies (-want +got):\n%s", diff)
			}
			if sec := find(res, "Secret", "addon-secret-dep"); sec != nil {
				b, _ := base64.StdEncoding.DecodeString(sec.Data["data"].(map[string]any)["addonParameterDataKey"].(string))
				if diff := cmp.Diff(tt.depSecret, string(b)); diff != "" {
					t.Errorf("dependency parameters (-want +got):\n%s", diff)
				}
			}
			// NOTES only for the addon enabled.
			if res.Notes != "" {
				t.Errorf("Notes = %q, want none", res.Notes)
			}
		})
	}
}
