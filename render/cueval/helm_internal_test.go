package cueval

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// The cases below are translated from KubeVela's own tests of its helm
// provider, kubevela/kubevela pkg/cue/cuex/providers/helm (commit
// 5a44b5f): chart_fetch_test.go, values_test.go, manifest_test.go and
// postrender_test.go.

// TestChartSourceType: chart_fetch_test.go "detectChartSourceType".
func TestChartSourceType(t *testing.T) {
	for src, want := range map[string]string{
		"oci://ghcr.io/stefanprodan/charts/podinfo":                                         chartOCI,
		"https://github.com/nginx/nginx-helm/releases/download/nginx-1.1.0/nginx-1.1.0.tgz": chartURL,
		"https://example.com/charts/app-1.0.0.tar.gz":                                       chartURL,
		"http://charts.example.com/app-1.0.0.tgz":                                           chartURL,
		"postgresql":        chartRepo,
		"stable/postgresql": chartRepo,
	} {
		if got := chartSourceType(src); got != want {
			t.Errorf("chartSourceType(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestChartRef: the chart each kind of source names in the cache, and
// chart_fetch_test.go "should fail for repo without repoURL".
func TestChartRef(t *testing.T) {
	for _, tc := range []struct {
		chart helmChart
		want  source.ChartRef
	}{
		{helmChart{Source: "oci://ghcr.io/stefanprodan/charts/podinfo", Version: "6.11.1"},
			source.ChartRef{RepoURL: "oci://ghcr.io/stefanprodan/charts", Name: "podinfo", Version: "6.11.1"}},
		{helmChart{Source: "https://github.com/nginx/nginx-helm/releases/download/nginx-1.1.0/nginx-1.1.0.tgz", Version: "9.9.9"},
			source.ChartRef{RepoURL: "https://github.com/nginx/nginx-helm/releases/download/nginx-1.1.0", Name: "nginx", Version: "1.1.0"}},
		{helmChart{Source: "https://example.com/charts/my-app-2-1.0.0-rc.1.tgz"},
			source.ChartRef{RepoURL: "https://example.com/charts", Name: "my-app-2", Version: "1.0.0-rc.1"}},
		{helmChart{Source: "podinfo", RepoURL: "https://stefanprodan.github.io/podinfo/", Version: "6.x"},
			source.ChartRef{RepoURL: "https://stefanprodan.github.io/podinfo", Name: "podinfo", Version: "6.x"}},
	} {
		got, err := chartRef(tc.chart)
		if err != nil {
			t.Errorf("chartRef(%+v): %v", tc.chart, err)
			continue
		}
		if got != tc.want {
			t.Errorf("chartRef(%+v) = %+v, want %+v", tc.chart, got, tc.want)
		}
	}
	if _, err := chartRef(helmChart{Source: "postgresql"}); err == nil || !strings.Contains(err.Error(), "repoURL is required") {
		t.Errorf("repo chart without repoURL: %v", err)
	}
}

// hubOf is a hub holding objs.
func hubOf(objs ...map[string]any) func(manifest.Key) (map[string]any, bool) {
	return func(k manifest.Key) (map[string]any, bool) {
		for _, o := range objs {
			if manifest.New(o).Key() == k {
				return o, true
			}
		}
		return nil, false
	}
}

func configMap(ns, name string, data map[string]any) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": ns}, "data": data}
}

func secret(ns, name, key, text string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": name, "namespace": ns},
		"data": map[string]any{key: base64.StdEncoding.EncodeToString([]byte(text))}}
}

// TestMergeHelmValues: values_test.go "mergeValues", "loadConfigMapValues",
// "loadSecretValues", "cross-namespace valuesFrom rejection" and the
// multi-source merges.
func TestMergeHelmValues(t *testing.T) {
	const ns = "prod"
	for _, tc := range []struct {
		name   string
		hub    []map[string]any
		inline any
		from   []helmValuesFrom
		appNS  string
		want   map[string]any
		err    string
	}{
		{name: "base values when no valuesFrom",
			inline: map[string]any{"key1": "value1", "nested": map[string]any{"key2": "value2"}},
			want:   map[string]any{"key1": "value1", "nested": map[string]any{"key2": "value2"}}},
		{name: "empty map for nil base values", want: map[string]any{}},
		{name: "optional missing ConfigMap skipped",
			inline: map[string]any{"key": "value"},
			from:   []helmValuesFrom{{Kind: "ConfigMap", Name: "missing", Optional: true}},
			want:   map[string]any{"key": "value"}},
		{name: "required missing ConfigMap fails",
			inline: map[string]any{"key": "value"},
			from:   []helmValuesFrom{{Kind: "ConfigMap", Name: "missing"}},
			err:    `failed to load values from ConfigMap "missing": ConfigMap prod/missing not found`},
		{name: "unsupported kinds", from: []helmValuesFrom{{Kind: "OCIRepository", Name: "test"}},
			err: "unsupported values source kind: OCIRepository"},
		{name: "unsupported kind is case-sensitive", from: []helmValuesFrom{{Kind: "configmap", Name: "test"}},
			err: "unsupported values source kind: configmap"},
		{name: "ConfigMap in another namespace rejected", appNS: "tenant-a",
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "secrets-bearer", Namespace: "kube-system"}},
			err:  `cross-namespace valuesFrom sources are not permitted: ConfigMap "secrets-bearer" requested namespace "kube-system" but Application is in "tenant-a" and release is in "prod"`},
		{name: "explicit namespace equal to the application's", appNS: "tenant-a",
			hub:  []map[string]any{configMap("tenant-a", "same", map[string]any{"values.yaml": "k: v"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "same", Namespace: "tenant-a"}},
			want: map[string]any{"k": "v"}},
		{name: "default key values.yaml",
			hub:  []map[string]any{configMap(ns, "cfg", map[string]any{"values.yaml": "replicaCount: 3\nimage: nginx"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "cfg"}},
			want: map[string]any{"replicaCount": float64(3), "image": "nginx"}},
		{name: "explicit key",
			hub:  []map[string]any{configMap(ns, "cfg", map[string]any{"prod.yaml": "replicaCount: 5"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "cfg", Key: "prod.yaml"}},
			want: map[string]any{"replicaCount": float64(5)}},
		{name: "missing key is missing, skipped when optional",
			hub:  []map[string]any{configMap(ns, "cfg", map[string]any{"other.yaml": "foo: bar"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "cfg", Optional: true}},
			want: map[string]any{}},
		{name: "missing key fails when required",
			hub:  []map[string]any{configMap(ns, "cfg", map[string]any{"other.yaml": "foo: bar"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "cfg"}},
			err:  `ConfigMap prod/cfg key "values.yaml" not found in .data`},
		{name: "binaryData refused",
			hub:  []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "bin", "namespace": ns}, "binaryData": map[string]any{"values.yaml": "AAE="}}},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "bin", Optional: true}},
			err:  `ConfigMap prod/bin key "values.yaml" is in binaryData`},
		{name: "parse errors surface even when optional",
			hub:  []map[string]any{configMap(ns, "broken", map[string]any{"values.yaml": "replicas: [unterminated"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "broken", Optional: true}},
			err:  "invalid YAML"},
		{name: "optional missing then required source",
			hub:  []map[string]any{configMap(ns, "real", map[string]any{"values.yaml": "replicaCount: 7"})},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "missing", Optional: true}, {Kind: "ConfigMap", Name: "real"}},
			want: map[string]any{"replicaCount": float64(7)}},
		{name: "conflicts resolved at depth, siblings kept",
			hub: []map[string]any{
				configMap(ns, "a", map[string]any{"values.yaml": "resources:\n  limits:\n    cpu: 100m\n    memory: 256Mi\n  requests:\n    cpu: 50m"}),
				configMap(ns, "b", map[string]any{"values.yaml": "resources:\n  limits:\n    memory: 512Mi"}),
			},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "a"}, {Kind: "ConfigMap", Name: "b"}},
			want: map[string]any{"resources": map[string]any{"limits": map[string]any{"cpu": "100m", "memory": "512Mi"}, "requests": map[string]any{"cpu": "50m"}}}},
		{name: "arrays replaced, not merged",
			hub: []map[string]any{
				configMap(ns, "a", map[string]any{"values.yaml": "extraArgs:\n  - --level=debug\n  - --timeout=30"}),
				configMap(ns, "b", map[string]any{"values.yaml": "extraArgs:\n  - --level=info"}),
			},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "a"}, {Kind: "ConfigMap", Name: "b"}},
			want: map[string]any{"extraArgs": []any{"--level=info"}}},
		{name: "Secret after ConfigMap wins",
			hub: []map[string]any{
				configMap(ns, "cm", map[string]any{"values.yaml": "replicaCount: 2\nimage: cm-image"}),
				secret(ns, "creds", "values.yaml", "image: secret-image"),
			},
			from: []helmValuesFrom{{Kind: "ConfigMap", Name: "cm"}, {Kind: "Secret", Name: "creds"}},
			want: map[string]any{"replicaCount": float64(2), "image": "secret-image"}},
		{name: "inline values over every source; a null deletes",
			hub:    []map[string]any{configMap(ns, "cm", map[string]any{"values.yaml": "replicaCount: 2\nimage: cm-image\nport: 80"})},
			from:   []helmValuesFrom{{Kind: "ConfigMap", Name: "cm"}},
			inline: map[string]any{"image": "inline", "port": nil},
			want:   map[string]any{"replicaCount": float64(2), "image": "inline"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			appNS := tc.appNS
			if appNS == "" {
				appNS = ns
			}
			got, err := mergeHelmValues(hubOf(tc.hub...), tc.inline, tc.from, appNS, ns)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMergeHelmValuesKeepsInline: the inline values the template gives
// are not changed by the merge (values.go deepCloneValues).
func TestMergeHelmValuesKeepsInline(t *testing.T) {
	in := map[string]any{"resources": map[string]any{"limits": map[string]any{"cpu": "100m"}}}
	hub := hubOf(configMap("ns", "cm", map[string]any{"values.yaml": "resources:\n  limits:\n    memory: 1Gi"}))
	if _, err := mergeHelmValues(hub, in, []helmValuesFrom{{Kind: "ConfigMap", Name: "cm"}}, "ns", "ns"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"resources": map[string]any{"limits": map[string]any{"cpu": "100m"}}}, in); diff != "" {
		t.Errorf("inline values changed:\n%s", diff)
	}
}

// TestCleanResource: manifest_test.go "cleanResource".
func TestCleanResource(t *testing.T) {
	in := map[string]any{
		"keep":   "v",
		"nil":    nil,
		"nested": map[string]any{"a": "b", "n": nil},
		"empty":  map[string]any{"n": nil},
		"list":   []any{"x", nil, map[string]any{"k": nil, "v": 1}, map[string]any{"k": nil}},
		"none":   []any{nil},
		"zero":   []any{},
	}
	want := map[string]any{
		"keep":   "v",
		"nested": map[string]any{"a": "b"},
		"list":   []any{"x", map[string]any{"v": 1}, map[string]any{}},
	}
	if diff := cmp.Diff(want, cleanResource(in)); diff != "" {
		t.Errorf("cleanResource (-want +got):\n%s", diff)
	}
}

func helmObj(doc string, hooks ...string) helm.Object {
	objs, err := manifest.Decode("t.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		panic(err)
	}
	return helm.Object{Object: objs[0], Hooks: hooks}
}

// TestHelmResources: postrender_test.go "should inject KubeVela labels
// and annotations on all resources", manifest_test.go "should order
// CRDs first, then Namespaces, then others" and "defaults
// metadata.namespace to releaseNamespace for namespaced resources",
// "leaves explicit metadata.namespace untouched"; hooks and crds/ are
// not in a release's manifest; the release Secret comes last.
func TestHelmResources(t *testing.T) {
	objs := []helm.Object{
		helmObj("apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n  labels:\n    app: web\nspec:\n  ports: []\n  selector: {}\n"),
		helmObj("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: extra\n"),
		helmObj("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: dep\n  namespace: elsewhere\n  creationTimestamp: null\nspec:\n  replicas: 2\n"),
		helmObj("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\n"),
		helmObj("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\n"),
		helmObj("apiVersion: v1\nkind: Pod\nmetadata:\n  name: test\n", "test"),
		{Object: helmObj("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: fromdir.example.com\n").Object, CRD: true},
	}
	vctx := &helmContext{AppName: "shop", AppNamespace: "prod", Name: "web", Namespace: "prod"}
	got := helmResources(objs, vctx, "web", "apps", func(map[string]any, string) {})
	labels := map[string]any{"app.oam.dev/name": "shop", "app.oam.dev/namespace": "prod", "app.oam.dev/component": "web"}
	ann := map[string]any{"app.oam.dev/owner": "helm-provider", "meta.helm.sh/release-name": "web", "meta.helm.sh/release-namespace": "apps"}
	with := func(extra map[string]any) map[string]any {
		out := manifest.DeepCopy(labels).(map[string]any)
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	want := []any{
		map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": map[string]any{"name": "things.example.com", "labels": labels, "annotations": ann}},
		map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "extra", "labels": labels, "annotations": ann}},
		map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "svc", "namespace": "apps", "labels": with(map[string]any{"app": "web"}), "annotations": ann}},
		map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "dep", "namespace": "elsewhere", "labels": labels, "annotations": ann}, "spec": map[string]any{"replicas": int64(2)}},
		map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": map[string]any{"name": "reader", "labels": labels, "annotations": ann}},
		map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "sh.helm.release.v1.web.v1", "namespace": "apps", "labels": labels}, "type": "helm.sh/release.v1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}
