package charts

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/drydock-dev/drydock/manifest"
)

func configMap(name string, data map[string]string) *manifest.Object {
	d := map[string]any{}
	for k, v := range data {
		d[k] = v
	}
	return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "default"}, "data": d})
}

func secret(name string, data map[string]string) *manifest.Object {
	d := map[string]any{}
	for k, v := range data {
		d[k] = base64.StdEncoding.EncodeToString([]byte(v))
	}
	return manifest.New(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": name, "namespace": "default"}, "data": d})
}

func mustValues(t *testing.T, s string) map[string]any {
	t.Helper()
	v, err := common.ReadValues([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestValuesFromReferences is fluxcd/pkg chartutil/values_test.go's
// TestChartValuesFromReferences table (the cases up to and including the
// Literal ones), with the ConfigMaps and Secrets as cluster objects.
func TestValuesFromReferences(t *testing.T) {
	tests := []struct {
		name      string
		resources []*manifest.Object
		refs      []valuesRef
		values    string
		want      map[string]any
		wantErr   bool
	}{
		{
			name: "merges",
			resources: []*manifest.Object{
				configMap("values", map[string]string{"values.yaml": "flat: value\nnested:\n  configuration: value\n"}),
				secret("values", map[string]string{"values.yaml": "flat:\n  nested: value\nnested: value\n"}),
			},
			refs:   []valuesRef{{Kind: "ConfigMap", Name: "values"}, {Kind: "Secret", Name: "values"}},
			values: "other: values\n",
			want:   map[string]any{"flat": map[string]any{"nested": "value"}, "nested": "value", "other": "values"},
		},
		{
			name:      "with target path",
			resources: []*manifest.Object{secret("values", map[string]string{"single": "value"})},
			refs:      []valuesRef{{Kind: "Secret", Name: "values", ValuesKey: "single", TargetPath: "merge.at.specific.path"}},
			want:      map[string]any{"merge": map[string]any{"at": map[string]any{"specific": map[string]any{"path": "value"}}}},
		},
		{
			name: "target path precedence over all",
			resources: []*manifest.Object{
				configMap("values", map[string]string{"values.yaml": "flat: value\nnested:\n  configuration:\n  - one\n  - two\n  - three\n"}),
				secret("values", map[string]string{"key": "value"}),
			},
			refs:   []valuesRef{{Kind: "Secret", Name: "values", ValuesKey: "key", TargetPath: "nested.configuration[0]"}, {Kind: "ConfigMap", Name: "values"}},
			values: "nested:\n  configuration:\n  - list\n  - item\n  - option\n",
			want:   map[string]any{"flat": "value", "nested": map[string]any{"configuration": []any{"value", "item", "option"}}},
		},
		{
			name: "target path for string type array item",
			resources: []*manifest.Object{
				configMap("values", map[string]string{"values.yaml": "flat: value\nnested:\n  configuration:\n  - list\n  - item\n  - option\n"}),
				secret("values", map[string]string{"values.yaml": "foo"}),
			},
			refs:   []valuesRef{{Kind: "ConfigMap", Name: "values"}, {Kind: "Secret", Name: "values", TargetPath: "nested.configuration[1]"}},
			values: "other: values\n",
			want:   map[string]any{"flat": "value", "nested": map[string]any{"configuration": []any{"list", "foo", "option"}}, "other": "values"},
		},
		{name: "values reference to non existing secret", refs: []valuesRef{{Kind: "Secret", Name: "missing"}}, wantErr: true},
		{name: "optional values reference to non existing secret", refs: []valuesRef{{Kind: "Secret", Name: "missing", Optional: true}}, want: map[string]any{}},
		{name: "values reference to non existing config map", refs: []valuesRef{{Kind: "ConfigMap", Name: "missing"}}, wantErr: true},
		{name: "optional values reference to non existing config map", refs: []valuesRef{{Kind: "ConfigMap", Name: "missing", Optional: true}}, want: map[string]any{}},
		{name: "missing secret key", resources: []*manifest.Object{secret("values", nil)}, refs: []valuesRef{{Kind: "Secret", Name: "values", ValuesKey: "nonexisting"}}, wantErr: true},
		{name: "missing config map key", resources: []*manifest.Object{configMap("values", nil)}, refs: []valuesRef{{Kind: "ConfigMap", Name: "values", ValuesKey: "nonexisting"}}, wantErr: true},
		{name: "unsupported values reference kind", refs: []valuesRef{{Kind: "Unsupported"}}, wantErr: true},
		{name: "invalid values", resources: []*manifest.Object{configMap("values", map[string]string{"values.yaml": "\ninvalid"})}, refs: []valuesRef{{Kind: "ConfigMap", Name: "values"}}, wantErr: true},
		{
			name:      "non-literal target path mangles value with commas",
			resources: []*manifest.Object{configMap("values", map[string]string{"application.yml": "endpoints: [a,b,c]"})},
			refs:      []valuesRef{{Kind: "ConfigMap", Name: "values", ValuesKey: "application.yml", TargetPath: `externalConfig.application\.yml.content`}},
			wantErr:   true,
		},
		{
			name:      "literal target path preserves helm-set metacharacters",
			resources: []*manifest.Object{configMap("values", map[string]string{"application.yml": "server:\n  port: 8080\nmanagement:\n  endpoints:\n    web:\n      exposure:\n        include: [ \"prometheus\", \"health\" ]\n"})},
			refs:      []valuesRef{{Kind: "ConfigMap", Name: "values", ValuesKey: "application.yml", TargetPath: `externalConfig.application\.yml.content`, Literal: true}},
			want:      map[string]any{"externalConfig": map[string]any{"application.yml": map[string]any{"content": "server:\n  port: 8080\nmanagement:\n  endpoints:\n    web:\n      exposure:\n        include: [ \"prometheus\", \"health\" ]\n"}}},
		},
		{
			name:      "literal target path preserves multi-line HOCON with equals and braces",
			resources: []*manifest.Object{secret("values", map[string]string{"application.conf": "kafka {\n  bootstrap = \"b-1:9098,b-2:9098\"\n  group = \"my.service\"\n}\n"})},
			refs:      []valuesRef{{Kind: "Secret", Name: "values", ValuesKey: "application.conf", TargetPath: `externalConfig.application\.conf.content`, Literal: true}},
			want:      map[string]any{"externalConfig": map[string]any{"application.conf": map[string]any{"content": "kafka {\n  bootstrap = \"b-1:9098,b-2:9098\"\n  group = \"my.service\"\n}\n"}}},
		},
		{
			name:      "literal flag without targetPath is ignored (root YAML merge)",
			resources: []*manifest.Object{configMap("values", map[string]string{"values.yaml": "flat: value\n"})},
			refs:      []valuesRef{{Kind: "ConfigMap", Name: "values", Literal: true}},
			want:      map[string]any{"flat": "value"},
		},
		{
			name:      "flux2#2625 non-literal: comma-separated brokers fail to merge",
			resources: []*manifest.Object{secret("kafka", map[string]string{"brokers": "kafka01.net:9092,kafka02.net:9092,kafka03.net:9092"})},
			refs:      []valuesRef{{Kind: "Secret", Name: "kafka", ValuesKey: "brokers", TargetPath: "kafka.brokers"}},
			wantErr:   true,
		},
		{
			name:      "flux2#2625 literal: comma-separated brokers preserved verbatim",
			resources: []*manifest.Object{secret("kafka", map[string]string{"brokers": "kafka01.net:9092,kafka02.net:9092,kafka03.net:9092"})},
			refs:      []valuesRef{{Kind: "Secret", Name: "kafka", ValuesKey: "brokers", TargetPath: "kafka.brokers", Literal: true}},
			want:      map[string]any{"kafka": map[string]any{"brokers": "kafka01.net:9092,kafka02.net:9092,kafka03.net:9092"}},
		},
		{
			name: "a Secret's stringData counts as its data",
			resources: []*manifest.Object{manifest.New(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"},
				"stringData": map[string]any{"values.yaml": "a: b\n"}})},
			refs: []valuesRef{{Kind: "Secret", Name: "s"}},
			want: map[string]any{"a": "b"},
		},
		{
			name:      "quoted target path value stays a string (ParseIntoString)",
			resources: []*manifest.Object{configMap("values", map[string]string{"n": `"8080"`})},
			refs:      []valuesRef{{Kind: "ConfigMap", Name: "values", ValuesKey: "n", TargetPath: "port"}},
			want:      map[string]any{"port": "8080"},
		},
		{
			name:      "unquoted target path value is typed (ParseInto)",
			resources: []*manifest.Object{configMap("values", map[string]string{"n": "8080"})},
			refs:      []valuesRef{{Kind: "ConfigMap", Name: "values", ValuesKey: "n", TargetPath: "port"}},
			want:      map[string]any{"port": int64(8080)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			byName := map[string]*manifest.Object{}
			for _, o := range tt.resources {
				byName[o.Kind()+"/"+o.Name()] = o
			}
			lookup := func(kind, name string) *manifest.Object { return byName[kind+"/"+name] }
			var values map[string]any
			if tt.values != "" {
				values = mustValues(t, tt.values)
			}
			got, err := valuesFromReferences(lookup, "default", values, tt.refs, func(string) {})
			if tt.wantErr {
				if !errors.Is(err, ErrValuesReference) {
					t.Fatalf("err = %v, want ErrValuesReference", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefErrorText(t *testing.T) {
	_, err := valuesFromReferences(func(string, string) *manifest.Object { return nil }, "apps", nil, []valuesRef{{Kind: "ConfigMap", Name: "vals"}}, nil)
	want := "could not resolve ConfigMap chart values reference 'apps/vals' with key 'values.yaml': resource not found"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	var warned []string
	_, err = valuesFromReferences(func(string, string) *manifest.Object { return nil }, "apps", nil, []valuesRef{{Kind: "Secret", Name: "s", ValuesKey: "k", Optional: true}}, func(s string) { warned = append(warned, s) })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"could not resolve optional Secret chart values reference 'apps/s' with key 'k': resource not found"}, warned); diff != "" {
		t.Error(diff)
	}
}

// TestMergeMaps is fluxcd/pkg chartutil/merge_test.go's TestMergeMaps
// (its four merges), plus nil operands and lists.
func TestMergeMaps(t *testing.T) {
	nested := map[string]any{"foo": "bar", "baz": map[string]string{"cool": "stuff"}}
	anotherNested := map[string]any{"foo": "bar", "baz": map[string]string{"cool": "things", "awesome": "stuff"}}
	flat := map[string]any{"foo": "bar", "baz": "stuff"}
	anotherFlat := map[string]any{"testing": "fun"}
	tests := []struct {
		name string
		a, b map[string]any
		want map[string]any
	}{
		{"a nested map overwrites a flat value", flat, nested, nested},
		{"a flat value overwrites a map", nested, flat, flat},
		{"a nested map overwrites another nested map", nested, anotherNested, anotherNested},
		{"maps with different keys merge", anotherFlat, anotherNested, map[string]any{"testing": "fun", "foo": "bar", "baz": map[string]string{"cool": "things", "awesome": "stuff"}}},
		{"maps merge recursively", map[string]any{"c": map[string]any{"d": "e"}}, map[string]any{"c": map[string]any{"f": "g"}}, map[string]any{"c": map[string]any{"d": "e", "f": "g"}}},
		{"a is nil", nil, map[string]any{"a": "b"}, map[string]any{"a": "b"}},
		{"both nil", nil, nil, map[string]any{}},
		{"lists are replaced", map[string]any{"l": []any{"a", "b"}}, map[string]any{"l": []any{"c"}}, map[string]any{"l": []any{"c"}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, mergeMaps(tt.a, tt.b)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestJSONValues: spec.values reach Helm as helm-controller's GetValues
// decodes them, numbers as float64, and as a copy.
func TestJSONValues(t *testing.T) {
	in := map[string]any{"replicas": int64(2), "nested": map[string]any{"a": "b"}}
	got, err := jsonValues(in)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"replicas": float64(2), "nested": map[string]any{"a": "b"}}, got); diff != "" {
		t.Error(diff)
	}
	got["nested"].(map[string]any)["a"] = "changed"
	if in["nested"].(map[string]any)["a"] != "b" {
		t.Error("jsonValues shares maps with the object")
	}
}

// TestMergeChartValues is source-controller's mergeChartValues: listed
// files only (values.yaml only when listed), missing ones an error unless
// ignored.
func TestMergeChartValues(t *testing.T) {
	ch := &chart.Chart{
		Values: map[string]any{"a": "default", "b": "default"},
		Files:  []*common.File{{Name: "values-prod.yaml", Data: []byte("b: prod\nc: prod\n")}},
	}
	tests := []struct {
		name    string
		paths   []string
		ignore  bool
		want    map[string]any
		wantErr bool
	}{
		{name: "default then override", paths: []string{"values.yaml", "values-prod.yaml"}, want: map[string]any{"a": "default", "b": "prod", "c": "prod"}},
		{name: "without values.yaml", paths: []string{"values-prod.yaml"}, want: map[string]any{"b": "prod", "c": "prod"}},
		{name: "override then default", paths: []string{"./values-prod.yaml", "values.yaml"}, want: map[string]any{"a": "default", "b": "default", "c": "prod"}},
		{name: "missing", paths: []string{"nope.yaml"}, wantErr: true},
		{name: "missing ignored", paths: []string{"nope.yaml", "values-prod.yaml"}, ignore: true, want: map[string]any{"b": "prod", "c": "prod"}},
	}
	for _, tt := range tests {
		got, err := mergeChartValues(ch, tt.paths, tt.ignore)
		if (err != nil) != tt.wantErr {
			t.Fatalf("%s: err = %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); !tt.wantErr && diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
