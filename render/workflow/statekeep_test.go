package workflow

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDropNullEntries: the objects as KubeVela's state keeping leaves
// them: a null entry of a map is deleted (the three-way patch's null),
// and a ConfigMap's or Secret's data, labels or annotations it empties
// are gone (omitempty maps of the API types); any other map it empties
// stays, and a map that was empty as written stays.
func TestDropNullEntries(t *testing.T) {
	tests := []struct {
		name    string
		in      map[string]any
		want    map[string]any
		deleted bool
	}{
		{
			name:    "a ConfigMap whose only data entry is null has no data (the realworld ex-workflow-export2config-app)",
			in:      map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": nil}},
			want:    map[string]any{"apiVersion": "v1", "kind": "ConfigMap"},
			deleted: true,
		},
		{
			name:    "a Secret's stringData likewise (ex-workflow-export2secret-app)",
			in:      map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"k": nil}, "data": map[string]any{}},
			want:    map[string]any{"apiVersion": "v1", "kind": "Secret", "data": map[string]any{}},
			deleted: true,
		},
		{
			name:    "other entries stay",
			in:      map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": nil, "j": "x"}},
			want:    map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"j": "x"}},
			deleted: true,
		},
		{
			name: "nulls in lists' maps; a custom resource's emptied map and an empty label map as written stay",
			in: map[string]any{"apiVersion": "x.io/v1", "kind": "X", "metadata": map[string]any{"labels": map[string]any{}, "annotations": map[string]any{"a": nil}},
				"spec": map[string]any{"m": map[string]any{"a": nil}, "l": []any{map[string]any{"name": "n", "value": nil}, nil}}},
			want: map[string]any{"apiVersion": "x.io/v1", "kind": "X", "metadata": map[string]any{"labels": map[string]any{}},
				"spec": map[string]any{"m": map[string]any{}, "l": []any{map[string]any{"name": "n"}, nil}}},
			deleted: true,
		},
		{
			name: "no null: nothing changes",
			in:   map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{}},
			want: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dropNullEntries(tt.in); got != tt.deleted {
				t.Errorf("deleted = %v, want %v", got, tt.deleted)
			}
			if diff := cmp.Diff(tt.want, tt.in); diff != "" {
				t.Errorf("object (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStateKeep: state keeping runs once the workflow has succeeded or
// is suspended, not when a step terminated it, and not for the objects
// an apply-once policy keeps (KubeVela's StateKeep returns at once for an
// enabled policy without rules; a rule affecting onStateKeep skips the
// objects it selects; onUpdate does not).
func TestStateKeep(t *testing.T) {
	const steps = `  workflow:
    steps:
    - name: w
      type: apply-object
      properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: w}, data: {k: null, j: x}}}
`
	kept := map[string]any{"k": nil, "j": "x"}
	dropped := map[string]any{"j": "x"}
	tests := []struct {
		name string
		spec string
		want map[string]any
	}{
		{"succeeded", steps, dropped},
		{"suspended", steps + "    - {name: s, type: suspend}\n", dropped},
		{"terminated", steps + "    - {name: t, type: b}\n", kept},
		{"apply-once without rules", "  policies: [{name: o, type: apply-once, properties: {enable: true}}]\n" + steps, kept},
		{"apply-once onStateKeep", "  policies: [{name: o, type: apply-once, properties: {enable: true, rules: [{selector: {resourceTypes: [ConfigMap]}, strategy: {path: [data], affect: onStateKeep}}]}}]\n" + steps, kept},
		{"apply-once onUpdate", "  policies: [{name: o, type: apply-once, properties: {enable: true, rules: [{selector: {resourceTypes: [ConfigMap]}, strategy: {path: [data], affect: onUpdate}}]}}]\n" + steps, dropped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderWith(t, stepDef("b", "import \"vela/builtin\"\nb: builtin.#Break & {$params: message: \"enough\"}")+app("  components: []\n"+tt.spec), func(o *Options) { o.StopAtSuspend = true })
			if err != nil {
				t.Fatal(err)
			}
			got := writes(res)
			if len(got) != 1 {
				t.Fatalf("writes: %v", got)
			}
			if diff := cmp.Diff(tt.want, got[0].Data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}
