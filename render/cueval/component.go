package cueval

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/patch"
	"github.com/drydock-dev/drydock/render/revision"
)

// AuxiliaryWorkload is the trait type KubeVela gives a component
// definition's own `outputs`.
const AuxiliaryWorkload = "AuxiliaryWorkload"

// Placement is where a component is rendered: the cluster and namespace of a
// deploy target, and what the template context says about them.
type Placement struct {
	// Cluster is the target cluster; "" is the hub of a plain
	// apply-component workflow.
	Cluster string
	// Namespace overrides the application namespace for the objects
	// (topology namespace); "" keeps it.
	Namespace string
	// ClusterVersion feeds context.clusterVersion.
	ClusterVersion ClusterVersion
	// ReplicaKey feeds context.replicaKey (replication policy).
	ReplicaKey string
	// ApplyStep is true when an apply-component step renders the
	// component (not deploy): the component KubeVela hashes into
	// context.revision then has no dependsOn, inputs or outputs.
	ApplyStep bool
}

// ClusterVersion is a cluster's Kubernetes version as KubeVela reads it.
type ClusterVersion struct {
	Major, Minor, GitVersion, Platform string
}

// ParseClusterVersion reads a gitVersion such as v1.29.4 into the
// major/minor KubeVela's context.clusterVersion shows.
func ParseClusterVersion(git string) ClusterVersion {
	if git == "" {
		return ClusterVersion{}
	}
	v := ClusterVersion{GitVersion: git}
	var major, minor int
	if n, _ := fmt.Sscanf(git, "v%d.%d", &major, &minor); n == 2 {
		v.Major = fmt.Sprint(major)
		v.Minor = fmt.Sprint(minor)
	}
	return v
}

// Resource is one object a component renders, with its provenance.
type Resource struct {
	Object map[string]any
	// Component is the component name.
	Component string
	// Trait is the trait type that produced the object ("" for the
	// workload, AuxiliaryWorkload for the component definition's outputs).
	Trait string
	// Output is the key under `outputs` ("" for the workload).
	Output string
	// PostDispatch marks objects of PostDispatch-stage traits.
	PostDispatch bool
	// Policy names the policy whose definition rendered the object.
	Policy string
	// Provenance is who set each leaf of Object (with
	// Engine.RecordProvenance; nil otherwise).
	Provenance manifest.Provenance
}

// ComponentManifest is what one component renders into.
type ComponentManifest struct {
	Name        string
	Workload    *Resource
	Auxiliaries []*Resource
	// Warnings note what KubeVela's webhook would refuse but its
	// controller renders.
	Warnings []string
}

// Objects returns the workload followed by the auxiliaries.
func (m *ComponentManifest) Objects() []*Resource {
	out := []*Resource{m.Workload}
	return append(out, m.Auxiliaries...)
}

type auxiliary struct {
	typ, name    string
	obj          rendered
	postDispatch bool
	// stage is the index of the stage that output it.
	stage int
	// prov is its provenance (when traced).
	prov manifest.Provenance
}

// rendered is an object's CUE value with its JSON-model form computed at
// most once: every trait's context needs the objects rendered so far, and
// most of them do not change between traits.
//
// A patch that is plain data is merged into the JSON-model form only
// (patch.Merge) and kept in pending: the CUE value is val with the
// pending patches unified in, built (by patch.Unify, as if each had been
// applied when it came) only when something needs it.
type rendered struct {
	val     cue.Value
	pending []cue.Value
	obj     map[string]any
}

func (r *rendered) set(v cue.Value) { r.val, r.pending, r.obj = v, nil, nil }

func (r *rendered) object() (map[string]any, error) {
	if r.obj == nil {
		obj, err := toGo(r.val)
		if err != nil {
			return nil, err
		}
		r.obj = obj
	}
	return r.obj, nil
}

// value is the object's CUE value, the pending patches unified in.
func (r *rendered) value(ctx *cue.Context) (cue.Value, error) {
	for len(r.pending) > 0 {
		v, err := patch.Unify(ctx, r.val, r.pending[0])
		if err != nil {
			return v, err
		}
		r.val, r.pending = v, r.pending[1:]
	}
	return r.val, nil
}

