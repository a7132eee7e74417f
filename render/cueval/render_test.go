package cueval_test

import (
	"io/fs"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/workflow"
)

var (
	builtinOnce sync.Once
	builtinSet  *render.Definitions
	builtinErr  error
)

// builtinDefinitions parses drydock's embedded definitions once.
func builtinDefinitions(t *testing.T) *render.Definitions {
	t.Helper()
	builtinOnce.Do(func() {
		builtinSet = render.NewDefinitions()
		builtinErr = fs.WalkDir(builtin.FS, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(builtin.FS, path)
			if err != nil {
				return err
			}
			ds, err := render.ParseCUEDefinitions("builtin/"+path, data)
			for _, d := range ds {
				builtinSet.Add(d)
			}
			return err
		})
	})
	if builtinErr != nil {
		t.Fatal(builtinErr)
	}
	return builtinSet
}

// renderDoc renders the first Application in doc (app.yaml) through its
// workflow with the built-in definitions and those in doc, and returns
// the error ("" for none) and the warnings.
func renderDoc(t *testing.T, doc string) (string, []string) {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defs := builtinDefinitions(t).Clone()
	var app *render.Application
	for _, o := range objs {
		switch {
		case render.IsDefinitionKind(o.Kind()):
			var d *render.Definition
			if d, err = render.DefinitionFromObject(o); err == nil {
				defs.Add(d)
			}
		case o.Kind() == "Application" && app == nil:
			app, err = render.ParseApplication(o)
		}
		if err != nil {
			return manifest.Format(err, nil), nil
		}
	}
	res, err := workflow.Run(cueval.New(defs), app, cluster.NewInventory(), workflow.Options{})
	if err != nil {
		return manifest.Format(err, nil), nil
	}
	return "", res.Warnings
}

// TestTraitWithoutTemplate: a TraitDefinition KubeVela admits with a
// definitionRef and no template renders nothing and leaves the workload
// as it was, whatever its properties.
func TestTraitWithoutTemplate(t *testing.T) {
	ref := &render.Definition{Kind: render.KindTrait, Name: "manualscaler"}
	app := parseApp(t, "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n"+
		"  - {name: web, type: webservice, properties: {image: nginx}, traits: [{type: manualscaler, properties: {replicaCount: 2}}]}\n")
	with, err := renderFirst(t, withDefs(t, ref), app, cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	app.Components[0].Traits = nil
	without, err := renderFirst(t, withDefs(t), app, cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(without.Workload.Object, with.Workload.Object); diff != "" {
		t.Errorf("workload (-without trait +with):\n%s", diff)
	}
	if len(with.Auxiliaries) != 0 {
		t.Errorf("%d outputs, want none", len(with.Auxiliaries))
	}
}
