package propagation

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// TestWebsterKarmadaRows are the rows of Karmada's own
// TestAllocateWebsterSeats (pkg/util/helper/webstermethod_test.go at
// f8fdd02) that start from no assignment: the Sainte-Laguë example of 230,000
// votes over four parties, seat by seat, and the tie-break rows. Rows with
// initial assignments (rescheduling) have no offline counterpart. Parties
// are clusters named in Karmada's order, weights are votes.
func TestWebsterKarmadaRows(t *testing.T) {
	classic := []int64{100000, 80000, 30000, 20000}
	tests := []struct {
		name       string
		seats      int64
		votes      []int64
		descending bool
		want       []int64
	}{
		{"classic example, round 1", 1, classic, false, []int64{1, 0, 0, 0}},
		{"classic example, round 2", 2, classic, false, []int64{1, 1, 0, 0}},
		{"classic example, round 3", 3, classic, false, []int64{2, 1, 0, 0}},
		{"classic example, round 4", 4, classic, false, []int64{2, 1, 1, 0}},
		{"classic example, round 5", 5, classic, false, []int64{2, 2, 1, 0}},
		{"classic example, round 6", 6, classic, false, []int64{2, 2, 1, 1}},
		{"classic example, round 7", 7, classic, false, []int64{3, 2, 1, 1}},
		{"classic example, round 8", 8, classic, false, []int64{3, 3, 1, 1}},
		{"newSeats is 0, expect all seats 0", 0, []int64{100, 200}, false, []int64{0, 0}},
		{"tie-breaker is nil, expect break tie by name", 1, []int64{1, 1}, false, []int64{1, 0}},
		{"tie-breaker prefers the larger name (odd UID hash)", 1, []int64{1, 1}, true, []int64{0, 1}},
		{"example: Alpha, Beta, Gamma", 4, []int64{1200, 900, 400}, false, []int64{2, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := []string{"PartyA", "PartyB", "PartyC", "PartyD"}[:len(tt.votes)]
			got := webster(tt.seats, tt.votes, members(names...), tt.descending)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplicationFailoverKarmadaRows are rows of Karmada's
// TestValidateApplicationFailover (pkg/util/validation at f8fdd02) whose
// policy drydock can write as YAML; Karmada's expected message follows
// drydock's position and policy name.
func TestApplicationFailoverKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  propagateDeps: true\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  failover:\n    application:\n"
	long := strings.Repeat("a", 64)
	regex := ": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	rule := func(alias string) string {
		return "      decisionConditions: {tolerationSeconds: 100}\n      statePreservation: {rules: [{aliasLabelName: '" + alias + "', jsonPath: '{ .replicas }'}]}\n"
	}
	tests := []parseRow{
		{"the tolerationSeconds is less than zero", "      decisionConditions: {tolerationSeconds: -100}\n",
			"spec.failover.application.decisionConditions.tolerationSeconds: Invalid value: -100: must be greater than or equal to 0"},
		{"the gracePeriodSeconds is declared when purgeMode is not gracefully", "      decisionConditions: {tolerationSeconds: 100}\n      purgeMode: Directly\n      gracePeriodSeconds: 100\n",
			"spec.failover.application.gracePeriodSeconds: Invalid value: 100: only takes effect when purgeMode is gracefully"},
		{"the gracePeriodSeconds is less than 0 when purgeMode is gracefully", "      decisionConditions: {tolerationSeconds: 100}\n      purgeMode: Gracefully\n      gracePeriodSeconds: -100\n",
			"spec.failover.application.gracePeriodSeconds: Invalid value: -100: must be greater than 0"},
		{"application behavior is correctly declared", "      decisionConditions: {tolerationSeconds: 100}\n", ""},
		{"statePreservation with valid rules", rule("example.com/state-key"), ""},
		{"invalid aliasLabelName - starts with dash", rule("-invalid-label"),
			`spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "-invalid-label"` + regex},
		{"invalid aliasLabelName - ends with dash", rule("invalid-label-"),
			`spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "invalid-label-"` + regex},
		{"invalid aliasLabelName - contains invalid characters", rule("invalid@label"),
			`spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "invalid@label"` + regex},
		{"too long aliasLabelName", rule(long),
			`spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "` + long + `": name part must be no more than 63 bytes`},
		{"invalid prefix in aliasLabelName", rule("INVALID.COM/my-state"),
			`spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "INVALID.COM/my-state": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, head+tt.spec)[0])
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.HasSuffix(manifest.Format(err, nil), ": "+tt.want) {
				t.Fatalf("error %v,\nwant it to end with %q", err, tt.want)
			}
		})
	}
}

// TestPlacementKarmadaRows are the rows of Karmada's
// TestValidateClusterTolerations and TestValidateWorkloadAffinity
// (pkg/util/validation at f8fdd02), written as policies; as in Karmada's
// tests, the error must contain the expected text.
func TestPlacementKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n"
	tests := []parseRow{
		{"nil tolerations is valid", "    clusterTolerations: []\n", ""},
		{"toleration with Exists operator is valid", "    clusterTolerations: [{key: key1, operator: Exists}]\n", ""},
		{"toleration with Equal operator is valid", "    clusterTolerations: [{key: key1, operator: Equal, value: value1}]\n", ""},
		{"toleration with empty operator is valid (defaults to Equal)", "    clusterTolerations: [{key: key1, value: value1}]\n", ""},
		{"toleration with Lt operator is invalid", "    clusterTolerations: [{key: key1, operator: Lt, value: '100'}]\n", "Unsupported value"},
		{"toleration with Gt operator is invalid", "    clusterTolerations: [{key: key1, operator: Gt, value: '100'}]\n", "Unsupported value"},
		{"mixed tolerations with one invalid Lt operator", "    clusterTolerations: [{key: key1, operator: Equal, value: value1}, {key: key2, operator: Lt, value: '100'}]\n", "Unsupported value"},
		{"only affinity set is valid", "    workloadAffinity: {affinity: {groupByLabelKey: app.group}}\n", ""},
		{"only antiAffinity set is valid", "    workloadAffinity: {antiAffinity: {groupByLabelKey: app.group}}\n", ""},
		{"affinity and antiAffinity with different groupByLabelKey is valid", "    workloadAffinity: {affinity: {groupByLabelKey: app.group}, antiAffinity: {groupByLabelKey: app.region}}\n", ""},
		{"affinity and antiAffinity with same groupByLabelKey is invalid", "    workloadAffinity: {affinity: {groupByLabelKey: app.group}, antiAffinity: {groupByLabelKey: app.group}}\n",
			"affinity and antiAffinity must not use the same groupByLabelKey"},
		{"affinity with invalid groupByLabelKey is invalid", "    workloadAffinity: {affinity: {groupByLabelKey: 'INVALID KEY!'}}\n", "spec.placement.workloadAffinity.affinity.groupByLabelKey"},
		{"antiAffinity with invalid groupByLabelKey is invalid", "    workloadAffinity: {antiAffinity: {groupByLabelKey: 'INVALID KEY!'}}\n", "spec.placement.workloadAffinity.antiAffinity.groupByLabelKey"},
	}
	runParseRows(t, head, tests)
}

// TestSpreadConstraintKarmadaRows are the spreadConstraint rows of
// Karmada's TestValidatePropagationSpec: invalid constraints get Karmada's
// message; valid ones are accepted.
func TestSpreadConstraintKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n    spreadConstraints:\n"
	tests := []parseRow{
		{"spreadByLabel co-exist with spreadByField", "    - {spreadByLabel: foo, spreadByField: cluster, minGroups: 1}\n", "spreadByLabel should not co-exist with spreadByField"},
		{"maxGroups lower than minGroups", "    - {spreadByField: cluster, maxGroups: 1, minGroups: 2}\n", "maxGroups lower than minGroups is not allowed"},
		{"maxGroups lower than 0", "    - {spreadByField: cluster, maxGroups: -1}\n", "maxGroups lower than 0 is not allowed"},
		{"minGroups lower than 0", "    - {spreadByField: cluster, minGroups: -1}\n", "minGroups lower than 0 is not allowed"},
		{"two cluster spread constraints", "    - {spreadByField: cluster, maxGroups: 2, minGroups: 1}\n    - {spreadByField: cluster, maxGroups: 2, minGroups: 1}\n", "multiple cluster spread constraints are not allowed"},
		{"multiple region spread constraints", "    - {spreadByField: cluster, maxGroups: 2, minGroups: 1}\n    - {spreadByField: region, maxGroups: 2, minGroups: 1}\n    - {spreadByField: region, maxGroups: 2, minGroups: 1}\n", "multiple region spread constraints are not allowed"},
		{"spreadByFieldCluster must be included if using spreadByField", "    - {spreadByField: region, maxGroups: 2, minGroups: 1}\n", "the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled"},
		{"valid constraint", "    - {spreadByField: cluster, maxGroups: 2, minGroups: 1}\n", ""},
	}
	runParseRows(t, head, tests)
}

// TestClusterAffinitiesKarmadaRows are the clusterAffinities rows of
// Karmada's TestValidatePropagationSpec and TestValidateOverflowAffinities:
// invalid lists get Karmada's message; valid ones are accepted.
func TestClusterAffinitiesKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n"
	tests := []parseRow{
		{"different affinities have the same affinityName", "    clusterAffinities: [{affinityName: group1, clusterNames: [m1]}, {affinityName: group1, clusterNames: [m2]}]\n",
			"spec.placement.clusterAffinities: Invalid value: each affinity term in a policy must have a unique name"},
		{"fieldSelector has unsupported key", "    clusterAffinities: [{affinityName: group1, fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [a]}]}}]\n",
			`unsupported key "foo", must be provider, region, or zone`},
		{"fieldSelector has unsupported operator", "    clusterAffinities: [{affinityName: group1, fieldSelector: {matchExpressions: [{key: provider, operator: Exists}]}}]\n",
			`unsupported operator "Exists", must be In or NotIn`},
		{"overflow without dynamic or aggregated division", "    clusterAffinities: [{affinityName: primary, clusterNames: [m1], overflowAffinities: [{affinityName: o, clusterNames: [m2]}]}]\n",
			"spec.placement.clusterAffinities[0].overflowAffinities: Invalid value: overflowAffinities can only be used together with dynamic weight or aggregated scheduling"},
		{"overflow without an inline affinity", "    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}\n    clusterAffinities: [{affinityName: primary, overflowAffinities: [{affinityName: o, clusterNames: [m2]}]}]\n",
			"overflowAffinities can only be used together with the inline ClusterAffinity"},
		{"overflow name duplicates the primary", "    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}\n    clusterAffinities: [{affinityName: primary, clusterNames: [m1], overflowAffinities: [{affinityName: primary, clusterNames: [m2]}]}]\n",
			`spec.placement.clusterAffinities[0].overflowAffinities[0].affinityName: Invalid value: "primary": overflow affinity name must be unique and must not duplicate the primary group's affinityName`},
		{"valid list", "    clusterAffinities: [{affinityName: group1, clusterNames: [m1]}]\n", ""},
	}
	runParseRows(t, head, tests)
}

// TestValidatePlacementKarmadaRows are the rows of Karmada's
// TestValidatePlacement (pkg/util/validation at f8fdd02).
func TestValidatePlacementKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n"
	const overflow = "    clusterAffinities: [{affinityName: primary, clusterNames: [member1], overflowAffinities: [{affinityName: overflow-1, clusterNames: [member2]}]}]\n"
	tests := []parseRow{
		{"clusterAffinity and clusterAffinities cannot co-exist", "    clusterAffinity: {clusterNames: [member1]}\n    clusterAffinities: [{affinityName: group1}]\n", "clusterAffinities cannot co-exist with clusterAffinity"},
		{"overflowAffinities rejected when replicaScheduling is nil", overflow, "overflowAffinities can only be used together with dynamic weight or aggregated scheduling"},
		{"overflowAffinities rejected with static weight scheduling", overflow + "    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {staticWeightList: [{targetCluster: {clusterNames: [member1]}, weight: 1}]}}\n",
			"overflowAffinities can only be used together with dynamic weight or aggregated scheduling"},
		{"overflowAffinities allowed with dynamic weight scheduling", overflow + "    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {dynamicWeight: AvailableReplicas}}\n", ""},
		{"overflowAffinities allowed with aggregated scheduling", overflow + "    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}\n", ""},
		{"multiple affinities, only one has overflow rejected", "    clusterAffinities: [{affinityName: group1, clusterNames: [member1]}, {affinityName: group2, clusterNames: [member2], overflowAffinities: [{affinityName: overflow-1, clusterNames: [member3]}]}]\n",
			"overflowAffinities can only be used together with dynamic weight or aggregated scheduling"},
		{"no overflow affinities with unsupported scheduling, no error", "    clusterAffinities: [{affinityName: primary, clusterNames: [member1]}]\n", ""},
	}
	runParseRows(t, head, tests)
}

// TestPropagationSpecKarmadaRows are the remaining rows of Karmada's
// TestValidatePropagationSpec (pkg/util/validation at f8fdd02): field
// selectors, preemption and suspension.
func TestPropagationSpecKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n"
	const sel = "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n"
	tests := []parseRow{
		{"valid spec", sel + "  placement:\n    clusterAffinity: {fieldSelector: {matchExpressions: [{key: provider, operator: In, values: [fooCloud]}, {key: region, operator: NotIn, values: [fooCloud]}, {key: zone, operator: NotIn, values: [fooCloud]}]}}\n    spreadConstraints: [{maxGroups: 2, minGroups: 1, spreadByField: region}, {spreadByField: cluster}]\n", ""},
		{"clusterAffinity.fieldSelector has unsupported key", sel + "  placement: {clusterAffinity: {fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [fooCloud]}]}}}\n",
			`unsupported key "foo", must be provider, region, or zone`},
		{"clusterAffinity.fieldSelector has unsupported operator", sel + "  placement: {clusterAffinity: {fieldSelector: {matchExpressions: [{key: provider, operator: Exists, values: [fooCloud]}]}}}\n",
			`unsupported operator "Exists", must be In or NotIn`},
		{"resourceSelector name is empty when preemption is enabled", "  preemption: Always\n  resourceSelectors: [{apiVersion: v1, kind: Pod}]\n",
			"name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption"},
		{"suspension dispatching cannot co-exist with dispatchingOnClusters", sel + "  suspension: {dispatching: true, dispatchingOnClusters: {clusterNames: [cluster-name]}}\n",
			"suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames"},
		{"suspension dispatching with nil dispatchingOnClusters is valid", sel + "  suspension: {dispatching: true}\n", ""},
		{"suspension dispatching with empty dispatching clusters is valid", sel + "  suspension: {dispatching: true, dispatchingOnClusters: {clusterNames: []}}\n", ""},
		{"dispatchingOnClusters.clusterNames without dispatching is valid", sel + "  suspension: {dispatchingOnClusters: {clusterNames: [cluster-name]}}\n", ""},
		{"dispatchingOnClusters.clusterNames with dispatching false is valid", sel + "  suspension: {dispatching: false, dispatchingOnClusters: {clusterNames: [cluster-name]}}\n", ""},
	}
	runParseRows(t, head, tests)
}

// TestStaticWeightKarmadaRows are the rows of Karmada's
// Test_assignByStaticWeightStrategy (pkg/scheduler/core at f8fdd02):
// replicas per member (0 where Karmada lists none or zero).
func TestStaticWeightKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n    replicaScheduling:\n      replicaSchedulingType: Divided\n"
	weights := func(ws ...string) string {
		if len(ws) == 0 {
			return ""
		}
		s := "      weightPreference:\n        staticWeightList:\n"
		for i := 0; i < len(ws); i += 2 {
			s += "          - {targetCluster: {clusterNames: [" + ws[i] + "]}, weight: " + ws[i+1] + "}\n"
		}
		return s
	}
	three := weights("member1", "3", "member2", "2", "member3", "1")
	tests := []struct {
		name     string
		weights  string
		members  []string
		replicas int64
		want     []int64
	}{
		{"replica 12, weight 3:2:1", three, []string{"member1", "member2", "member3"}, 12, []int64{6, 4, 2}},
		{"replica 12, default weight", "", []string{"member1", "member2", "member3"}, 12, []int64{4, 4, 4}},
		{"replica 13, weight 3:2:1", three, []string{"member1", "member2", "member3"}, 13, []int64{7, 4, 2}},
		{"replica 14, weight 3:2:1", three, []string{"member1", "member2", "member3"}, 14, []int64{7, 5, 2}},
		{"insufficient replica assignment should get 0 replica", weights("member1", "1", "member2", "1"), []string{"member1", "member2"}, 0, []int64{0, 0}},
		{"selected cluster without weight should be ignored", weights("member1", "1"), []string{"member1", "member2"}, 2, []int64{2, 0}},
		{"cluster with multiple weights", weights("member1", "1", "member2", "1", "member1", "2"), []string{"member1", "member2"}, 3, []int64{2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(decode(t, head+tt.weights)[0])
			if err != nil {
				t.Fatal(err)
			}
			ms := members(tt.members...)
			if diff := cmp.Diff(tt.want, webster(tt.replicas, p.weights(ms), ms, false)); diff != "" {
				t.Errorf("replicas (-want +got):\n%s", diff)
			}
		})
	}
}

