package charts

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// BenchmarkReconcile100Releases reconciles 100 HelmReleases of podinfo's
// chart (testdata/e2e), each with its own values, on one cluster; the
// cache, and so the loaded chart, is shared by every op as by a process.
func BenchmarkReconcile100Releases(b *testing.B) {
	cache, err := source.Open(source.Config{Sources: map[string]string{"flux-system/podinfo": filepath.Join("testdata", "e2e", "source")}})
	if err != nil {
		b.Fatal(err)
	}
	var text strings.Builder
	text.WriteString("apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: podinfo, namespace: flux-system}\nspec: {url: https://github.com/stefanprodan/podinfo}\n")
	for i := range 100 {
		fmt.Fprintf(&text, `---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: podinfo-%d, namespace: flux-system}
spec:
  targetNamespace: team-%d
  chart: {spec: {chart: ./charts/podinfo, sourceRef: {kind: GitRepository, name: podinfo}}}
  values:
    replicaCount: %d
    ui: {message: "release %d"}
    redis: {enabled: %t}
    hpa: {enabled: %t}
`, i, i%10, i%5+1, i, i%2 == 0, i%3 == 0)
	}
	objs, err := manifest.Decode("bench.yaml", []byte(text.String()), manifest.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	c := &Controller{Cache: cache}
	b.ReportAllocs()
	for b.Loop() {
		outs, _, err := c.Reconcile(context.Background(), Cluster{Name: "east", KubeVersion: "1.31.0"}, objs)
		if err != nil {
			b.Fatal(manifest.Format(err, nil))
		}
		if len(outs) < 300 {
			b.Fatalf("%d outputs", len(outs))
		}
	}
}
