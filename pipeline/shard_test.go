package pipeline

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chartsource "github.com/drydock-dev/drydock/charts/source"
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
	if err := os.MkdirAll(filepath.Join(dir, "placer"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("placer/metadata.yaml", "name: placer\nversion: 1.0.0\n")
	write("placer/template.yaml", strings.Replace(policyApp, "name: p}", "name: placer}", 1))
	// A chart package whose template writes a Karmada policy, as a Helm
	// repository cache holds it.
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	for name, body := range map[string]string{
		"placed/Chart.yaml":          "apiVersion: v2\nname: placed\nversion: 1.0.0\n",
		"placed/templates/pp.yaml":   "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: o}\n",
		"placed/templates/note.yaml": "# nothing\n",
	} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	placed := write("cache/placed-1.0.0.tgz", tgz.String())
	onlyA := func(app string) bool { return app == "default/a" }
	tests := []struct {
		name       string
		paths      []string
		defs       []string
		addons     []string
		charts     []string
		want       []string
		unselected int
		whole      string
	}{
		{"split", []string{base}, nil, nil, nil, []string{"Deployment default/web-a"}, 1, ""},
		{"split, with a chart that writes no policy", []string{base}, nil, nil, []string{"testdata/charts"}, []string{"Deployment default/web-a"}, 1, ""},
		{"definition among the inputs writes a Karmada policy", []string{base, write("def-in.yaml", def)}, nil, nil, nil,
			[]string{"Deployment default/web-a", "Deployment team/web-b"}, 0,
			"ComponentDefinition placed (" + filepath.Join(dir, "def-in.yaml") + ":1:1) may write a Karmada OverridePolicy"},
		{"addon application writes a Karmada policy", []string{base}, nil, []string{filepath.Join(dir, "placer")}, nil,
			[]string{"Deployment default/web-a", "PropagationPolicy default/pp", "Deployment team/web-b"}, 0,
			"Application vela-system/addon-placer (" + filepath.Join(dir, "placer", "template.yaml") + ":1:1) may write a Karmada PropagationPolicy"},
		{"chart writes a Karmada policy", []string{base}, nil, nil, []string{filepath.Join(dir, "cache")},
			[]string{"Deployment default/web-a", "Deployment team/web-b"}, 0,
			placed + " may render a Karmada ClusterOverridePolicy (a chart or source names it)"},
		{"app writes a Karmada policy", []string{base, write("policy-app.yaml", policyApp)}, nil, nil, nil,
			[]string{"Deployment default/web-a", "PropagationPolicy default/pp", "Deployment team/web-b"}, 0,
			"Application p (" + filepath.Join(dir, "policy-app.yaml") + ":1:1) may write a Karmada PropagationPolicy"},
		{"shared resource", []string{base, write("shared.yaml", shared)}, nil, nil, nil,
			[]string{"Deployment default/web-a", "Deployment default/web-s", "Deployment team/web-b"}, 0,
			"Application s (" + filepath.Join(dir, "shared.yaml") + ":1:1) uses a shared-resource policy"},
		{"propagated dependencies", []string{base, write("deps.yaml", deps)}, nil, nil, nil,
			[]string{"Deployment default/web-a", "Deployment team/web-b"}, 0,
			"PropagationPolicy default/deps (" + filepath.Join(dir, "deps.yaml") + ":1:1) propagates dependencies"},
		{"definition writes a Karmada policy", []string{base}, []string{write("def.yaml", def)}, nil, nil,
			[]string{"Deployment default/web-a", "Deployment team/web-b"}, 0,
			"ComponentDefinition placed (" + filepath.Join(dir, "def.yaml") + ":1:1) may write a Karmada OverridePolicy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Inputs{Paths: tt.paths, DefinitionPaths: tt.defs, Select: onlyA, Charts: chartsource.Config{Charts: tt.charts}}
			for _, a := range tt.addons {
				in.Addons = append(in.Addons, Addon{Dir: a})
			}
			res, err := Run(context.Background(), in)
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