// patch applies p to the object: merged into its data when p is plain
// data (patch.Merge), otherwise by apply (patch.Apply or patch.Unify)
// on its CUE value.
func (r *rendered) patch(ctx *cue.Context, p cue.Value, apply func(*cue.Context, cue.Value, cue.Value) (cue.Value, error)) error {
	if obj, err := r.object(); err == nil {
		if merged, ok := patch.Merge(r.val, obj, p); ok {
			r.obj = merged
			r.pending = append(r.pending, p)
			return nil
		}
	}
	base, err := r.value(ctx)
	if err != nil {
		return err
	}
	patched, err := apply(ctx, base, p)
	if err != nil {
		return err
	}
	r.set(patched)
	return nil
}

// componentRun carries one component render through its stages.
type componentRun struct {
	e       *Engine
	app     *render.Application
	comp    *render.Component
	ctxData map[string]any
	base    rendered
	aux     []auxiliary
	// stages record the render, to explain an incomplete object.
	stages []stage
	// policy is true when comp stands for a policy whose definition
	// renders (errors then name the policy).
	policy bool
	// terraform is true for a component of a terraform schematic: its
	// traits see no context.output and cannot patch it, as KubeVela
	// renders the Configuration after them (baseGenerateComponent).
	terraform bool
	// warnings note what KubeVela's webhook would refuse.
	warnings []string
	// trace and prov record the workload's provenance (nil: not asked).
	trace *tracer
	prov  manifest.Provenance
}

// RenderComponent evaluates comp's definition and its dispatch-stage traits
// for placement. PostDispatch traits are left for RenderPostDispatch, as
// KubeVela leaves them until the component is healthy.
func (e *Engine) RenderComponent(app *render.Application, comp *render.Component, pl Placement) (*ComponentManifest, error) {
	return e.renderComponent(app, comp, pl, false)
}

// RenderPostDispatch renders only comp's PostDispatch-stage traits (the
// workload is rendered again as their context, not returned).
func (e *Engine) RenderPostDispatch(app *render.Application, comp *render.Component, pl Placement) ([]*Resource, error) {
	m, err := e.renderComponent(app, comp, pl, true)
	if err != nil {
		return nil, err
	}
	var out []*Resource
	for _, a := range m.Auxiliaries {
		if a.PostDispatch {
			out = append(out, a)
		}
	}
	return out, nil
}

// HasPostDispatch reports whether comp has traits of the PostDispatch stage.
func (e *Engine) HasPostDispatch(comp *render.Component) bool {
	for _, t := range comp.Traits {
		if d := e.defs.Get(render.KindTrait, t.Type); d != nil && d.Stage == render.StagePostDispatch {
			return true
		}
	}
	return false
}

func (e *Engine) renderComponent(app *render.Application, comp *render.Component, pl Placement, post bool) (*ComponentManifest, error) {
	defer e.maybeRecycle()
	run := &componentRun{e: e, app: app, comp: comp, ctxData: baseContext(app, comp, pl)}
	rev, err := revision.ComponentRevision(comp, pl.ReplicaKey, pl.ApplyStep)
	if err != nil {
		return nil, err
	}
	run.ctxData["revision"] = rev
	if e.provenance {
		run.trace = &tracer{}
	}
	if err := run.workload(); err != nil {
		return nil, err
	}
	run.ctxData["componentType"] = comp.Type
	for i := range comp.Traits {
		t := &comp.Traits[i]
		d := e.defs.Get(render.KindTrait, t.Type)
		if d != nil && (d.Stage == render.StagePostDispatch) != post {
			continue
		}
		if err := run.trait(t); err != nil {
			return nil, err
		}
	}
	return run.manifest(pl)
}

