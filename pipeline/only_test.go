package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunOnly: with Inputs.Only, only the Applications it names write
// (the namespace "default" when they name none); observed objects are
// written all the same, and the others are still checked.
func TestRunOnly(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"apps.yaml": `apiVersion: core.oam.dev/v1beta1
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
---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: c}
spec:
  components: [{name: web-c, type: webservice, properties: {image: "img:c"}}]
`,
		"observed.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: seen, namespace: default}\n",
		"bad.yaml":      "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: bad}\nspec: {components: [{name: x}]}\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	state := func(paths []string, only map[string]bool) ([]string, error) {
		res, err := Run(context.Background(), Inputs{Paths: paths, ObservedPaths: []string{filepath.Join(dir, "observed.yaml")}, Only: only})
		if res == nil {
			return nil, err
		}
		var out []string
		for _, e := range res.Clusters.List("local") {
			out = append(out, e.Object.Kind()+" "+e.Object.Namespace()+"/"+e.Object.Name())
		}
		return out, err
	}
	apps := []string{filepath.Join(dir, "apps.yaml")}
	for _, tt := range []struct {
		only map[string]bool
		want []string
	}{
		{nil, []string{"ConfigMap default/seen", "Deployment default/web-a", "Deployment default/web-c", "Deployment team/web-b"}},
		{map[string]bool{"default/a": true, "team/b": true}, []string{"ConfigMap default/seen", "Deployment default/web-a", "Deployment team/web-b"}},
		{map[string]bool{}, []string{"ConfigMap default/seen"}},
	} {
		got, err := state(apps, tt.only)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Only %v (-want +got):\n%s", tt.only, diff)
		}
	}
	// An Application left out is still checked.
	if _, err := state(append(apps, filepath.Join(dir, "bad.yaml")), map[string]bool{"default/a": true}); err == nil {
		t.Error("an invalid Application left out by Only is not reported")
	}
}
