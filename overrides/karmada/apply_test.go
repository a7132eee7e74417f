package karmada

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

const (
	copHead = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\n"
	opHead  = "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\n"
)

var testCluster = &cluster.Cluster{Name: "member1", Labels: map[string]string{"env": "prod"}, Provider: "aws", Region: "us-east-1"}

func TestApply(t *testing.T) {
	tests := []struct {
		name     string
		policies string
		obj      string
		want     map[string]any
		applied  []string
	}{
		{
			name: "cluster policies first, then priority and name",
			policies: copHead + "metadata: {name: z}\nspec: {overriders: {plaintext: [{path: /data/order, operator: add, value: cop}]}}\n---\n" +
				opHead + "metadata: {name: b, namespace: ns}\nspec: {resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: c}], overriders: {plaintext: [{path: /data/order, operator: add, value: name}]}}\n---\n" +
				opHead + "metadata: {name: c, namespace: ns}\nspec: {overriders: {plaintext: [{path: /data/order, operator: add, value: all-c}]}}\n---\n" +
				opHead + "metadata: {name: a, namespace: ns}\nspec: {resourceSelectors: [], overriders: {plaintext: [{path: /data/order, operator: add, value: all-a}]}}\n---\n" +
				opHead + "metadata: {name: other, namespace: elsewhere}\nspec: {overriders: {plaintext: [{path: /data/order, operator: add, value: other}]}}",
			obj:     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}\ndata: {}",
			want:    map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "ns"}, "data": map[string]any{"order": "name"}},
			applied: []string{"ClusterOverridePolicy z rule 0", "OverridePolicy ns/a rule 0", "OverridePolicy ns/c rule 0", "OverridePolicy ns/b rule 0"},
		},
		{
			name: "override policies match the object as cluster policies left it",
			policies: copHead + "metadata: {name: tier}\nspec: {overrideRules: [{overriders: {labelsOverrider: [{operator: add, value: {tier: gold}}]}}]}\n---\n" +
				opHead + "metadata: {name: gold, namespace: ns}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, labelSelector: {matchLabels: {tier: gold}}}]\n  overrideRules: [{overriders: {annotationsOverrider: [{operator: add, value: {gold: \"yes\"}}]}}]",
			obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: ns}",
			want: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{
				"name": "c", "namespace": "ns", "labels": map[string]any{"tier": "gold"}, "annotations": map[string]any{"gold": "yes"}}},
			applied: []string{"ClusterOverridePolicy tier rule 0", "OverridePolicy ns/gold rule 0"},
		},
		{
			name: "a cluster-scoped object gets no OverridePolicy",
			policies: opHead + "metadata: {name: all, namespace: default}\nspec: {overriders: {plaintext: [{path: /metadata/x, operator: add, value: 1}]}}\n---\n" +
				copHead + "metadata: {name: all}\nspec: {overriders: {plaintext: [{path: /metadata/y, operator: add, value: 1}]}}",
			obj:     "apiVersion: v1\nkind: Namespace\nmetadata: {name: team}",
			want:    map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team", "y": int64(1)}},
			applied: []string{"ClusterOverridePolicy all rule 0"},
		},
		{
			name: "rules whose target does not match are skipped",
			policies: copHead + "metadata: {name: p}\nspec:\n  overrideRules:\n" +
				"  - {targetCluster: {exclude: [member1]}, overriders: {plaintext: [{path: /a, operator: add, value: 1}]}}\n" +
				"  - {targetCluster: {fieldSelector: {matchExpressions: [{key: provider, operator: In, values: [aws]}]}}, overriders: {plaintext: [{path: /b, operator: add, value: 2}]}}\n" +
				"  - {targetCluster: {labelSelector: {matchLabels: {env: dev}}}, overriders: {plaintext: [{path: /c, operator: add, value: 3}]}}",
			obj:     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}",
			want:    map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "b": int64(2)},
			applied: []string{"ClusterOverridePolicy p rule 1"},
		},
		{
			name:     "JSON round trip: whole numbers become integers, add without value adds null",
			policies: copHead + "metadata: {name: p}\nspec: {overriders: {plaintext: [{path: /spec/n, operator: add}, {path: /spec/f, operator: add, value: 3.0}]}}",
			obj:      "apiVersion: v1\nkind: K\nmetadata: {name: c}\nspec: {w: 2.0, h: 1.5, big: 1e20, huge: 1e21}",
			want: map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "c"},
				"spec": map[string]any{"w": int64(2), "h": 1.5, "big": 1e20, "huge": 1e21, "n": nil, "f": int64(3)}},
			applied: []string{"ClusterOverridePolicy p rule 0"},
		},
		{
			name:     "an empty deprecated policy still applies (and round-trips)",
			policies: copHead + "metadata: {name: p}\nspec: {}",
			obj:      "apiVersion: v1\nkind: K\nmetadata: {name: c}\nspec: {w: 2.0}",
			want:     map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "c"}, "spec": map[string]any{"w": int64(2)}},
			applied:  []string{"ClusterOverridePolicy p rule 0"},
		},
		{
			name: "an invalid label selector matches nothing",
			policies: copHead + "metadata: {name: p}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: K, labelSelector: {matchExpressions: [{key: a, operator: In}]}}]\n" +
				"  overriders: {plaintext: [{path: /x, operator: add, value: 1}]}",
			obj:  "apiVersion: v1\nkind: K\nmetadata: {name: c, labels: {a: b}}",
			want: map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "c", "labels": map[string]any{"a": "b"}}},
		},
		{
			name:     "labels add replaces a map holding a non-string, as unstructured does",
			policies: copHead + "metadata: {name: p}\nspec: {overriders: {labelsOverrider: [{operator: add, value: {b: x}}], annotationsOverrider: [{operator: remove, value: {note: \"\"}}]}}",
			obj:      "apiVersion: v1\nkind: K\nmetadata: {name: c, labels: {a: 1}, annotations: {note: 1, m: x}}",
			want: map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "c",
				"labels": map[string]any{"b": "x"}, "annotations": map[string]any{"note": int64(1), "m": "x"}}},
			applied: []string{"ClusterOverridePolicy p rule 0"},
		},
		{
			name: "command and args: formatting of non-strings, several containers, missing lists",
			policies: copHead + "metadata: {name: p}\nspec:\n  overriders:\n" +
				"    commandOverrider: [{containerName: a, operator: add, value: [x]}]\n" +
				"    argsOverrider: [{containerName: a, operator: remove, value: [q]}, {containerName: b, operator: remove, value: [x]}]",
			obj: "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec:\n  containers:\n  - {name: a, command: [1, true, s], args: [q, r, q]}\n  - {name: b}\n  - {name: a, command: null}",
			want: map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "c"}, "spec": map[string]any{"containers": []any{
				map[string]any{"name": "a", "command": []any{"%!s(int64=1)", "%!s(bool=true)", "s", "x"}, "args": []any{"r"}},
				map[string]any{"name": "b", "args": []any{}},
				map[string]any{"name": "a", "command": []any{"x"}, "args": []any{}},
			}}},
			applied: []string{"ClusterOverridePolicy p rule 0"},
		},
		{
			name: "kinds outside the workload list are left alone",
			policies: copHead + "metadata: {name: p}\nspec:\n  overriders:\n    imageOverrider: [{component: Tag, operator: replace, value: v2}]\n" +
				"    commandOverrider: [{containerName: a, operator: add, value: [x]}]",
			obj: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {jobTemplate: {spec: {template: {spec: {containers: [{name: a, image: web:v1}]}}}}}",
			want: map[string]any{"apiVersion": "batch/v1", "kind": "CronJob", "metadata": map[string]any{"name": "c"}, "spec": map[string]any{"jobTemplate": map[string]any{
				"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "a", "image": "web:v1"}}}}}}}},
			applied: []string{"ClusterOverridePolicy p rule 0"},
		},
		{
			name: "fieldOverrider: JSON keeps order and literals and escapes HTML, YAML keeps the first document",
			policies: copHead + "metadata: {name: p}\nspec:\n  overrideRules:\n  - overriders:\n      fieldOverrider:\n" +
				"      - {fieldPath: /data/j, json: [{subPath: /z, operator: add, value: <a&b>}]}\n" +
				"      - {fieldPath: /data/e, json: [{subPath: /z, operator: add, value: 1}]}\n" +
				"      - {fieldPath: /data/yml, yaml: [{subPath: /b, operator: replace, value: \"on\"}]}\n" +
				"      - {fieldPath: /data~1x, yaml: [{subPath: /k, operator: add, value: v}]}",
			obj: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  j: '{\"y\": 1.50, \"a\": [1e2]}'\n  e: ''\n  yml: \"b: 1\\na: x # c\\n---\nc: 2\\n\"\ndata/x: \"{}\"",
			want: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": map[string]any{
				"j":   `{"y":1.50,"a":[1e2],"z":"\u003ca\u0026b\u003e"}`,
				"e":   "",
				"yml": "a: x\nb: \"on\"\n",
			}, "data/x": "k: v\n"},
			applied: []string{"ClusterOverridePolicy p rule 0"},
		},
		{
			name: "image overriders: all containers, predicate, tag+digest",
			policies: copHead + "metadata: {name: p}\nspec:\n  overriders:\n    imageOverrider:\n" +
				"    - {component: Registry, operator: replace, value: r.example.com}\n" +
				"    - {component: Tag, operator: remove, predicate: {path: /spec/template/spec/initContainers/0/image}}",
			obj: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      initContainers: [{name: i, image: 'init:v1@" + digest + "'}]\n      containers: [{name: a, image: a:v1}, {name: b, image: 'localhost:5000/b'}]",
			want: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"}, "spec": map[string]any{"template": map[string]any{"spec": map[string]any{
				"initContainers": []any{map[string]any{"name": "i", "image": "init"}},
				"containers":     []any{map[string]any{"name": "a", "image": "r.example.com/a:v1"}, map[string]any{"name": "b", "image": "r.example.com/b"}},
			}}}},
			applied: []string{"ClusterOverridePolicy p rule 0"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policies := parseAll(t, tt.policies)
			obj := decodeAll(t, tt.obj)[0]
			before := manifest.DeepCopy(obj.Data)
			got, applied, err := Apply(obj, testCluster, policies)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Data); diff != "" {
				t.Errorf("object -want +got:\n%s", diff)
			}
			var names []string
			for _, a := range applied {
				names = append(names, a.String())
			}
			if diff := cmp.Diff(tt.applied, names); diff != "" {
				t.Errorf("applied -want +got:\n%s", diff)
			}
			if diff := cmp.Diff(before, obj.Data); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name     string
		policies string
		obj      string
		// want is a substring; the message must start with pos.
		want, pos string
	}{
		{"unparsable image",
			copHead + "metadata: {name: p}\nspec:\n  overrideRules:\n  - overriders:\n      imageOverrider: [{component: Tag, operator: remove}]",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: c, namespace: ns}\nspec: {containers: [{name: a, image: 'Bad:Image'}]}",
			"ClusterOverridePolicy p: Pod ns/c on cluster member1: spec.overrideRules[0].overriders.imageOverrider[0]: failed to parse image value(Bad:Image), error: repository name must be lowercase",
			"bench.yaml:7:24:"},
		{"container without image",
			copHead + "metadata: {name: p}\nspec: {overriders: {imageOverrider: [{component: Tag, operator: remove}]}}",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: {containers: [{name: a}]}}}",
			"failed to parse image value(), error: repository name must have at least one component", "bench.yaml:4:"},
		{"missing predicate path",
			copHead + "metadata: {name: p}\nspec: {overriders: {imageOverrider: [{component: Tag, operator: remove, predicate: {path: /spec/image}}]}}",
			"apiVersion: v1\nkind: K\nmetadata: {name: c}\nspec: {}",
			"failed to obtain imageValue with predicate path(/spec/image), error: failed to convert path(image) to string", "bench.yaml:4:"},
		{"predicate index out of range",
			copHead + "metadata: {name: p}\nspec: {overriders: {imageOverrider: [{component: Tag, operator: remove, predicate: {path: /spec/c/3/image}}]}}",
			"apiVersion: v1\nkind: K\nmetadata: {name: c}\nspec: {c: []}",
			"failed to obtain imageValue with predicate path(/spec/c/3/image)", "bench.yaml:4:"},
		{"plaintext failure names the operation",
			copHead + "metadata: {name: p}\nspec:\n  overriders:\n    plaintext:\n    - {path: /spec/a, operator: add, value: 1}\n    - {path: /spec/missing, operator: remove}",
			"apiVersion: v1\nkind: K\nmetadata: {name: c}\nspec: {}",
			"spec.overriders.plaintext[1]: error in remove for path: '/spec/missing'", "bench.yaml:8:7:"},
		{"plaintext add under a missing parent",
			copHead + "metadata: {name: p}\nspec: {overriders: {plaintext: [{path: /spec/a/b, operator: add, value: 1}]}}",
			"apiVersion: v1\nkind: K\nmetadata: {name: c}",
			`add operation does not apply: doc is missing path: "/spec/a/b"`, "bench.yaml:4:"},
		{"plaintext removes the kind",
			copHead + "metadata: {name: p}\nspec: {overriders: {plaintext: [{path: /kind, operator: remove}]}}",
			"apiVersion: v1\nkind: K\nmetadata: {name: c}",
			"Object 'Kind' is missing in", "bench.yaml:4:"},
		{"field path missing",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/nope, json: [{subPath: /a, operator: remove}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}",
			`spec.overrideRules[0].overriders.fieldOverrider[0]: object has no key "nope"`, "bench.yaml:4:"},
		{"field not a string",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data, json: [{subPath: /a, operator: remove}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {}",
			"Get object's value by overrider's path(/data) is not string", "bench.yaml:4:"},
		{"field not JSON",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, json: [{subPath: /a, operator: remove}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 'not json'}",
			"invalid state detected", "bench.yaml:4:"},
		{"field YAML that is a scalar",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, yaml: [{subPath: /x, operator: add, value: 1}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 'nginx:1'}",
			"json: cannot unmarshal string into Go value of type map[string]*jsonpatch.lazyNode (the text at /data/a is a string, not an object or list the patch can change)", "bench.yaml:4:"},
		{"field JSON that is a number",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, json: [{subPath: /x, operator: add, value: 1}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: ' -12.5e3 '}",
			"json: cannot unmarshal number into Go value of type map[string]*jsonpatch.lazyNode (the text at /data/a is a number, not an object or list the patch can change)", "bench.yaml:4:"},
		{"field JSON that is a bool",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, json: [{subPath: /x, operator: add, value: 1}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 'true'}",
			"json: cannot unmarshal bool into Go value of type map[string]*jsonpatch.lazyNode (the text at /data/a is a bool, not an object or list the patch can change)", "bench.yaml:4:"},
		{"field JSON that is null",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, json: [{subPath: /x, operator: add, value: 1}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 'null'}",
			"fieldOverrider[0]: error in add for path: '/x': invalid value, expected object", "bench.yaml:4:"},
		{"field JSON that is a string followed by more",
			copHead + "metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, json: [{subPath: /x, operator: add, value: 1}]}]}}]}",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: '\"x\" 1'}",
			"fieldOverrider[0]: invalid state detected", "bench.yaml:4:"},
		{"container that is not an object",
			copHead + "metadata: {name: p}\nspec: {overriders: {commandOverrider: [{containerName: a, operator: add, value: [x]}]}}",
			"apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec: {containers: [a]}",
			"spec.overriders.commandOverrider[0]: container 0 at spec/containers is string, not an object", "bench.yaml:4:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			policies := parseAll(t, tt.policies)
			obj := decodeAll(t, tt.obj)[0]
			_, _, err := Apply(obj, testCluster, policies)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !errors.Is(err, ErrApply) {
				t.Errorf("%v does not wrap ErrApply", err)
			}
			if !strings.Contains(manifest.Format(err, nil), tt.want) || !strings.HasPrefix(manifest.Format(err, nil), tt.pos) {
				t.Errorf("error %q\nwant it to start with %q and contain %q", err, tt.pos, tt.want)
			}
			if note := "(the text at"; strings.Contains(err.Error(), note) != strings.Contains(tt.want, note) {
				t.Errorf("error %q: the note on a scalar document is not as wanted", err)
			}
		})
	}
	if _, _, err := Apply(manifest.New(map[string]any{"kind": "K"}), nil, nil); !errors.Is(err, ErrApply) {
		t.Errorf("nil cluster: %v does not wrap ErrApply", err)
	}
}
