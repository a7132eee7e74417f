package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFieldPathJoin(t *testing.T) {
	for _, tc := range []struct{ path, key, want string }{
		{"", "spec", "spec"},
		{"spec", "replicas", "spec.replicas"},
		{"metadata.labels", "app.oam.dev/name", "metadata.labels[app.oam.dev/name]"},
		{"data", "80", `data["80"]`},
		{"m", "", "m[]"},
	} {
		got := FieldPathJoin(tc.path, tc.key)
		if got != tc.want {
			t.Errorf("FieldPathJoin(%q, %q) = %q, want %q", tc.path, tc.key, got, tc.want)
		}
		// What FieldPathJoin writes, ParseFieldPath reads back.
		if tc.path != "" {
			segs, err := ParseFieldPath(got)
			if err != nil || segs[len(segs)-1] != tc.key {
				t.Errorf("ParseFieldPath(%q) = %v, %v: last segment is not %q", got, segs, err, tc.key)
			}
		}
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
		o, _ := p.Find(tc.path)
		if o.Name != tc.want {
			t.Errorf("Find(%q) = %q, want %q", tc.path, o.Name, tc.want)
		}
	}
}

func withValue(o Origin, v any) Origin {
	o.Value = v
	return o
}
