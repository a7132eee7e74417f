package charts

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// TestNested reconciles testdata/e2e/nested.yaml, the shape of
// fluxcd/flux2-kustomize-helm-example: the bootstrap Kustomization
// flux-system (path ./clusters/prod) applies itself and its GitRepository
// (the same objects: not output again), and two Kustomizations, infra (a
// ConfigMap of values) and nested-apps (a HelmRelease whose valuesFrom
// reads that ConfigMap, though nested-apps sorts before infra: every
// Kustomization is built before any HelmRelease).
func TestNested(t *testing.T) {
	dir := filepath.Join("testdata", "e2e")
	cache, err := source.Open(source.Config{Sources: map[string]string{"flux-system/podinfo": filepath.Join(dir, "source")}})
	if err != nil {
		t.Fatal(err)
	}
	c := &Controller{Cache: cache}
	outs, warnings, err := c.Reconcile(context.Background(), Cluster{Name: "east", KubeVersion: "1.31.0"}, decodeFile(t, filepath.Join(dir, "nested.yaml")))
	if err != nil {
		t.Fatal(manifest.Format(err, nil))
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %q", warnings)
	}
	type row struct{ Object, Source string }
	var got []row
	var replicas any
	for _, o := range outs {
		got = append(got, row{o.Object.Key().String(), o.Source})
		if o.Object.Kind() == "Deployment" && o.Object.Name() == "web-web-podinfo" {
			replicas, _ = manifest.Lookup(o.Object.Data, "spec", "replicas")
		}
	}
	const web = "HelmRelease flux-system/web, chart podinfo 6.14.1, template podinfo/templates/"
	want := []row{
		{"Kustomization.kustomize.toolkit.fluxcd.io flux-system/nested-apps", "Kustomization flux-system/flux-system, path ./clusters/prod"},
		{"Kustomization.kustomize.toolkit.fluxcd.io flux-system/infra", "Kustomization flux-system/flux-system, path ./clusters/prod"},
		{"HelmRelease.helm.toolkit.fluxcd.io flux-system/web", "Kustomization flux-system/nested-apps, path ./nested-apps"},
		{"ConfigMap flux-system/web-values", "Kustomization flux-system/infra, path ./infra"},
		{"Service web/web-web-podinfo", web + "service.yaml"},
		{"Deployment.apps web/web-web-podinfo", web + "deployment.yaml"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if replicas != int64(3) {
		t.Errorf("replicas = %v (%T), want 3 from infra's ConfigMap", replicas, replicas)
	}
}
