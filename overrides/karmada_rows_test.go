package overrides

import "testing"

// TestValidateOverrideSpecKarmadaRows are the rows of Karmada's
// TestValidateOverrideSpec (pkg/util/validation at f8fdd02), written as
// ClusterOverridePolicies: whether Karmada's webhook refuses the spec.
func TestValidateOverrideSpecKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"
	const plaintext = "{plaintext: [{path: /spec/replicas, operator: replace, value: 1}]}"
	tests := []struct {
		name, spec string
		wantErr    bool
	}{
		{"overrideRules is set, overriders and targetCluster aren't set", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", false},
		{"overriders and targetCluster are set, overrideRules isn't set", "  targetCluster: {clusterNames: [c1]}\n  overriders: " + plaintext + "\n", false},
		{"overrideRules and targetCluster can't co-exist", "  targetCluster: {clusterNames: [c1]}\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", true},
		{"overrideRules and overriders can't co-exist", "  overriders: " + plaintext + "\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", true},
		{"overrideRules, targetCluster and overriders can't co-exist", "  targetCluster: {clusterNames: [c1]}\n  overriders: " + plaintext + "\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", true},
		{"invalid annotation should not be allowed", "  overrideRules: [{targetCluster: {clusterNames: [cluster-name]}, overriders: {annotationsOverrider: [{operator: add, value: {'testannotation~projectId': c-m-lfx9lk92p-v86cf}}]}}]\n", true},
		{"invalid label should not be allowed", "  overrideRules: [{targetCluster: {clusterNames: [cluster-name]}, overriders: {labelsOverrider: [{operator: add, value: {'testannotation~projectId': c-m-lfx9lk92p-v86cf}}]}}]\n", true},
		{"overrideSpec.targetCluster.fieldSelector has unsupported key", "  targetCluster: {fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [fooCloud]}]}}\n  overriders: " + plaintext + "\n", true},
		{"overrideSpec.targetCluster.fieldSelector has unsupported operator", "  targetCluster: {fieldSelector: {matchExpressions: [{key: provider, operator: Exists, values: [fooCloud]}]}}\n  overriders: " + plaintext + "\n", true},
		{"overrideRules.[index].targetCluster.fieldSelector has unsupported key", "  overrideRules: [{targetCluster: {fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [fooCloud]}]}}, overriders: " + plaintext + "}]\n", true},
		{"overrideRules.[index].targetCluster.fieldSelector has unsupported operator", "  overrideRules: [{targetCluster: {fieldSelector: {matchExpressions: [{key: provider, operator: Exists, values: [fooCloud]}]}}, overriders: " + plaintext + "}]\n", true},
		{"fieldOverrider with neither YAML nor JSON should be rejected", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config}]}}]\n", true},
		{"fieldOverrider with both YAML and JSON set should be rejected", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, json: [{subPath: /a, operator: add, value: x}], yaml: [{subPath: /b, operator: add, value: y}]}]}}]\n", true},
		{"fieldOverrider with only YAML set should be allowed", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, yaml: [{subPath: /b, operator: add, value: y}]}]}}]\n", false},
		{"fieldOverrider with only JSON set should be allowed", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, json: [{subPath: /a, operator: add, value: x}]}]}}]\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, head+tt.spec)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want an error: %t", err, tt.wantErr)
			}
		})
	}
}
