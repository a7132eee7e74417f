package resourcekeeper

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestCollect: what the garbage collection does with an object of
// component web that application default/shop no longer renders.
func TestCollect(t *testing.T) {
	rules := func(rs ...GarbageCollectPolicyRule) *Resources {
		return &Resources{GarbageCollect: &GarbageCollectPolicySpec{Rules: rs}}
	}
	web := ResourcePolicyRuleSelector{CompNames: []string{"web"}}
	orphan := GCOrphan
	shop := func(r *Resources) map[string]*Resources { return map[string]*Resources{"default/shop": r} }
	tests := []struct {
		name       string
		sharedBy   string
		base, head map[string]*Resources
		suspended  bool
		want       Decision
	}{
		{name: "no policy", base: shop(nil), head: shop(nil),
			want: Decision{Delete, "application default/shop no longer renders it (garbage-collected)"}},
		{name: "suspended", base: shop(nil), head: shop(&Resources{}), suspended: true,
			want: Decision{Keep, "application default/shop: its workflow is suspended, and KubeVela garbage-collects earlier revisions only once it succeeds"}},
		{name: "onAppDelete", base: shop(rules(GarbageCollectPolicyRule{Selector: web, Strategy: GCOnAppDelete})), head: shop(&Resources{}),
			want: Decision{Keep, "application default/shop: garbage-collect rule 0 (strategy onAppDelete) keeps it until the application is deleted"}},
		{name: "never, by the base's policy", base: shop(rules(GarbageCollectPolicyRule{Selector: web, Strategy: GCNever})), head: shop(rules()),
			want: Decision{Keep, "application default/shop: garbage-collect rule 0 (strategy never) keeps it until the application is deleted"}},
		{name: "keepLegacyResource, by the new policy", base: shop(nil), head: shop(&Resources{GarbageCollect: &GarbageCollectPolicySpec{KeepLegacyResource: true}}),
			want: Decision{Keep, "application default/shop: garbage-collect keepLegacyResource keeps what earlier revisions rendered"}},
		{name: "orphan", base: shop(nil), head: shop(rules(GarbageCollectPolicyRule{Selector: web, Propagation: &orphan})),
			want: Decision{Detach, "application default/shop: no longer rendered; garbage-collect rule 0 (propagation orphan); KubeVela keeps it and removes its owner labels"}},
		{name: "deleted", base: shop(nil), head: map[string]*Resources{},
			want: Decision{Delete, "application default/shop is deleted"}},
		{name: "deleted, never", base: shop(rules(GarbageCollectPolicyRule{Selector: web, Strategy: GCNever})),
			want: Decision{Detach, "application default/shop: deleted; garbage-collect rule 0 (strategy never); KubeVela keeps it and removes its owner labels"}},
		{name: "deleted, orphan", base: shop(rules(GarbageCollectPolicyRule{Selector: web, Propagation: &orphan})),
			want: Decision{Detach, "application default/shop: deleted; garbage-collect rule 0 (propagation orphan); KubeVela keeps it and removes its owner labels"}},
		{name: "the last sharer decides", sharedBy: "default/shop,default/cart",
			base: map[string]*Resources{"default/cart": rules(GarbageCollectPolicyRule{Selector: web, Strategy: GCNever})}, head: map[string]*Resources{"default/cart": nil},
			want: Decision{Keep, "application default/cart: garbage-collect rule 0 (strategy never) keeps it until the application is deleted (the last of its sharers: default/shop,default/cart)"}},
		{name: "one sharer is no sharing", sharedBy: "default/shop", base: shop(nil), head: map[string]*Resources{},
			want: Decision{Delete, "application default/shop is deleted"}},
	}
	o := manifest.New(map[string]any{"kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "labels": map[string]any{"app.oam.dev/component": "web"}}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Gone{Object: o, App: "default/shop", SharedBy: tt.sharedBy}.Collect(tt.base, tt.head, map[string]bool{"default/shop": tt.suspended})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Collect (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDetachObject: the owner labels and the shared-by annotation go,
// and a map left empty with them.
func TestDetachObject(t *testing.T) {
	o := manifest.New(map[string]any{"kind": "ConfigMap", "metadata": map[string]any{"name": "cm",
		"labels":      map[string]any{"app.oam.dev/name": "shop", "app.oam.dev/namespace": "default", "app.oam.dev/component": "web"},
		"annotations": map[string]any{"app.oam.dev/shared-by": "default/shop"}}})
	DetachObject(o)
	want := map[string]any{"name": "cm", "labels": map[string]any{"app.oam.dev/component": "web"}}
	if diff := cmp.Diff(want, o.Data["metadata"]); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
}

// TestOnUpdate: an apply-once strategy keeps the live object's paths,
// all of it for "*", and fails on a path the live object lacks.
func TestOnUpdate(t *testing.T) {
	obj := func(replicas, image any) *manifest.Object {
		spec := map[string]any{"image": image}
		if replicas != nil {
			spec["replicas"] = replicas
		}
		return manifest.New(map[string]any{"kind": "Deployment", "spec": spec})
	}
	tests := []struct {
		name     string
		paths    []string
		live     *manifest.Object
		want     map[string]any // the result's spec; nil: live itself
		wantWhy  string
		wantLive bool
	}{
		{name: "a path", paths: []string{"spec.replicas"}, live: obj(int64(3), "old"), want: map[string]any{"replicas": int64(3), "image": "new"}},
		{name: "everything", paths: []string{"spec.image", "*"}, live: obj(int64(3), "old"), wantLive: true},
		{name: "missing in the live object", paths: []string{"spec.replicas"}, live: obj(nil, "old"),
			wantWhy: `apply-once path "spec.replicas" is not in the object in the cluster: KubeVela's dispatch fails and leaves it as it is`},
		{name: "not settable", paths: []string{"spec.image.x"}, live: manifest.New(map[string]any{"spec": map[string]any{"image": map[string]any{"x": "1"}}}),
			wantWhy: `apply-once path "spec.image.x": `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &ApplyOnceStrategy{Path: tt.paths}
			out, why := s.OnUpdate(tt.live, obj(int64(1), "new"))
			if len(why) < len(tt.wantWhy) || why[:len(tt.wantWhy)] != tt.wantWhy || (tt.wantWhy == "") != (why == "") {
				t.Fatalf("why = %q, want %q...", why, tt.wantWhy)
			}
			switch {
			case tt.wantWhy != "":
				if out != nil {
					t.Errorf("out = %v, want nil", out)
				}
			case tt.wantLive:
				if out != tt.live {
					t.Errorf("out is not the live object")
				}
			default:
				if diff := cmp.Diff(tt.want, out.Data["spec"]); diff != "" {
					t.Errorf("spec (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestApplyOnceFindStrategy: only an enabled policy has strategies; the
// first selecting rule's wins, and it affects the stages it names.
func TestApplyOnceFindStrategy(t *testing.T) {
	o := manifest.New(map[string]any{"kind": "Deployment", "metadata": map[string]any{"name": "d"}})
	first, second := &ApplyOnceStrategy{Path: []string{"a"}}, &ApplyOnceStrategy{Path: []string{"b"}, ApplyOnceAffectStrategy: ApplyOnceOnStateKeep}
	rules := []ApplyOncePolicyRule{
		{Selector: ResourcePolicyRuleSelector{ResourceTypes: []string{"Service"}}, Strategy: second},
		{Selector: ResourcePolicyRuleSelector{ResourceTypes: []string{"Deployment"}}, Strategy: first},
		{Selector: ResourcePolicyRuleSelector{ResourceNames: []string{"d"}}, Strategy: second},
	}
	var none *ApplyOncePolicySpec
	if got := none.FindStrategy(o); got != nil {
		t.Errorf("no policy: %v", got)
	}
	if got := (&ApplyOncePolicySpec{Rules: rules}).FindStrategy(o); got != nil {
		t.Errorf("disabled: %v", got)
	}
	if got := (&ApplyOncePolicySpec{Enable: true, Rules: rules}).FindStrategy(o); got != first {
		t.Errorf("enabled: %v, want %v", got, first)
	}
	if got := (&ApplyOncePolicySpec{Enable: true, Rules: rules[:1]}).FindStrategy(o); got != nil {
		t.Errorf("no rule selects: %v", got)
	}
	affects := map[string][3]bool{}
	for name, s := range map[string]*ApplyOnceStrategy{"nil": nil, "none": first, "stateKeep": second, "always": {ApplyOnceAffectStrategy: ApplyOnceAlways}} {
		affects[name] = [3]bool{s.Affects(ApplyOnceOnUpdate), s.Affects(ApplyOnceOnStateKeep), s.Affects(ApplyOnceAlways)}
	}
	want := map[string][3]bool{"nil": {}, "none": {true, true, true}, "stateKeep": {false, true, false}, "always": {true, true, true}}
	if diff := cmp.Diff(want, affects); diff != "" {
		t.Errorf("Affects (-want +got):\n%s", diff)
	}
}

// TestMatches: each of the selecting policies selects through its rules;
// no policy selects nothing.
func TestMatches(t *testing.T) {
	o := manifest.New(map[string]any{"kind": "Secret", "metadata": map[string]any{"name": "s"}})
	sel := ResourcePolicyRuleSelector{ResourceTypes: []string{"Secret"}}
	var (
		noRO *ReadOnlyPolicySpec
		noSR *SharedResourcePolicySpec
		noTO *TakeOverPolicySpec
	)
	got := []bool{
		noRO.Matches(o), noSR.Matches(o), noTO.Matches(o),
		(&ReadOnlyPolicySpec{Rules: []ReadOnlyPolicyRule{{Selector: sel}}}).Matches(o),
		(&SharedResourcePolicySpec{Rules: []SharedResourcePolicyRule{{Selector: sel}}}).Matches(o),
		(&TakeOverPolicySpec{Rules: []TakeOverPolicyRule{{Selector: sel}}}).Matches(o),
	}
	if diff := cmp.Diff([]bool{false, false, false, true, true, true}, got); diff != "" {
		t.Errorf("Matches (-want +got):\n%s", diff)
	}
}
