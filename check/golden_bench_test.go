package check

import (
	"fmt"
	"testing"
	"time"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// BenchmarkGoldenSink20000 compares 20,000 rendered Deployments with
// their golden tree, as drydock test's golden check does: Cold reads and
// compares every file (no store, or a store that knows nothing), Known
// only the stat of each (a store that knows them all), the golden side of
// a warm run; Known1Changed with one object changed (the pre-commit case).
func BenchmarkGoldenSink20000Cold(b *testing.B)  { benchGoldenSink(b, nil, -1) }
func BenchmarkGoldenSink20000Known(b *testing.B) { benchGoldenSink(b, &memStore{}, -1) }
func BenchmarkGoldenSink20000Known1Changed(b *testing.B) {
	benchGoldenSink(b, &memStore{}, 777)
}

func benchGoldenSink(b *testing.B, st store, changed int) {
	const n = 20000
	dir := b.TempDir()
	entries := make([]cluster.Entry, n)
	t := tree.Tree{}
	for i := range entries {
		o := benchDeploymentN(b, i)
		entries[i] = cluster.Entry{Object: o}
		if err := t.Add("local", o); err != nil {
			b.Fatal(err)
		}
	}
	if err := tree.Write(dir, t); err != nil {
		b.Fatal(err)
	}
	if changed >= 0 {
		entries[changed] = cluster.Entry{Object: benchDeploymentN(b, -changed)}
		entries[changed].Object.Data["metadata"].(map[string]any)["name"] = fmt.Sprintf("web-%d", changed)
	}
	s := Suite{Name: "s", Golden: dir}
	r := &runner{dir: dir, opts: Options{testStore: st, goldenStart: func(time.Time) time.Time { return time.Now().Add(time.Hour) }}}
	run := func() {
		k := r.newSuiteSink(b.Context(), s)
		for _, e := range entries {
			if err := k.Put("local", e); err != nil {
				b.Fatal(err)
			}
		}
		res := &SuiteResult{Name: "s"}
		if err := k.finish(res); err != nil {
			b.Fatal(err)
		}
		if want := min(changed+1, 1); len(res.Findings) != want {
			b.Fatalf("%d findings, want %d: %v", len(res.Findings), want, res.Findings)
		}
	}
	run() // the store learns
	for b.Loop() {
		run()
	}
}

// benchDeploymentN is the Deployment web-i.
func benchDeploymentN(b *testing.B, i int) *manifest.Object {
	objs, err := manifest.Decode("d.yaml", fmt.Appendf(nil, `apiVersion: apps/v1
kind: Deployment
metadata:
  labels: {app.oam.dev/appRevision: app-%[1]d-v1, app.oam.dev/component: web-%[1]d, app.oam.dev/name: app-%[1]d, app.oam.dev/app-revision-hash: abcdef, workload.oam.dev/type: webservice}
  name: web-%[1]d
  namespace: team-%[2]d
spec:
  replicas: 2
  selector: {matchLabels: {app.oam.dev/component: web-%[1]d}}
  template:
    metadata:
      labels: {app.oam.dev/component: web-%[1]d, app.oam.dev/name: app-%[1]d}
    spec:
      containers:
        - env: [{name: INDEX, value: "%[1]d"}]
          image: registry.example.com/web:%[1]d
          name: web-%[1]d
          ports: [{containerPort: 8080, name: port-8080, protocol: TCP}]
`, i, max(i, -i)%10), manifest.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return objs[0]
}