func (r *componentRun) workload() error {
	def := r.e.defs.Get(render.KindComponent, r.comp.Type)
	if def == nil {
		return r.noDefinition()
	}
	if r.comp.Properties != nil {
		r.ctxData["parameter"] = NormalizeNumbers(r.comp.Properties)
	}
	s := r.componentSubject(def)
	var (
		v   cue.Value
		err error
	)
	switch {
	case def.Terraform != nil:
		r.terraform = true
		v, err = r.e.evaluateTerraform(def, r.comp, r.app.Namespace, r.ctxData)
	default:
		v, err = r.e.evaluateMarked(def, r.comp.Properties, r.ctxData, r.mark(s))
	}
	if err != nil {
		return r.cueErrIn(def, v, r.comp.Path, "", err)
	}
	if err := userErrors(v, "workload", r.comp.Name); err != nil {
		return r.errAt(r.comp.Path, "", err)
	}
	out := v.LookupPath(cue.ParsePath("output"))
	if !out.Exists() {
		return r.errAt(r.comp.Path.Child("type"), "", fmt.Errorf("ComponentDefinition %q: template has no output", def.Name))
	}
	if err := r.checkKind(def, out, "output", r.comp.Path, ""); err != nil {
		return err
	}
	r.base.set(out)
	if r.trace != nil {
		if obj, err := r.base.object(); err == nil {
			r.prov = r.record(out, obj, s)
		}
	}
	if err := r.collectOutputs(def, v, AuxiliaryWorkload, false, r.comp.Path, "", s); err != nil {
		return err
	}
	r.stages = append(r.stages, stage{def: def, tmpl: v, base: out})
	return nil
}

func (r *componentRun) collectOutputs(def *render.Definition, v cue.Value, typ string, post bool, path render.FieldRef, trait string, s subject) error {
	outs := v.LookupPath(cue.ParsePath("outputs"))
	if !outs.Exists() {
		return nil
	}
	it, err := outs.Fields()
	if err != nil {
		return r.cueErr(def, path, trait, err)
	}
	for it.Next() {
		name := it.Selector().Unquoted()
		if err := r.checkKind(def, it.Value(), "outputs."+it.Selector().String(), path, trait); err != nil {
			return err
		}
		if trait != "" && !post {
			r.uniqueOutput(name, path, trait)
		}
		a := auxiliary{typ: typ, name: name, obj: rendered{val: it.Value()}, postDispatch: post, stage: len(r.stages)}
		if r.trace != nil {
			if obj, err := a.obj.object(); err == nil {
				a.prov = r.record(a.obj.val, obj, s)
				if src, ok := r.e.helmSources[manifest.New(obj).Key()]; ok && r.e.helmDefs[def] {
					a.prov = manifest.ProducedBy(obj, manifest.Origin{Stage: manifest.StageHelm, Name: src})
				}
			}
		}
		r.aux = append(r.aux, a)
	}
	return nil
}

// uniqueOutput notes what KubeVela's validating webhook refuses when it
// admits the Application (ValidateCUESchematicAppfile's
// validateAuxiliaryNameUnique): a dispatch-stage trait outputting an
// object under a name the component or an earlier trait already used.
// KubeVela's controller renders such an Application (the conformance
// corpus's ex-advanced-cue-mysql-pvc, two pvc traits, expects both
// claims), so this is a warning, not an error. The webhook evaluates the
// components as authored: one an override policy changed is not checked.
func (r *componentRun) uniqueOutput(name string, path render.FieldRef, trait string) {
	if len(r.comp.Overlays) > 0 {
		return
	}
	for _, t := range r.comp.Traits {
		if len(t.Overlays) > 0 {
			return
		}
	}
	for _, a := range r.aux {
		if a.name == name && !a.postDispatch {
			r.warnings = append(r.warnings, fmt.Sprintf("%s: application %q component %q trait %q: %s: KubeVela's validating webhook refuses this Application: "+
				"cannot evaluate trait %q: cannot append auxiliaries into context: outputs item name must be unique: auxiliary %q already exits "+
				"(its controller renders it, as drydock does)", r.app.FieldPos(path), r.app.Name, r.comp.Name, trait, path, trait, name))
			return
		}
	}
}