// parseRow is a policy (after a common head) and the error Parse must
// give ("" for none).
type parseRow struct{ name, spec, want string }

// runParseRows parses head+spec for each row and checks its error.
func runParseRows(t *testing.T, head string, rows []parseRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			_, err := Parse(decode(t, head+r.spec)[0])
			checkErr(t, err, r.want)
		})
	}
}

// TestSelectorsKarmadaRows are the rows of Karmada's
// TestResourceMatchSelectors and TestResourceMatchSelectorsPriority
// (pkg/util at f8fdd02): a policy's best selector priority for a Pod
// default/test (0: no selector matches).
func TestSelectorsKarmadaRows(t *testing.T) {
	pod := manifest.New(map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "test", "namespace": "default", "labels": map[string]any{"foo": "bar"}}})
	sel := func(kind, name string) karmada.ResourceSelector {
		m := map[string]any{"apiVersion": "v1", "kind": kind}
		if name != "" {
			m["name"] = name
		}
		s, err := karmada.DecodeResourceSelector(m)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	matched, unmatched := sel("Pod", ""), sel("Unmatched", "")
	p1, p3 := sel("Pod", ""), sel("Pod", "test")
	tests := []struct {
		name      string
		selectors []karmada.ResourceSelector
		want      int
	}{
		{"empty", nil, 0},
		{"selectors are [matched, unmatched]", []karmada.ResourceSelector{matched, unmatched}, karmada.PriorityMatchAll},
		{"selectors are [unmatched, matched]", []karmada.ResourceSelector{unmatched, matched}, karmada.PriorityMatchAll},
		{"selectors are [unmatched, unmatched]", []karmada.ResourceSelector{unmatched, unmatched}, 0},
		{"selectors are [matched, matched]", []karmada.ResourceSelector{matched, matched}, karmada.PriorityMatchAll},
		{"priority of selectors are [1, 1]", []karmada.ResourceSelector{p1, p1}, 1},
		{"priority of selectors are [1, 3]", []karmada.ResourceSelector{p1, p3}, 3},
		{"priority of selectors are [3, 1]", []karmada.ResourceSelector{p3, p1}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Policy{Selectors: tt.selectors}
			if got := p.implicitPriority(pod); got != tt.want {
				t.Errorf("priority = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestDuplicatedKarmadaRows are the rows of Karmada's
// Test_assignByDuplicatedStrategy (pkg/scheduler/core at f8fdd02): every
// candidate gets all the replicas.
func TestDuplicatedKarmadaRows(t *testing.T) {
	p := parse(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n")
	deploy := func(replicas string) *manifest.Object {
		spec := "{}"
		if replicas != "" {
			spec = "{replicas: " + replicas + "}"
		}
		return decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, namespace: default}\nspec: "+spec+"\n")[0]
	}
	tests := []struct {
		name     string
		template *manifest.Object
		members  []string
		want     []string
	}{
		{"test with multiple cluster", deploy("2"), []string{"member1", "member2"}, []string{"member1=2", "member2=2"}},
		{"the target cluster is null", deploy("2"), nil, nil},
		{"replicas is null", deploy(""), []string{"member1", "member2"}, []string{"member1=0", "member2=0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := readWorkload(tt.template)
			if err != nil {
				t.Fatal(err)
			}
			var cs []candidate
			for _, c := range members(tt.members...) {
				cs = append(cs, candidate{cluster: c})
			}
			shares, err := p.assignStrategy(cs, w, w.replicas)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range shares {
				got = append(got, s.name+"="+strconv.FormatInt(s.replicas, 10))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("targets (-want +got):\n%s", diff)
			}
		})
	}
}
