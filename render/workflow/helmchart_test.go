package workflow

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// helmchartApp deploys a ConfigMap component, then (dependsOn) a
// helmchart component whose valuesFrom reads that ConfigMap on the hub.
var helmchartApp = cmDef + app(`  components:
  - name: shop-values
    type: cm
    properties: {data: {values.yaml: "service:\n  port: 9090\n"}}
  - name: web
    type: helmchart
    dependsOn: [shop-values]
    properties:
      chart: {source: shop, repoURL: "https://charts.example.com/stable", version: "0.3.1"}
      valuesFrom: [{kind: ConfigMap, name: shop-values}]`)

func chartCache(t *testing.T) *source.Cache {
	t.Helper()
	c, err := source.Open(source.Config{Charts: []string{filepath.Join("..", "cueval", "testdata", "charts")}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHelmchartWorkflow: Options.Charts reaches the helmchart component;
// its valuesFrom reads the hub as the workflow has written it so far
// (KubeVela's provider reads the live control plane); the chart sees
// the hub's Kubernetes version (the chart requires >=1.25, Helm's
// default under go test is v1.20.0).
func TestHelmchartWorkflow(t *testing.T) {
	res, err := renderWith(t, helmchartApp, func(o *Options) {
		o.Charts = chartCache(t)
		o.KubeVersion = "1.30.2"
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	port := any(nil)
	for _, w := range writes(res) {
		got = append(got, w.At)
	}
	for _, w := range res.Writes {
		if manifest.String(w.Resource.Object, "kind") == "Service" {
			ports, _ := manifest.Map(w.Resource.Object, "spec")["ports"].([]any)
			port = ports[0].(map[string]any)["port"]
		}
	}
	want := []string{
		"local/default/ConfigMap/shop-values",
		"local/default/ConfigMap/web-helm-release",
		"local/_cluster/ClusterRole/web-shop-reader",
		"local/default/Service/web-shop",
		"local/default/Deployment/web-shop",
		"local/default/Secret/sh.helm.release.v1.web.v1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	if port != int64(9090) {
		t.Errorf("Service port = %v, want 9090 from the ConfigMap the workflow wrote", port)
	}
}

// TestHelmchartWorkflowRefusals: without Options.Charts, and with the
// hub's version below the chart's kubeVersion.
func TestHelmchartWorkflowRefusals(t *testing.T) {
	_, err := renderWith(t, helmchartApp, nil)
	if err == nil || !strings.Contains(err.Error(), "no chart cache") {
		t.Errorf("without a chart cache: %v", err)
	}
	_, err = renderWith(t, helmchartApp, func(o *Options) { o.Charts = chartCache(t) })
	if err == nil || !strings.Contains(err.Error(), "chart requires kubeVersion: >=1.25.0-0") {
		t.Errorf("hub at Helm's default version: %v", err)
	}
}
