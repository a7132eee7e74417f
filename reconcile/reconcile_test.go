package reconcile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
)

// obj is an object of kind named name that application shop's component
// comp renders (KubeVela's labels), with data.
func obj(kind, name, comp, data string) *manifest.Object {
	return manifest.New(map[string]any{
		"apiVersion": "v1", "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": "default", "labels": map[string]any{
			"app.oam.dev/name": "shop", "app.oam.dev/namespace": "default", "app.oam.dev/component": comp,
		}},
		"data": map[string]any{"v": data},
	})
}

// shared is o with a shared-by annotation.
func shared(o *manifest.Object, sharedBy string) *manifest.Object {
	manifest.Map(o.Data, "metadata")["annotations"] = map[string]any{"app.oam.dev/shared-by": sharedBy}
	return o
}

type put struct {
	cluster string
	o       *manifest.Object
	owner   string
}

func side(t *testing.T, rp map[string]*resourcekeeper.Resources, puts ...put) Side {
	t.Helper()
	r := NewRecorder()
	for _, p := range puts {
		owner := p.owner
		switch owner {
		case "":
			owner = "application default/shop"
		case "-": // observed: no owner
			owner = ""
		}
		if err := r.Put(p.cluster, cluster.Entry{Object: p.o, Source: "application shop, component " + p.o.Labels()["app.oam.dev/component"], Owner: owner}); err != nil {
			t.Fatal(err)
		}
	}
	return Side{Objects: r, Resources: rp}
}

// gc is an application's garbage-collect policy.
func gc(spec resourcekeeper.GarbageCollectPolicySpec) map[string]*resourcekeeper.Resources {
	return map[string]*resourcekeeper.Resources{"default/shop": {GarbageCollect: &spec}}
}

func byComponent(strategy resourcekeeper.GarbageCollectStrategy, comps ...string) resourcekeeper.GarbageCollectPolicyRule {
	return resourcekeeper.GarbageCollectPolicyRule{Selector: resourcekeeper.ResourcePolicyRuleSelector{CompNames: comps}, Strategy: strategy}
}

// summary is a plan in one line per change or kept object.
func summary(p *Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, string(c.Action)+" "+c.Cluster+" "+c.Key.Name+": "+c.Reason)
	}
	for _, k := range p.Kept {
		out = append(out, "keep "+k.Cluster+" "+k.Key.Name+": "+k.Reason)
	}
	return out
}

