package propagation

import (
	"errors"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// ppHead starts a PropagationPolicy in namespace default; rows add spec
// fields after it.
const ppHead = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n"

// ppDeployments selects the Deployments of the policy's namespace.
const ppDeployments = "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"

// offlineRow is a policy and what Karmada's webhook says of it: want
// lists texts its denial contains (none: admitted) and count, when not 0,
// how many field errors it aggregates.
type offlineRow struct {
	name, spec string
	want       []string
	count      int
}

// runOfflineRows parses head+spec for each row. A policy Karmada admits
// must parse; one it denies must wrap ErrInvalid and contain each wanted
// text.
func runOfflineRows(t *testing.T, head string, rows []offlineRow) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			_, err := Parse(decode(t, head+r.spec)[0])
			if len(r.want) == 0 {
				if err != nil {
					t.Fatalf("error %v: want none", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v: want ErrInvalid", err)
			}
			for _, w := range r.want {
				if !strings.Contains(manifest.Format(err, nil), w) {
					t.Errorf("error %v,\nwant it to contain %q", err, w)
				}
			}
			if got := strings.Count(manifest.Format(err, nil), ": Invalid value: "); r.count != 0 && got != r.count {
				t.Errorf("error %v: %d field errors, want %d", err, got, r.count)
			}
		})
	}
}

// TestPropagationSpecAsWrittenKarmadaRows are rows of Karmada's
// TestValidatePropagationSpec (pkg/util/validation/validation_test.go at
// f8fdd02) as Karmada writes them: the clusterAffinities/clusterAffinity
// conflict, and the spread constraints without the changes
// TestSpreadConstraintKarmadaRows makes to keep one error per row (there,
// two rows have a second error that Karmada reports along with the one its
// test looks for). The webhook's defaults apply first, as they do before
// Karmada's validating webhook runs; they change none of these outcomes.
func TestPropagationSpecAsWrittenKarmadaRows(t *testing.T) {
	spread := func(cs ...string) string {
		return "  placement:\n    spreadConstraints:\n    - " + strings.Join(cs, "\n    - ") + "\n"
	}
	runOfflineRows(t, ppHead+ppDeployments, []offlineRow{
		{name: "clusterAffinities cannot co-exist with clusterAffinity",
			spec: "  placement:\n    clusterAffinity: {clusterNames: [m1]}\n    clusterAffinities: [{affinityName: group1, clusterNames: [m1]}]\n",
			want: []string{"clusterAffinities cannot co-exist with clusterAffinity"}},
		{name: "spreadConstraint spreadByLabel co-exist with spreadByField", spec: spread("{spreadByField: cluster, spreadByLabel: foo}"),
			want: []string{"spreadByLabel should not co-exist with spreadByField"}},
		{name: "spreadConstraint maxGroups lower than minGroups", spec: spread("{maxGroups: 1, minGroups: 2}"),
			want: []string{"maxGroups lower than minGroups is not allowed"}},
		{name: "spreadConstraint maxGroups lower than 0", spec: spread("{maxGroups: -1, minGroups: 1}"),
			want: []string{"maxGroups lower than 0 is not allowed"}},
		{name: "spreadConstraint minGroups lower than 0", spec: spread("{maxGroups: 2, minGroups: -2}"),
			want: []string{"minGroups lower than 0 is not allowed"}},
		{name: "spreadConstraint has two cluster spread constraints",
			spec:  spread("{spreadByField: cluster, maxGroups: 2, minGroups: -2}", "{spreadByField: cluster, maxGroups: 5, minGroups: 3}", "{spreadByLabel: grouped-by-net, maxGroups: 5, minGroups: 3}"),
			want:  []string{"minGroups lower than 0 is not allowed", "multiple cluster spread constraints are not allowed"},
			count: 2},
		{name: "spreadConstraint has multiple region spread constraints",
			spec: spread("{spreadByField: region, maxGroups: 1, minGroups: 3}", "{spreadByField: region, maxGroups: 4, minGroups: 2}",
				"{spreadByField: region, maxGroups: 6, minGroups: 5}", "{spreadByField: cluster, maxGroups: 10, minGroups: 5}"),
			want:  []string{"maxGroups lower than minGroups is not allowed", "multiple region spread constraints are not allowed"},
			count: 2},
		{name: "spreadConstraint spreadByFieldCluster must be included if using spreadByField", spec: spread("{spreadByField: region}"),
			want: []string{"the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled"}},
	})
}

