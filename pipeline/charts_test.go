package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chartsource "github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// chartRelease is a HelmRepository and a HelmRelease of the chart
// testdata/charts/hello, in namespace apps.
const chartRelease = `apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: charts, namespace: apps}
spec: {url: https://charts.example.com}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: apps}
spec:
  interval: 5m
  chart:
    spec:
      chart: hello
      version: 1.x
      sourceRef: {kind: HelmRepository, name: charts}
  values:
    greeting: hi
`

// chartInputs writes files (name → content) and returns the inputs
// reading them with the chart cache testdata/charts.
func chartInputs(t *testing.T, files map[string]string, paths ...string) Inputs {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := Inputs{Charts: chartsource.Config{Charts: []string{"testdata/charts"}}}
	for _, p := range paths {
		in.Paths = append(in.Paths, filepath.Join(dir, p))
	}
	return in
}

// data is the data of the object of key in cluster c.
func data(t *testing.T, s *cluster.Store, c string, key manifest.Key) (cluster.Entry, map[string]any) {
	t.Helper()
	e, ok := s.Get(c, key)
	if !ok {
		var have []string
		for _, h := range s.List(c) {
			have = append(have, h.Object.Key().String())
		}
		t.Fatalf("cluster %s has no %s; it has %s", c, key, strings.Join(have, ", "))
	}
	d, _ := e.Object.Data["data"].(map[string]any)
	return e, d
}

// TestChartsPlainRelease: a HelmRelease among plain inputs renders on the
// hub, where kubectl apply puts it: its chart's objects are written into
// the cluster, owned by the release, named in `# Source:` and in their
// provenance (explain).
func TestChartsPlainRelease(t *testing.T) {
	in := chartInputs(t, map[string]string{"release.yaml": chartRelease}, "release.yaml")
	in.Record.Provenance = true
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	key := manifest.Key{Kind: "ConfigMap", Namespace: "apps", Name: "web-hello"}
	e, d := data(t, res.Clusters, cluster.Local, key)
	if diff := cmp.Diff(map[string]any{"greeting": "hi", "kube": d["kube"], "deployments": "true", "widgets": "false"}, d); diff != "" {
		t.Errorf("ConfigMap data (-want +got):\n%s", diff)
	}
	if e.Owner != "HelmRelease apps/web" {
		t.Errorf("owner %q, want HelmRelease apps/web", e.Owner)
	}
	for _, want := range []string{"HelmRelease apps/web", "hello", "1.2.0", "templates/configmap.yaml"} {
		if !strings.Contains(e.Source, want) {
			t.Errorf("source %q does not name %q", e.Source, want)
		}
	}
	o, ok := e.Object.Provenance.Last(fieldpath.New("data", "greeting"))
	if !ok || o.Stage != manifest.StageHelm || !strings.Contains(o.Name, "templates/configmap.yaml") {
		t.Errorf("provenance of data.greeting = %+v, %v; want the helm stage naming the template", o, ok)
	}
	if _, ok := res.Clusters.Get(cluster.Local, manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "apps", Name: "web-hello"}); !ok {
		t.Error("the chart's Deployment is not on the hub")
	}
}

