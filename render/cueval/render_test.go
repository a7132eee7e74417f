package cueval_test

import (
	"sync"
	"testing"

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
		for _, name := range builtin.Names() {
			d, err := builtin.Parse(name)
			if err != nil {
				builtinErr = err
				return
			}
			builtinSet.Add(d)
		}
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