// TestClusterFailoverKarmadaRows are the rows of Karmada's
// TestValidateClusterFailover (pkg/util/validation/validation_test.go at
// f8fdd02): spec.failover.cluster of a PropagationPolicy. Karmada's test
// compares the whole message, so drydock's must end with it.
func TestClusterFailoverKarmadaRows(t *testing.T) {
	const rule = "      statePreservation: {rules: [{aliasLabelName: %s, jsonPath: '{.status.nodeCount}'}]}\n"
	tests := []struct{ name, failover, want string }{
		{"cluster failover is nil", "", ""},
		{"cluster failover with valid statePreservation",
			"  failover:\n    cluster:\n      purgeMode: Gracefully\n" + strings.Replace(rule, "%s", "cluster-state", 1), ""},
		{"cluster failover with invalid statePreservation",
			"  failover:\n    cluster:\n      purgeMode: Directly\n" + strings.Replace(rule, "%s", "'-invalid-cluster-label'", 1),
			"spec.failover.cluster.statePreservation.rules[0].aliasLabelName: Invalid value: \"-invalid-cluster-label\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
		{"cluster failover without statePreservation", "  failover:\n    cluster: {purgeMode: Gracefully}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, ppHead+ppDeployments+tt.failover)[0])
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.HasSuffix(manifest.Format(err, nil), ": "+tt.want) {
				t.Fatalf("error %v,\nwant ErrInvalid ending with %q", err, tt.want)
			}
		})
	}
}

// TestApplicationFailoverAsWrittenKarmadaRows are the rows of Karmada's
// TestValidateApplicationFailover (pkg/util/validation/validation_test.go
// at f8fdd02) that TestApplicationFailoverKarmadaRows leaves out, among
// them the one whose denial aggregates two errors; Karmada compares the
// whole message. Left out: "the gracePeriodSeconds is empty when purgeMode
// is gracefully", because Karmada's mutating webhook sets 600 seconds
// before validation runs, so the API server admits that policy (as
// drydock does).
func TestApplicationFailoverAsWrittenKarmadaRows(t *testing.T) {
	const head = ppHead + ppDeployments + "  propagateDeps: true\n"
	const app = "  failover:\n    application:\n      decisionConditions: {tolerationSeconds: 100}\n"
	rules := func(rs ...string) string {
		s := app + "      statePreservation:\n        rules:\n"
		for i := 0; i < len(rs); i += 2 {
			s += "        - {aliasLabelName: '" + rs[i] + "', jsonPath: '" + rs[i+1] + "'}\n"
		}
		return s
	}
	const regex = ": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	tests := []struct{ name, failover, want string }{
		{"application failover is nil", "", ""},
		{"statePreservation is nil", app, ""},
		{"statePreservation with valid rules", rules("valid-label-name", "{.availableReplicas}", "example.com/state-key", "{.readyReplicas}"), ""},
		{"statePreservation with multiple invalid rules", rules("-invalid1", "{.availableReplicas}", "invalid2@", "{.readyReplicas}"),
			`[spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "-invalid1"` + regex +
				`, spec.failover.application.statePreservation.rules[1].aliasLabelName: Invalid value: "invalid2@"` + regex + "]"},
		{"statePreservation with valid prefix in aliasLabelName", rules("example.com/my-state", "{.availableReplicas}"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, head+tt.failover)[0])
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.HasSuffix(manifest.Format(err, nil), ": "+tt.want) {
				t.Fatalf("error %v,\nwant ErrInvalid ending with %q", err, tt.want)
			}
		})
	}
}

