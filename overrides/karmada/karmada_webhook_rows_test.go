package karmada

import (
	"errors"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestOverridePolicyWebhookKarmadaRows are the create-time rows of
// Karmada's TestValidatingAdmission_Handle in
// pkg/webhook/overridepolicy/validating_test.go and
// pkg/webhook/clusteroverridepolicy/validating_test.go (f8fdd02), written
// as policies: Karmada's denial message must be part of drydock's error, as
// Karmada's test checks with strings.Contains; "" means admitted. The
// Handle_DecodeError rows are left out: they feed the handler a decoder
// that fails, which has no YAML counterpart. Karmada's policies without a
// namespace get kubectl's "default" here; they select nothing in it, so
// the namespace rule is not involved.
func TestOverridePolicyWebhookKarmadaRows(t *testing.T) {
	const op = "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p}\nspec:\n"
	const cop = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec:\n"
	const sel = "  resourceSelectors: [{apiVersion: test-apiversion, kind: test}]\n"
	const badLabel = "  overrideRules: [{targetCluster: {clusterNames: [member1]}, overriders: {labelsOverrider: [{operator: add, value: {'testannotation~projectId': c-m-lfx9lk92p-v86cf}}]}}]\n"
	const remove = "  overrideRules: [{targetCluster: {clusterNames: [member1]}, overriders: {plaintext: [{path: /spec/optional, operator: remove}]}}]\n"
	field := func(f string) string {
		return "  overrideRules: [{overriders: {fieldOverrider: [" + f + "]}}]\n"
	}
	const pointer = `: JSON pointer must be empty or start with a "/`
	tests := []struct{ name, src, want string }{
		{"Handle_ValidationOverrideSpecFails_DeniesAdmission", op + sel + badLabel, `Invalid value: "testannotation~projectId"`},
		{"Handle_ValidationSucceeds_AllowsAdmission", op + sel + remove, ""},
		{"Handle_FieldOverrider_ContainsBothYAMLAndJSON_DeniesAdmission", op + sel +
			"  overrideRules: [{targetCluster: {clusterNames: [member1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, json: [{subPath: /db-config, operator: replace, value: {db: new}}], yaml: [{subPath: /db-config, operator: replace, value: 'db: new'}]}]}}]\n",
			"FieldOverrider has both YAML and JSON set. Only one is allowed"},
		{"Handle_InvalidFieldPathInYAML_DeniesAdmission", op + field("{fieldPath: invalidPath, yaml: [{subPath: /db-config, operator: replace, value: 'db: new'}]}"),
			`spec.overrideRules[0].overriders.fieldOverrider[0].fieldPath: Invalid value: "invalidPath"` + pointer},
		{"Handle_InvalidJSONSubPath_DeniesAdmission", op + field("{fieldPath: /data/config, json: [{subPath: invalidSubPath, operator: replace, value: {db: new}}]}"),
			`spec.overrideRules[0].overriders.fieldOverrider[0].json[0].subPath: Invalid value: "invalidSubPath"` + pointer},
		{"Handle_InvalidYAMLSubPath_DeniesAdmission", op + field("{fieldPath: /data/config, yaml: [{subPath: invalidSubPath, operator: replace, value: 'db: new'}]}"),
			`spec.overrideRules[0].overriders.fieldOverrider[0].yaml[0].subPath: Invalid value: "invalidSubPath"` + pointer},
		{"Handle_InvalidJSONValue_DeniesAdmission_OverriderOpReplace", op + field("{fieldPath: /data/config, json: [{subPath: /db-config, operator: replace}]}"),
			"spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value: Invalid value: null: value is required for add or replace operation"},
		{"Handle_InvalidJSONValue_DeniesAdmission_OverriderOpAdd", op + field("{fieldPath: /data/config, json: [{subPath: /db-config, operator: add}]}"),
			"spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value: Invalid value: null: value is required for add or replace operation"},
		{"Handle_InvalidJSONValue_DeniesAdmission_OverriderOpRemove", op + field("{fieldPath: /data/config, json: [{subPath: /db-config, operator: remove, value: {db: new}}]}"),
			`spec.overrideRules[0].overriders.fieldOverrider[0].json[0].value: Invalid value: {"db":"new"}: value is not allowed for remove operation`},
		{"Handle_ResourceSelectorNamespaceMismatch_DeniesAdmission",
			"apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p, namespace: ns-1}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: ns-2}]\n",
			`spec.resourceSelectors[0].namespace: Invalid value: "ns-2": namespace of resource selector must be the same as the namespace of the policy`},
		{"clusteroverridepolicy: Handle_ValidationClusterOverrideSpecFails_DeniesAdmission", cop + sel + badLabel, `Invalid value: "testannotation~projectId"`},
		{"clusteroverridepolicy: Handle_ValidationSucceeds_AllowsAdmission", cop + sel + remove, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, tt.src)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(manifest.Format(err, nil), tt.want) {
				t.Fatalf("error %v,\nwant ErrInvalid containing %q", err, tt.want)
			}
		})
	}
}

