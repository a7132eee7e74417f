package check

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// TestLocateOnlyWriters: a drift is located by rendering again only the
// applications that wrote the drifted objects, and says what rendering
// the whole suite again says; a drifted object no application wrote (an
// observed one) makes the whole suite render again.
func TestLocateOnlyWriters(t *testing.T) {
	cart := strings.ReplaceAll(strings.ReplaceAll(shopApp("nginx:1.25", 2), "shop", "cart"), "name: web", "name: api")
	const observed = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\ndata:\n  mode: MODE\n"
	tests := []struct {
		name     string
		now      map[string]string
		wantOnly map[string]bool
	}{
		{"one application's object", map[string]string{"shop.yaml": shopApp("nginx:1.26", 2)}, map[string]bool{"default/shop": true}},
		{"two applications' objects", map[string]string{"shop.yaml": shopApp("nginx:1.26", 2), "cart.yaml": strings.Replace(cart, "nginx:1.25", "nginx:1.26", 1)},
			map[string]bool{"default/shop": true, "default/cart": true}},
		{"an observed object", map[string]string{"observed.yaml": strings.Replace(observed, "MODE", "slow", 1)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runFiles(t, map[string]string{
				"drydock.yaml":  "suites: [{name: s, inputs: [shop.yaml, cart.yaml], observed: [observed.yaml], golden: golden, validate: false}]\n",
				"shop.yaml":     shopApp("nginx:1.25", 2),
				"cart.yaml":     cart,
				"observed.yaml": strings.Replace(observed, "MODE", "fast", 1),
			}, Options{Update: true})
			if res.ExitCode() != ExitOK {
				t.Fatalf("update: %v", summarize(res))
			}
			writeFiles(t, ".", tt.now)
			cfg, err := LoadConfig("drydock.yaml")
			if err != nil {
				t.Fatal(err)
			}
			whole := Run(context.Background(), cfg, Options{locateWhole: true})
			var only []map[string]bool
			got := Run(context.Background(), cfg, Options{locateRender: func(o map[string]bool) { only = append(only, o) }})
			if diff := cmp.Diff([]map[string]bool{tt.wantOnly}, only); diff != "" {
				t.Errorf("rendered again (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(summarize(whole), summarize(got)); diff != "" {
				t.Errorf("findings differ from locating by the whole render (-whole +got):\n%s", diff)
			}
			if diff := cmp.Diff(findingDiffs(whole), findingDiffs(got)); diff != "" {
				t.Errorf("fields differ from locating by the whole render (-whole +got):\n%s", diff)
			}
			located := false
			for _, f := range got.Suites[0].Findings {
				located = located || strings.Contains(f.Message, " was set by ")
			}
			if !located {
				t.Errorf("no finding located: %v", summarize(got))
			}
		})
	}
}

// TestWriters: the applications that wrote the drifted objects, or none
// when one was propagated, written by something else, not known or
// without a digest.
func TestWriters(t *testing.T) {
	app := func(name string) *sunk {
		return &sunk{writer: &writer{owner: cluster.ApplicationOwner(name)}, digested: true}
	}
	tests := []struct {
		name    string
		targets map[string]*sunk
		want    map[string]bool
	}{
		{"applications", map[string]*sunk{"a": app("default/a"), "b": app("ns/b"), "c": app("ns/b")}, map[string]bool{"default/a": true, "ns/b": true}},
		{"propagated", map[string]*sunk{"a": app("default/a"), "b": {writer: &writer{owner: cluster.ApplicationOwner("default/b"), propagated: true}, digested: true}}, nil},
		{"a chart's", map[string]*sunk{"a": {writer: &writer{owner: "HelmRelease default/r"}, digested: true}}, nil},
		{"not rendered", map[string]*sunk{"a": nil}, nil},
		{"no digest", map[string]*sunk{"a": {writer: &writer{owner: cluster.ApplicationOwner("default/a")}}}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, writers(tt.targets)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestSameObjects: a partial render serves only if it gives every target
// as the first render did.
func TestSameObjects(t *testing.T) {
	obj := func(v string) *manifest.Object {
		return manifest.New(map[string]any{"kind": "ConfigMap", "data": map[string]any{"v": v}})
	}
	target := func(v string) *sunk {
		d, ok := tree.DigestOf(obj(v))
		return &sunk{digest: d, digested: ok}
	}
	targets := map[string]*sunk{"a": target("1"), "b": target("2")}
	tests := []struct {
		name string
		objs map[string]*manifest.Object
		want bool
	}{
		{"the same", map[string]*manifest.Object{"a": obj("1"), "b": obj("2"), "c": obj("3")}, true},
		{"one differs", map[string]*manifest.Object{"a": obj("1"), "b": obj("3")}, false},
		{"one missing", map[string]*manifest.Object{"a": obj("1")}, false},
	}
	for _, tt := range tests {
		if got := sameObjects(tt.objs, targets); got != tt.want {
			t.Errorf("%s: sameObjects = %v, want %v", tt.name, got, tt.want)
		}
	}
}
