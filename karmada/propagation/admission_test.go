package propagation

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/fieldpath"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestAdmitted: rows translated from Karmada's (f8fdd02)
// pkg/util/helper/policy_test.go (TestSetDefaultSpreadConstraints,
// TestSetReplicaDivisionPreferenceWeighted, TestSetDefaultGracePeriodSeconds,
// TestCheckMatchServiceImport) and pkg/webhook/propagationpolicy/mutating_test.go,
// plus the CRD's defaults; want is the spec the schema check sees.
func TestAdmitted(t *testing.T) {
	const sel = "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"
	const crd = "conflictResolution: Abort\npreemption: Never\npriority: 0\nschedulerName: default-scheduler\n"
	const selNS = "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: ns}]\n"
	tests := []struct{ name, kind, spec, want string }{
		{"set spreadByField", KindPropagationPolicy, "  placement: {spreadConstraints: [{minGroups: 1}]}\n",
			crd + "placement: {spreadConstraints: [{spreadByField: cluster, minGroups: 1}]}\n" + selNS},
		{"set minGroups", KindPropagationPolicy, "  placement: {spreadConstraints: [{spreadByField: cluster}]}\n",
			crd + "placement: {spreadConstraints: [{spreadByField: cluster, minGroups: 1}]}\n" + selNS},
		{"explicit empty spreadByField is defaulted", KindPropagationPolicy, "  placement: {spreadConstraints: [{spreadByField: '', minGroups: 0}]}\n",
			crd + "placement: {spreadConstraints: [{spreadByField: cluster, minGroups: 1}]}\n" + selNS},
		{"spreadByLabel kept", KindPropagationPolicy, "  placement: {spreadConstraints: [{spreadByLabel: zone, minGroups: 2}]}\n",
			crd + "placement: {spreadConstraints: [{spreadByLabel: zone, minGroups: 2}]}\n" + selNS},
		{"no replica scheduling strategy declared", KindPropagationPolicy, "  placement: {}\n", crd + "placement: {}\n" + selNS},
		{"specified aggregated division preference", KindPropagationPolicy,
			"  placement: {replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}}\n",
			crd + "placement: {replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}}\n" + selNS},
		{"unspecified replica division preference", KindPropagationPolicy,
			"  placement: {replicaScheduling: {replicaSchedulingType: Divided}}\n",
			crd + "placement: {replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted}}\n" + selNS},
		{"empty replicaScheduling is Divided by the CRD, Weighted by the webhook", KindPropagationPolicy,
			"  placement: {replicaScheduling: {}}\n",
			crd + "placement: {replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted}}\n" + selNS},
		{"Duplicated has no preference", KindPropagationPolicy,
			"  placement: {replicaScheduling: {replicaSchedulingType: Duplicated}}\n",
			crd + "placement: {replicaScheduling: {replicaSchedulingType: Duplicated}}\n" + selNS},
		{"purgeMode is not gracefully", KindPropagationPolicy, "  failover: {application: {purgeMode: Never}}\n",
			crd + "failover: {application: {purgeMode: Never}}\n" + selNS},
		{"purgeMode is gracefully and gracePeriodSeconds is set", KindPropagationPolicy,
			"  failover: {application: {purgeMode: Gracefully, gracePeriodSeconds: 200}}\n",
			crd + "failover: {application: {purgeMode: Gracefully, gracePeriodSeconds: 200}}\n" + selNS},
		{"purgeMode defaults to gracefully, gracePeriodSeconds to 600", KindPropagationPolicy,
			"  failover: {application: {decisionConditions: {}}, cluster: {}}\n",
			crd + "failover: {application: {purgeMode: Gracefully, gracePeriodSeconds: 600, decisionConditions: {tolerationSeconds: 300}}, cluster: {purgeMode: Gracefully}}\n" + selNS},
		{"ServiceImport propagates its dependencies", KindClusterPropagationPolicy,
			"  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport}]\n",
			crd + "propagateDeps: true\nresourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport}]\n"},
		{"ServiceImport of another group", KindClusterPropagationPolicy,
			"  resourceSelectors: [{apiVersion: example.io/v1, kind: ServiceImport}]\n",
			crd + "resourceSelectors: [{apiVersion: example.io/v1, kind: ServiceImport}]\n"},
		{"a ClusterPropagationPolicy's selectors keep no namespace", KindClusterPropagationPolicy, "",
			crd + "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"},
		{"a selector's own namespace is kept", KindPropagationPolicy,
			"  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: other}]\n",
			crd + "resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: other}]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			if !strings.Contains(spec, "resourceSelectors") {
				spec = sel + spec
			}
			doc := "apiVersion: policy.karmada.io/v1alpha1\nkind: " + tt.kind + "\nmetadata: {name: p, namespace: ns}\nspec:\n" + spec
			got := admitted(decode(t, doc)[0], "ns").Data["spec"]
			var want map[string]any
			if err := yaml.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(normal(t, want), normal(t, got)); diff != "" {
				t.Errorf("spec (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAdmittedLeavesInput: the input object is not changed, and the
// copy keeps its positions.
func TestAdmittedLeavesInput(t *testing.T) {
	obj := decode(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: ns}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n")[0]
	out := admitted(obj, "ns")
	if _, ok := obj.Data["spec"].(map[string]any)["priority"]; ok {
		t.Error("the input was defaulted")
	}
	path := fieldpath.New("spec", "resourceSelectors")
	if got, want := out.FieldPos(path), obj.FieldPos(path); got != want || !got.IsValid() {
		t.Errorf("position %v, want %v", got, want)
	}
	if got := admitted(decode(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\n")[0], "default").Data["spec"]; got != nil {
		t.Errorf("a policy without spec got %v", got)
	}
}

// normal gives numbers one type (YAML decoders differ in int kinds).
func normal(t *testing.T, v any) any {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParseAdmits: Parse checks the schema after the defaults, so what
// the webhook fills in is accepted and used.
func TestParseAdmits(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"
	p := parse(t, head+"  placement: {spreadConstraints: [{spreadByField: ''}]}\n")
	if diff := cmp.Diff([]SpreadConstraint{{Field: SpreadCluster, MinGroups: 1}}, p.Spread); diff != "" {
		t.Errorf("spread (-want +got):\n%s", diff)
	}
	p = parse(t, head+"  placement: {replicaScheduling: {}}\n")
	if p.Scheduling != Divided || p.Preference != Weighted {
		t.Errorf("replicaScheduling {} is %s/%s, want Divided/Weighted", p.Scheduling, p.Preference)
	}
}
