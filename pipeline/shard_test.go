package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunSelect: Inputs.Select renders only the Applications it picks
// (Result.Unselected counts the others) unless the inputs let one
// application change another's objects: then every one renders and
// Result.Whole says what.
func TestRunSelect(t *testing.T) {
	const apps = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: a}
spec:
  components: [{name: web-a, type: webservice, properties: {image: "img:a"}}]
---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: b, namespace: team}
spec:
  components: [{name: web-b, type: webservice, properties: {image: "img:b"}}]
`
	const policyApp = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: p}
spec:
  components:
    - name: pp
      type: k8s-objects
      properties:
        objects:
          - apiVersion: policy.karmada.io/v1alpha1
            kind: PropagationPolicy
            metadata: {name: pp, namespace: default}
            spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}], placement: {}}
`
	const shared = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: s}
spec:
  components: [{name: web-s, type: webservice, properties: {image: "img:s"}}]
  policies: [{name: share, type: shared-resource, properties: {rules: [{selector: {resourceTypes: [ConfigMap]}}]}}]
`
	const deps = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: deps, namespace: default}
spec:
  propagateDeps: true
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {}
`
	const def = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: placed}
spec:
  workload: {type: autodetects.core.oam.dev}
  schematic:
    cue:
      template: |
        output: {apiVersion: "policy.karmada.io/v1alpha1", kind: "OverridePolicy", metadata: name: context.name}
`
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := write("apps.yaml", apps)
	onlyA := func(app string) bool { return app == "default/a" }
	tests := []struct {
		name       string
		paths      []string
		defs       []string
		want       []string
		unselected int
		whole      string
	}{
		{"split", []string{base}, nil, []string{"Deployment default/web-a"}, 1, ""},
		{"app writes a Karmada policy", []string{base, write("policy-app.yaml", policyApp)}, nil,
			[]string{"Deployment default/web-a", "PropagationPolicy default/pp", "Deployment team/web-b"}, 0,
			"Application p (" + filepath.Join(dir, "policy-app.yaml") + ":1:1) may write a Karmada PropagationPolicy"},
		{"shared resource", []string{base, write("shared.yaml", shared)}, nil,
			[]string{"Deployment default/web-a", "Deployment default/web-s", "Deployment team/web-b"}, 0,
			"Application s (" + filepath.Join(dir, "shared.yaml") + ":1:1) uses a shared-resource policy"},
		{"propagated dependencies", []string{base, write("deps.yaml", deps)}, nil,
			[]string{"Deployment default/web-a", "Deployment team/web-b"}, 0,
			"PropagationPolicy default/deps (" + filepath.Join(dir, "deps.yaml") + ":1:1) propagates dependencies"},
		{"definition writes a Karmada policy", []string{base}, []string{write("def.yaml", def)},
			[]string{"Deployment default/web-a", "Deployment team/web-b"}, 0,
			"ComponentDefinition placed (" + filepath.Join(dir, "def.yaml") + ":1:1) may write a Karmada OverridePolicy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run(context.Background(), Inputs{Paths: tt.paths, DefinitionPaths: tt.defs, Select: onlyA})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Clusters.List("local") {
				got = append(got, e.Object.Kind()+" "+e.Object.Namespace()+"/"+e.Object.Name())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if res.Unselected != tt.unselected {
				t.Errorf("Unselected = %d, want %d", res.Unselected, tt.unselected)
			}
			if !strings.HasPrefix(res.Whole, tt.whole) || (tt.whole == "") != (res.Whole == "") {
				t.Errorf("Whole = %q, want it to start with %q", res.Whole, tt.whole)
			}
		})
	}
	// A Select that picks no Application renders nothing, without the
	// warning of inputs that hold none.
	res, err := Run(context.Background(), Inputs{Paths: []string{base}, Select: func(string) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Unselected != 2 || len(res.Warnings) != 0 {
		t.Errorf("Unselected = %d, Warnings = %q; want 2 and none", res.Unselected, res.Warnings)
	}
}
