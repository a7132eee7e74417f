package addon

import (
	"errors"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestLegacyTopology checks the topology policy KubeVela attaches to an
// addon that asks for runtime clusters (RenderApp,
// checkNeedAttachTopologyPolicy, attachPolicyForLegacyAddon and
// checkDeployClusters in pkg/addon): only without template.cue, only with
// deployTo.runtimeCluster or the legacy runtime_cluster, only when the
// Application has no topology policy of its own; the `clusters` parameter
// must name registered clusters, and `local` is appended when missing.
func TestLegacyTopology(t *testing.T) {
	const runtime = "deployTo:\n  runtimeCluster: true\n"
	allClusters := []any{map[string]any{
		"name": "deploy-addon-to-all-clusters", "type": "topology",
		"properties": map[string]any{"clusterLabelSelector": map[string]any{}},
	}}
	specified := func(clusters ...any) []any {
		return []any{map[string]any{
			"name": "deploy-addon-to-specified-clusters", "type": "topology",
			"properties": map[string]any{"clusters": clusters},
		}}
	}
	tests := []struct {
		name     string
		meta     string // appended to metadata.yaml
		files    map[string]string
		clusters []string // registered besides local
		params   map[string]any
		want     any // spec.policies, nil when absent
	}{
		{name: "runtimeCluster without clusters", meta: runtime, want: allClusters},
		{name: "legacy runtime_cluster", meta: "deployTo:\n  runtime_cluster: true\n", want: allClusters},
		{name: "runtimeCluster false", meta: "deployTo:\n  runtimeCluster: false\n  disableControlPlane: true\n"},
		{name: "no deployTo"},
		{
			name: "clusters given: local appended", meta: runtime, clusters: []string{"c1", "c2"},
			params: map[string]any{"clusters": []any{"c1", "c2"}},
			want:   specified("c1", "c2", "local"),
		},
		{
			// the gateway-traits-clusters case: local is not duplicated
			name: "clusters with local", meta: runtime, clusters: []string{"c1"},
			params: map[string]any{"clusters": []any{"local", "c1"}},
			want:   specified("local", "c1"),
		},
		{
			name: "blank cluster names skipped, others trimmed", meta: runtime, clusters: []string{"c1"},
			params: map[string]any{"clusters": []string{" c1 ", "", "  "}},
			want:   specified("c1", "local"),
		},
		{
			name: "only blank clusters", meta: runtime,
			params: map[string]any{"clusters": []any{" "}},
			want:   allClusters,
		},
		{
			// getClusters ignores a clusters parameter that is not a list
			name: "clusters not a list", meta: runtime,
			params: map[string]any{"clusters": "c1"},
			want:   allClusters,
		},
		{
			name: "non-string list items ignored", meta: runtime, clusters: []string{"c1"},
			params: map[string]any{"clusters": []any{int64(1), "c1", true}},
			want:   specified("c1", "local"),
		},
		{
			name: "template.yaml with its own topology policy", meta: runtime,
			files: map[string]string{"template.yaml": "kind: Application\nspec:\n  policies:\n  - name: mine\n    type: topology\n    properties: {clusters: [local]}\n"},
			// the clusters are not checked either: no policy is attached
			params: map[string]any{"clusters": []any{"nowhere"}},
			want: []any{map[string]any{
				"name": "mine", "type": "topology", "properties": map[string]any{"clusters": []any{"local"}},
			}},
		},
		{
			name: "template.yaml with another policy", meta: runtime,
			files: map[string]string{"template.yaml": "kind: Application\nspec:\n  policies:\n  - name: o\n    type: override\n"},
			want:  append([]any{map[string]any{"name": "o", "type": "override"}}, allClusters...),
		},
		{
			// the fluxcd-clusters case: CUE templates get no policy and
			// their clusters are never validated
			name: "template.cue", meta: runtime,
			files:  map[string]string{"template.cue": "output: {apiVersion: \"core.oam.dev/v1beta1\", kind: \"Application\", spec: components: []}\n"},
			params: map[string]any{"clusters": []any{"nowhere"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"metadata.yaml": testMeta + tt.meta}
			for k, v := range tt.files {
				files[k] = v
			}
			res := mustRender(t, files, Options{Params: valuesOf(tt.params), Clusters: tt.clusters})
			spec, _ := res.Objects[0].Data["spec"].(map[string]any)
			if diff := cmp.Diff(tt.want, spec["policies"]); diff != "" {
				t.Errorf("spec.policies (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLegacyTopologyUnknownCluster: checkDeployClusters refuses a cluster
// that is not registered ("cluster %s not exist").
func TestLegacyTopologyUnknownCluster(t *testing.T) {
	tests := []struct {
		name     string
		clusters []string
		params   map[string]any
		want     string
	}{
		{
			name:   "no inventory",
			params: map[string]any{"clusters": []any{"c1"}},
			want:   "addon demo: parameter clusters: cluster c1 not exist",
		},
		{
			name:     "second cluster unknown",
			clusters: []string{"c1"},
			params:   map[string]any{"clusters": []any{"c1", "c2"}},
			want:     "addon demo: parameter clusters: cluster c2 not exist",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"metadata.yaml": testMeta + "deployTo:\n  runtimeCluster: true\n"}
			_, err := Render(addonFS(files), Options{Params: valuesOf(tt.params), Clusters: tt.clusters})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClustersArg follows KubeVela's TestGetClusters (pkg/addon
// addon_test.go) for getClusters.
func TestClustersArg(t *testing.T) {
	tests := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"string list", map[string]any{"clusters": []string{"cluster1", "cluster2"}}, []string{"cluster1", "cluster2"}},
		{"interface list", map[string]any{"clusters": []any{"cluster3", "cluster4"}}, []string{"cluster3", "cluster4"}},
		{"no clusters", map[string]any{"anyargkey": "anyargvalue"}, nil},
		{"other type", map[string]any{"clusters": "cluster5"}, nil},
		{"non-strings dropped", map[string]any{"clusters": []any{"a", 1, nil, "b"}}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, clustersArg(tt.args)); diff != "" {
				t.Errorf("clustersArg(%v) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}
