package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// inventory holds the clusters of KubeVela's
// TestGetClusterLabelSelectorInTopology: cluster-a and cluster-b labelled
// key=value, cluster-c key=none.
func inventory(t *testing.T) *cluster.Inventory {
	t.Helper()
	inv := cluster.NewInventory()
	for _, c := range []struct{ name, value string }{{"cluster-b", "value"}, {"cluster-a", "value"}, {"cluster-c", "none"}} {
		doc := "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: " + c.name + ", labels: {key: " + c.value + "}}\n"
		objs, err := manifest.Decode("clusters.yaml", []byte(doc), manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := inv.Add(objs[0]); err != nil {
			t.Fatal(err)
		}
	}
	return inv
}

// TestPlacements: KubeVela's GetPlacementsFromTopologyPolicies, its cases
// from TestGetClusterLabelSelectorInTopology (the deploy step allows
// cross-namespace placements: resourcekeeper.AllowCrossNamespaceResource
// is true; the DeprecatedPolicySpec feature gate is off by default).
func TestPlacements(t *testing.T) {
	inv := inventory(t)
	tests := []struct {
		name, policies string
		want           []PlacementDecision
		wantErr        string
		wantPos        string
	}{
		{name: "invalid-topology-policy", policies: "  - {name: topology-policy, type: topology, properties: {cluster: x}}\n",
			wantErr: `app.yaml:7:67: application "a": policy "topology-policy": spec.policies[0].properties.cluster: failed to parse topology policy topology-policy: json: unknown field "cluster"`,
			wantPos: "app.yaml:7:67"},
		{name: "clusters of the wrong type", policies: "  - name: t\n    type: topology\n    properties: {clusters: local}\n",
			wantErr: `app.yaml:9:28: application "a": policy "t": spec.policies[0].properties.clusters: failed to parse topology policy t: json: cannot unmarshal string into Go struct field TopologyPolicySpec.Placement.clusters of type []string`,
			wantPos: "app.yaml:9:28"},
		// KubeVela: "failed to get cluster cluster-x" (the cluster is
		// looked up in the hub); drydock's clusters are its inventory.
		{name: "cluster-not-found", policies: "  - name: topology-policy\n    type: topology\n    properties:\n      clusters: [cluster-a, cluster-x]\n",
			wantErr: `app.yaml:10:29: application "a": policy "topology-policy": cluster "cluster-x" is not in the cluster inventory`,
			wantPos: "app.yaml:10:29"},
		{name: "topology-by-clusters", policies: "  - {name: topology-policy, type: topology, properties: {clusters: [cluster-a]}}\n",
			want: []PlacementDecision{{Cluster: "cluster-a"}}},
		// GetClusterLabelSelectorInTopology reads clusterSelector only
		// behind the DeprecatedPolicySpec gate: with it off the policy
		// names no cluster and places on the hub.
		{name: "topology-by-cluster-selector, gate off", policies: "  - {name: topology-policy, type: topology, properties: {clusterSelector: {key: bad-value}}}\n",
			want: []PlacementDecision{{Cluster: "local"}}},
		{name: "topology-by-cluster-label-selector-404", policies: "  - name: topology-policy\n    type: topology\n    properties:\n      clusterLabelSelector: {key: bad-value}\n",
			wantErr: `app.yaml:10:29: application "a": policy "topology-policy": failed to find any cluster matches given labels`,
			wantPos: "app.yaml:10:29"},
		{name: "topology-by-cluster-label-selector-ignore-404", policies: "  - {name: topology-policy, type: topology, properties: {clusterLabelSelector: {key: bad-value}, allowEmpty: true}}\n",
			want: nil},
		// KubeVela lists matching clusters newest first; drydock by name
		// (docs/divergences.md, "Cluster label selectors").
		{name: "topology-by-cluster-label-selector", policies: "  - {name: topology-policy, type: topology, properties: {clusterLabelSelector: {key: value}}}\n",
			want: []PlacementDecision{{Cluster: "cluster-a"}, {Cluster: "cluster-b"}}},
		{name: "topology-by-cluster-label-selector-and-namespace", policies: "  - {name: topology-policy, type: topology, properties: {clusterLabelSelector: {key: value}, namespace: override}}\n",
			want: []PlacementDecision{{Cluster: "cluster-a", Namespace: "override"}, {Cluster: "cluster-b", Namespace: "override"}}},
		// clusters wins over clusterLabelSelector (the switch's order).
		{name: "clusters before label selector", policies: "  - {name: t, type: topology, properties: {clusters: [cluster-c], clusterLabelSelector: {key: value}}}\n",
			want: []PlacementDecision{{Cluster: "cluster-c"}}},
		{name: "topology-no-clusters-and-cluster-label-selector", policies: "  - {name: topology-policy, type: topology, properties: {namespace: override}}\n",
			want: []PlacementDecision{{Cluster: "local", Namespace: "override"}}},
		{name: "no-topology-policy", policies: "  - {name: o, type: override, properties: {components: []}}\n",
			want: []PlacementDecision{{Cluster: "local"}}},
		{name: "empty-topology-policy", policies: "  - {type: topology, name: some-name}\n",
			wantErr: `app.yaml:7:5: application "a": policy "some-name": topology policy some-name must not have empty properties`,
			wantPos: "app.yaml:7:5"},
		// placementMap: a placement already added is not added again.
		{name: "two topologies", policies: "  - {name: t1, type: topology, properties: {clusters: [cluster-b, local]}}\n" +
			"  - {name: t2, type: topology, properties: {clusterLabelSelector: {key: value}}}\n" +
			"  - {name: t3, type: topology, properties: {clusters: [cluster-b], namespace: ns}}\n",
			want: []PlacementDecision{{Cluster: "cluster-b"}, {Cluster: "local"}, {Cluster: "cluster-a"}, {Cluster: "cluster-b", Namespace: "ns"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, "  components: []\n  policies:\n"+tt.policies)
			got, err := Placements(app, policies(app), inv)
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPos, errPos(err)); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("placements (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlacementsExternalPolicy: a Policy object a deploy step names is
// refused at its own lines.
func TestPlacementsExternalPolicy(t *testing.T) {
	app := parseApp(t, "  components: []\n")
	objs, err := manifest.Decode("policy.yaml", []byte("apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: eu}\ntype: topology\nproperties:\n  clusters: [nowhere]\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := render.ParsePolicy(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	_, err = Placements(app, []*render.Policy{pol}, inventory(t))
	want := `policy.yaml:6:14: application "a": policy "eu": cluster "nowhere" is not in the cluster inventory`
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("policy.yaml:6:14", errPos(err)); diff != "" {
		t.Errorf("position (-want +got):\n%s", diff)
	}
}
