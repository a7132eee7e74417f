package schemas

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// TestKarmadaSchemas: policies Karmada's CRD schemas refuse, with the API
// server's messages (Karmada f8fdd02 CRDs; apimachinery v0.36 wording).
func TestKarmadaSchemas(t *testing.T) {
	const pp = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n"
	const op = "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: o, namespace: default}\nspec:\n"
	sel := "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"valid", pp + sel + "  placement: {clusterAffinity: {clusterNames: [a]}, replicaScheduling: {replicaSchedulingType: Divided, weightPreference: {staticWeightList: [{targetCluster: {}, weight: 2}]}}}\n", nil},
		{"selectors not a list", pp + "  resourceSelectors: {apiVersion: apps/v1, kind: Deployment}\n",
			[]string{`test.yaml:5:22: spec.resourceSelectors: Invalid value: "object": spec.resourceSelectors in body must be of type array: "object"`}},
		{"no selectors", pp + "  resourceSelectors: []\n",
			[]string{`test.yaml:5:22: spec.resourceSelectors: Invalid value: 0: spec.resourceSelectors in body should have at least 1 items`}},
		{"selector without kind", pp + "  resourceSelectors: [{apiVersion: v1}]\n",
			[]string{`test.yaml:5:23: spec.resourceSelectors[0].kind: Required value`}},
		{"weight not an integer", pp + sel + "  placement: {replicaScheduling: {weightPreference: {staticWeightList: [{targetCluster: {}, weight: heavy}]}}}\n",
			[]string{`spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight: Invalid value: "string": spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight in body must be of type integer: "string"`}},
		{"weight below 1", pp + sel + "  placement: {replicaScheduling: {weightPreference: {staticWeightList: [{targetCluster: {}, weight: 0}]}}}\n",
			[]string{`staticWeightList[0].weight: Invalid value: 0: spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight in body should be greater than or equal to 1`}},
		{"maxGroups a string", pp + sel + "  placement: {spreadConstraints: [{spreadByField: cluster, maxGroups: two}]}\n",
			[]string{`spec.placement.spreadConstraints[0].maxGroups: Invalid value: "string": spec.placement.spreadConstraints[0].maxGroups in body must be of type integer: "string"`}},
		{"whole float is an integer", pp + sel + "  priority: 2.0\n", nil},
		{"enum", pp + sel + "  conflictResolution: Merge\n",
			[]string{`test.yaml:6:23: spec.conflictResolution: Unsupported value: "Merge": supported values: "Abort", "Overwrite"`}},
		{"placement a list", pp + sel + "  placement: [{clusterAffinity: {}}]\n",
			[]string{`spec.placement: Invalid value: "array": spec.placement in body must be of type object: "array"`}},
		{"affinity name too long", pp + sel + "  placement: {clusterAffinities: [{affinityName: " + strings.Repeat("a", 33) + "}]}\n",
			[]string{`spec.placement.clusterAffinities[0].affinityName: Too long: may not be more than 32 bytes`}},
		{"unknown fields", pp + sel + "  placment: {}\n  placement: {clusterAfinity: {}}\n",
			[]string{`test.yaml:6:13: strict decoding error: unknown field "spec.placment", unknown field "spec.placement.clusterAfinity"`}},
		{"nulls are absent", pp + sel + "  placement: null\n  priority: null\n", nil},
		{"override kinds", op + "  overrideRules: [{overriders: {imageOverrider: [{component: Tag, operator: add, value: x}], plaintext: [{path: /a, operator: merge}]}}]\n",
			[]string{`spec.overrideRules[0].overriders.plaintext[0].operator: Unsupported value: "merge": supported values: "add", "remove", "replace"`}},
		{"several at once", pp + sel + "  conflictResolution: Merge\n  preemption: Sometimes\n", []string{
			`spec.conflictResolution: Unsupported value: "Merge"`, `spec.preemption: Unsupported value: "Sometimes": supported values: "Always", "Never"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("test.yaml", []byte(tt.src), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			errs := Karmada(objs[0].Kind()).Validate(objs[0])
			var got []string
			for _, e := range errs {
				got = append(got, e.Pos.String()+": "+e.Msg)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("errors %q, want %d", got, len(tt.want))
			}
			for i := range got {
				if !strings.Contains(got[i], tt.want[i]) {
					t.Errorf("error %d: %q\nwant it to contain %q", i, got[i], tt.want[i])
				}
			}
		})
	}
	if Karmada("PropagationPolicy") != Karmada("ClusterPropagationPolicy") || Karmada("OverridePolicy") != Karmada("ClusterOverridePolicy") {
		t.Errorf("a cluster-scoped kind does not share its namespaced twin's schema")
	}
}
