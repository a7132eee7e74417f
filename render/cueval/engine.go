// Package cueval is drydock's CUE engine: it compiles definition
// templates once per cue.Context and evaluates them with KubeVela's
// `context` and the authored parameters, to render one component (its
// workload, auxiliary outputs and trait patches, labelled by the OAM
// contract) or one policy defined by a PolicyDefinition for a placement.
// Errors point at the property or template line that caused them.
//
// It does not decide what renders where or in which order (that is
// render/workflow, with render/policy), and it applies trait patches
// through render/patch. An Engine belongs to one goroutine.
package cueval

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Engine evaluates definition templates. It owns one cue.Context and
// compiles each template once into it. An Engine is not safe for concurrent
// use: give each goroutine its own.
type Engine struct {
	defs      *render.Definitions
	ctx       *cue.Context
	templates map[*render.Definition]cue.Value
	orders    map[*render.Definition]orderCache
	// compiled are the sources Compile compiled into ctx.
	compiled map[string]cue.Value
	uses     int
	// provenance makes renders record where each field came from;
	// paramSpans caches the lines of each template's parameter
	// declarations for it.
	provenance bool
	paramSpans map[*render.Definition][][2]int
	// forClauses caches each template's for clauses (provenance).
	forClauses map[*render.Definition][]forClause
	act        activity
	// helm is what templates importing vela/helm render charts with
	// (SetHelm); helmDefs are the definitions whose template imports it.
	helm     Helm
	helmDefs map[*render.Definition]bool
	// helmRenders are the releases rendered with helm, by chart,
	// release, context and values: $returns.resources.
	helmRenders map[string]helmRelease
	// helmSources name the chart template of each object the releases
	// rendered (provenance).
	helmSources map[manifest.Key]string
	// ctxUse is which context fields each template reads.
	ctxUse map[*render.Definition]contextUse
}

// recycleAfter bounds how many components one cue.Context evaluates before
// it is replaced: what a context interns (labels, Compile's values) is never
// freed with it alive. A new context compiles its templates again (the CLI
// benchmarks' webservice and scaler: 26,000 allocations, three renders'
// worth), and a component's evaluation costs no more in an old context
// than in a new one (after 1,000 evaluations into one, its heap in use is
// the same and an evaluation no slower): 128 spends a quarter of 32's
// compiles (BenchmarkRenderWebservice: 8,443 -> 7,823 allocs/op).
const recycleAfter = 128

// New returns an engine for the given definitions.
func New(defs *render.Definitions) *Engine {
	e := &Engine{defs: defs}
	e.reset()
	return e
}

func (e *Engine) reset() {
	e.ctx = cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2))
	e.templates = map[*render.Definition]cue.Value{}
	e.orders = map[*render.Definition]orderCache{}
	e.compiled = map[string]cue.Value{}
	e.uses = 0
}

// RecordProvenance makes the engine's renders record, per leaf of every
// object, the stages that set it (Resource.Provenance). It costs time;
// it is off by default.
func (e *Engine) RecordProvenance(on bool) { e.provenance = on }

// Definitions returns the definitions the engine renders with.
func (e *Engine) Definitions() *render.Definitions { return e.defs }

// Context is the engine's cue.Context, for the CUE a workflow evaluates
// besides templates (step conditions, outputs, step parameters). A value
// built in it is good until the engine's next render of a component or
// policy, which may replace the context.
func (e *Engine) Context() *cue.Context { return e.ctx }

// Compile returns src compiled into the engine's context, compiling it
// once per context, as templates are. The value is good as long as one
// from Context.
func (e *Engine) Compile(src string) cue.Value {
	v, ok := e.compiled[src]
	if !ok {
		v = e.ctx.CompileString(src)
		e.compiled[src] = v
	}
	return v
}

// template returns d's compiled template, compiling it on first use. On
// a compile error it returns what was compiled too, to locate an error
// that CUE reports without a position.
func (e *Engine) template(d *render.Definition) (cue.Value, error) {
	if v, ok := e.templates[d]; ok {
		return v, nil
	}
	if strings.TrimSpace(d.Template) == "" {
		return cue.Value{}, fmt.Errorf("%s %q has no CUE template (spec.schematic.cue.template)", d.Kind, d.Name)
	}
	helm, err := checkImports(d)
	if err != nil {
		return cue.Value{}, err
	}
	src := d.RenderedTemplate() + "\ncontext: _\nparameter: _\n"
	var v cue.Value
	if helm {
		v = e.compileWithHelm(d, src)
		if e.helmDefs == nil {
			e.helmDefs = map[*render.Definition]bool{}
		}
		e.helmDefs[d] = true
	} else if sv, ok := e.compileStatic(d, src); ok {
		v = sv
	} else {
		v = e.ctx.CompileString(src, cue.Filename(d.TemplateFile))
	}
	if err := v.Err(); err != nil {
		// v locates an error CUE gives no position (a structural cycle).
		return v, &TemplateError{Def: d, Err: err}
	}
	e.templates[d] = v
	return v, nil
}