// TestChartsPerCluster: a HelmRelease KubeVela dispatches to a member
// renders with that member's Kubernetes version and the API versions it
// serves (the CRDs it holds included).
func TestChartsPerCluster(t *testing.T) {
	app := `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop, namespace: apps}
spec:
  components:
    - name: release
      type: k8s-objects
      properties:
        objects:
` + indent(chartRelease+"---\n"+widgetCRD, "          ") + `
  policies:
    - {name: prod, type: topology, properties: {clusters: [prod]}}
`
	clusters := `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: prod}
status: {kubernetesVersion: v1.29.4}
`
	in := chartInputs(t, map[string]string{"app.yaml": app, "clusters.yaml": clusters}, "app.yaml")
	in.ClusterPaths = []string{filepath.Join(filepath.Dir(in.Paths[0]), "clusters.yaml")}
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	e, d := data(t, res.Clusters, "prod", manifest.Key{Kind: "ConfigMap", Namespace: "apps", Name: "web-hello"})
	if d["kube"] != "v1.29.4" || d["widgets"] != "true" {
		t.Errorf("Capabilities seen on prod: kube %v, widgets %v; want v1.29.4 and true", d["kube"], d["widgets"])
	}
	if e.Origin.Application != "shop" || e.Origin.Component != "release" {
		t.Errorf("origin %+v, want the release's: application shop, component release", e.Origin)
	}
	if !strings.Contains(e.Source, "application shop") {
		t.Errorf("source %q does not name the application that dispatched the release", e.Source)
	}
}

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`

// indent is the YAML documents of s as the items of a list, indented by
// by.
func indent(s, by string) string {
	var out []string
	for _, doc := range strings.Split(s, "---\n") {
		for i, l := range strings.Split(strings.TrimSuffix(doc, "\n"), "\n") {
			if i == 0 {
				out = append(out, by+"- "+l)
			} else {
				out = append(out, by+"  "+l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// TestChartsValidated: the objects a chart renders are validated as the
// cluster's API server would: a values change that breaks one is a
// finding at it, streamed like every other object.
func TestChartsValidated(t *testing.T) {
	release := strings.Replace(chartRelease, "greeting: hi", "replicas: two", 1)
	in := chartInputs(t, map[string]string{"release.yaml": release}, "release.yaml")
	in.Record.Validate = &Validation{}
	sink := &recorder{}
	res, err := Stream(context.Background(), in, sink)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sink.final[cluster.Local+" "+manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "apps", Name: "web-hello"}.String()], "HelmRelease apps/web") {
		t.Errorf("the sink did not receive the chart's Deployment: %v", sink.puts)
	}
	var found bool
	for _, f := range res.Validation.Findings {
		if f.Key.Name == "web-hello" && strings.Contains(f.Field, "replicas") {
			found = true
		}
	}
	if !found {
		t.Errorf("no finding about the Deployment's spec.replicas: %+v", res.Validation.Findings)
	}
}

// TestChartsNothingToRender: without a HelmRelease or Kustomization the
// stage costs nothing: it keeps what it reads (a ConfigMap) as objects
// pass, but reconciles nothing and opens no chart cache.
func TestChartsNothingToRender(t *testing.T) {
	s := newChartStage(nil, chartsource.Config{Charts: []string{"testdata/no-such-cache"}}, nil, false)
	o := manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "default"}})
	if err := s.Put(cluster.Local, cluster.Entry{Object: o}); err != nil {
		t.Fatal(err)
	}
	warnings, bad, err := s.reconcile(context.Background(), cluster.NewInventory(), cluster.NewStore(), nil)
	if err != nil || len(bad) > 0 || len(warnings) > 0 {
		t.Fatalf("reconcile = %v, %v, %v; want nothing", warnings, bad, err)
	}
	if s.ctrl != nil {
		t.Error("the chart cache was opened with no release to render")
	}
	if len(s.objs[cluster.Local]) != 1 {
		t.Errorf("kept %d objects of local, want the ConfigMap", len(s.objs[cluster.Local]))
	}
}

// TestChartsUnconfiguredKeepsNoConfigData: a run without chart or
// source caches cannot render a release, so the stage keeps no ConfigMap
// or Secret (memory that would grow with the applications); it still
// keeps a release, whose render then fails on its chart as with caches.
func TestChartsUnconfiguredKeepsNoConfigData(t *testing.T) {
	s := newChartStage(nil, chartsource.Config{}, nil, false)
	for _, kind := range []string{"ConfigMap", "Secret"} {
		o := manifest.New(map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": "c", "namespace": "default"}})
		if err := s.Put(cluster.Local, cluster.Entry{Object: o}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.objs[cluster.Local]); n != 0 {
		t.Errorf("kept %d objects, want none", n)
	}
	release, err := manifest.Decode("release.yaml", []byte(chartRelease), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range release {
		if err := s.Put(cluster.Local, cluster.Entry{Object: o}); err != nil {
			t.Fatal(err)
		}
	}
	_, bad, err := s.reconcile(context.Background(), cluster.NewInventory(), cluster.NewStore(), nil)
	if err == nil && len(bad) == 0 {
		t.Fatal("a release rendered without a chart cache")
	}
}

// TestChartsConflict: a chart's object that an application writes too is
// refused, naming the release and the application.
func TestChartsConflict(t *testing.T) {
	app := `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop, namespace: apps}
spec:
  components:
    - name: release
      type: k8s-objects
      properties:
        objects:
` + indent(chartRelease, "          ") + `
    - name: clash
      type: k8s-objects
      properties:
        objects:
          - {apiVersion: apps/v1, kind: Deployment, metadata: {name: web-hello}, spec: {replicas: 3}}
