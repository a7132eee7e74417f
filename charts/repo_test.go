package charts

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// repoCache holds podinfo's chart for its Helm repository and its OCI
// repository.
func repoCache(t *testing.T) *source.Cache {
	t.Helper()
	chartDir := filepath.Join("testdata", "e2e", "source", "charts", "podinfo")
	cache, err := source.Open(source.Config{Repositories: map[string]string{
		"https://stefanprodan.github.io/podinfo":    chartDir,
		"oci://ghcr.io/stefanprodan/charts/podinfo": chartDir,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cache
}

const repoSources = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: podinfo, namespace: flux-system}
spec: {url: https://stefanprodan.github.io/podinfo}
---
apiVersion: source.toolkit.fluxcd.io/v1beta2
kind: OCIRepository
metadata: {name: podinfo, namespace: flux-system}
spec:
  url: oci://ghcr.io/stefanprodan/charts/podinfo
  ref: {tag: 6.14.1}
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmChart
metadata: {name: podinfo, namespace: flux-system}
spec:
  chart: podinfo
  version: 6.x
  sourceRef: {kind: HelmRepository, name: podinfo}
  valuesFiles: [values.yaml, values-prod.yaml]
`

// TestChartSources: a chart from a HelmRepository (with valuesFiles from
// the chart merged into its defaults), an OCIRepository, and a HelmChart;
// each renders its kinds, with the release name helm-controller gives.
func TestChartSources(t *testing.T) {
	tests := []struct {
		name, release string
		wantKinds     []string
	}{
		{"helm repository", `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: a, namespace: flux-system}
spec:
  chart:
    spec:
      chart: podinfo
      version: ">=6.0.0"
      sourceRef: {kind: HelmRepository, name: podinfo}
      valuesFiles: [values.yaml, values-prod.yaml]
`, []string{"ConfigMap", "Service", "Service", "Deployment", "Deployment", "HorizontalPodAutoscaler"}},
		{"oci repository", `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: b, namespace: flux-system}
spec:
  chartRef: {kind: OCIRepository, name: podinfo}
`, []string{"Service", "Deployment"}},
		{"helm chart", `
apiVersion: helm.toolkit.fluxcd.io/v2beta2
kind: HelmRelease
metadata: {name: c, namespace: flux-system}
spec:
  chartRef: {kind: HelmChart, name: podinfo}
`, []string{"ConfigMap", "Service", "Service", "Deployment", "Deployment", "HorizontalPodAutoscaler"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Controller{Cache: repoCache(t)}
			outs, _, err := c.Reconcile(context.Background(), Cluster{Name: "east", KubeVersion: "1.31.0"}, decode(t, repoSources+"---"+tt.release))
			if err != nil {
				t.Fatal(manifest.Format(err, nil))
			}
			var kinds []string
			for _, o := range outs {
				kinds = append(kinds, o.Object.Kind())
				if o.Object.Kind() == "Deployment" && !slices.Contains([]string{"a-podinfo", "b-podinfo", "c-podinfo", "a-podinfo-redis", "c-podinfo-redis"}, o.Object.Name()) {
					t.Errorf("deployment %s", o.Object.Name())
				}
			}
			if diff := cmp.Diff(tt.wantKinds, kinds); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMissingChart: a chart the cache does not hold is source's error,
// unchanged inside the one naming the HelmRelease at its line.
func TestMissingChart(t *testing.T) {
	c := &Controller{Cache: repoCache(t)}
	_, _, err := c.Reconcile(context.Background(), Cluster{Name: "east"}, decode(t, repoSources+`---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: a, namespace: flux-system}
spec:
  chart:
    spec:
      chart: podinfo
      version: ">=7.0.0"
      sourceRef: {kind: HelmRepository, name: podinfo}
`))
	var missing *source.MissingChartError
	if !errors.As(err, &missing) {
		t.Fatalf("err = %v, want a *source.MissingChartError", err)
	}
	want := "in.yaml:28:7: HelmRelease flux-system/a: " + missing.Error()
	if got := manifest.Format(err, nil); got != want {
		t.Errorf("err = %s\nwant %s", got, want)
	}
}