// compileStatic compiles a component's template with its static part
// apart (compileSplit); ok is false for other templates, and for one
// compileSplit declines.
func (e *Engine) compileStatic(d *render.Definition, src string) (cue.Value, bool) {
	if d.Kind != render.KindComponent {
		return cue.Value{}, false
	}
	return compileSplit(e.ctx, d.TemplateFile, src)
}

// TemplateError is a definition template that does not compile.
type TemplateError struct {
	Def *render.Definition
	Err error
}

// Error names the definition and shows the CUE error at its position.
func (e *TemplateError) Error() string {
	return fmt.Sprintf("%s %q: template: %s", e.Def.Kind, e.Def.Name, manifest.Format(render.PositionedCUE(e.Err), nil))
}

// Unwrap returns Err.
func (e *TemplateError) Unwrap() error { return e.Err }

// checkImports rejects imports that only mean something under `cue cmd`,
// and KubeVela's provider packages (vela/*), which a component, trait or
// policy template could only call on a live controller: drydock runs
// them in workflow steps (render/stepexec), not while rendering a
// component. The exception is vela/helm, which the built-in helmchart
// imports: a component's template renders its chart offline (helm.go);
// helm reports whether d imports it.
func checkImports(d *render.Definition) (helm bool, err error) {
	f, err := parser.ParseFile(d.TemplateFile, d.RenderedTemplate(), parser.ImportsOnly)
	if err != nil {
		return false, &TemplateError{Def: d, Err: err}
	}
	for _, spec := range f.Imports {
		path := strings.Trim(spec.Path.Value, `"`)
		if path == "tool" || strings.HasPrefix(path, "tool/") {
			return false, manifest.At(render.TokenPos(spec.Pos()), "%s %q: template imports %q: tool/* packages only work under `cue cmd`", d.Kind, d.Name, path)
		}
		if path == helmImport && d.Kind == render.KindComponent {
			helm = true
			continue
		}
		if path == "vela" || strings.HasPrefix(path, "vela/") {
			return false, manifest.At(render.TokenPos(spec.Pos()), "%s %q: template imports %q: KubeVela's provider packages run in workflow steps; drydock does not call them while rendering a %s", d.Kind, d.Name, path, strings.TrimSuffix(d.Kind, "Definition"))
		}
	}
	return helm, nil
}

// evaluateMarked unifies a compiled template with parameter and context
// values, each parameter leaf positioned by mark (nil: none) for
// provenance.
func (e *Engine) evaluateMarked(d *render.Definition, params map[string]any, context map[string]any, mark func(at fieldpath.Path) token.Pos) (cue.Value, error) {
	defer e.beginDef(d)()
	tmpl, err := e.template(d)
	if err != nil {
		return tmpl, err
	}
	e.uses++
	// One unification: evaluating the template once with both values is
	// half the work of unifying them one after the other.
	fill := map[string]any{"context": e.readable(d, context)}
	var bad *cue.Value
	if params != nil {
		decl := tmpl.LookupPath(cue.ParsePath("parameter"))
		order := e.orders[d]
		if order == nil {
			order = orderCache{}
			e.orders[d] = order
		}
		f := &filler{order: order, mark: mark}
		pv := e.ctx.BuildExpr(f.expr(decl, NormalizeNumbers(params), "", nil))
		if pv.Err() == nil {
			// Encoded with the context, the parameter's value is taken as
			// it is: filling it into the encoded context (FillPath)
			// evaluated both again.
			fill["parameter"] = pv
		} else {
			// Encoding a value with an error would make the whole fill
			// that error: filled in, it is reported where it was.
			bad = &pv
		}
	}
	fv := e.ctx.Encode(fill)
	if bad != nil {
		fv = fv.FillPath(cue.ParsePath("parameter"), *bad)
	}
	v := tmpl.Unify(fv)
	if e.helmDefs[d] {
		if v, err = e.resolveHelm(d, v); err != nil {
			return v, err
		}
	}
	if err := v.Validate(); err != nil {
		return v, err
	}
	return v, nil
}

// maybeRecycle drops the cue.Context once it has served enough renders.
// Call it only between renders (no cue.Value of the old context in use).
func (e *Engine) maybeRecycle() {
	if e.uses >= recycleAfter {
		e.reset()
	}
}

// NormalizeNumbers returns v (the JSON data model) with whole floats
// turned into ints, as a trip through JSON does in KubeVela (1.0 in YAML
// is 1 in the stored Application): what a value needs before it meets
// CUE, which refuses a float where a template says int. v is not changed.
func NormalizeNumbers(v any) any { return manifest.WholeNumbers(v, 1<<53) }

// toGo converts a concrete CUE value to the JSON data model (ints as int64).
func toGo(v cue.Value) (map[string]any, error) {
	if err := concrete(v); err != nil {
		return nil, err
	}
	data, err := v.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return decodeJSONObject(data)
}

// concrete is toGo's check that v is concrete data.
func concrete(v cue.Value) error { return v.Validate(cue.Concrete(true), cue.Final()) }