// TestOverflowAffinitiesKarmadaRows are the rows of Karmada's
// TestValidateOverflowAffinities (pkg/util/validation/validation_test.go at
// f8fdd02): the term is spec.placement.clusterAffinities[0] of a policy
// dividing replicas by Aggregated, which allows overflow affinities, so
// only the term's own checks speak. Where Karmada counts two errors, its
// denial aggregates both and so must drydock's. A term Karmada admits is
// still refused offline (clusterAffinities need live scheduling).
func TestOverflowAffinitiesKarmadaRows(t *testing.T) {
	const head = ppHead + ppDeployments + "  placement:\n    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}\n    clusterAffinities:\n    - affinityName: primary\n"
	const member1 = "      clusterNames: [member1]\n"
	overflow := func(names ...string) string {
		s := "      overflowAffinities:\n"
		for i, n := range names {
			s += "      - {affinityName: " + n + ", clusterNames: [member" + string(rune('2'+i)) + "]}\n"
		}
		return s
	}
	const inline = "overflowAffinities can only be used together with the inline ClusterAffinity"
	const unique = "overflow affinity name must be unique and must not duplicate the primary group's affinityName"
	runOfflineRows(t, head, []offlineRow{
		{name: "no overflow affinities, no error", spec: member1},
		{name: "valid overflow affinities", spec: member1 + overflow("overflow-1", "overflow-2")},
		{name: "overflow affinities without ClusterAffinity", spec: overflow("overflow-1"), want: []string{inline}, count: 1},
		{name: "duplicate overflow affinity names", spec: member1 + overflow("overflow-1", "overflow-1"), want: []string{unique}, count: 1},
		{name: "overflow affinity name duplicates primary group's affinityName", spec: member1 + overflow("primary"), want: []string{unique}, count: 1},
		{name: "multiple errors: empty ClusterAffinity and duplicate names", spec: overflow("overflow-1", "overflow-1"), want: []string{inline, unique}, count: 2},
	})
}

// TestPropagationPolicyWebhookKarmadaRows are the create-time rows of
// Karmada's TestValidatingAdmission_Handle in
// pkg/webhook/propagationpolicy/validating_test.go and
// pkg/webhook/clusterpropagationpolicy/validating_test.go (f8fdd02). Left
// out: Handle_DecodeError (a failing decoder has no YAML counterpart),
// Handle_SchedulerNameUpdated and Handle_PermanentIDLabelUpdated (they
// compare an update with the object it replaces; drydock only creates),
// and Handle_PermanentIDLabelMissing (Karmada's mutating webhook always
// sets that label on create before validation runs). Karmada's
// ValidationSucceeds policies have no selector, which the CRD requires;
// here they select Deployments. Karmada's test compares the whole denial.
func TestPropagationPolicyWebhookKarmadaRows(t *testing.T) {
	const cpp = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: p}\nspec:\n"
	tests := []struct{ name, src, want string }{
		{"Handle_ValidationSucceeds_AllowsAdmission", ppHead + ppDeployments + "  schedulerName: default-scheduler\n", ""},
		{"Handle_ResourceSelectorNamespaceMismatch_DeniesAdmission",
			"apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: ns-1}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: ns-2}]\n",
			`spec.resourceSelectors[0].namespace: Invalid value: "ns-2": namespace of resource selector must be the same as the namespace of the policy`},
		{"clusterpropagationpolicy: Handle_ValidationSucceeds_AllowsAdmission", cpp + ppDeployments + "  schedulerName: default-scheduler\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, tt.src)[0])
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.HasSuffix(manifest.Format(err, nil), ": "+tt.want) {
				t.Fatalf("error %v,\nwant ErrInvalid ending with %q", err, tt.want)
			}
		})
	}
}

