package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// replica is a component as the deploy step dispatches it: its name and
// context.replicaKey.
type replica struct{ Name, Key string }

// TestReplicate: KubeVela's ReplicateComponents, with the cases of
// pkg/policy/replication_test.go (TestGetReplicationComponents and
// TestReplicateComponents): the components a policy selects are removed
// and one copy per key added after the others; the selection is made
// among the components the deploy step started with, for every policy.
func TestReplicate(t *testing.T) {
	const comps = "  components:\n  - {name: comp1, type: worker}\n  - {name: comp2, type: worker}\n  - {name: comp3, type: worker}\n"
	tests := []struct {
		name, policies   string
		want             []replica
		wantErr, wantPos string
	}{
		{name: "no replication policy, all components remain unchanged", policies: "  - {name: test-policy, type: foo}\n",
			want: []replica{{"comp1", ""}, {"comp2", ""}, {"comp3", ""}}},
		{name: "one replication policy, replicate those components",
			policies: "  - {name: test-policy, type: replication, properties: {keys: [replica-1, replica-2], selector: [comp1]}}\n",
			want:     []replica{{"comp2", ""}, {"comp3", ""}, {"comp1", "replica-1"}, {"comp1", "replica-2"}}},
		{name: "select all, replicate all",
			policies: "  - {name: p, type: replication, properties: {keys: [k], selector: [comp1, comp2, comp3]}}\n",
			want:     []replica{{"comp1", "k"}, {"comp2", "k"}, {"comp3", "k"}}},
		{name: "part invalid selector",
			policies: "  - {name: p, type: replication, properties: {keys: [k], selector: [comp1, comp4]}}\n",
			want:     []replica{{"comp2", ""}, {"comp3", ""}, {"comp1", "k"}}},
		// A replication policy without properties is skipped.
		{name: "no properties", policies: "  - {name: p, type: replication}\n",
			want: []replica{{"comp1", ""}, {"comp2", ""}, {"comp3", ""}}},
		// Replicas of several policies follow the policies' order.
		{name: "two policies",
			policies: "  - {name: p1, type: replication, properties: {keys: [a, b], selector: [comp2]}}\n" +
				"  - {name: p2, type: replication, properties: {keys: [x], selector: [comp1]}}\n",
			want: []replica{{"comp3", ""}, {"comp2", "a"}, {"comp2", "b"}, {"comp1", "x"}}},
		// Each policy selects among the deploy step's components, so two
		// policies selecting one component add the keys of both.
		{name: "two policies select one component",
			policies: "  - {name: p1, type: replication, properties: {keys: [a, b], selector: [comp1]}}\n" +
				"  - {name: p2, type: replication, properties: {keys: [x], selector: [comp1, comp3]}}\n",
			want: []replica{{"comp2", ""}, {"comp1", "a"}, {"comp1", "b"}, {"comp1", "x"}, {"comp3", "x"}}},
		// selectReplicateComponents: "no component selected to replicate",
		// wrapped as "failed to apply replicate policy %s".
		{name: "replicate non-exist component",
			policies: "  - name: test-policy\n    type: replication\n    properties: {keys: [replica-1], selector: [comp-non-exist]}\n",
			wantErr:  `app.yaml:12:47: application "a": policy "test-policy": no component selected to replicate`, wantPos: "app.yaml:12:47"},
		{name: "nil selector, don't replicate",
			policies: "  - name: test-policy\n    type: replication\n    properties: {keys: [replica-1]}\n",
			wantErr:  `app.yaml:12:17: application "a": policy "test-policy": no component selected to replicate`, wantPos: "app.yaml:12:17"},
		// utils.StrictUnmarshal: "failed to parse replicate policy %s".
		{name: "invalid-replication-policy",
			policies: "  - name: test-policy\n    type: replication\n    properties: {keys: [replica-1], selectors: [comp1]}\n",
			wantErr:  `app.yaml:12:48: application "a": policy "test-policy": spec.policies[0].properties.selectors: failed to parse replicate policy test-policy: json: unknown field "selectors"`,
			wantPos:  "app.yaml:12:48"},
		{name: "keys not a list",
			policies: "  - name: test-policy\n    type: replication\n    properties: {keys: replica-1, selector: [comp1]}\n",
			wantErr:  `app.yaml:12:24: application "a": policy "test-policy": spec.policies[0].properties.keys: failed to parse replicate policy test-policy: json: cannot unmarshal string into Go struct field ReplicationPolicySpec.keys of type []string`,
			wantPos:  "app.yaml:12:24"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, comps+"  policies:\n"+tt.policies)
			got, keys, err := Replicate(app, policies(app), app.Components)
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPos, errPos(err)); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
			if len(got) != len(keys) {
				t.Fatalf("%d components and %d keys", len(got), len(keys))
			}
			var reps []replica
			for i, c := range got {
				reps = append(reps, replica{c.Name, keys[i]})
			}
			if diff := cmp.Diff(tt.want, reps); diff != "" {
				t.Errorf("replicas (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReplicateCopies: replicas are deep copies (KubeVela's comp.DeepCopy):
// what is done to one does not show in another.
func TestReplicateCopies(t *testing.T) {
	app := parseApp(t, "  components:\n  - {name: c, type: worker, properties: {env: {A: a}}}\n  policies:\n  - {type: replication, properties: {keys: [k1, k2], selector: [c]}}\n")
	got, _, err := Replicate(app, policies(app), app.Components)
	if err != nil {
		t.Fatal(err)
	}
	got[0].Properties["env"].(map[string]any)["A"] = "changed"
	if diff := cmp.Diff(map[string]any{"env": map[string]any{"A": "a"}}, got[1].Properties); diff != "" {
		t.Errorf("second replica (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"env": map[string]any{"A": "a"}}, app.Components[0].Properties); diff != "" {
		t.Errorf("the Application's component (-want +got):\n%s", diff)
	}
}
