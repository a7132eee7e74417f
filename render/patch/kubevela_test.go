package patch

import (
	"encoding/json"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"
)

// unifyCase is a base, a patch and what their strategic unification
// marshals to as JSON, or the error it fails with.
type unifyCase struct {
	name, base, patch, want, wantErr string
}

// runUnify unifies each case's base and patch with Unify.
func runUnify(t *testing.T, tests []unifyCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newContext()
			got, err := Unify(ctx, ctx.CompileString(tt.base), ctx.CompileString(tt.patch))
			checkResult(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// checkResult compares a patched value's JSON (or the error) with the
// expectation.
func checkResult(t *testing.T, got cue.Value, err error, want, wantErr string) {
	t.Helper()
	gotErr := ""
	if err != nil {
		gotErr = err.Error()
	}
	if diff := cmp.Diff(wantErr, gotErr); diff != "" {
		t.Fatalf("error (-want +got):\n%s", diff)
	}
	if err != nil {
		return
	}
	js, err := got.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(decode(t, want), decode(t, string(js))); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// decode reads JSON text; objects compare as maps (field order is CUE's
// and does not survive into a Kubernetes object), lists in order.
func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// TestStrategyUnify is kubevela/workflow v0.6.4's TestPatch
// (pkg/cue/model/sets/operation_test.go), case by case: KubeVela's
// StrategyUnify is Unify here. The expected values are the JSON of the
// CUE results written there.
func TestStrategyUnify(t *testing.T) {
	runUnify(t, []unifyCase{
		{name: "case-0: lists unify by position",
			base: `containers: [{name: "x1"},{name: "x2"},...]`, patch: `containers: [{name: "x1"},{name: "x2",image: "pause:0.1"}]`,
			want: `{"containers":[{"name":"x1"},{"name":"x2","image":"pause:0.1"}]}`},
		{name: "case-1: without a patchKey other order conflicts",
			base: `containers: [{name: "x1"},{name: "x2"},...]`, patch: `containers: [{name: "x2"},{name: "x1"}]`,
			wantErr: `containers.0.name: conflicting values "x2" and "x1"`},
		{name: "case-2: an explicit error stays one",
			base: `containers: [{name: _|_},{name: "x2"},...]`, patch: `containers: [{name: _|_},{name: "x2"}]`,
			wantErr: "explicit error (_|_ literal) in source (and 1 more errors)"},
		{name: "case-3: patchKey matches by name",
			base: `containers: [{name: "x1"},{name: "x2"},...]`, patch: "// +patchKey=name\ncontainers: [{name: \"x2\"},{name: \"x1\"}]",
			want: `{"containers":[{"name":"x1"},{"name":"x2"}]}`},
		{name: "case-4: a base element without the key takes the first patch element (close is lost)",
			base: `containers: [close({namex: "x1"}),...]`, patch: "// +patchKey=name\ncontainers: [{name: \"x2\"},{name: \"x1\"}]",
			want: `{"containers":[{"name":"x2","namex":"x1"},{"name":"x1"}]}`},
		{name: "case-5: unmatched patch elements are appended in their order",
			base: `containers: [{name: "x1"},{name: "x2"},...]`, patch: "// +patchKey=name\ncontainers: [{name: \"x4\"},{name: \"x3\"},{name: \"x1\"}]",
			want: `{"containers":[{"name":"x1"},{"name":"x2"},{"name":"x4"},{"name":"x3"}]}`},
		{name: "case-6: a patch without the key unifies by position",
			base: `containers: [{name: "x1"},{name: "x2"},...]`, patch: "// +patchKey=name\ncontainers: [{noname: \"x3\"},...]",
			want: `{"containers":[{"name":"x1","noname":"x3"},{"name":"x2"}]}`},
		{name: "case-7: patch elements without the key are dropped when one has it",
			base: `containers: [{name: "x1"},{name: "x2"},...]`, patch: "// +patchKey=name\ncontainers: [{noname: \"x3\"},{name: \"x1\"}]",
			want: `{"containers":[{"name":"x1"},{"name":"x2"}]}`},
		{name: "case-8: the key is inherited by nested lists",
			base:  `containers: [{name: "x1"},{name: "x2", envs:[ {name: "OPS",value: string},...]},...]`,
			patch: "// +patchKey=name\ncontainers: [{name: \"x2\", envs: [{name: \"OPS\", value: \"OAM\"}]}]",
			want:  `{"containers":[{"name":"x1"},{"name":"x2","envs":[{"name":"OPS","value":"OAM"}]}]}`},
		{name: "case-9: closed structs merge",
			base:  `containers: [close({name: "x1"}),close({name: "x2", envs:[{name: "OPS",value: string},...]}),...]`,
			patch: "// +patchKey=name\ncontainers: [{name: \"x2\", envs: [close({name: \"OPS\", value: \"OAM\"})]}]",
			want:  `{"containers":[{"name":"x1"},{"name":"x2","envs":[{"name":"OPS","value":"OAM"}]}]}`},
		{name: "case-10: nested lists merge by the inherited key and append",
			base:  `containers: [{name: "x1"},{name: "x2", envs:[ {name: "OPS",value: string},...]},...]`,
			patch: "// +patchKey=name\ncontainers: [{name: \"x2\", envs: [{name: \"USER\", value: \"DEV\"},{name: \"OPS\", value: \"OAM\"}]}]",
			want:  `{"containers":[{"name":"x1"},{"name":"x2","envs":[{"name":"OPS","value":"OAM"},{"name":"USER","value":"DEV"}]}]}`},
		{name: "case-11: a nested patchKey overrides the inherited one",
			base:  `containers: [{name: "x1"},{name: "x2", envs:[ {key: "OPS",value: string},...]},...]`,
			patch: "// +patchKey=name\ncontainers: [{name: \"x2\", \n// +patchKey=key\nenvs: [{key: \"USER\", value: \"DEV\"},{key: \"OPS\", value: \"OAM\"}]}]",
			want:  `{"containers":[{"name":"x1"},{"name":"x2","envs":[{"key":"OPS","value":"OAM"},{"key":"USER","value":"DEV"}]}]}`},
		{name: "case-12: a dotted patchKey",
			base:  `envFrom: [{secretRef: {name: "nginx-rds"}},...]`,
			patch: "// +patchKey=secretRef.name\nenvFrom: [{secretRef: {name: \"nginx-redis\"}},...]",
			want:  `{"envFrom":[{"secretRef":{"name":"nginx-rds"}},{"secretRef":{"name":"nginx-redis"}}]}`},
		{name: "case-13: a dotted patchKey in a keyed list",
			base:  `containers: [{name: "c1"},{name: "c2", envFrom: [{secretRef: {name: "nginx-rds"}},...]},...]`,
			patch: "// +patchKey=name\ncontainers: [{\n\tname: \"c2\"\n\t// +patchKey=secretRef.name\n\tenvFrom: [{secretRef: {name: \"nginx-redis\"}},...]\n}]",
			want:  `{"containers":[{"name":"c1"},{"name":"c2","envFrom":[{"secretRef":{"name":"nginx-rds"}},{"secretRef":{"name":"nginx-redis"}}]}]}`},
		{name: "case-14: the key applies only to its field",
			base:  "containers: [{volumeMounts: [{name: \"k1\", path: \"p1\"},{name: \"k1\", path: \"p2\"},...]},...]\nvolumes: [{name: \"x1\",value: \"v1\"},{name: \"x2\",value: \"v2\"},...]",
			patch: "// +patchKey=name\nvolumes: [{name: \"x1\",value: \"v1\"},{name: \"x3\",value: \"x2\"}]\ncontainers: [{volumeMounts: [{name: \"k1\", path: \"p1\"},{name: \"k1\", path: \"p2\"},{ name:\"k2\", path: \"p3\"}]},...]",
			want:  `{"containers":[{"volumeMounts":[{"name":"k1","path":"p1"},{"name":"k1","path":"p2"},{"name":"k2","path":"p3"}]}],"volumes":[{"name":"x1","value":"v1"},{"name":"x2","value":"v2"},{"name":"x3","value":"x2"}]}`},
		{name: "case-15: several keys",
			base:  "containers: [{name: \"c1\"},{name: \"c2\", envFrom: [{secretRef: {name: \"nginx-rds\"}}, {configMapRef: {name: \"nginx-rds\"}},...]},...]",
			patch: "// +patchKey=name\ncontainers: [{\n\tname: \"c2\"\n\t// +patchKey=secretRef.name,configMapRef.name\n\tenvFrom: [{secretRef: {name: \"nginx-redis\"}}, {configMapRef: {name: \"nginx-redis\"}},...]\n}]",
			want:  `{"containers":[{"name":"c1"},{"name":"c2","envFrom":[{"secretRef":{"name":"nginx-rds"}},{"configMapRef":{"name":"nginx-rds"}},{"secretRef":{"name":"nginx-redis"}},{"configMapRef":{"name":"nginx-redis"}}]}]}`},
		// As case-5, with quoted field names, which CUE reads as the same
		// labels.
		{name: "quoted field names",
			base:  `"my-list": [{"name": "x1"},{name: "x2"},...]`,
			patch: "// +patchKey=name\n\"my-list\": [{name: \"x4\"},{\"name\": \"x1\", v: 1}]",
			want:  `{"my-list":[{"name":"x1","v":1},{"name":"x2"},{"name":"x4"}]}`},
		{name: "case-16: a key on a field the base lacks",
			base:  `containers: [{name: "x1"}]`,
			patch: "containers: [{\n\t// +patchKey=name\n\tenv: [{name: \"k\", value: \"v\"}]\n}, ...]",
			want:  `{"containers":[{"env":[{"name":"k","value":"v"}],"name":"x1"}]}`},
	})
}

// TestStrategyPatch is kubevela/workflow v0.6.4's TestStrategyPatch
// (pkg/cue/model/sets/operation_test.go): retainKeys and replace with
// Unify; its jsonMergePatch and jsonPatch cases are in
// TestStrategyPatchJSON.
func TestStrategyPatch(t *testing.T) {
	runUnify(t, []unifyCase{
		{name: "case-0: retainKeys on a scalar keeps its siblings",
			base:  "spec: strategy: {type: \"rollingUpdate\", rollingUpdate: maxSurge: \"30%\"}",
			patch: "spec: {\n\t// +patchStrategy=retainKeys\n\tstrategy: type: \"recreate\"\n}",
			want:  `{"spec":{"strategy":{"type":"recreate","rollingUpdate":{"maxSurge":"30%"}}}}`},
		{name: "case-1: the same in a closed struct",
			base:  "spec: strategy: close({type: \"rollingUpdate\", rollingUpdate: maxSurge: \"30%\"})",
			patch: "spec: {\n\t// +patchStrategy=retainKeys\n\tstrategy: type: \"recreate\"\n}",
			want:  `{"spec":{"strategy":{"type":"recreate","rollingUpdate":{"maxSurge":"30%"}}}}`},
		{name: "case-2: retainKeys with patchKey replaces the matching element",
			base:  "volumes: [{name: \"test-volume\", cinder: {volumeID: \"<volume id>\", fsType: \"ext4\"}}]",
			patch: "// +patchStrategy=retainKeys\n// +patchKey=name\nvolumes: [{name: \"test-volume\", configMap: name: \"conf-name\"}]",
			want:  `{"volumes":[{"name":"test-volume","configMap":{"name":"conf-name"}}]}`},
		{name: "case-3: and keeps the others",
			base:  "volumes: [{name: \"empty-volume\", emptyDir: {}}, {name: \"test-volume\", cinder: {volumeID: \"<volume id>\", fsType: \"ext4\"}}]",
			patch: "// +patchStrategy=retainKeys\n// +patchKey=name\nvolumes: [{name: \"test-volume\", configMap: name: \"conf-name\"}]",
			want:  `{"volumes":[{"name":"empty-volume","emptyDir":{}},{"name":"test-volume","configMap":{"name":"conf-name"}}]}`},
		{name: "case-4: retainKeys on a nested list",
			base:  "containers: [{name: \"c1\", image: \"image1\"}, {name: \"c2\", envs:[{name: \"e1\",value: \"v1\"}]}]",
			patch: "// +patchKey=name\ncontainers: [{\n\tname: \"c2\"\n\t// +patchStrategy=retainKeys\n\tenvs:[{name: \"e1\",value: \"v2\"},...]\n}]",
			want:  `{"containers":[{"name":"c1","image":"image1"},{"name":"c2","envs":[{"name":"e1","value":"v2"}]}]}`},
		{name: "case-5: retainKeys on a struct replaces it",
			base:  "spec: containers: [{name: \"c1\", image: \"image1\"}, {name: \"c2\", envs:[{name: \"e1\",value: \"v1\"}]}]",
			patch: "// +patchKey=name\n// +patchStrategy=retainKeys\nspec: {\n\tcontainers: [{name: \"c2\", envs:[{name: \"e1\",value: \"v2\"}]}]}",
			want:  `{"spec":{"containers":[{"name":"c2","envs":[{"name":"e1","value":"v2"}]}]}}`},
		{name: "case-6: retainKeys on top-level scalars",
			base:  "kind: \"Old\"\nmetadata: {name: \"Old\", labels: keep: \"true\"}",
			patch: "// +patchStrategy=retainKeys\nkind: \"New\"\nmetadata: {\n\t// +patchStrategy=retainKeys\n\tname: \"New\"\n}",
			want:  `{"kind":"New","metadata":{"name":"New","labels":{"keep":"true"}}}`},
		{name: "case-9: replace swaps a nested list",
			base:  "spec: containers: [{name: \"c1\", envs:[{name: \"e1\",value: \"v1\"}]}]",
			patch: "// +patchKey=name\nspec: {\n\tcontainers: [{\n\t\tname: \"c1\"\n\t\t// +patchStrategy=replace\n\t\tenvs:[{name: \"e1\",value: \"v2\"}]\n\t}]}",
			want:  `{"spec":{"containers":[{"name":"c1","envs":[{"name":"e1","value":"v2"}]}]}}`},
	})
}

// TestStrategyPatchJSON applies a trait's `patch` tagged jsonMergePatch
// or jsonPatch, as KubeVela's trait Complete does (pkg/cue/definition/
// template.go: sets.CreateUnifyOptionsForPatcher), with the cases of
// kubevela/workflow v0.6.4's TestStrategyPatch and of KubeVela's
// TestTraitTemplateComplete.
func TestStrategyPatchJSON(t *testing.T) {
	tests := []struct {
		name, base, patch, want, wantErr string
	}{
		// TestStrategyPatch case-7: RFC 7396 replaces lists.
		{name: "jsonMergePatch replaces a list",
			base:  "spec: containers: [{name: \"c1\", image: \"image1\"}, {name: \"c2\", envs:[{name: \"e1\",value: \"v1\"}]}]",
			patch: "// +patchStrategy=jsonMergePatch\npatch: {spec: containers: [{name: \"c3\", image: \"image3\"}]}",
			want:  `{"spec":{"containers":[{"name":"c3","image":"image3"}]}}`},
		// TestStrategyPatch case-8.
		{name: "jsonPatch adds at an index",
			base:  "spec: containers: [{name: \"c1\", image: \"image1\"}]",
			patch: "// +patchStrategy=jsonPatch\npatch: {operations: [{op: \"add\", path: \"/spec/containers/0\", value: {name: \"c4\", image: \"image4\"}}]}",
			want:  `{"spec":{"containers":[{"name":"c4","image":"image4"},{"name":"c1","image":"image1"}]}}`},
		// TestTraitTemplateComplete "patch trait with json merge patch":
		// null deletes.
		{name: "jsonMergePatch null deletes",
			base:  "spec: {replicas: 2, template: {metadata: labels: app: \"x\", spec: containers: [{name: \"main\"}]}}",
			patch: "// +patchStrategy=jsonMergePatch\npatch: {spec: {replicas: 5, template: spec: null}}",
			want:  `{"spec":{"replicas":5,"template":{"metadata":{"labels":{"app":"x"}}}}}`},
		// TestTraitTemplateComplete "patch trait with json patch".
		{name: "jsonPatch replace and remove",
			base:  "spec: {replicas: 2, template: {metadata: labels: app: \"x\", spec: containers: [{name: \"main\"}]}}",
			patch: "// +patchStrategy=jsonPatch\npatch: {operations: [{op: \"replace\", path: \"/spec/replicas\", value: 5}, {op: \"remove\", path: \"/spec/template/spec\"}]}",
			want:  `{"spec":{"replicas":5,"template":{"metadata":{"labels":{"app":"x"}}}}}`},
		// TestTraitTemplateComplete "patch trait with invalid json patch":
		// an unknown operation fails the trait.
		{name: "jsonPatch unknown operation",
			base:    "spec: replicas: 2",
			patch:   "// +patchStrategy=jsonPatch\npatch: {operations: [{op: \"what\", path: \"/spec/replicas\", value: 5}]}",
			wantErr: `json patch: decode: invalid operation {"op":"what","path":"/spec/replicas","value":5}: unsupported operation`},
		// RFC 6902: removing what is not there is an error.
		{name: "jsonPatch remove of a missing path",
			base:    "spec: replicas: 2",
			patch:   "// +patchStrategy=jsonPatch\npatch: {operations: [{op: \"remove\", path: \"/spec/nothere\"}]}",
			wantErr: "json patch: apply: error in remove for path: '/spec/nothere': unable to remove nonexistent key: nothere: missing value"},
		{name: "jsonPatch operations not a list",
			base:    "spec: replicas: 2",
			patch:   "// +patchStrategy=jsonPatch\npatch: {operations: {op: \"remove\"}}",
			wantErr: "json patch: decode: json: cannot unmarshal object into Go value of type jsonpatch.Patch"},
		{name: "jsonMergePatch of an incomplete base",
			base:    "spec: replicas: int",
			patch:   "// +patchStrategy=jsonMergePatch\npatch: {spec: replicas: 1}",
			wantErr: "json merge patch: base: cue: marshal error: spec.replicas: cannot convert incomplete value \"int\" to JSON"},
		{name: "jsonMergePatch with an incomplete patch",
			base:    "spec: replicas: 1",
			patch:   "// +patchStrategy=jsonMergePatch\npatch: {spec: replicas: int}",
			wantErr: "json merge patch: cue: marshal error: patch.spec.replicas: cannot convert incomplete value \"int\" to JSON"},
		{name: "jsonPatch of an incomplete base",
			base:    "spec: replicas: int",
			patch:   "// +patchStrategy=jsonPatch\npatch: {operations: []}",
			wantErr: "json patch: base: cue: marshal error: spec.replicas: cannot convert incomplete value \"int\" to JSON"},
		{name: "jsonPatch with incomplete operations",
			base:    "spec: replicas: 1",
			patch:   "// +patchStrategy=jsonPatch\npatch: {operations: [{op: string}]}",
			wantErr: "json patch: operations: cue: marshal error: patch.operations.0.op: cannot convert incomplete value \"string\" to JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newContext()
			p := ctx.CompileString(tt.patch).LookupPath(cue.ParsePath("patch"))
			got, err := Apply(ctx, ctx.CompileString(tt.base), p)
			checkResult(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// TestPatchAfterJSONPatch: what a jsonMergePatch or jsonPatch produced
// stays open, so a later trait's patch may add to its structs and lists
// (KubeVela's patcher works on the merged JSON as a new CUE value).
func TestPatchAfterJSONPatch(t *testing.T) {
	ctx := newContext()
	base := ctx.CompileString(`spec: {replicas: 1, template: spec: containers: [{name: "main"}]}`)
	merge := ctx.CompileString("// +patchStrategy=jsonMergePatch\npatch: {spec: replicas: 3}").LookupPath(cue.ParsePath("patch"))
	merged, err := Apply(ctx, base, merge)
	if err != nil {
		t.Fatal(err)
	}
	later := ctx.CompileString("patch: spec: {paused: true, template: spec: {\n\t// +patchKey=name\n\tcontainers: [{name: \"side\"}]\n}}").LookupPath(cue.ParsePath("patch"))
	got, err := Apply(ctx, merged, later)
	checkResult(t, got, err, `{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"main"},{"name":"side"}]}},"paused":true}}`, "")
}

// TestPatchTemplateShapes: a patch as a trait template writes it, with
// comprehensions, conditionals, close() and references, is resolved
// before its lists are aligned (KubeVela's patcher exports the patch
// with references resolved; TestTraitTemplateComplete "patch trait with
// replace" builds the replacing list with a comprehension).
func TestPatchTemplateShapes(t *testing.T) {
	base := `spec: template: spec: containers: [{name: "main", image: "a", ports: [{containerPort: 443}]}, {name: "side", image: "s"}]`
	tests := []struct {
		name, patch, want string
	}{
		{"replace with a comprehension", "parameter: {name: \"main\", ports: [80, 8443]}\npatch: spec: template: spec: {\n\t// +patchKey=name\n\tcontainers: [{\n\t\tname: parameter.name\n\t\t// +patchStrategy=replace\n\t\tports: [for k in parameter.ports {containerPort: k}]\n\t}]\n}",
			`[{"name":"main","image":"a","ports":[{"containerPort":80},{"containerPort":8443}]},{"name":"side","image":"s"}]`},
		{"conditional fields", "parameter: {cmd: [\"run\"]}\npatch: spec: template: spec: {\n\t// +patchKey=name\n\tcontainers: [{\n\t\tname: \"side\"\n\t\tif parameter.cmd != _|_ {command: parameter.cmd}\n\t}]\n}",
			`[{"name":"main","image":"a","ports":[{"containerPort":443}]},{"name":"side","image":"s","command":["run"]}]`},
		{"closed patch elements", "patch: spec: template: spec: {\n\t// +patchKey=name\n\tcontainers: [close({name: \"side\", args: [\"x\"]})]\n}",
			`[{"name":"main","image":"a","ports":[{"containerPort":443}]},{"name":"side","image":"s","args":["x"]}]`},
		{"a list of references", "#c: {name: \"extra\", image: \"e\"}\npatch: spec: template: spec: {\n\t// +patchKey=name\n\tcontainers: [#c]\n}",
			`[{"name":"main","image":"a","ports":[{"containerPort":443}]},{"name":"side","image":"s"},{"name":"extra","image":"e"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := newContext()
			got, err := Apply(ctx, ctx.CompileString(base), ctx.CompileString(tt.patch).LookupPath(cue.ParsePath("patch")))
			if err != nil {
				t.Fatal(err)
			}
			js, err := got.LookupPath(cue.ParsePath("spec.template.spec.containers")).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(decode(t, tt.want), decode(t, string(js))); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestCommentTags is kubevela/workflow v0.6.4's TestParseCommentTags
// (pkg/cue/model/sets/utils_test.go's findCommentTag).
func TestCommentTags(t *testing.T) {
	src := `
// +patchKey=name
// +testKey1=testValue1
	// +testKey2=testValue2
// +testKey3 =testValue3
//    +testKey4 = testValue4
// invalid=x
// +invalid=x y
// +invalid
x: null
`
	f, err := parser.ParseFile("-", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	v := newContext().BuildFile(f)
	got := commentTags(v.LookupPath(cue.ParsePath("x")).Doc())
	want := map[string]string{"patchKey": "name", "testKey1": "testValue1", "testKey2": "testValue2", "testKey3": "testValue3", "testKey4": "testValue4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}