// noDefinition is the error for a component whose type names no
// definition. The parser refuses such types in the Application, so one
// here came from an override policy: a patch naming a component the
// Application does not have adds it (KubeVela's PatchComponents,
// pkg/policy/envbinding/patch.go), with no type unless the patch gives
// one, and the deploy fails to load its definition (Parser.makeComponent
// and LoadTemplate, pkg/appfile).
func (r *componentRun) noDefinition() error {
	n := len(r.comp.Overlays)
	if n == 0 || r.app.Component(r.comp.Name) != nil {
		// An Application the parser did not admit (an addon's).
		return r.errAt(r.comp.Path.Child("type"), "", fmt.Errorf("%w: no ComponentDefinition %q", render.ErrUnknownDefinition, r.comp.Type))
	}
	msg := fmt.Sprintf("fetch component/policy type of %s: load template from component definition [%s] : workloaddefinitions.core.oam.dev %q not found"+
		" (an override policy names component %q, which the Application does not have: KubeVela adds it, of type %q)",
		r.comp.Name, r.comp.Type, r.comp.Type, r.comp.Name, r.comp.Type)
	return r.errAt(r.comp.Overlays[n-1].Child("name"), "", unknownType(msg))
}

// unknownType is an error in KubeVela's words that matches
// render.ErrUnknownDefinition.
type unknownType string

func (e unknownType) Error() string { return string(e) }

// Is makes the error match render.ErrUnknownDefinition.
func (e unknownType) Is(target error) bool { return target == render.ErrUnknownDefinition }

func (r *componentRun) trait(t *render.Trait) error {
	def := r.e.defs.Get(render.KindTrait, t.Type)
	if def == nil {
		return r.errAt(t.Path.Child("type"), t.Type, fmt.Errorf("%w: no TraitDefinition %q", render.ErrUnknownDefinition, t.Type))
	}
	if strings.TrimSpace(def.Template) == "" {
		// A TraitDefinition with a definitionRef and no template (the
		// webhook admits it): KubeVela's parser loads an empty template
		// (pkg/appfile/template.go loadSchematicToTemplate) and the trait's
		// Complete (pkg/cue/definition/template.go) compiles only the
		// parameter and context: no output, outputs or patch, nothing renders.
		return nil
	}
	ctxData, err := r.traitContext(def, t)
	if err != nil {
		return err
	}
	s := subject{def: def, stage: manifest.StageTrait, name: t.Type, path: t.Path, overlays: t.Overlays}
	v, err := r.e.evaluateMarked(def, t.Properties, ctxData, r.mark(s))
	if err != nil {
		return r.cueErrIn(def, v, t.Path, t.Type, err)
	}
	if err := r.collectOutputs(def, v, t.Type, def.Stage == render.StagePostDispatch, t.Path, t.Type, s); err != nil {
		return err
	}
	if p := v.LookupPath(cue.ParsePath("patch")); p.Exists() && r.terraform {
		return r.errAt(t.Path, t.Type, fmt.Errorf("patch trait %s into an invalid workload", t.Type))
	} else if p.Exists() {
		// The context's output is the object before the patch.
		before, _ := ctxData["output"].(map[string]any)
		if err := r.base.patch(r.e.ctx, p, patch.Apply); err != nil {
			return r.cueErr(def, t.Path, t.Type, fmt.Errorf("patch workload: %w", err))
		}
		if r.prov != nil {
			if after, err := r.base.object(); err == nil {
				r.recordPatch(r.prov, before, after, p, s)
			}
		}
	}
	if po := v.LookupPath(cue.ParsePath("patchOutputs")); po.Exists() {
		for i := range r.aux {
			target := po.LookupPath(cue.MakePath(cue.Str(r.aux[i].name)))
			if !target.Exists() {
				continue
			}
			var before map[string]any
			if r.aux[i].prov != nil {
				before, _ = r.aux[i].obj.object()
			}
			if err := r.aux[i].obj.patch(r.e.ctx, target, patch.Unify); err != nil {
				return r.cueErr(def, t.Path, t.Type, fmt.Errorf("patch outputs.%s: %w", r.aux[i].name, err))
			}
			if before != nil {
				if after, err := r.aux[i].obj.object(); err == nil {
					po := s
					po.stage = manifest.StagePatchOutputs
					r.recordPatch(r.aux[i].prov, before, after, target, po)
				}
			}
		}
	}
	if err := userErrors(v, "trait", t.Type); err != nil {
		return r.errAt(t.Path, t.Type, err)
	}
	// A stage's base is what culprit looks up incomplete fields in: val
	// without the pending patches, which are concrete data and which
	// only patch a concrete object, looks the same to it.
	r.stages = append(r.stages, stage{trait: t, def: def, tmpl: v, base: r.base.val})
	return nil
}

