package pipeline

import (
	"context"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/builtin"
)

// TestProvenanceBundledExamples renders the bundled examples with
// provenance and checks that every leaf of every object has a recorded
// origin whose value is the leaf's and whose position names a line of a
// file that exists (builtin/ files in the embedded definitions).
func TestProvenanceBundledExamples(t *testing.T) {
	for _, in := range []Inputs{
		{Paths: []string{"../examples/first-vela-app.yaml"}},
		{Paths: []string{"../examples/vela-karmada"}, ClustersFromInputs: true},
		{Paths: []string{"../examples/addon-app.yaml"}, Addons: []Addon{{Dir: "../examples/addons/team-policy"}}},
	} {
		t.Run(in.Paths[0], func(t *testing.T) {
			in.Record.Provenance = true
			res, err := Run(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			objects, leaves := 0, 0
			lines := map[string][]string{}
			for _, c := range res.Clusters.Clusters() {
				for _, e := range res.Clusters.List(c) {
					objects++
					o := e.Object
					manifest.WalkLeaves(o.Data, func(path fieldpath.Path, v any) {
						leaves++
						chain := o.Provenance.Chain(path)
						if len(chain) == 0 {
							t.Errorf("%s %s: %s: no recorded origin", c, o.Key(), path)
							return
						}
						last := chain[len(chain)-1]
						if !reflect.DeepEqual(last.Value, v) {
							t.Errorf("%s %s: %s: last origin's value %v, field holds %v", c, o.Key(), path, last.Value, v)
						}
						for _, or := range chain {
							if !or.Pos.IsValid() {
								t.Errorf("%s %s: %s: %s origin %q has no position", c, o.Key(), path, or.Stage, or.Name)
								continue
							}
							if msg := checkLine(lines, or.Pos); msg != "" {
								t.Errorf("%s %s: %s: %s origin at %s: %s", c, o.Key(), path, or.Stage, or.Pos, msg)
							}
						}
					})
					for path := range o.Provenance {
						if _, ok := fieldpath.Get(o.Data, fieldpath.MustParse(path)); !ok {
							t.Errorf("%s %s: provenance of %s, which the object does not have", c, o.Key(), path)
						}
					}
				}
			}
			if objects == 0 || leaves == 0 {
				t.Fatalf("rendered %d objects, %d leaves", objects, leaves)
			}
			t.Logf("%d objects, %d leaves, every one with its origin", objects, leaves)
		})
	}
}

// checkLine says what is wrong with p: a file that does not exist, or a
// line past its end.
func checkLine(cache map[string][]string, p manifest.Pos) string {
	lines, ok := cache[p.File]
	if !ok {
		var data []byte
		var err error
		if name, ok := strings.CutPrefix(p.File, "builtin/"); ok {
			data, err = fs.ReadFile(builtin.FS, name)
		} else {
			data, err = os.ReadFile(p.File)
		}
		if err != nil {
			return manifest.Format(err, nil)
		}
		lines = strings.Split(string(data), "\n")
		cache[p.File] = lines
	}
	// A line 0 names the whole file (an addon's CUE definition).
	if p.Line < 0 || p.Line > len(lines) {
		return "no such line"
	}
	return ""
}

// TestPlacementUnschedulable: a template its policy cannot place (no
// member cluster) is explained, not a crash.
func TestPlacementUnschedulable(t *testing.T) {
	dir := t.TempDir()
	in := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement: {}
`
	path := dir + "/web.yaml"
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Inputs{Paths: []string{path}, Record: Record{Provenance: true, Placement: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "cannot place it") {
		t.Errorf("warnings %q: want the scheduler's refusal", res.Warnings)
	}
}