func TestCompute(t *testing.T) {
	noPolicy := map[string]*resourcekeeper.Resources{"default/shop": {}}
	deleted := map[string]*resourcekeeper.Resources{}
	orphan := resourcekeeper.GCOrphan
	tests := []struct {
		name       string
		base, head Side
		want       []string
		unchanged  int
	}{
		{
			name: "create, update, delete, unchanged",
			base: side(t, noPolicy, put{"local", obj("ConfigMap", "same", "web", "1"), ""}, put{"local", obj("ConfigMap", "changed", "web", "1"), ""}, put{"local", obj("ConfigMap", "removed", "db", "1"), ""}),
			head: side(t, noPolicy, put{"local", obj("ConfigMap", "same", "web", "1"), ""}, put{"local", obj("ConfigMap", "changed", "web", "2"), ""}, put{"local", obj("ConfigMap", "added", "web", "1"), ""}),
			want: []string{
				"create local added: application shop, component web",
				"update local changed: application shop, component web",
				"delete local removed: application default/shop no longer renders it (garbage-collected)",
			},
			unchanged: 1,
		},
		{
			name: "moved to another cluster",
			base: side(t, noPolicy, put{"east", obj("ConfigMap", "cm", "web", "1"), ""}),
			head: side(t, noPolicy, put{"west", obj("ConfigMap", "cm", "web", "1"), ""}),
			want: []string{
				"delete east cm: application default/shop no longer renders it (garbage-collected)",
				"create west cm: application shop, component web",
			},
		},
		{
			name: "onAppDelete and never keep on update",
			base: side(t, gc(resourcekeeper.GarbageCollectPolicySpec{Rules: []resourcekeeper.GarbageCollectPolicyRule{byComponent(resourcekeeper.GCOnAppDelete, "db"), byComponent(resourcekeeper.GCNever, "cache")}}),
				put{"local", obj("ConfigMap", "db", "db", "1"), ""}, put{"local", obj("ConfigMap", "cache", "cache", "1"), ""}, put{"local", obj("ConfigMap", "web", "web", "1"), ""}),
			head: side(t, noPolicy),
			want: []string{
				"delete local web: application default/shop no longer renders it (garbage-collected)",
				"keep local cache: application default/shop: garbage-collect rule 1 (strategy never) keeps it until the application is deleted",
				"keep local db: application default/shop: garbage-collect rule 0 (strategy onAppDelete) keeps it until the application is deleted",
			},
		},
		{
			name: "application deleted: never detaches, onAppDelete deletes",
			base: side(t, gc(resourcekeeper.GarbageCollectPolicySpec{Rules: []resourcekeeper.GarbageCollectPolicyRule{byComponent(resourcekeeper.GCOnAppDelete, "db"), byComponent(resourcekeeper.GCNever, "cache")}}),
				put{"local", obj("ConfigMap", "db", "db", "1"), ""}, put{"local", obj("ConfigMap", "cache", "cache", "1"), ""}),
			head: side(t, deleted),
			want: []string{
				"update local cache: application default/shop: deleted; garbage-collect rule 1 (strategy never); KubeVela keeps it and removes its owner labels",
				"delete local db: application default/shop is deleted",
			},
		},
		{
			name: "keepLegacyResource of the new revision",
			base: side(t, noPolicy, put{"local", obj("ConfigMap", "old", "web", "1"), ""}),
			head: side(t, gc(resourcekeeper.GarbageCollectPolicySpec{KeepLegacyResource: true})),
			want: []string{"keep local old: application default/shop: garbage-collect keepLegacyResource keeps what earlier revisions rendered"},
		},
		{
			name: "orphan propagation",
			base: side(t, noPolicy, put{"local", obj("ConfigMap", "old", "web", "1"), ""}),
			head: side(t, gc(resourcekeeper.GarbageCollectPolicySpec{Rules: []resourcekeeper.GarbageCollectPolicyRule{{Selector: resourcekeeper.ResourcePolicyRuleSelector{ResourceTypes: []string{"ConfigMap"}}, Propagation: &orphan}}})),
			want: []string{"update local old: application default/shop: no longer rendered; garbage-collect rule 0 (propagation orphan); KubeVela keeps it and removes its owner labels"},
		},
		{
			name: "the last sharer's garbage collection decides",
			base: side(t, map[string]*resourcekeeper.Resources{"default/shop": {}, "default/cart": {GarbageCollect: &resourcekeeper.GarbageCollectPolicySpec{Rules: []resourcekeeper.GarbageCollectPolicyRule{byComponent(resourcekeeper.GCNever, "web")}}}},
				put{"local", shared(obj("ConfigMap", "common", "web", "1"), "default/shop,default/cart"), ""}),
			head: side(t, deleted),
			want: []string{"update local common: application default/cart: deleted; garbage-collect rule 0 (strategy never); KubeVela keeps it and removes its owner labels (the last of its sharers: default/shop,default/cart)"},
		},
		{
			name: "the first remaining sharer owns it",
			base: side(t, noPolicy, put{"local", shared(obj("ConfigMap", "common", "web", "1"), "default/shop,default/cart"), ""}),
			head: side(t, noPolicy, put{"local", shared(obj("ConfigMap", "common", "web", "2"), "default/cart"), "application default/cart"}),
			want: []string{"update local common: application shop, component web; shared-resource: application default/cart owns it now, as the first remaining of its sharers (default/shop,default/cart)"},
		},
		{
			name: "an object no application owned is taken over",
			base: side(t, nil, put{"local", obj("ConfigMap", "legacy", "", "1"), "-"}),
			head: side(t, noPolicy, put{"local", obj("ConfigMap", "legacy", "web", "2"), ""}),
			want: []string{"update local legacy: application shop, component web; application default/shop takes over an object no application owned"},
		},
		{
			name: "a suspended workflow garbage-collects nothing yet",
			base: side(t, noPolicy, put{"local", obj("ConfigMap", "old", "web", "1"), ""}),
			head: Side{Objects: NewRecorder(), Resources: noPolicy, Suspended: map[string]bool{"default/shop": true}},
			want: []string{"keep local old: application default/shop: its workflow is suspended, and KubeVela garbage-collects earlier revisions only once it succeeds"},
		},
		{
			name: "an input document removed",
			base: side(t, nil, put{"member1", obj("ConfigMap", "tpl", "", "1"), "input a.yaml:1:1"}),
			head: side(t, nil),
			want: []string{"delete member1 tpl: no longer written (was: application shop, component )"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compute(tt.base, tt.head)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summary(p)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if p.Unchanged != tt.unchanged {
				t.Errorf("unchanged = %d, want %d", p.Unchanged, tt.unchanged)
			}
		})
	}
}

func TestChangeDiff(t *testing.T) {
	base := side(t, map[string]*resourcekeeper.Resources{"default/shop": {GarbageCollect: &resourcekeeper.GarbageCollectPolicySpec{Rules: []resourcekeeper.GarbageCollectPolicyRule{byComponent(resourcekeeper.GCNever, "web")}}}},
		put{"local", obj("ConfigMap", "cm", "web", "1"), ""}, put{"local", obj("ConfigMap", "cm2", "web", "1"), ""})
	head := side(t, map[string]*resourcekeeper.Resources{}, put{"local", obj("ConfigMap", "cm2", "web", "2"), ""})
	p, err := Compute(base, head)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) != 2 {
		t.Fatalf("changes: %v", summary(p))
	}
	detached := p.Changes[0].Diff()
	for _, want := range []string{"--- base/local/default/configmap_cm.yaml", "-    app.oam.dev/name: shop", "-    app.oam.dev/namespace: default", "     app.oam.dev/component: web"} {
		if !strings.Contains(detached, want) {
			t.Errorf("detach diff lacks %q:\n%s", want, detached)
		}
	}
	if d := p.Changes[1].Diff(); !strings.Contains(d, "-  v: \"1\"") || !strings.Contains(d, "+  v: \"2\"") {
		t.Errorf("update diff:\n%s", d)
	}
	created := (&Change{Path: "x", Head: []byte("a: 1\n")}).Diff()
	if !strings.HasPrefix(created, "--- /dev/null\n+++ head/x\n") {
		t.Errorf("create diff:\n%s", created)
	}
}