`
	in := chartInputs(t, map[string]string{"app.yaml": app}, "app.yaml")
	_, err := Run(context.Background(), in)
	if !errors.Is(err, cluster.ErrConflict) || !strings.Contains(err.Error(), "HelmRelease apps/web") || !strings.Contains(err.Error(), "application apps/shop") {
		t.Fatalf("error %v, want a conflict naming HelmRelease apps/web and application apps/shop", err)
	}
}

// TestChartsMissingChart: a chart the cache does not hold is bad input,
// and the rest renders.
func TestChartsMissingChart(t *testing.T) {
	release := strings.Replace(chartRelease, "chart: hello", "chart: absent", 1)
	in := chartInputs(t, map[string]string{"release.yaml": release}, "release.yaml")
	res, err := Run(context.Background(), in)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("error %v, want bad input naming the chart", err)
	}
	if res == nil {
		t.Fatal("no result beside the error")
	}
}

// TestChartsKarmadaTemplates: a HelmRelease KubeVela dispatches to a
// Karmada control plane renders there: its objects are templates Karmada
// propagates to the members its policies choose. The copy of the release
// Karmada propagates too is not rendered again on the member.
func TestChartsKarmadaTemplates(t *testing.T) {
	policy := `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: members}
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
    - {apiVersion: apps/v1, kind: Deployment}
    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease}
    - {apiVersion: source.toolkit.fluxcd.io/v1, kind: HelmRepository}
  placement: {clusterAffinity: {clusterNames: [m1]}}
`
	app := `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: fleet, namespace: apps}
spec:
  components:
    - name: release
      type: k8s-objects
      properties:
        objects:
` + indent(chartRelease+"---\n"+policy, "          ") + `
  policies:
    - {name: hub, type: topology, properties: {clusters: [karmada]}}
`
	clusters := `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: karmada}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1, annotations: {drydock.dev/karmada-control-plane: karmada}}
status: {kubernetesVersion: v1.28.3}
`
	in := chartInputs(t, map[string]string{"app.yaml": app, "clusters.yaml": clusters}, "app.yaml")
	in.ClusterPaths = []string{filepath.Join(filepath.Dir(in.Paths[0]), "clusters.yaml")}
	sink := &recorder{}
	if _, err := Stream(context.Background(), in, sink); err != nil {
		t.Fatal(err)
	}
	cm := manifest.Key{Kind: "ConfigMap", Namespace: "apps", Name: "web-hello"}.String()
	for _, c := range []string{"karmada", "m1"} {
		if _, ok := sink.final[c+" "+cm]; !ok {
			t.Errorf("cluster %s has no %s: %v", c, cm, sink.puts)
		}
	}
	var onMember []string
	for _, p := range sink.puts {
		if strings.HasPrefix(p, "m1 "+cm) {
			onMember = append(onMember, p)
		}
	}
	if len(onMember) != 1 || !strings.Contains(onMember[0], "via Karmada control plane karmada") {
		t.Errorf("m1's %s written %v; want once, propagated from karmada (not rendered again on m1)", cm, onMember)
	}
}

// TestChartsPropagatedInputs: a HelmRelease among plain inputs that a
// Karmada policy propagates renders on the member it lands on, with that
// member's Kubernetes version.
func TestChartsPropagatedInputs(t *testing.T) {
	policy := `---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: members}
spec:
  resourceSelectors:
    - {apiVersion: helm.toolkit.fluxcd.io/v2, kind: HelmRelease}
    - {apiVersion: source.toolkit.fluxcd.io/v1, kind: HelmRepository}
  placement: {clusterAffinity: {clusterNames: [m1]}}
`
	clusters := `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1}
status: {kubernetesVersion: v1.28.3}
`
	in := chartInputs(t, map[string]string{"release.yaml": chartRelease + policy, "clusters.yaml": clusters}, "release.yaml")
	in.ClusterPaths = []string{filepath.Join(filepath.Dir(in.Paths[0]), "clusters.yaml")}
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	_, d := data(t, res.Clusters, "m1", manifest.Key{Kind: "ConfigMap", Namespace: "apps", Name: "web-hello"})
	if d["kube"] != "v1.28.3" {
		t.Errorf("the chart saw Kubernetes %v on m1, want v1.28.3", d["kube"])
	}
}