// TestOverridePolicyMutatingKarmadaRows is Karmada's
// TestMutatingAdmission_Handle_FullCoverage
// (pkg/webhook/overridepolicy/mutating_test.go at f8fdd02): selectors
// without a namespace get the policy's. Karmada's selectors carry only a
// namespace; the CRD requires apiVersion and kind, so these have them. Its
// Handle_DecodeError row has no YAML counterpart.
func TestOverridePolicyMutatingKarmadaRows(t *testing.T) {
	p, err := parseOne(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: test-override-policy, namespace: test-namespace}\nspec:\n"+
		"  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}, {apiVersion: apps/v1, kind: Deployment}]\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p.ResourceSelectors {
		got = append(got, s.Namespace)
	}
	if diff := cmp.Diff([]string{"test-namespace", "test-namespace"}, got); diff != "" {
		t.Errorf("selector namespaces (-want +got):\n%s", diff)
	}
}

// TestEmptyOverridesKarmadaRows are the rows of Karmada's TestEmptyOverrides
// (pkg/util/validation/validation_test.go at f8fdd02): which overriders
// count for "overrideRules and overriders can't co-exist".
func TestEmptyOverridesKarmadaRows(t *testing.T) {
	tests := []struct {
		name       string
		overriders Overriders
		want       bool
	}{
		{"empty overrides", Overriders{}, true},
		{"non-empty overrides", Overriders{Plaintext: []Operation{{Path: "spec/image"}}}, false},
		{"non-empty overrides (plaintext, image and command)", Overriders{
			Plaintext: []Operation{{Path: "spec/image"}},
			Image:     []ImageOverrider{{Component: ComponentRegistry, Operator: OpRemove, Value: "fictional.registry.us"}},
			Command:   []CommandArgsOverrider{{ContainerName: "nginx", Operator: OpAdd, Value: []string{"echo 'hello karmada'"}}},
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := emptyOverriders(tt.overriders); got != tt.want {
				t.Errorf("emptyOverriders() = %t, want %t", got, tt.want)
			}
		})
	}
}

// TestValidateAggregates: like Karmada's webhook, Parse reports every field
// error of a policy in one denial, between brackets, positioned at the
// first. The first row is TestValidateOverrideSpec's "overrideRules,
// targetCluster and overriders can't co-exist", whose two errors Karmada's
// test does not spell out.
func TestValidateAggregates(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec:\n"
	const plaintext = "{plaintext: [{path: /spec/replicas, operator: replace, value: 1}]}"
	tests := []struct{ name, spec, want string }{
		{"overrideRules, targetCluster and overriders can't co-exist",
			"  targetCluster: {clusterNames: [c1]}\n  overriders: " + plaintext + "\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n",
			`p.yaml:5:18: ClusterOverridePolicy p: [spec.targetCluster: Invalid value: {"clusterNames":["c1"]}: overrideRules and targetCluster can't co-exist, ` +
				`spec.overriders: Invalid value: {"plaintext":[{"operator":"replace","path":"/spec/replicas","value":1}]}: overrideRules and overriders can't co-exist]`},
		{"label key and value both invalid",
			"  overrideRules: [{overriders: {labelsOverrider: [{operator: add, value: {'a~b': 'c~d'}}]}}]\n",
			`p.yaml:5:82: ClusterOverridePolicy p: [spec.overrideRules[0].overriders.labelsOverrider[0].value: Invalid value: "a~b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), ` +
				`spec.overrideRules[0].overriders.labelsOverrider[0].value: Invalid value: "c~d": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, head+tt.spec)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v: want ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
