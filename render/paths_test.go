package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFieldPaths: the field path conventions of paths.go: a path in the
// Application as manifest.Path writes it; a path in an external Workflow
// or Policy object behind "<Kind>:<name>|".
func TestFieldPaths(t *testing.T) {
	type split struct {
		Kind, Name, Rest string
		OK               bool
	}
	splits := map[string]split{
		"spec.components[0]":                {},
		"Policy:p|":                         {"Policy", "p", "", true},
		"Workflow:wf|.steps[1].subSteps[0]": {"Workflow", "wf", "steps[1].subSteps[0]", true},
	}
	for path, want := range splits {
		var got split
		got.Kind, got.Name, got.Rest, got.OK = SplitExternal(path)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SplitExternal(%q) (-want +got):\n%s", path, diff)
		}
	}

	display := map[string]string{
		"spec.policies[0].properties":  "spec.policies[0].properties",
		"Workflow:wf|.steps[1]":        "Workflow wf: steps[1]",
		"Policy:p|":                    "Policy p",
		"Policy:p|.properties.cluster": "Policy p: properties.cluster",
	}
	for path, want := range display {
		if diff := cmp.Diff(want, DisplayPath(path)); diff != "" {
			t.Errorf("DisplayPath(%q) (-want +got):\n%s", path, diff)
		}
	}

	joins := []struct{ base, rel, want string }{
		{"spec.policies[0].properties", "", "spec.policies[0].properties"},
		{"spec.policies[0].properties", "clusters", "spec.policies[0].properties.clusters"},
		{"spec.policies[0].properties", "[2].name", "spec.policies[0].properties[2].name"},
	}
	for _, j := range joins {
		if diff := cmp.Diff(j.want, JoinField(j.base, j.rel)); diff != "" {
			t.Errorf("JoinField(%q, %q) (-want +got):\n%s", j.base, j.rel, diff)
		}
	}

	props := []struct {
		base  string
		param []string
		want  string
	}{
		{"spec.components[1]", []string{"env", "0", "name"}, "spec.components[1].properties.env[0].name"},
		{"spec.components[1].traits[0]", nil, "spec.components[1].traits[0].properties"},
		{"", []string{"a", "1", "b"}, "properties.a[1].b"},
	}
	for _, p := range props {
		if diff := cmp.Diff(p.want, PropertyPath(p.base, p.param)); diff != "" {
			t.Errorf("PropertyPath(%q, %q) (-want +got):\n%s", p.base, p.param, diff)
		}
	}
}