// TestPropagationPolicyMutatingKarmadaRows are Karmada's
// TestMutatingAdmission_Handle_FullCoverage in
// pkg/webhook/propagationpolicy/mutating_test.go and
// pkg/webhook/clusterpropagationpolicy/mutating_test.go (f8fdd02): the
// defaults that let the policy through validation (a spread constraint by
// cluster with minGroups 1, Weighted division, propagateDeps because a
// ServiceImport is selected, a 600-second grace period), and the policy's
// namespace on selectors without one. Karmada's PropagationPolicy also has
// a selector with only a namespace, which the CRD refuses: it is left
// out. The parsed policy is checked. The permanent-id label and the
// finalizer Karmada adds have no offline use; Handle_DecodeError has no
// YAML counterpart.
func TestPropagationPolicyMutatingKarmadaRows(t *testing.T) {
	const spec = "spec:\n  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport}]\n  failover: {application: {decisionConditions: {}, purgeMode: Gracefully}}\n" +
		"  placement:\n    replicaScheduling: {replicaSchedulingType: Divided}\n"
	const spread = "    spreadConstraints: [{minGroups: 0}]\n"
	policies := map[string]string{
		"propagationpolicy":        "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: test-propagation-policy, namespace: test-namespace}\n" + spec,
		"clusterpropagationpolicy": "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: test-cp-policy}\n" + spec,
	}
	for name, src := range policies {
		t.Run(name, func(t *testing.T) {
			p := parse(t, src+spread)
			wantNS := map[string]string{"propagationpolicy": "test-namespace"}[name]
			if diff := cmp.Diff([]string{wantNS, Divided, Weighted}, []string{p.Selectors[0].Namespace, p.Scheduling, p.Preference}); diff != "" {
				t.Errorf("selector namespace and scheduling (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]SpreadConstraint{{Field: SpreadCluster, MinGroups: 1}}, p.Spread); diff != "" {
				t.Errorf("spread constraints (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPolicyHelperKarmadaRows are the rows of Karmada's
// pkg/util/helper/policy_test.go (f8fdd02) about what drydock derives from
// a policy: TestSetDefaultSpreadConstraints, TestCheckMatchServiceImport
// (through its effect: application failover without propagateDeps is
// admitted when a ServiceImport is selected), TestIsReplicaDynamicDivided
// (on a stored, that is defaulted, policy it is the same predicate as the
// IsOverflowSchedulingAllowed that drydock's overflowAllowed applies),
// TestSetReplicaDivisionPreferenceWeighted and
// TestSetDefaultGracePeriodSeconds (through the unexported accessors that
// apply those defaults).
// Left out: TestIsDependentOverridesPresent and
// TestIsDependentClusterOverridesPresent (they look policies up in a live
// API server) and TestGetAppliedPlacement (it reads an annotation Karmada
// writes on live templates, which drydock does not).
func TestPolicyHelperKarmadaRows(t *testing.T) {
	t.Run("TestSetDefaultSpreadConstraints", func(t *testing.T) {
		tests := []struct {
			name string
			in   map[string]any
			want spreadConstraint
		}{
			{"set spreadByField", map[string]any{"minGroups": int64(1)}, spreadConstraint{field: "cluster", minGroups: 1}},
			{"set minGroups", map[string]any{"spreadByField": "cluster"}, spreadConstraint{field: "cluster", minGroups: 1}},
		}
		for _, tt := range tests {
			if diff := cmp.Diff(tt.want, defaultSpread(tt.in), cmp.AllowUnexported(spreadConstraint{})); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.name, diff)
			}
		}
	})
	t.Run("TestCheckMatchServiceImport", func(t *testing.T) {
		const failover = "  failover: {application: {decisionConditions: {}}}\n"
		runOfflineRows(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: bar}\nspec:\n"+failover, []offlineRow{
			{name: "get followed resource selector", spec: "  resourceSelectors: [{apiVersion: v1, kind: ServiceImport, name: foo1}, {apiVersion: v1, kind: Service, name: foo2, namespace: bar}, {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: foo3, namespace: bar}]\n"},
			{name: "no ServiceImport of multicluster.x-k8s.io/v1alpha1", spec: "  resourceSelectors: [{apiVersion: v1, kind: ServiceImport, name: foo1}, {apiVersion: v1, kind: Service, name: foo2, namespace: bar}]\n",
				want: []string{"spec.propagateDeps: Invalid value: false: application failover is set, propagateDeps must be true"}},
		})
	})
	t.Run("TestIsReplicaDynamicDivided", func(t *testing.T) {
		tests := []struct {
			name     string
			strategy map[string]any
			want     bool
		}{
			{"strategy empty", nil, false},
			{"strategy duplicated", map[string]any{"replicaSchedulingType": Duplicated}, false},
			{"strategy division preference weighted", map[string]any{"replicaSchedulingType": Divided, "replicaDivisionPreference": Weighted,
				"weightPreference": map[string]any{"dynamicWeight": "AvailableReplicas"}}, true},
			{"strategy division preference aggregated", map[string]any{"replicaSchedulingType": Divided, "replicaDivisionPreference": Aggregated}, true},
		}
		for _, tt := range tests {
			if got := overflowAllowed(placementWith(tt.strategy)); got != tt.want {
				t.Errorf("%s: got %t, want %t", tt.name, got, tt.want)
			}
		}
	})
	t.Run("TestSetReplicaDivisionPreferenceWeighted", func(t *testing.T) {
		tests := []struct {
			name     string
			strategy map[string]any
			want     string
		}{
			{"no replica scheduling strategy declared", nil, ""},
			{"specified aggregated division preference", map[string]any{"replicaSchedulingType": Divided, "replicaDivisionPreference": Aggregated}, Aggregated},
			{"unspecified replica division preference", map[string]any{"replicaSchedulingType": Divided}, Weighted},
		}
		for _, tt := range tests {
			if got := divisionPreference(placementWith(tt.strategy)); got != tt.want {
				t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
			}
		}
	})
	t.Run("TestSetDefaultGracePeriodSeconds", func(t *testing.T) {
		tests := []struct {
			name     string
			behavior map[string]any
			want     int64
			set      bool
		}{
			{"purgeMode is not gracefully", map[string]any{"purgeMode": "Never"}, 0, false},
			{"purgeMode is gracefully and gracePeriodSeconds is set", map[string]any{"purgeMode": "Gracefully", "gracePeriodSeconds": int64(200)}, 200, true},
			{"purgeMode is gracefully and gracePeriodSeconds is not set", map[string]any{"purgeMode": "Gracefully"}, 600, true},
		}
		for _, tt := range tests {
			n, set := gracePeriod(tt.behavior)
			if n != tt.want || set != tt.set {
				t.Errorf("%s: got %d (set %t), want %d (set %t)", tt.name, n, set, tt.want, tt.set)
			}
		}
	})
}

// placementWith is a placement with the given replicaScheduling (none
// when nil).
func placementWith(strategy map[string]any) map[string]any {
	if strategy == nil {
		return map[string]any{}
	}
	return map[string]any{"replicaScheduling": strategy}
}

// TestDefaultedDivisionAllowsOverflow: Karmada's mutating webhook makes a
// Divided policy without a division preference Weighted before validation,
// so dynamic weights allow overflow affinities there too.
func TestDefaultedDivisionAllowsOverflow(t *testing.T) {
	runOfflineRows(t, ppHead+ppDeployments, []offlineRow{
		{name: "dynamic weight, preference defaulted",
			spec: "  placement:\n    replicaScheduling: {replicaSchedulingType: Divided, weightPreference: {dynamicWeight: AvailableReplicas}}\n" +
				"    clusterAffinities: [{affinityName: primary, clusterNames: [m1], overflowAffinities: [{affinityName: o, clusterNames: [m2]}]}]\n"},
	})
}

// TestValidateAggregates: like Karmada's webhook, Parse reports every field
// error of a policy in one denial, between brackets, positioned at the
// first; a policy Karmada denies is invalid even where drydock would also
// refuse it offline.
func TestValidateAggregates(t *testing.T) {
	tests := []struct{ name, spec, want string }{
		{"spread and tolerations",
			"  placement:\n    spreadConstraints: [{spreadByField: region, minGroups: -1}]\n    clusterTolerations: [{key: a, operator: Gt, value: '1'}]\n",
			`test.yaml:7:25: PropagationPolicy default/p: invalid propagation policy: [spec.placement.spreadConstraints[0]: Invalid value: minGroups lower than 0 is not allowed, ` +
				`spec.placement.spreadConstraints: Invalid value: the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled, ` +
				`spec.placement.clusterTolerations[0].operator: Unsupported value: "Gt": supported values: "", "Exists", "Equal"]`},
		{"invalid and equal workload affinity keys", "  placement:\n    workloadAffinity: {affinity: {groupByLabelKey: 'a b'}, antiAffinity: {groupByLabelKey: 'a b'}}\n",
			`test.yaml:7:52: PropagationPolicy default/p: invalid propagation policy: [spec.placement.workloadAffinity.affinity.groupByLabelKey: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), ` +
				`spec.placement.workloadAffinity.antiAffinity.groupByLabelKey: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), ` +
				`spec.placement.workloadAffinity: Invalid value: affinity and antiAffinity must not use the same groupByLabelKey]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, ppHead+ppDeployments+tt.spec)[0])
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v: want ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFailoverRequiredFields: the CRD schema requires decisionConditions
// of an application failover, rules of a statePreservation and
// aliasLabelName and jsonPath of a rule; the API server refuses a policy
// without them before any webhook runs.
func TestFailoverRequiredFields(t *testing.T) {
	const head = ppHead + ppDeployments + "  propagateDeps: true\n"
	runParseRows(t, head, []parseRow{
		{"application without decisionConditions", "  failover: {application: {purgeMode: Directly}}\n", "spec.failover.application.decisionConditions: Required value"},
		{"statePreservation without rules", "  failover: {cluster: {statePreservation: {}}}\n", "spec.failover.cluster.statePreservation.rules: Required value"},
		{"rule without jsonPath", "  failover: {application: {decisionConditions: {}, statePreservation: {rules: [{aliasLabelName: a}]}}}\n",
			"spec.failover.application.statePreservation.rules[0].jsonPath: Required value"},
		{"rule without aliasLabelName", "  failover: {cluster: {statePreservation: {rules: [{jsonPath: '{.x}'}]}}}\n",
			"spec.failover.cluster.statePreservation.rules[0].aliasLabelName: Required value"},
	})
}
