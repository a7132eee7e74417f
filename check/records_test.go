package check

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
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

// TestOriginsOf: the origins a comparison's findings need are those of
// the paths it names, the last object at a path winning.
func TestOriginsOf(t *testing.T) {
	at := func(path, app string) *sunk { return &sunk{path: path, origin: cluster.Origin{Application: app}} }
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
