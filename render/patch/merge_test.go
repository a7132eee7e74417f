package patch

import (
	"bytes"
	"encoding/json"
	"testing"

	"cuelang.org/go/cue"
	"github.com/google/go-cmp/cmp"
)

// TestMerge: a patch that is plain data merges into the object's data as
// Unify's object would have it; what Merge cannot tell (lists, floats,
// bytes, defaults, constraints, conflicts, closed structs, optional
// fields, patterns, patch strategies other than retainKeys on a scalar
// or struct) it leaves to Unify, which keeps its own result and error.
func TestMerge(t *testing.T) {
	const base = `output: {
	apiVersion: "apps/v1"
	kind:       "Deployment"
	metadata: {name: "web", labels: {app: "web"}}
	spec: {
		selector: matchLabels: app: "web"
		replicas: 2
		paused:   false
		note:     null
		template: spec: containers: [{name: "main", image: "a"}]
		empty: {}
		cpu: 0.5
		def: *1 | int
		_hidden: 1
	}
}
`
	tests := []struct {
		name  string
		extra string // more of the template (base or patch)
		patch string
		merge bool // Merge takes it
	}{
		{name: "new scalar", patch: `patch: spec: minReadySeconds: 5`, merge: true},
		{name: "new nested struct", patch: `patch: spec: strategy: rollingUpdate: maxSurge: "25%"`, merge: true},
		{name: "label with a quoted name", patch: `patch: metadata: labels: "app.oam.dev/x": "y"`, merge: true},
		{name: "same int", patch: `patch: spec: replicas: 2`, merge: true},
		{name: "same bool", patch: `patch: spec: paused: false`, merge: true},
		{name: "same null", patch: `patch: spec: note: null`, merge: true},
		{name: "same string", patch: `patch: metadata: name: "web"`, merge: true},
		{name: "empty struct into a struct", patch: `patch: spec: empty: {}`, merge: true},
		{name: "empty struct added", patch: `patch: spec: other: {}`, merge: true},
		{name: "string with escapes", patch: `patch: metadata: annotations: a: "x\"y\\n\u00e9"`, merge: true},
		{name: "multi-line string", patch: "patch: metadata: annotations: a: \"\"\"\n\tline1\n\tline2\n\t\"\"\"", merge: true},
		{name: "negative int", patch: `patch: spec: revisionHistoryLimit: -1`, merge: true},
		{name: "reference resolved", extra: `parameter: n: 3`, patch: `patch: spec: minReadySeconds: parameter.n`, merge: true},
		{name: "retainKeys replaces a scalar", patch: "// +patchStrategy=retainKeys\npatch: spec: replicas: 5", merge: true},
		{name: "retainKeys replaces a struct", patch: "patch: spec: {\n\t// +patchStrategy=retainKeys\n\tselector: matchLabels: x: \"y\"\n}", merge: true},
		// A list's Default is not itself: Merge leaves it to Unify.
		{name: "retainKeys over a list", patch: "patch: spec: template: spec: {\n\t// +patchStrategy=retainKeys\n\tcontainers: {a: 1}\n}"},
		{name: "retainKeys over a default", patch: "patch: spec: {\n\t// +patchStrategy=retainKeys\n\tdef: 3\n}", merge: false},
		{name: "patchKey tag on a scalar", patch: "patch: spec: {\n\t// +patchKey=name\n\tminReadySeconds: 1\n}", merge: true},

		{name: "conflicting int", patch: `patch: spec: replicas: 3`},
		{name: "conflicting kinds", patch: `patch: spec: replicas: "2"`},
		{name: "struct over scalar", patch: `patch: spec: replicas: {a: 1}`},
		{name: "scalar over struct", patch: `patch: spec: selector: 1`},
		{name: "null over a string", patch: `patch: metadata: name: null`},
		{name: "float", patch: `patch: spec: cpu: 0.5`},
		{name: "new float", patch: `patch: spec: ratio: 1.5`},
		{name: "int over float", patch: `patch: spec: cpu: 1`},
		{name: "whole float", patch: `patch: spec: w: 1.0`},
		{name: "bytes", patch: `patch: spec: b: 'x'`},
		{name: "big int", patch: `patch: spec: n: 100000000000000000000`},
		{name: "list", patch: `patch: spec: template: spec: containers: [{name: "main", image: "a"}]`},
		{name: "new list", patch: `patch: spec: tolerations: []`},
		{name: "default in the patch", patch: `patch: spec: replicas: *2 | int`},
		{name: "default in the base", patch: `patch: spec: def: 1`},
		{name: "constraint in the patch", patch: `patch: spec: replicas: int`},
		{name: "bound in the patch", patch: `patch: spec: replicas: >1`},
		{name: "optional field in the patch", patch: `patch: spec: x?: 1`},
		// Unify unifies the patch's export, which drops these.
		{name: "open patch struct", patch: `patch: spec: {x: 1, ...}`, merge: true},
		{name: "pattern in the patch", patch: `patch: spec: [string]: int`, merge: true},
		{name: "hidden field in the patch", patch: `patch: spec: _x: 1`, merge: true},
		{name: "definition in the patch", patch: `patch: spec: #x: 1`},
		{name: "closed base", extra: `#D: {a: int}`, patch: `patch: spec: selector: {x: 1}`, merge: true},
		{name: "replace strategy", patch: "patch: spec: template: spec: {\n\t// +patchStrategy=replace\n\tcontainers: [{name: \"x\"}]\n}"},
		{name: "patchKey list", patch: "patch: spec: template: spec: {\n\t// +patchKey=name\n\tcontainers: [{name: \"main\", args: [\"x\"]}]\n}"},
		{name: "jsonMergePatch", patch: "// +patchStrategy=jsonMergePatch\npatch: spec: replicas: 3"},
		{name: "jsonPatch", patch: "// +patchStrategy=jsonPatch\npatch: operations: [{op: \"add\", path: \"/spec/x\", value: 1}]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newContext()
			v := ctx.CompileString(base + tt.extra + "\n" + tt.patch)
			if err := v.Err(); err != nil {
				t.Fatal(err)
			}
			b := v.LookupPath(cue.ParsePath("output"))
			p := v.LookupPath(cue.ParsePath("patch"))
			obj := toData(t, b)
			got, ok := Merge(b, obj, p)
			if ok != tt.merge {
				t.Fatalf("Merge took it: %v, want %v", ok, tt.merge)
			}
			if !ok {
				return
			}
			want, err := Apply(ctx, b, p)
			if err != nil {
				t.Fatalf("Merge took a patch Apply refuses: %v", err)
			}
			if diff := cmp.Diff(toData(t, want), got); diff != "" {
				t.Errorf("Merge differs from Apply (-apply +merge):\n%s", diff)
			}
			if diff := cmp.Diff(toData(t, b), obj); diff != "" {
				t.Errorf("Merge changed the object it was given (-before +after):\n%s", diff)
			}
		})
	}
}

