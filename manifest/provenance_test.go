package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
)

// TestWalkLeaves: leaves are named by their fieldpath string form, so a
// key holding dots (a label) is one segment, not three.
func TestWalkLeaves(t *testing.T) {
	data := map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app.kubernetes.io/name": "web"}},
		"data":     map[string]any{"80": "x"},
		"list":     []any{},
		"m":        map[string]any{"": int64(1), "e": map[string]any{}},
	}
	var got []string
	WalkLeaves(data, func(path fieldpath.Path, _ any) { got = append(got, path.String()) })
	want := []string{`data["80"]`, "list", "m[]", "m.e", "metadata.labels[app.kubernetes.io/name]"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("leaves (-want +got):\n%s", diff)
	}
}

// TestProvenanceRecord: a stage is recorded on the leaves it changed or
// added, leaves that went are forgotten, and unchanged ones keep their
// chain.
func TestProvenanceRecord(t *testing.T) {
	tmpl := Origin{Stage: StageTemplate, Name: "webservice"}
	over := Origin{Stage: StageKarmadaOverride, Name: "OverridePolicy default/eu", Detail: "rule 0 imageOverrider[0]"}
	before := map[string]any{"spec": map[string]any{"replicas": int64(1), "image": "a", "gone": true, "ports": []any{}}}
	p := Provenance{}
	p.Record(nil, before, tmpl)
	after := map[string]any{"spec": map[string]any{"replicas": int64(1), "image": "b", "ports": []any{int64(80)}}}
	p.Record(before, after, over)
	want := Provenance{
		"spec.replicas": {withValue(tmpl, int64(1))},
		"spec.image":    {withValue(tmpl, "a"), withValue(over, "b")},
		"spec.ports[0]": {withValue(over, int64(80))},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("provenance (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		path string
		want string
	}{
		{"spec.image", "OverridePolicy default/eu"},
		{"spec", "OverridePolicy default/eu"},            // its first leaf under it
		{"spec.ports[0].x", "OverridePolicy default/eu"}, // the leaf above it
		{"status", ""},
	} {
		o, _ := p.Find(fieldpath.MustParse(tc.path))
		if o.Name != tc.want {
			t.Errorf("Find(%q) = %q, want %q", tc.path, o.Name, tc.want)
		}
	}
}

func withValue(o Origin, v any) Origin {
	o.Value = v
	return o
}