// traitContext is the component context plus the rendered objects so far.
// The objects are computed only when the template reads them or
// provenance compares the output before and after the patch.
func (r *componentRun) traitContext(def *render.Definition, t *render.Trait) (map[string]any, error) {
	ctxData := make(map[string]any, len(r.ctxData)+2)
	for k, v := range r.ctxData {
		ctxData[k] = v
	}
	use := r.e.contextUse(def)
	switch {
	case !use.reads("output") && r.prov == nil:
		// The output must still be concrete, as toGo checks.
		if _, err := r.base.object(); err != nil {
			// The error is concrete's when it fails (toGo checks it first).
			if err := concrete(r.base.val); err != nil {
				return nil, r.cueErr(def, t.Path, t.Type, fmt.Errorf("context.output: %w", err))
			}
		}
	default:
		out, err := r.base.object()
		if err != nil {
			return nil, r.cueErr(def, t.Path, t.Type, fmt.Errorf("context.output: %w", err))
		}
		if !r.terraform {
			ctxData["output"] = out
		}
	}
	if len(r.aux) > 0 {
		outs := map[string]any{}
		for i := range r.aux {
			a := &r.aux[i]
			o, err := a.obj.object()
			if err != nil {
				return nil, r.cueErr(def, t.Path, t.Type, fmt.Errorf("context.outputs.%s: %w", a.name, err))
			}
			outs[a.name] = o
		}
		if use.reads("outputs") {
			ctxData["outputs"] = outs
		}
	}
	return ctxData, nil
}

// userErrors is KubeVela's check of a template's `errs` (for components
// and traits alike): a list of strings that is not empty fails the render
// with all of them; an `errs` that is not a list of strings is ignored, as
// KubeVela only logs it.
func userErrors(v cue.Value, kind, name string) error {
	errs := v.LookupPath(cue.ParsePath("errs"))
	if !errs.Exists() {
		return nil
	}
	var msgs []string
	if errs.Decode(&msgs) != nil || len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("validation failed for %s %s: User Errors: %s", kind, name, strings.Join(msgs, "; "))
}

// manifest turns the final CUE values into objects with KubeVela's labels.
func (r *componentRun) manifest(pl Placement) (*ComponentManifest, error) {
	m := &ComponentManifest{Name: r.comp.Name, Warnings: r.warnings}
	wl, err := r.base.object()
	if err != nil {
		return nil, r.incompleteErr(err, -1, "output")
	}
	m.Workload = &Resource{Object: wl, Component: r.comp.Name, Provenance: r.prov}
	for i := range r.aux {
		a := &r.aux[i]
		obj, err := a.obj.object()
		if err != nil {
			return nil, r.incompleteErr(err, a.stage, "outputs."+a.name)
		}
		m.Auxiliaries = append(m.Auxiliaries, &Resource{Object: obj, Component: r.comp.Name, Trait: a.typ, Output: a.name, PostDispatch: a.postDispatch, Provenance: a.prov})
	}
	var before []map[string]any
	if r.trace != nil {
		before = metadataSnapshots(m)
	}
	setContract(r.app, r.comp, m, pl)
	if r.trace != nil {
		r.recordContract(m, before)
	}
	return m, nil
}
