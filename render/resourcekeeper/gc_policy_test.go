package resourcekeeper

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// object is a ConfigMap (or kind) named name with labels.
func object(kind, name string, labels map[string]any) *manifest.Object {
	return manifest.New(map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name, "labels": labels}})
}

// TestGarbageCollectFindStrategy is KubeVela's
// TestGarbageCollectPolicySpec_FindStrategy
// (apis/core.oam.dev/v1alpha1/garbagecollect_policy_types_test.go): the
// first rule whose selector matches decides.
func TestGarbageCollectFindStrategy(t *testing.T) {
	rule := func(sel ResourcePolicyRuleSelector, s GarbageCollectStrategy) GarbageCollectPolicyRule {
		return GarbageCollectPolicyRule{Selector: sel, Strategy: s}
	}
	tests := []struct {
		name   string
		rules  []GarbageCollectPolicyRule
		labels map[string]any
		want   GarbageCollectStrategy
		index  int
	}{
		{"trait type", []GarbageCollectPolicyRule{rule(ResourcePolicyRuleSelector{TraitTypes: []string{"a"}}, GCNever)},
			map[string]any{"trait.oam.dev/type": "a"}, GCNever, 0},
		{"no label", []GarbageCollectPolicyRule{rule(ResourcePolicyRuleSelector{TraitTypes: []string{"a"}}, GCNever)},
			nil, "", -1},
		{"first wins", []GarbageCollectPolicyRule{
			rule(ResourcePolicyRuleSelector{TraitTypes: []string{"a"}}, GCOnAppDelete),
			rule(ResourcePolicyRuleSelector{TraitTypes: []string{"a"}}, GCNever)},
			map[string]any{"trait.oam.dev/type": "a"}, GCOnAppDelete, 0},
		{"component type", []GarbageCollectPolicyRule{rule(ResourcePolicyRuleSelector{CompTypes: []string{"comp"}}, GCNever)},
			map[string]any{"workload.oam.dev/type": "comp"}, GCNever, 0},
		{"component type before trait type", []GarbageCollectPolicyRule{
			rule(ResourcePolicyRuleSelector{CompTypes: []string{"comp"}}, GCNever),
			rule(ResourcePolicyRuleSelector{TraitTypes: []string{"trait"}}, GCOnAppDelete)},
			map[string]any{"workload.oam.dev/type": "comp", "trait.oam.dev/type": "trait"}, GCNever, 0},
		{"component name", []GarbageCollectPolicyRule{rule(ResourcePolicyRuleSelector{CompNames: []string{"comp-name"}}, GCNever)},
			map[string]any{"app.oam.dev/component": "comp-name"}, GCNever, 0},
		{"oam type", []GarbageCollectPolicyRule{rule(ResourcePolicyRuleSelector{OAMResourceTypes: []string{"TRAIT"}}, GCNever)},
			map[string]any{"app.oam.dev/resourceType": "TRAIT"}, GCNever, 0},
		// Beyond KubeVela's table: conditions are ANDed, and an empty
		// selector selects nothing.
		{"all conditions", []GarbageCollectPolicyRule{
			rule(ResourcePolicyRuleSelector{CompNames: []string{"web"}, ResourceTypes: []string{"Service"}}, GCNever),
			rule(ResourcePolicyRuleSelector{CompNames: []string{"web"}}, GCOnAppDelete)},
			map[string]any{"app.oam.dev/component": "web"}, GCOnAppDelete, 1},
		{"empty selector", []GarbageCollectPolicyRule{rule(ResourcePolicyRuleSelector{}, GCNever)},
			map[string]any{"app.oam.dev/component": "web"}, "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := &GarbageCollectPolicySpec{Rules: tt.rules}
			got, index := spec.FindStrategy(object("ConfigMap", "cm", tt.labels))
			if got != tt.want || index != tt.index {
				t.Errorf("FindStrategy = %q (rule %d), want %q (rule %d)", got, index, tt.want, tt.index)
			}
		})
	}
	var none *GarbageCollectPolicySpec
	if got, index := none.FindStrategy(object("ConfigMap", "cm", nil)); got != "" || index != -1 {
		t.Errorf("no policy: %q, %d", got, index)
	}
}

