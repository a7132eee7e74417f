package check

import (
	"context"
	"fmt"
	"testing"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// BenchmarkSuiteSink puts the objects of a warm run of 10,000
// applications (a Deployment and a Service each, an application's in a
// row, with their digests as a render cache hit carries them) into a
// suite's sink and finishes it: what the sink keeps of each object and
// the sort into output order (no golden tree, no rules: their costs are
// their packages'). B/op is what matters on a machine where fresh memory
// is dear.
func BenchmarkSuiteSink(b *testing.B) {
	const apps = 10000
	type put struct {
		e cluster.Entry
	}
	var puts []put
	for i := range apps {
		ns := fmt.Sprintf("team-%d", i%10)
		origin := cluster.Origin{Pos: manifest.Pos{File: fmt.Sprintf("apps/%s/app-%d.yaml", ns, i), Line: 8, Col: 7},
			Application: fmt.Sprintf("app-%d", i), Component: fmt.Sprintf("web-%d", i)}
		owner := cluster.ApplicationOwner(ns + "/" + origin.Application)
		for _, kind := range [][2]string{{"apps/v1", "Deployment"}, {"v1", "Service"}} {
			obj := manifest.New(map[string]any{"apiVersion": kind[0], "kind": kind[1],
				"metadata": map[string]any{"name": origin.Component, "namespace": ns}})
			obj.Sums = &manifest.Sums{Digested: true}
			puts = append(puts, put{cluster.Entry{Object: obj, Origin: origin, Owner: owner}})
		}
	}
	r := &runner{dir: b.TempDir()}
	b.ReportAllocs()
	for b.Loop() {
		k := r.newSuiteSink(context.Background(), Suite{Name: "s"})
		for _, p := range puts {
			if err := k.Put("local", p.e); err != nil {
				b.Fatal(err)
			}
		}
		res := &SuiteResult{Name: "s"}
		if err := k.finish(res); err != nil || res.Objects != 2*apps {
			b.Fatal(err, res.Objects)
		}
	}
}
