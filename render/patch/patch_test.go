package patch

import (
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"
)

// newContext is a context like the render engine's.
func newContext() *cue.Context {
	return cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2))
}

// TestPatchStrategies applies trait patches to a workload the way
// KubeVela's patcher does.
func TestPatchStrategies(t *testing.T) {
	base := `{
	spec: replicas: 1
	spec: template: spec: {
		containers: [{name: "main", image: "a", env: [{name: "A", value: "1"}, {name: "B", value: "2"}]}, {name: "side", image: "s"}]
		volumes: [{name: "v1", emptyDir: {}}]
		resources: {limits: {cpu: "1", memory: "1Gi"}}
	}
}`
	tests := []struct {
		name  string
		patch string
		want  string // JSON of spec.template.spec (or of the field named in path)
		path  string
	}{
		{
			name: "patchKey merges by key and appends new elements",
			patch: `patch: spec: template: spec: {
	// +patchKey=name
	containers: [{name: "side", args: ["x"]}, {name: "new", image: "n"}]
}`,
			path: "spec.template.spec.containers",
			want: `[{"name":"main","image":"a","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]},{"name":"side","args":["x"],"image":"s"},{"name":"new","image":"n"}]`,
		},
		{
			name: "patchKey is inherited by nested lists",
			patch: `patch: spec: template: spec: {
	// +patchKey=name
	containers: [{name: "main", env: [{name: "B", value: "2"}, {name: "C", value: "3"}]}]
}`,
			path: "spec.template.spec.containers[0].env",
			want: `[{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"C","value":"3"}]`,
		},
		{
			name: "replace swaps the whole list",
			patch: `patch: spec: template: spec: {
	// +patchStrategy=replace
	volumes: [{name: "v2", emptyDir: {}}]
}`,
			path: "spec.template.spec.volumes",
			want: `[{"name":"v2","emptyDir":{}}]`,
		},
		{
			name: "retainKeys replaces a struct",
			patch: `patch: spec: template: spec: {
	// +patchStrategy=retainKeys
	resources: {limits: {cpu: "2"}}
}`,
			path: "spec.template.spec.resources",
			want: `{"limits":{"cpu":"2"}}`,
		},
		{
			name: "retainKeys on a scalar overrides it",
			patch: `patch: {
	// +patchStrategy=retainKeys
	spec: replicas: 3
}`,
			path: "spec.replicas",
			want: `3`,
		},
		{
			// The tag must be a doc comment of the patch field; CUE does not
			// attach it through the `patch: a: b:` shorthand.
			name: "jsonMergePatch deletes with null",
			patch: `// +patchStrategy=jsonMergePatch
patch: {spec: template: spec: resources: limits: {memory: null, cpu: "4"}}`,
			path: "spec.template.spec.resources",
			want: `{"limits":{"cpu":"4"}}`,
		},
		{
			name: "jsonPatch runs RFC 6902 operations",
			patch: `// +patchStrategy=jsonPatch
patch: {operations: [{op: "remove", path: "/spec/template/spec/volumes/0"}, {op: "add", path: "/spec/template/spec/hostNetwork", value: true}]}`,
			path: "spec.template.spec.hostNetwork",
			want: `true`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newContext()
			b := ctx.CompileString(base)
			p := ctx.CompileString(tt.patch).LookupPath(cue.ParsePath("patch"))
			got, err := Apply(ctx, b, p)
			if err != nil {
				t.Fatal(err)
			}
			js, err := got.LookupPath(cue.ParsePath(tt.path)).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(js)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestPatchConflict: without a patch key, lists unify by position and a
// conflicting scalar is an error, as in KubeVela.
func TestPatchConflict(t *testing.T) {
	ctx := newContext()
	b := ctx.CompileString(`spec: replicas: 1`)
	p := ctx.CompileString(`patch: spec: replicas: 2`).LookupPath(cue.ParsePath("patch"))
	if _, err := Apply(ctx, b, p); err == nil {
		t.Fatal("conflicting patch applied without error")
	}
}
