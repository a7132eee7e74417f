package cueval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// helmchartFixture renders testdata/helmchart/app.yaml's helmchart
// component with the chart cache of testdata/charts and the hub of
// testdata/helmchart/hub.yaml at v1.30.2, for a cluster at v1.28.0 (the
// chart sees the hub's version: KubeVela installs it from there).
func helmchartFixture(t *testing.T, app string, hub bool) (*cueval.ComponentManifest, error) {
	t.Helper()
	e := helmchartEngine(t, hub)
	a := parseApp(t, app)
	return e.RenderComponent(a, &a.Components[0], cueval.Placement{ClusterVersion: cueval.ParseClusterVersion("v1.28.0")})
}

// helmchartEngine is an engine with the fixture's chart cache and hub.
func helmchartEngine(t *testing.T, hub bool) *cueval.Engine {
	t.Helper()
	return helmchartEngineWith(t, withDefs(t), fixtureCache(t), hub)
}

func fixtureCache(t testing.TB) *source.Cache {
	t.Helper()
	cache, err := source.Open(source.Config{Charts: []string{filepath.Join("testdata", "charts")}})
	if err != nil {
		t.Fatal(err)
	}
	return cache
}

func helmchartEngineWith(t testing.TB, defs *render.Definitions, cache *source.Cache, hub bool) *cueval.Engine {
	t.Helper()
	var objs []*manifest.Object
	if hub {
		data, err := os.ReadFile(filepath.Join("testdata", "helmchart", "hub.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if objs, err = manifest.Decode("hub.yaml", data, manifest.DecodeOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	e := cueval.New(defs)
	e.SetHelm(cueval.Helm{Charts: cache, Hub: func(k manifest.Key) (map[string]any, bool) {
		for _, o := range objs {
			if o.Key() == k {
				return o.Data, true
			}
		}
		return nil, false
	}, KubeVersion: "v1.30.2"})
	return e
}

// TestHelmchartRendersOnce: a component rendered again (another
// placement, its PostDispatch traits) renders its release once.
func TestHelmchartRendersOnce(t *testing.T) {
	e := helmchartEngine(t, true)
	a := parseApp(t, readFile(t, filepath.Join("testdata", "helmchart", "app.yaml")))
	var first []*cueval.Resource
	for i, cl := range []string{"local", "east", "west"} {
		m, err := e.RenderComponent(a, &a.Components[0], cueval.Placement{Cluster: cl})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = m.Auxiliaries
			continue
		}
		if len(m.Auxiliaries) != len(first) {
			t.Fatalf("%s: %d outputs, first render %d", cl, len(m.Auxiliaries), len(first))
		}
	}
	if n := cueval.HelmRenders(e); n != 1 {
		t.Errorf("Helm rendered %d releases, want 1", n)
	}
}

// TestHelmchartRender: the helmchart component renders its chart as
// KubeVela's controller dispatches it. testdata/helmchart/README says
// where every expected field comes from: `helm template` (the command
// beside it) and the helm provider's additions, which the test takes
// away again to compare with helm template's objects.
func TestHelmchartRender(t *testing.T) {
	dir := filepath.Join("testdata", "helmchart")
	app, err := os.ReadFile(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := helmchartFixture(t, string(app), true)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, r := range m.Objects() {
		name := r.Output
		if name == "" {
			name = "output"
		}
		got[name] = r.Object
	}
	want := obj(t, readFile(t, filepath.Join(dir, "expected.yaml")))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}

	// expected.yaml without KubeVela's additions is helm template's.
	facts, err := manifest.Decode("helm-template.yaml", []byte(readFile(t, filepath.Join(dir, "helm-template.yaml"))), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, fact := range facts {
		key := fmt.Sprintf("helm-resource-%d", i)
		exp, _ := want[key].(map[string]any)
		if diff := cmp.Diff(dropEmpty(fact.Data), withoutVela(exp, fact.Namespace() == "")); diff != "" {
			t.Errorf("%s without KubeVela's additions differs from helm template's (-helm +expected):\n%s", key, diff)
		}
	}
	if _, ok := want[fmt.Sprintf("helm-resource-%d", len(facts)+1)]; ok {
		t.Errorf("expected.yaml has more than helm template's objects and the release Secret")
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutVela is o less what KubeVela adds to a chart's object: the
// provider's labels and annotations, the release namespace (when the
// chart set none), the OAM contract's labels.
func withoutVela(o map[string]any, dropNamespace bool) map[string]any {
	o, _ = manifest.DeepCopy(o).(map[string]any)
	meta := manifest.Map(o, "metadata")
	for _, f := range []string{"labels", "annotations"} {
		m := manifest.Map(meta, f)
		for k := range m {
			if strings.HasPrefix(k, "app.oam.dev/") || strings.HasPrefix(k, "trait.oam.dev/") || strings.HasPrefix(k, "meta.helm.sh/") {
				delete(m, k)
			}
		}
		if len(m) == 0 {
			delete(meta, f)
		}
	}
	if dropNamespace {
		delete(meta, "namespace")
	}
	return o
}

// dropEmpty drops empty maps, as the provider's cleanResource does.
func dropEmpty(o map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range o {
		if m, ok := v.(map[string]any); ok {
			if m = dropEmpty(m); len(m) == 0 {
				continue
			}
			v = m
		}
		if l, ok := v.([]any); ok {
			items := make([]any, len(l))
			for i, x := range l {
				if m, ok := x.(map[string]any); ok {
					x = dropEmpty(m)
				}
				items[i] = x
			}
			v = items
		}
		out[k] = v
	}
	return out
}

// TestHelmchartRefusals: a chart not in the cache, a required valuesFrom
// source the hub does not hold, values the chart's values.schema.json
// refuses: each an error naming what is wrong.
func TestHelmchartRefusals(t *testing.T) {
	app := readFile(t, filepath.Join("testdata", "helmchart", "app.yaml"))
	for _, tc := range []struct {
		name, old, new string
		hub            bool
		want           []string
	}{
		{"chart version not cached", `version: "0.3.1"`, `version: "0.4.0"`, true,
			[]string{`helm.#Render: failed to fetch chart: chart "shop" version "0.4.0" of repository https://charts.example.com/stable is not in the chart cache`, "helm pull shop --repo https://charts.example.com/stable"}},
		{"valuesFrom ConfigMap missing", "", "", false,
			[]string{`helm.#Render: failed to merge values: failed to load values from ConfigMap "shop-values": ConfigMap prod/shop-values not found on the hub`}},
		{"values against values.schema.json", "replicaCount: 3", "replicaCount: 0", true,
			[]string{`helm.#Render: chart "shop"`, "replicaCount", "minimum"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := helmchartFixture(t, strings.Replace(app, tc.old, tc.new, 1), tc.hub)
			if err == nil {
				t.Fatal("rendered")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestHelmchartOptionalValuesFrom: an optional valuesFrom source the hub
// does not hold is skipped (values.go mergeValues).
func TestHelmchartOptionalValuesFrom(t *testing.T) {
	app := strings.Replace(readFile(t, filepath.Join("testdata", "helmchart", "app.yaml")), "name: shop-values", "name: shop-values\n            optional: true", 1)
	m, err := helmchartFixture(t, app, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Auxiliaries {
		if manifest.String(r.Object, "kind") == "Service" {
			ports, _ := manifest.Map(r.Object, "spec")["ports"].([]any)
			if p := manifest.Map(ports[0].(map[string]any)); p["port"] != int64(80) {
				t.Errorf("Service port = %v, want the chart's 80", p["port"])
			}
		}
	}
}

// TestHelmchartProvenance: explain names the component, chart, version
// and template file of every field a chart set; KubeVela's labels stay
// the labels stage's.
func TestHelmchartProvenance(t *testing.T) {
	e := helmchartEngine(t, true)
	e.RecordProvenance(true)
	a := parseApp(t, readFile(t, filepath.Join("testdata", "helmchart", "app.yaml")))
	m, err := e.RenderComponent(a, &a.Components[0], cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"helm-resource-0": "helmchart web, chart shop 0.3.1, template shop/templates/rbac.yaml",
		"helm-resource-1": "helmchart web, chart shop 0.3.1, template shop/templates/service.yaml",
		"helm-resource-2": "helmchart web, chart shop 0.3.1, template shop/templates/deployment.yaml",
		"helm-resource-3": "helmchart web, chart shop 0.3.1, release secret",
	}
	for _, r := range m.Auxiliaries {
		o, ok := r.Provenance.Last(fieldpath.MustParse("metadata.name"))
		if !ok || o.Stage != manifest.StageHelm || o.Name != want[r.Output] {
			t.Errorf("%s metadata.name: %+v, want stage helm from %q", r.Output, o, want[r.Output])
		}
		if o, _ := r.Provenance.Last(fieldpath.MustParse("metadata.labels[app.oam.dev/appRevision]")); o.Stage != manifest.StageLabels {
			t.Errorf("%s appRevision label: %+v, want the labels stage", r.Output, o)
		}
	}
}

// BenchmarkHelmchartRender renders the fixture's helmchart component
// with a new engine each time (its release memo empty), one chart cache
// (the chart loaded once).
func BenchmarkHelmchartRender(b *testing.B) {
	t := &testing.T{}
	app := parseApp(t, readFile(t, filepath.Join("testdata", "helmchart", "app.yaml")))
	cache, defs := fixtureCache(b), withDefs(t)
	for b.Loop() {
		e := helmchartEngineWith(b, defs, cache, true)
		if _, err := e.RenderComponent(app, &app.Components[0], cueval.Placement{}); err != nil {
			b.Fatal(err)
		}
	}
}