// TestSelectorMatch is KubeVela's shared-resource selector rows
// (sharedresource_policy_types_test.go).
func TestSelectorMatch(t *testing.T) {
	tests := []struct {
		name     string
		sel      ResourcePolicyRuleSelector
		kind, nm string
		want     bool
	}{
		{"name", ResourcePolicyRuleSelector{ResourceNames: []string{"example"}}, "ConfigMap", "example", true},
		{"kind", ResourcePolicyRuleSelector{ResourceTypes: []string{"ConfigMap", "Namespace"}}, "Namespace", "example", true},
		{"name mismatch", ResourcePolicyRuleSelector{ResourceNames: []string{"mismatch"}}, "Namespace", "example", false},
	}
	for _, tt := range tests {
		if got := tt.sel.Match(object(tt.kind, tt.nm, nil)); got != tt.want {
			t.Errorf("%s: Match = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGarbageCollectOrphans follows FindDeleteOption: the first selecting
// rule with an orphan or cascading propagation decides, whatever its
// strategy.
func TestGarbageCollectOrphans(t *testing.T) {
	orphan, cascading, other := GCOrphan, GCCascading, GarbageCollectPropagation("other")
	spec := &GarbageCollectPolicySpec{Rules: []GarbageCollectPolicyRule{
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"keep"}}, Strategy: GCNever},
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"keep", "x"}}, Propagation: &other},
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"keep"}}, Propagation: &orphan},
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"cascade"}}, Propagation: &cascading},
		{Selector: ResourcePolicyRuleSelector{CompNames: []string{"cascade"}}, Propagation: &orphan},
	}}
	got := map[string][2]any{}
	for _, comp := range []string{"keep", "cascade", "x", "none"} {
		o, i := spec.Orphans(object("ConfigMap", "cm", map[string]any{"app.oam.dev/component": comp}))
		got[comp] = [2]any{o, i}
	}
	want := map[string][2]any{"keep": {true, 2}, "cascade": {false, 3}, "x": {false, -1}, "none": {false, -1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Orphans (-want +got):\n%s", diff)
	}
}

// TestResourcePoliciesMerge is KubeVela's TestParseMultiplePolicies
// (pkg/policy/common_test.go): garbage-collect policies merge, rules
// concatenated in order, keepLegacyResource true if any says so, the
// first order kept.
func TestResourcePoliciesMerge(t *testing.T) {
	app := parseApp(t, `  components: []
  policies:
  - {name: p1, type: garbage-collect, properties: {keepLegacyResource: false, rules: [{selector: {componentNames: [c]}, strategy: onAppUpdate}]}}
  - {name: p2, type: shared-resource, properties: {rules: [{selector: {componentNames: [e]}}]}}
  - {name: p3, type: garbage-collect, properties: {keepLegacyResource: true, order: dependency, rules: [{selector: {componentNames: [a]}, strategy: never}]}}
  - {name: p4, type: garbage-collect, properties: {rules: [{selector: {componentNames: [b]}, strategy: onAppDelete}]}}
  - {name: p5, type: read-only, properties: {rules: [{selector: {resourceTypes: [Secret]}}]}}
`)
	got, err := ResourcePolicies(app)
	if err != nil {
		t.Fatal(err)
	}
	want := &Resources{
		GarbageCollect: &GarbageCollectPolicySpec{KeepLegacyResource: true, Order: "dependency", Rules: []GarbageCollectPolicyRule{
			{Selector: ResourcePolicyRuleSelector{CompNames: []string{"c"}}, Strategy: GCOnAppUpdate},
			{Selector: ResourcePolicyRuleSelector{CompNames: []string{"a"}}, Strategy: GCNever},
			{Selector: ResourcePolicyRuleSelector{CompNames: []string{"b"}}, Strategy: GCOnAppDelete},
		}},
		SharedResource: &SharedResourcePolicySpec{Rules: []SharedResourcePolicyRule{{Selector: ResourcePolicyRuleSelector{CompNames: []string{"e"}}}}},
		ReadOnly:       &ReadOnlyPolicySpec{Rules: []ReadOnlyPolicyRule{{Selector: ResourcePolicyRuleSelector{ResourceTypes: []string{"Secret"}}}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ResourcePolicies (-want +got):\n%s", diff)
	}
	if !got.ReadOnly.Matches(object("Secret", "s", nil)) || got.ReadOnly.Matches(object("ConfigMap", "s", nil)) {
		t.Errorf("read-only selects the wrong kinds")
	}
	if _, err := ResourcePolicies(parseApp(t, "  components: []\n  policies:\n  - {name: gc, type: garbage-collect, properties: {rules: x}}\n")); err == nil {
		t.Errorf("an undecodable garbage-collect policy: no error")
	}
}
