package pipeline

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestRenderFrom: inputs read from a tree (as drydock diff reads a git
// revision) render as the same files on disk do, addons included, and
// the tree's name prefixes its file names.
func TestRenderFrom(t *testing.T) {
	render := func(in Inputs) map[string]string {
		t.Helper()
		res, err := Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := Tree(res.Clusters)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for p, data := range tree {
			out[p] = string(data)
		}
		return out
	}
	disk := render(Inputs{
		Paths:  []string{"../examples/first-vela-app.yaml", "../examples/addon-app.yaml"},
		Addons: []Addon{{Dir: "../examples/addons/team-policy"}},
	})
	from := render(Inputs{
		Paths:    []string{"first-vela-app.yaml", "addon-app.yaml"},
		Addons:   []Addon{{Dir: "addons/team-policy"}},
		From:     os.DirFS("../examples"),
		FromName: "HEAD~1:",
	})
	if diff := cmp.Diff(disk, from); diff != "" {
		t.Errorf("from a tree (-disk +tree):\n%s", diff)
	}
	if len(disk) < 3 {
		t.Errorf("the examples render %d objects", len(disk))
	}
}

func TestRenderFromErrorsNameTheTree(t *testing.T) {
	tree := fstest.MapFS{
		"apps/bad.yaml":    {Data: []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec: {components: [{name: x}]}\n")},
		"apps/.git/x.yaml": {Data: []byte("not: read\n")},
		"apps/notes.txt":   {Data: []byte("ignored")},
	}
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{"apps"}, "HEAD~1:apps/bad.yaml:4:"},
		{[]string{"missing.yaml"}, "HEAD~1:missing.yaml: file does not exist"},
	} {
		_, err := Run(context.Background(), Inputs{Paths: tc.paths, From: tree, FromName: "HEAD~1:"})
		if err == nil || !strings.Contains(manifest.Format(err, nil), tc.want) {
			t.Errorf("%v: error %v, want it to contain %q", tc.paths, err, tc.want)
		}
	}
}
