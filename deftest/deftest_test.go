package deftest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// prepared is tests with their context defaults filled in, as Prepare
// leaves them.
func prepared(t *testing.T, tests ...Test) []Test {
	t.Helper()
	f := File{Tests: tests}
	if err := Prepare("t_test.yaml", &manifest.Object{}, &f); err != nil {
		t.Fatal(err)
	}
	return f.Tests
}

func TestIsFile(t *testing.T) {
	for name, want := range map[string]bool{
		"a_test.yaml": true, "dir/b_test.yml": true, "a.yaml": false, "test.yaml": false, "a_test.json": false,
	} {
		if got := IsFile(name); got != want {
			t.Errorf("IsFile(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestPrepare(t *testing.T) {
	equal := Assert{Equal: &pathValue{Path: "output.x", Value: 1}}
	tests := []struct {
		name  string
		tests []Test
		want  string // the error ("" for none)
	}{
		{"no tests", nil, "t_test.yaml: no tests"},
		{"no name", []Test{{Definition: "d", Asserts: []Assert{equal}}}, "tests[0]: a test needs a name"},
		{"no definition", []Test{{Name: "n", Asserts: []Assert{equal}}}, `test "n": name the definition it tests (definition:)`},
		{"no asserts", []Test{{Name: "n", Definition: "d"}}, `test "n": no asserts: a test that asserts nothing is not a pass`},
		{"two kinds", []Test{{Name: "n", Definition: "d", Asserts: []Assert{equal, {Error: "x", ErrorRegex: "y"}}}},
			`test "n": asserts[1] sets 2 assertion kinds; set exactly one (equal, notEqual, exists, notExists, matchRegex, contains, lengthEqual, hasObjects, error, errorRegex, snapshot, healthy, message, details)`},
		{"no kind", []Test{{Name: "n", Definition: "d", Asserts: []Assert{{}}}}, `test "n": asserts[0] sets 0 assertion kinds`},
		{"fine", []Test{{Name: "n", Definition: "d", Asserts: []Assert{equal}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Prepare("t_test.yaml", &manifest.Object{}, &File{Tests: tt.tests})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Prepare: %v, want no error", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(manifest.Format(err, nil), tt.want)):
				t.Errorf("Prepare: %v, want %q", err, tt.want)
			}
		})
	}
}

// TestPrepareDefaults: the context defaults name the component after the
// definition, in Application test of namespace default, on the hub.
func TestPrepareDefaults(t *testing.T) {
	got := prepared(t,
		Test{Name: "a", Definition: "web", Asserts: []Assert{{Error: "x"}}},
		Test{Name: "b", Definition: "web", Asserts: []Assert{{Error: "x"}}, Context: Context{Name: "c", AppName: "shop", Namespace: "team", Cluster: "m1"}})
	want := []Context{{Name: "web", AppName: "test", Namespace: "default", Cluster: "local"}, {Name: "c", AppName: "shop", Namespace: "team", Cluster: "m1"}}
	if diff := cmp.Diff(want, []Context{got[0].Context, got[1].Context}); diff != "" {
		t.Errorf("contexts (-want +got):\n%s", diff)
	}
}

func TestTestObjects(t *testing.T) {
	app := func(spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": "core.oam.dev/v1beta1", "kind": "Application",
			"metadata": map[string]any{"name": "test", "namespace": "default"}, "spec": spec}
	}
	workload := map[string]any{"kind": "Deployment", "spec": map[string]any{"replicas": 1.0}}
	tests := []struct {
		name       string
		kind       string
		test       Test
		want       []map[string]any
		wantPolicy string
		err        string
	}{
		{
			name: "a component, its whole numbers as YAML reads them",
			kind: "component",
			test: Test{Name: "t", Definition: "web", Properties: map[string]any{"n": 3.0, "f": 1.5, "big": 1e25, "l": []any{2.0}}},
			want: []map[string]any{app(map[string]any{"components": []any{map[string]any{"name": "web", "type": "web",
				"properties": map[string]any{"n": int64(3), "f": 1.5, "big": 1e25, "l": []any{int64(2)}}}}})},
		},
		{
			name: "an unknown definition renders as a component (the render reports it)",
			test: Test{Name: "t", Definition: "nosuch"},
			want: []map[string]any{app(map[string]any{"components": []any{map[string]any{"name": "nosuch", "type": "nosuch", "properties": map[string]any{}}}})},
		},
		{
			name: "a trait patches the raw workload given",
			kind: "trait",
			test: Test{Name: "t", Definition: "scaler", Workload: workload, Properties: map[string]any{"replicas": int64(3)}},
			want: []map[string]any{app(map[string]any{"components": []any{map[string]any{"name": "scaler", "type": "raw",
				"properties": map[string]any{"kind": "Deployment", "spec": map[string]any{"replicas": int64(1)}},
				"traits":     []any{map[string]any{"type": "scaler", "properties": map[string]any{"replicas": int64(3)}}}}}})},
		},
		{
			name: "a trait without a workload",
			kind: "trait",
			test: Test{Name: "t", Definition: "scaler"},
			err:  `t_test.yaml:2:3: test "t": scaler is a trait: give the workload it patches (workload:)`,
		},
		{
			name: "a policy without an Application",
			kind: "policy",
			test: Test{Name: "t", Definition: "quota"},
			want: []map[string]any{app(map[string]any{"components": []any{},
				"policies": []any{map[string]any{"name": "quota", "type": "quota", "properties": map[string]any{}}}})},
			wantPolicy: "quota",
		},
		{
			name: "a policy in the Application given, on a member",
			kind: "policy",
			test: Test{Name: "t", Definition: "quota", Context: Context{Cluster: "m1", ClusterVersion: "v1.29.4"},
				Application: map[string]any{"spec": map[string]any{"policies": []any{map[string]any{"name": "p", "type": "x"}}}}},
			want: []map[string]any{
				{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": map[string]any{"name": "m1"}, "spec": map[string]any{},
					"status": map[string]any{"kubernetesVersion": "v1.29.4"}},
				app(map[string]any{"components": []any{}, "policies": []any{
					map[string]any{"name": "p", "type": "x"},
					map[string]any{"name": "quota", "type": "quota", "properties": map[string]any{}},
					map[string]any{"name": "here", "type": "topology", "properties": map[string]any{"clusters": []any{"m1"}}},
				}}),
			},
			wantPolicy: "quota",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := prepared(t, Test{Name: tt.test.Name, Definition: tt.test.Definition, Asserts: []Assert{{Error: "x"}}})[0]
			tt.test.Context.Name, tt.test.Context.AppName, tt.test.Context.Namespace = test.Context.Name, test.Context.AppName, test.Context.Namespace
			if tt.test.Context.Cluster == "" {
				tt.test.Context.Cluster = test.Context.Cluster
			}
			objs, policy, err := testObjects(tt.kind, tt.test, manifest.Pos{File: "t_test.yaml", Line: 2, Col: 3})
			if tt.err != "" {
				if err == nil || manifest.Format(err, nil) != tt.err {
					t.Fatalf("testObjects: %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]any
			for _, o := range objs {
				if o.Pos.IsValid() {
					t.Errorf("%s has a position (%s): the test's objects have none", o.Kind(), o.Pos)
				}
				got = append(got, o.Data)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if policy != tt.wantPolicy {
				t.Errorf("policy %q, want %q", policy, tt.wantPolicy)
			}
		})
	}
	if workload["spec"].(map[string]any)["replicas"] != 1.0 {
		t.Error("testObjects changed the test's workload")
	}
}
