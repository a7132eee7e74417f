package cueval

import (
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/patch"
)

// TestRenderedPatch: patches applied to a rendered object, plain data
// merged into its data (patch.Merge) and the others by patch.Apply on
// its CUE value with the merged ones unified in first, leave the object
// (and the CUE value) patch.Apply one by one leaves, and a conflict
// fails with patch.Apply's error.
func TestRenderedPatch(t *testing.T) {
	const src = `
output: {metadata: name: "web", spec: {replicas: 1, template: spec: containers: [{name: "main", image: "a"}]}}
// +patchStrategy=retainKeys
scaler: spec: replicas: 3
labels: metadata: labels: app: "web"
sidecar: spec: template: spec: {
	// +patchKey=name
	containers: [{name: "side", image: "s"}]
}
more: metadata: labels: tier: "front"
conflict: metadata: labels: app: "other"
`
	tests := []struct {
		name    string
		patches []string
		merged  int // how many stay pending (merged into the data only)
		wantErr bool
	}{
		{name: "data patches stay pending", patches: []string{"scaler", "labels", "more"}, merged: 3},
		{name: "a list patch unifies the pending ones first", patches: []string{"scaler", "labels", "sidecar", "more"}, merged: 1},
		{name: "conflict", patches: []string{"labels", "conflict"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2))
			v := ctx.CompileString(src)
			if err := v.Err(); err != nil {
				t.Fatal(err)
			}
			r := rendered{val: v.LookupPath(cue.ParsePath("output"))}
			want := r.val
			var gotErr, wantErr error
			for _, name := range tt.patches {
				p := v.LookupPath(cue.ParsePath(name))
				if gotErr = r.patch(ctx, p, patch.Apply); gotErr != nil {
					break
				}
			}
			for _, name := range tt.patches {
				if want, wantErr = patch.Apply(ctx, want, v.LookupPath(cue.ParsePath(name))); wantErr != nil {
					break
				}
			}
			if (gotErr != nil) != tt.wantErr || (wantErr != nil) != tt.wantErr {
				t.Fatalf("errors: got %v, Apply's %v; want an error: %v", gotErr, wantErr, tt.wantErr)
			}
			if tt.wantErr {
				if gotErr.Error() != wantErr.Error() {
					t.Errorf("error %q, Apply's %q", gotErr, wantErr)
				}
				return
			}
			if len(r.pending) != tt.merged {
				t.Errorf("%d patches pending, want %d", len(r.pending), tt.merged)
			}
			wantObj, err := toGo(want)
			if err != nil {
				t.Fatal(err)
			}
			obj, err := r.object()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantObj, obj); diff != "" {
				t.Errorf("object (-apply +rendered):\n%s", diff)
			}
			val, err := r.value(ctx)
			if err != nil {
				t.Fatal(err)
			}
			valObj, err := toGo(val)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantObj, valObj); diff != "" {
				t.Errorf("value (-apply +rendered):\n%s", diff)
			}
		})
	}
}