// TestMergeClosed: a field a closed struct does not allow, or that an
// optional field or pattern of the base constrains, is Unify's.
func TestMergeClosed(t *testing.T) {
	tests := []struct{ name, src string }{
		{"closed", `#D: {a: int}, output: #D & {a: 1}, patch: b: 1`},
		{"optional field", `output: {a: 1, b?: int}, patch: b: 1`},
		{"pattern", `output: {a: 1, [=~"^b"]: int}, patch: b: 1`},
		{"closed nested", `#D: {a: {x: int}}, output: #D & {a: x: 1}, patch: a: y: 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newContext().CompileString(tt.src)
			b := v.LookupPath(cue.ParsePath("output"))
			if _, ok := Merge(b, toData(t, b), v.LookupPath(cue.ParsePath("patch"))); ok {
				t.Errorf("Merge took it")
			}
		})
	}
}

// TestMergeAfterMerge: a patch merged over patches merged before (whose
// fields the base does not have) agrees with unifying them one by one.
func TestMergeAfterMerge(t *testing.T) {
	ctx := newContext()
	v := ctx.CompileString(`
output: {metadata: name: "a", spec: replicas: 1}
p1: metadata: labels: {x: "1"}
p2: metadata: labels: {x: "1", y: "2"}
// +patchStrategy=retainKeys
p3: spec: replicas: 4
p4: metadata: labels: x: "other"
`)
	b := v.LookupPath(cue.ParsePath("output"))
	obj := toData(t, b)
	want := b
	for _, name := range []string{"p1", "p2", "p3"} {
		p := v.LookupPath(cue.ParsePath(name))
		var ok bool
		if obj, ok = Merge(b, obj, p); !ok {
			t.Fatalf("%s: Merge refused", name)
		}
		var err error
		if want, err = Unify(ctx, want, p); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(toData(t, want), obj); diff != "" {
			t.Errorf("%s: (-unify +merge):\n%s", name, diff)
		}
	}
	if _, ok := Merge(b, obj, v.LookupPath(cue.ParsePath("p4"))); ok {
		t.Errorf("p4 conflicts with p1 and was merged")
	}
}

// toData is v in the JSON data model with ints as int64, as the render
// engine's objects are.
func toData(t *testing.T, v cue.Value) map[string]any {
	t.Helper()
	data, err := v.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return ints(m).(map[string]any)
}

func ints(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = ints(e)
		}
	case []any:
		for i, e := range x {
			x[i] = ints(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
