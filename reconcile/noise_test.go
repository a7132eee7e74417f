package reconcile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// deployment is a Deployment of application default/web at revision rev
// with replicas, extra label lines indented under labels.
func deployment(rev string, replicas int, extra string) []byte {
	return []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels:\n" +
		"    app.oam.dev/app-revision-hash: h-" + rev + "\n    app.oam.dev/appRevision: web-" + rev + "\n    app.oam.dev/name: web\n" + extra +
		"  name: web\n  namespace: default\nspec:\n  replicas: " + string(rune('0'+replicas)) + "\n")
}

func TestParseIgnore(t *testing.T) {
	for _, tt := range []struct {
		in          string
		kind, group string
		path        string
		err         string
	}{
		{in: "spec.replicas", path: "spec.replicas"},
		{in: "Deployment:spec.replicas", kind: "Deployment", path: "spec.replicas"},
		{in: "Deployment.apps:spec.replicas", kind: "Deployment", group: "apps", path: "spec.replicas"},
		{in: `metadata.labels["app.kubernetes.io/version"]`, path: "metadata.labels[app.kubernetes.io/version]"},
		{in: "metadata.annotations[a:b]", path: "metadata.annotations.a:b"},
		{in: "spec.template.spec.containers[*].image", path: "spec.template.spec.containers.*.image"},
		{in: "Deployment:", err: `ignore "Deployment:": no field path`},
		{in: "spec[", err: `ignore "spec[": unterminated [`},
		{in: "", err: `ignore "": no field path`},
	} {
		r, err := ParseIgnore(tt.in)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("ParseIgnore(%q) error = %v, want %q…", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || r.Kind != tt.kind || r.Group != tt.group || r.Path.String() != tt.path || r.Text != tt.in {
			t.Errorf("ParseIgnore(%q) = %+v, %v; want kind %q group %q path %q", tt.in, r, err, tt.kind, tt.group, tt.path)
		}
	}
}

func TestIgnoreCovers(t *testing.T) {
	dep := manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"}
	sts := manifest.Key{Group: "apps", Kind: "StatefulSet", Name: "db"}
	image := fieldpath.MustParse("spec.template.spec.containers[1].image")
	for _, tt := range []struct {
		rule string
		key  manifest.Key
		path fieldpath.Path
		want bool
	}{
		{"spec.replicas", dep, fieldpath.MustParse("spec.replicas"), true},
		{"spec", dep, fieldpath.MustParse("spec.replicas"), true}, // a path covers what is below it
		{"spec.replicas", dep, fieldpath.MustParse("spec"), false},
		{"Deployment:spec.replicas", sts, fieldpath.MustParse("spec.replicas"), false},
		{"Deployment.apps:spec.replicas", dep, fieldpath.MustParse("spec.replicas"), true},
		{"Deployment.batch:spec.replicas", dep, fieldpath.MustParse("spec.replicas"), false},
		{"spec.template.spec.containers[*].image", dep, image, true},
		{"spec.template.spec.containers[0].image", dep, image, false},
		{"metadata.labels[app.kubernetes.io/version]", dep, fieldpath.New("metadata", "labels", "app.kubernetes.io/version"), true},
	} {
		r, err := ParseIgnore(tt.rule)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.covers(tt.key, tt.path); got != tt.want {
			t.Errorf("%s covers %s %s = %v, want %v", tt.rule, tt.key, tt.path, got, tt.want)
		}
	}
}

// TestClassify: an update whose only changes are the revision labels is
// Bookkeeping, with the keys; one that also changes an ignored field is
// Ignored; any other change, a change of owner label, a create or a
// delete is Real.
func TestClassify(t *testing.T) {
	key := manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"}
	upd := func(base, head []byte) Change {
		return Change{Cluster: "local", Key: key, Path: "local/default/deployment.apps_web.yaml", Action: Update, App: "default/web", Base: base, Head: head}
	}
	p := &Plan{Changes: []Change{
		upd(deployment("v1", 2, ""), deployment("v2", 2, "")),
		upd(deployment("v1", 2, ""), deployment("v2", 3, "")),
		upd(deployment("v1", 2, ""), deployment("v2", 2, "    extra: x\n")),
		upd(deployment("v1", 2, "    app.oam.dev/namespace: default\n"), deployment("v2", 2, "")), // detached-like: owner label gone
		{Cluster: "local", Key: key, Action: Create, Head: deployment("v2", 2, "")},
		upd(deployment("v1", 2, ""), deployment("v2", 2, "    app.oam.dev/revision: \"\"\n")), // added bookkeeping label
	}}
	rules := []Ignore{mustIgnore(t, "Deployment:spec.replicas")}
	if err := p.Classify(rules); err != nil {
		t.Fatal(err)
	}
	want := []Noise{Bookkeeping, Ignored, Real, Real, Real, Bookkeeping}
	for i, c := range p.Changes {
		if c.Noise != want[i] {
			t.Errorf("change %d: noise %q, want %q", i, c.Noise, want[i])
		}
	}
	wantKeys := []KeyChange{
		{Key: "app.oam.dev/app-revision-hash", From: "h-v1", To: "h-v2", FromSet: true, ToSet: true},
		{Key: "app.oam.dev/appRevision", From: "web-v1", To: "web-v2", FromSet: true, ToSet: true},
	}
	if diff := cmp.Diff(wantKeys, p.Changes[0].Bookkeeping); diff != "" {
		t.Errorf("bookkeeping keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Deployment:spec.replicas"}, p.Changes[1].IgnoredBy); diff != "" {
		t.Errorf("ignored by (-want +got):\n%s", diff)
	}
	if got := p.Changes[5].Bookkeeping; len(got) != 3 || got[2].String() != "app.oam.dev/revision: (none) → " {
		t.Errorf("added label reads %v", got)
	}
	// Without rules the replicas change is real; classifying again
	// starts afresh.
	if err := p.Classify(nil); err != nil {
		t.Fatal(err)
	}
	if p.Changes[1].Noise != Real || p.Changes[1].IgnoredBy != nil {
		t.Errorf("without rules: %q %v", p.Changes[1].Noise, p.Changes[1].IgnoredBy)
	}
}

func mustIgnore(t *testing.T, s string) Ignore {
	t.Helper()
	r, err := ParseIgnore(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestDifferences: the paths where two trees differ, a mapping one side
// lacks read as empty.
func TestDifferences(t *testing.T) {
	a := map[string]any{"metadata": map[string]any{"name": "x"}, "spec": map[string]any{"list": []any{1, 2}, "n": 1, "same": "s"}}
	b := map[string]any{"metadata": map[string]any{"name": "x", "labels": map[string]any{"k": "v", "l": "w"}}, "spec": map[string]any{"list": []any{1, 3}, "n": "1", "same": "s", "short": []any{1}}}
	var got []string
	var out []fieldpath.Path
	differences(fieldpath.Path{}, a, b, &out)
	for _, p := range out {
		got = append(got, p.String())
	}
	want := []string{"metadata.labels.k", "metadata.labels.l", "spec.list[1]", "spec.n", "spec.short"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestTallies: counts per cluster, per application and of the
// bookkeeping, sorted by name; the bookkeeping keys of an application
// are deduplicated, the revision first.
func TestTallies(t *testing.T) {
	rev := KeyChange{Key: "app.oam.dev/appRevision", From: "a-v1", To: "a-v2", FromSet: true, ToSet: true}
	hash := KeyChange{Key: "app.oam.dev/app-revision-hash", From: "1", To: "2", FromSet: true, ToSet: true}
	p := &Plan{Changes: []Change{
		{Cluster: "m1", App: "ns/b", Action: Create},
		{Cluster: "local", App: "ns/a", Action: Update, Noise: Bookkeeping, Bookkeeping: []KeyChange{hash, rev}},
		{Cluster: "m1", App: "ns/a", Action: Update, Noise: Bookkeeping, Bookkeeping: []KeyChange{rev, hash}},
		{Cluster: "local", App: "", Action: Delete},
		{Cluster: "local", App: "ns/a", Action: Update, Noise: Ignored, IgnoredBy: []string{"spec.replicas"}},
	}}
	if diff := cmp.Diff([]Tally{{Name: "local", Update: 2, Delete: 1, Bookkeeping: 1, Ignored: 1}, {Name: "m1", Create: 1, Update: 1, Bookkeeping: 1}}, p.ByCluster()); diff != "" {
		t.Errorf("ByCluster (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Tally{{Name: "", Delete: 1}, {Name: "ns/a", Update: 3, Bookkeeping: 2, Ignored: 1}, {Name: "ns/b", Create: 1}}, p.ByApplication()); diff != "" {
		t.Errorf("ByApplication (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]AppBookkeeping{{App: "ns/a", Objects: 2, Keys: []KeyChange{rev, hash}}}, p.BookkeepingByApp()); diff != "" {
		t.Errorf("BookkeepingByApp (-want +got):\n%s", diff)
	}
	if rules, n := p.IgnoredRules(); n != 1 || len(rules) != 1 || rules[0] != "spec.replicas" {
		t.Errorf("IgnoredRules = %v, %d", rules, n)
	}
	if got := p.Total(); got != (Tally{Create: 1, Update: 3, Delete: 1, Bookkeeping: 2, Ignored: 1}) {
		t.Errorf("Total = %+v", got)
	}
}
