package cueval_test

import (
	"errors"
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
func builtinDefinitions(t testing.TB) *render.Definitions {
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

// TestNoDefinition: a component whose type names no definition. One an
// override policy added (the Application does not have it) fails in
// KubeVela's words at the patch; another (an addon's Application, which
// the parser did not admit) names the missing definition. Both match
// render.ErrUnknownDefinition.
func TestNoDefinition(t *testing.T) {
	app := parseApp(t, "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - {name: web, type: nope}\n")
	added := render.Component{Name: "wbe", Path: render.AppField("spec", "policies", 0)}
	added.AddOverlay(render.AppField("spec", "policies", 0, "properties", "components", 0))
	tests := []struct {
		name string
		comp *render.Component
		want string
	}{
		{"unknown type", &app.Components[0], `app.yaml:6:23: application "a" component "web": unknown type: no ComponentDefinition "nope"`},
		{"added by an override", &added, `app.yaml:5:3: application "a" component "wbe": fetch component/policy type of wbe: load template from component definition [] : ` +
			`workloaddefinitions.core.oam.dev "" not found (an override policy names component "wbe", which the Application does not have: KubeVela adds it, of type "")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := cueval.New(withDefs(t)).RenderComponent(app, tt.comp, cueval.Placement{})
			if !errors.Is(err, render.ErrUnknownDefinition) {
				t.Errorf("error %v does not match ErrUnknownDefinition", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
