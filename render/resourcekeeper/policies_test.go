package resourcekeeper

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
)

// TestCheckResourcePolicies: ResourcePolicies is the resource keeper's
// parseApplicationResourcePolicy (pkg/resourcekeeper/resourcekeeper.go)
// parses apply-once, garbage-collect, shared-resource, take-over,
// read-only and resource-update in that order with policy.ParsePolicy:
// the properties of the policies of a type merged (mergePolicies) and
// decoded with json.Unmarshal (convertType). A failure is
// "failed to parse <type> policy: failed to unmarshal *v1alpha1.<Spec>: ...".
func TestCheckResourcePolicies(t *testing.T) {
	tests := []struct{ name, policies, wantErr, wantPos string }{
		// TestParsePolicy: a policy without properties is skipped.
		{name: "no properties", policies: "  - {type: garbage-collect}\n  - {type: apply-once}\n"},
		// TestParseGarbageCollectPolicy, TestParseApplyOncePolicy,
		// TestParseSharedResourcePolicy: well-formed specs.
		{name: "well-formed", policies: `  - type: garbage-collect
    properties:
      keepLegacyResource: false
      rules:
      - {selector: {traitTypes: [a]}, strategy: onAppUpdate}
      - {selector: {traitTypes: [b]}, strategy: never}
  - {type: apply-once, properties: {enable: true}}
  - {type: shared-resource, properties: {rules: [{selector: {resourceNames: [example]}}]}}
  - {type: take-over, properties: {rules: [{selector: {componentNames: [c]}}]}}
  - {type: read-only, properties: {rules: [{selector: {resourceTypes: [Deployment]}}]}}
  - {type: resource-update, properties: {rules: [{selector: {componentNames: [c]}, strategy: {op: replace, recreateFields: [spec.selector]}}]}}
`},
		// json.Unmarshal allows unknown fields.
		{name: "unknown fields", policies: "  - {type: garbage-collect, properties: {keepLegacy: true}}\n"},
		{name: "apply-once", policies: "  - name: once\n    type: apply-once\n    properties: {enable: \"true\"}\n",
			wantErr: `app.yaml:9:26: application "a": policy "once": spec.policies[0].properties.enable: failed to parse apply-once policy: failed to unmarshal *v1alpha1.ApplyOncePolicySpec: json: cannot unmarshal string into Go struct field ApplyOncePolicySpec.enable of type bool`,
			wantPos: "app.yaml:9:26"},
		{name: "apply-once strategy", policies: "  - name: once\n    type: apply-once\n    properties: {enable: true, rules: [{strategy: {path: x, affect: onUpdate}}]}\n",
			wantErr: `app.yaml:9:58: application "a": policy "once": spec.policies[0].properties.rules[0].strategy.path: failed to parse apply-once policy: failed to unmarshal *v1alpha1.ApplyOncePolicySpec: json: cannot unmarshal string into Go struct field ApplyOnceStrategy.rules.strategy.path of type []string`,
			wantPos: "app.yaml:9:58"},
		{name: "garbage-collect", policies: "  - name: gc\n    type: garbage-collect\n    properties: {applicationRevisionLimit: \"5\"}\n",
			wantErr: `app.yaml:9:44: application "a": policy "gc": spec.policies[0].properties.applicationRevisionLimit: failed to parse garbage-collect policy: failed to unmarshal *v1alpha1.GarbageCollectPolicySpec: json: cannot unmarshal string into Go struct field GarbageCollectPolicySpec.applicationRevisionLimit of type int`,
			wantPos: "app.yaml:9:44"},
		{name: "shared-resource", policies: "  - name: s\n    type: shared-resource\n    properties: {rules: {selector: {}}}\n",
			wantErr: `app.yaml:9:25: application "a": policy "s": spec.policies[0].properties.rules: failed to parse shared-resource policy: failed to unmarshal *v1alpha1.SharedResourcePolicySpec: json: cannot unmarshal object into Go struct field SharedResourcePolicySpec.rules of type []v1alpha1.SharedResourcePolicyRule`,
			wantPos: "app.yaml:9:25"},
		{name: "take-over", policies: "  - name: t\n    type: take-over\n    properties: {rules: [{selector: {componentNames: c}}]}\n",
			wantErr: `app.yaml:9:54: application "a": policy "t": spec.policies[0].properties.rules[0].selector.componentNames: failed to parse take-over policy: failed to unmarshal *v1alpha1.TakeOverPolicySpec: json: cannot unmarshal string into Go struct field ResourcePolicyRuleSelector.rules.selector.componentNames of type []string`,
			wantPos: "app.yaml:9:54"},
		{name: "read-only", policies: "  - name: r\n    type: read-only\n    properties: {rules: [x]}\n",
			wantErr: `app.yaml:9:26: application "a": policy "r": spec.policies[0].properties.rules[0]: failed to parse read-only policy: failed to unmarshal *v1alpha1.ReadOnlyPolicySpec: json: cannot unmarshal string into Go struct field ReadOnlyPolicySpec.rules of type v1alpha1.ReadOnlyPolicyRule`,
			wantPos: "app.yaml:9:26"},
		{name: "resource-update", policies: "  - name: u\n    type: resource-update\n    properties: {rules: [{strategy: {op: 1}}]}\n",
			wantErr: `app.yaml:9:42: application "a": policy "u": spec.policies[0].properties.rules[0].strategy.op: failed to parse resource-update policy: failed to unmarshal *v1alpha1.ResourceUpdatePolicySpec: json: cannot unmarshal number into Go struct field ResourceUpdateStrategy.rules.strategy.op of type v1alpha1.ResourceUpdateOp`,
			wantPos: "app.yaml:9:42"},
		// apply-once is parsed before garbage-collect.
		{name: "first type first", policies: "  - {name: gc, type: garbage-collect, properties: {order: 1}}\n  - {name: once, type: apply-once, properties: {enable: 1}}\n",
			wantErr: `app.yaml:8:57: application "a": policy "once": spec.policies[1].properties.enable: failed to parse apply-once policy: failed to unmarshal *v1alpha1.ApplyOncePolicySpec: json: cannot unmarshal number into Go struct field ApplyOncePolicySpec.enable of type bool`,
			wantPos: "app.yaml:8:57"},
		// mergePolicies: a value other than a list, an object or true
		// does not replace the first policy's, so a bad one is never
		// decoded.
		{name: "merge keeps the first value", policies: "  - {type: garbage-collect, properties: {order: dependency}}\n  - {type: garbage-collect, properties: {order: 5}}\n"},
		// A bad value the first policy does not have is decoded, and
		// found in the policy that has it.
		{name: "merge takes a new key", policies: "  - {name: g1, type: garbage-collect, properties: {keepLegacyResource: true}}\n  - {name: g2, type: garbage-collect, properties: {order: 5}}\n",
			wantErr: `app.yaml:8:59: application "a": policy "g2": spec.policies[1].properties.order: failed to parse garbage-collect policy: failed to unmarshal *v1alpha1.GarbageCollectPolicySpec: json: cannot unmarshal number into Go struct field GarbageCollectPolicySpec.order of type v1alpha1.GarbageCollectOrder`,
			wantPos: "app.yaml:8:59"},
		// Lists concatenate: a bad rule of the second policy is decoded.
		{name: "merge concatenates lists", policies: "  - {name: g1, type: garbage-collect, properties: {rules: [{strategy: never}]}}\n  - {name: g2, type: garbage-collect, properties: {rules: [{strategy: 1}]}}\n",
			wantErr: `app.yaml:8:71: application "a": policy "g2": spec.policies[1].properties.rules[0].strategy: failed to parse garbage-collect policy: failed to unmarshal *v1alpha1.GarbageCollectPolicySpec: json: cannot unmarshal number into Go struct field GarbageCollectPolicyRule.rules.strategy of type v1alpha1.GarbageCollectStrategy`,
			wantPos: "app.yaml:8:71"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, "  components: []\n  policies:\n"+tt.policies)
			_, err := ResourcePolicies(app)
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPos, errPos(err)); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMergePolicyProperties: KubeVela's TestParseMultiplePolicies: three
// garbage-collect policies (and a shared-resource one between them) merge
// into one spec: keepLegacyResource true wins, the order of the one that
// has it, the rules of all in order.
func TestMergePolicyProperties(t *testing.T) {
	app := parseApp(t, `  components: []
  policies:
  - {type: garbage-collect, properties: {keepLegacyResource: false, rules: [{selector: {componentNames: [c]}}]}}
  - {type: shared-resource, properties: {rules: [{selector: {componentNames: [e]}}]}}
  - {type: garbage-collect, properties: {keepLegacyResource: true, order: dependency, rules: [{selector: {componentNames: [a]}}]}}
  - {type: garbage-collect, properties: {rules: [{selector: {componentNames: [b]}}]}}
`)
	merged := map[string]any{}
	for _, p := range app.Policies {
		if p.Type == "garbage-collect" {
			mergePolicyProperties(merged, p.Properties)
		}
	}
	var got GarbageCollectPolicySpec
	if err := render.DecodeLoose(merged, &got); err != nil {
		t.Fatal(err)
	}
	want := GarbageCollectPolicySpec{KeepLegacyResource: true, Order: "dependency", Rules: []GarbageCollectPolicyRule{
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"c"}}},
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"a"}}},
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"b"}}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged spec (-want +got):\n%s", diff)
	}
	if _, err := ResourcePolicies(app); err != nil {
		t.Errorf("ResourcePolicies: %v", err)
	}
}

// TestDecodeWording: a named string type of a spec is worded with
// KubeVela's type name, and the offending value located.
func TestDecodeWording(t *testing.T) {
	props := map[string]any{"rules": []any{map[string]any{"strategy": int64(1)}}}
	err := render.DecodeLoose(props, &GarbageCollectPolicySpec{})
	want := "json: cannot unmarshal number into Go struct field GarbageCollectPolicyRule.rules.strategy of type v1alpha1.GarbageCollectStrategy"
	if diff := cmp.Diff(want, errText(err)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	if got := render.ErrorPath(props, err).String(); got != "rules[0].strategy" {
		t.Errorf("path = %q, want rules[0].strategy", got)
	}
}
