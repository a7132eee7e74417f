package cueval

import (
	"errors"
	"testing"

	"cuelang.org/go/cue"
	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// cacheApp is an Application with two components of definition w and
// one of v, the first with a trait t.
const cacheApp = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: a}
spec:
  components:
  - {name: one, type: w, properties: {num: 1}, traits: [{type: t}]}
  - {name: two, type: w, properties: {num: 2}}
  - {name: three, type: v}
`

// cacheDefs are w, v and t.
func cacheDefs(t *testing.T) *render.Definitions {
	t.Helper()
	defs := render.NewDefinitions()
	for _, src := range []string{
		"w: {type: \"component\"}\ntemplate: {\n\toutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: num: \"\\(parameter.num)\"}\n\tparameter: num: int\n}\n",
		"v: {type: \"component\"}\ntemplate: {\n\toutput: {apiVersion: \"v1\", kind: \"Secret\"}\n}\n",
		"t: {type: \"trait\"}\ntemplate: {\n\tpatch: metadata: labels: patched: \"yes\"\n}\n",
	} {
		ds, err := render.ParseCUEDefinitions("defs.cue", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		defs.Add(ds[0])
	}
	return defs
}

// renderAll renders every component of app and returns the objects.
func renderAll(t *testing.T, e *Engine, app *render.Application) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i := range app.Components {
		m, err := e.RenderComponent(app, &app.Components[i], Placement{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Objects() {
			out = append(out, r.Object)
		}
	}
	return out
}

func cacheTestApp(t *testing.T) *render.Application {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte(cacheApp), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	app, err := render.ParseApplication(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// TestTemplateCache: an Engine compiles each definition's template once
// per cue.Context and reuses it for every component of that type, and
// replaces the context after recycleAfter evaluations, compiling again
// into the new one; what renders does not change (DESIGN.md, house style
// 11: compile once per context; a long-lived context leaks).
func TestTemplateCache(t *testing.T) {
	app := cacheTestApp(t)
	e := New(cacheDefs(t))
	first := renderAll(t, e, app)
	if got := len(e.templates); got != 3 {
		t.Errorf("%d templates compiled for 3 definitions", got)
	}
	w := e.defs.Get(render.KindComponent, "w")
	cached := e.templates[w]
	second := renderAll(t, e, app)
	if e.templates[w] != cached {
		t.Error("template of w compiled again in the same context")
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("second render differs (-first +second):\n%s", diff)
	}
	if e.uses != 8 {
		t.Errorf("%d evaluations counted, want 8 (3 components and a trait, twice)", e.uses)
	}

	// The last component's evaluation reaches recycleAfter: its render
	// replaces the context when it ends.
	ctx := e.ctx
	e.uses = recycleAfter - 4
	renderAll(t, e, app)
	if e.ctx == ctx || len(e.templates) != 0 || e.uses != 0 {
		t.Fatalf("context not recycled after %d evaluations (templates %d, uses %d)", recycleAfter, len(e.templates), e.uses)
	}
	if diff := cmp.Diff(first, renderAll(t, e, app)); diff != "" {
		t.Errorf("render in the new context differs (-first +recycled):\n%s", diff)
	}
	if len(e.templates) != 3 {
		t.Errorf("%d templates in the new context, want 3", len(e.templates))
	}
}

// TestCompileCache: Compile compiles a source once per context, as
// templates are, and the values it returns live in Context().
func TestCompileCache(t *testing.T) {
	e := New(render.NewDefinitions())
	a := e.Compile("x: 1")
	b := e.Compile("x: 1")
	if len(e.compiled) != 1 {
		t.Errorf("%d compiled sources, want 1", len(e.compiled))
	}
	if a.Context() != e.Context() || b.Context() != e.Context() {
		t.Error("Compile's value is not of the engine's context")
	}
	if n, err := b.LookupPath(cueParse("x")).Int64(); err != nil || n != 1 {
		t.Errorf("x = %d, %v", n, err)
	}
	e.reset()
	if len(e.compiled) != 0 {
		t.Error("compiled sources survive a new context")
	}
}

// TestActivity: what the engine evaluates is readable (for a watchdog),
// named with the application, until the evaluation ends.
func TestActivity(t *testing.T) {
	e := New(render.NewDefinitions())
	if _, ok := e.Activity(); ok {
		t.Fatal("activity before any evaluation")
	}
	endApp := e.ForApplication("shop")
	done := e.Begin(manifest.Pos{File: "app.yaml", Line: 3, Col: 5}, `step "s" if`)
	got, ok := e.Activity()
	if !ok {
		t.Fatal("no activity during an evaluation")
	}
	if got.Since.IsZero() {
		t.Error("activity without a start time")
	}
	want := Activity{Pos: manifest.Pos{File: "app.yaml", Line: 3, Col: 5}, What: `application "shop": step "s" if`, Since: got.Since}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	done()
	endApp()
	if _, ok := e.Activity(); ok {
		t.Error("activity after the evaluation ended")
	}
	// A definition without a source position is located at its template.
	end := e.beginDef(&render.Definition{Kind: render.KindTrait, Name: "t", TemplateFile: "t.cue"})
	got, _ = e.Activity()
	end()
	if diff := cmp.Diff(manifest.Pos{File: "t.cue", Line: 1, Col: 1}, got.Pos); diff != "" {
		t.Errorf("position (-want +got):\n%s", diff)
	}
	if got.What != `TraitDefinition "t"` {
		t.Errorf("what = %q", got.What)
	}
}

// TestTemplateError: a template that does not compile is an error naming
// the definition and the CUE position, and wraps CUE's error.
func TestTemplateError(t *testing.T) {
	e := New(render.NewDefinitions())
	d := &render.Definition{Kind: render.KindComponent, Name: "bad", Template: "output: {\n\tx: 1 +\n}\n", TemplateFile: "bad.cue"}
	_, err := e.template(d)
	want := `ComponentDefinition "bad": template: bad.cue:3:1: expected operand, found '}'; expected '}', found 'EOF'`
	if err == nil || manifest.Format(err, nil) != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	var te *TemplateError
	if !asTemplateError(err, &te) || te.Unwrap() == nil {
		t.Error("a TemplateError does not unwrap to CUE's error")
	}
	if _, err := e.template(&render.Definition{Kind: render.KindTrait, Name: "empty"}); err == nil ||
		manifest.Format(err, nil) != `TraitDefinition "empty" has no CUE template (spec.schematic.cue.template)` {
		t.Errorf("empty template: %v", err)
	}
}

func cueParse(s string) cue.Path { return cue.ParsePath(s) }

func asTemplateError(err error, te **TemplateError) bool { return errors.As(err, te) }