// onceKeeping is an application's apply-once policy keeping paths of its
// ConfigMaps on update.
func onceKeeping(paths ...string) map[string]*resourcekeeper.Resources {
	return map[string]*resourcekeeper.Resources{"default/shop": {ApplyOnce: &resourcekeeper.ApplyOncePolicySpec{Enable: true, Rules: []resourcekeeper.ApplyOncePolicyRule{
		{Selector: resourcekeeper.ResourcePolicyRuleSelector{ResourceTypes: []string{"ConfigMap"}}, Strategy: &resourcekeeper.ApplyOnceStrategy{Path: paths}},
	}}}}
}

// TestComputeApplyOnce: an apply-once rule keeps the live object's paths
// on update, all of it for "*"; a path the live object lacks leaves it.
func TestComputeApplyOnce(t *testing.T) {
	base := func() Side { return side(t, nil, put{"local", obj("ConfigMap", "cm", "web", "1"), ""}) }
	tests := []struct {
		name      string
		head      Side
		want      []string
		unchanged int
	}{
		{name: "the changed path is kept", head: side(t, onceKeeping("data.v"), put{"local", obj("ConfigMap", "cm", "web", "2"), ""}), unchanged: 1},
		{name: "everything is kept", head: side(t, onceKeeping("*"), put{"local", obj("ConfigMap", "cm", "web", "2"), ""}), unchanged: 1},
		{name: "another path is kept", head: side(t, onceKeeping("metadata.labels"), put{"local", obj("ConfigMap", "cm", "web", "2"), ""}),
			want: []string{"update local cm: application shop, component web"}},
		{name: "a path the object lacks", head: side(t, onceKeeping("data.w"), put{"local", obj("ConfigMap", "cm", "web", "2"), ""}),
			want: []string{`keep local cm: application default/shop: apply-once path "data.w" is not in the object in the cluster: KubeVela's dispatch fails and leaves it as it is`}},
		{name: "a path through a value", head: side(t, onceKeeping("data.v.x"), put{"local", obj("ConfigMap", "cm", "web", "2"), ""}),
			want: []string{`keep local cm: application default/shop: apply-once path "data.v.x" is not in the object in the cluster: KubeVela's dispatch fails and leaves it as it is`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compute(base(), tt.head)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, summary(p)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if p.Unchanged != tt.unchanged {
				t.Errorf("unchanged = %d, want %d", p.Unchanged, tt.unchanged)
			}
		})
	}
}

// TestComputeOwnersAndKarmada: the reasons of an update that changes the
// owner or the replicas, and what Karmada does with what it no longer
// propagates.
func TestComputeOwnersAndKarmada(t *testing.T) {
	record := func(entries map[string]cluster.Entry) *Recorder {
		r := NewRecorder()
		for name, e := range entries {
			e.Object = obj("ConfigMap", name, "web", e.Source)
			e.Source = "template t.yaml:1:1"
			if err := r.Put("member1", e); err != nil {
				t.Fatal(err)
			}
		}
		return r
	}
	base := Side{Objects: record(map[string]cluster.Entry{
		"frozen":    {Source: "1", Propagated: true},
		"preserved": {Source: "1", Propagated: true},
		"removed":   {Source: "1", Propagated: true},
		"scaled":    {Source: "1", Propagated: true, Replicas: 2},
		"other":     {Source: "1", Owner: "application default/cart"},
	}), Preserved: map[string]map[manifest.Key]string{"member1": {obj("ConfigMap", "preserved", "", "").Key(): "its Work preserves resources on deletion"}}}
	head := Side{Objects: record(map[string]cluster.Entry{
		"scaled": {Source: "2", Propagated: true, Replicas: 3},
		"other":  {Source: "2", Owner: "application default/shop"},
	}), Frozen: map[string]map[manifest.Key]string{"member1": {obj("ConfigMap", "frozen", "", "").Key(): "its Work is suspended"}}}
	p, err := Compute(base, head)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"update member1 other: template t.yaml:1:1; application default/cart owned it before",
		"delete member1 removed: Karmada no longer propagates it to member1 (was: template t.yaml:1:1)",
		"update member1 scaled: template t.yaml:1:1; Karmada moves replicas: 2 → 3 in member1",
		"keep member1 frozen: its Work is suspended",
		"keep member1 preserved: Karmada no longer propagates it to member1, but its Work preserves resources on deletion: it stays",
	}
	if diff := cmp.Diff(want, summary(p)); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	counts := []int{p.Count(Create), p.Count(Update), p.Count(Delete)}
	if diff := cmp.Diff([]int{0, 2, 1}, counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}
