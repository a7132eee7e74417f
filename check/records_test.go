package check

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// TestSuiteSinkRecords: the sink's records, kept in blocks, are the
// objects last written, each once, in output order, past a block's end
// and across clusters; an object written again replaces its record.
func TestSuiteSinkRecords(t *testing.T) {
	cm := func(name string) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "default"}})
	}
	r := &runner{dir: t.TempDir()}
	k := r.newSuiteSink(context.Background(), Suite{Name: "s"})
	const n = recordBlock + 100
	put := func(c string, i, line int) {
		t.Helper()
		if err := k.Put(c, cluster.Entry{Object: cm(fmt.Sprintf("c%04d", i)), Origin: cluster.Origin{Pos: manifest.Pos{File: c, Line: line}}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := n - 1; i >= 0; i-- {
		put("m2", i, 1)
	}
	for i := range 3 {
		put("m1", i, 1)
	}
	for i := 0; i < n; i += 7 { // rewritten: the later origin wins
		put("m2", i, 2)
	}
	var want, got []string
	for i := range 3 {
		want = append(want, fmt.Sprintf("m1/default/configmap_c%04d.yaml m1:1", i))
	}
	for i := range n {
		line := 1
		if i%7 == 0 {
			line = 2
		}
		want = append(want, fmt.Sprintf("m2/default/configmap_c%04d.yaml m2:%d", i, line))
	}
	for _, o := range k.ordered() {
		got = append(got, o.path+" "+o.origin.Pos.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	res := &SuiteResult{Name: "s"}
	if err := k.finish(res); err != nil {
		t.Fatal(err)
	}
	if res.Objects != n+3 {
		t.Errorf("Objects = %d, want %d", res.Objects, n+3)
	}
}

// TestSuiteSinkOrder: objects of many clusters, namespaces, groups and
// kinds, in any order and some written again, come out once each (the
// last written) in output order: by cluster, then manifest.Key.Less.
func TestSuiteSinkOrder(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[rnd.IntN(len(s))] }
	r := &runner{dir: t.TempDir()}
	k := r.newSuiteSink(context.Background(), Suite{Name: "s"})
	type placed struct {
		c   string
		key manifest.Key
	}
	last := map[placed]string{} // the path and position last written
	var c string
	for i := range 3000 {
		if i%3 == 0 {
			c = pick("m1", "hub", "m2")
		}
		api, kind := pick("v1", "apps/v1", "batch/v1"), pick("ConfigMap", "Deployment", "Job")
		meta := map[string]any{"name": fmt.Sprintf("o%d", rnd.IntN(400))}
		if ns := pick("", "a", "b", "kube-system"); ns != "" {
			meta["namespace"] = ns
		}
		obj := manifest.New(map[string]any{"apiVersion": api, "kind": kind, "metadata": meta})
		// Runs of objects share a cluster and an origin (an application's),
		// as renders give them.
		pos := manifest.Pos{File: c, Line: i / 3}
		if err := k.Put(c, cluster.Entry{Object: obj, Origin: cluster.Origin{Pos: pos}}); err != nil {
			t.Fatal(err)
		}
		last[placed{c, obj.Key()}] = tree.KeyPath(c, obj.Key()) + " " + pos.String()
	}
	ps := slices.Collect(maps.Keys(last))
	slices.SortFunc(ps, func(a, b placed) int {
		switch {
		case a.c != b.c:
			return strings.Compare(a.c, b.c)
		case a.key.Less(b.key):
			return -1
		case b.key.Less(a.key):
			return 1
		}
		return 0
	})
	var want, got []string
	for _, p := range ps {
		want = append(want, last[p])
	}
	for _, o := range k.ordered() {
		got = append(got, o.path+" "+o.origin.Pos.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if k.writers.n != 1000 {
		t.Errorf("%d writers kept for 1000 origins", k.writers.n)
	}
}

// TestOriginsOf: the origins a comparison's findings need are those of
// the paths it names, the last object at a path winning.
func TestOriginsOf(t *testing.T) {
	at := func(path, app string) *sunk {
		return &sunk{writer: &writer{origin: cluster.Origin{Application: app}}, path: path}
	}
	objs := []*sunk{at("a", "1"), at("b", "2"), at("c", "3"), at("b", "4")}
	got := originsOf(objs, []string{"b"}, []string{"c", "gone"})
	want := map[string]cluster.Origin{"b": {Application: "4"}, "c": {Application: "3"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("origins (-want +got):\n%s", diff)
	}
	if got := originsOf(objs, nil, nil); len(got) != 0 {
		t.Errorf("origins of no paths = %v, want none", got)
	}
}
