package rules

import (
	"context"
	"fmt"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// benchInputs returns n Deployment-like objects, some of which break each
// check of testdata/bench.
func benchInputs(n int) []Input {
	inputs := make([]Input, n)
	for i := range inputs {
		tag := "1.2.3"
		if i%7 == 0 {
			tag = "latest"
		}
		labels := map[string]any{"app.kubernetes.io/name": fmt.Sprintf("app-%d", i), "team": "shop"}
		if i%5 == 0 {
			delete(labels, "team")
		}
		if i%11 == 0 {
			labels["allow-root"] = "true"
		}
		container := map[string]any{
			"name":  "main",
			"image": "registry.example.com/app:" + tag,
			"ports": []any{map[string]any{"containerPort": int64(8080)}},
			"resources": map[string]any{
				"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
				"limits":   map[string]any{"cpu": "1"},
			},
		}
		obj := manifest.New(map[string]any{
			"apiVersion": "apps/v1",
			"kind":       "Deployment",
			"metadata":   map[string]any{"name": fmt.Sprintf("app-%d", i), "namespace": "shop", "labels": labels},
			"spec": map[string]any{
				"replicas": int64(1 + i%3),
				"selector": map[string]any{"matchLabels": map[string]any{"app": fmt.Sprintf("app-%d", i)}},
				"template": map[string]any{
					"metadata": map[string]any{"labels": map[string]any{"app": fmt.Sprintf("app-%d", i)}},
					"spec": map[string]any{
						"securityContext": map[string]any{"runAsNonRoot": i%3 != 0},
						"containers":      []any{container, manifest.DeepCopy(container)},
					},
				},
			},
		})
		inputs[i] = Input{Object: obj, Context: Context{Cluster: []string{"prod-eu", "dev"}[i%2], Namespace: "shop", Application: "shop", Component: "app"}}
	}
	return inputs
}

// BenchmarkEval evaluates 1,000 Deployments against 5 checks (plus an
// exception), on GOMAXPROCS workers, and reports objects per second.
func BenchmarkEval(b *testing.B) {
	ctx := context.Background()
	e, err := Load(ctx, Options{PolicyDirs: []string{"testdata/bench/policy"}})
	if err != nil {
		b.Fatal(err)
	}
	inputs := benchInputs(1000)
	var results int
	for b.Loop() {
		rep, err := e.Eval(ctx, inputs, 0)
		if err != nil {
			b.Fatal(err)
		}
		results = len(rep.Results)
	}
	b.ReportMetric(float64(len(inputs)*b.N)/b.Elapsed().Seconds(), "objects/s")
	b.ReportMetric(float64(results), "results")
}

// BenchmarkLoad loads and compiles testdata/bench's policies: what a
// run pays before its first evaluation (what a cache of per-object
// results could only skip when every object hits).
func BenchmarkLoad(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if _, err := Load(ctx, Options{PolicyDirs: []string{"testdata/bench/policy"}}); err != nil {
			b.Fatal(err)
		}
	}
}
