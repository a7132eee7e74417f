package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
)

// TestFieldRefs: a FieldRef shows a path in the Application as the path,
// one in an external Workflow or Policy object behind the object.
func TestFieldRefs(t *testing.T) {
	display := []struct {
		ref  FieldRef
		want string
	}{
		{AppField("spec", "policies", 0, "properties"), "spec.policies[0].properties"},
		{External("Workflow", "wf", nil).Child("steps").At(1), "Workflow wf: steps[1]"},
		{External("Policy", "p", nil), "Policy p"},
		{External("Policy", "p", fieldpath.New("properties", "cluster")), "Policy p: properties.cluster"},
		{AppField("spec", "policies", 0, "properties").Join(fieldpath.New(2, "name")), "spec.policies[0].properties[2].name"},
		{AppField("metadata", "labels", "app.kubernetes.io/name"), "metadata.labels[app.kubernetes.io/name]"},
	}
	for _, d := range display {
		if diff := cmp.Diff(d.want, d.ref.String()); diff != "" {
			t.Errorf("%#v.String() (-want +got):\n%s", d.ref, diff)
		}
	}
	wf := External("Workflow", "wf", fieldpath.New("steps", 1))
	if !wf.Child("name").HasPrefix(wf) || wf.HasPrefix(wf.Child("name")) || AppField("steps", 1).HasPrefix(wf) {
		t.Error("HasPrefix is wrong")
	}
	if !wf.Equal(External("Workflow", "wf", fieldpath.New("steps", 1))) || wf.Equal(AppField("steps", 1)) {
		t.Error("Equal is wrong")
	}
	if !wf.IsExternal() || AppField("spec").IsExternal() || !(FieldRef{}).IsZero() || wf.IsZero() {
		t.Error("IsExternal or IsZero is wrong")
	}

	props := []struct {
		param []string
		want  string
	}{
		{[]string{"env", "0", "name"}, "properties.env[0].name"},
		{nil, "properties"},
		{[]string{"a", "1", "b"}, "properties.a[1].b"},
	}
	for _, p := range props {
		if diff := cmp.Diff(p.want, PropertyPath(p.param).String()); diff != "" {
			t.Errorf("PropertyPath(%q) (-want +got):\n%s", p.param, diff)
		}
	}
}

// ref is the FieldRef of the Application field whose path is s.
func ref(s string) FieldRef { return FieldRef{Path: fieldpath.MustParse(s)} }

// ext is the FieldRef of the field at path s of the object kind name.
func ext(kind, name, s string) FieldRef { return External(kind, name, fieldpath.MustParse(s)) }
