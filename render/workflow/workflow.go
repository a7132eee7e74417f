// Package workflow renders an Application by emulating what KubeVela's
// controller does with it: the parser's admission checks, the steps
// (its own, those of the Workflow it refers to, or the ones KubeVela
// generates), run in dependency order with their conditions, inputs and
// outputs: deploy, apply-component, step-group, suspend, apply-object and
// read-object; then the PostDispatch traits. Run is the entry point; its
// result is every write to a cluster, in order.
//
// It owns the order and the data flow, not what a component renders into
// (render/cueval) nor what a policy does to placements and components
// (render/policy). It never reaches a cluster: what already exists is
// read from Options.Observed.
package workflow

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/policy"
)

// ErrUnsupportedStep is wrapped when a workflow uses a step type drydock
// cannot emulate offline.
var ErrUnsupportedStep = errors.New("unsupported workflow step")

// Write is one object a workflow step writes to a cluster: the desired
// state a reconcile applies to the fake cluster.
type Write struct {
	// Cluster is the inventory name of the target ("local" for the hub).
	Cluster  string
	Resource *cueval.Resource
	// Step is the workflow step that wrote the object ("" after the
	// workflow: PostDispatch traits).
	Step string
	// Policies are the deploy policies that placed it, in order.
	Policies []string
}

// AppResult is everything an application's workflow writes, in order.
type AppResult struct {
	App    *render.Application
	Writes []Write
	// Trace records the workflow step by step.
	Trace []string
	// Warnings note what KubeVela does without an error that a user would
	// not expect (it drops components, for one).
	Warnings []string
}

// service is a component applied somewhere: PostDispatch traits follow it.
type service struct {
	comp *render.Component
	pl   cueval.Placement
	step string
}

// Options steer the workflow emulation.
type Options struct {
	// StopAtSuspend ends the workflow at the first suspend step (or deploy
	// with auto: false) instead of treating it as resumed.
	StopAtSuspend bool
	// Observed is what the clusters already hold (ref-objects components
	// and read-object steps read it); nil means empty clusters.
	Observed Observed
	// Workflows and Policies are the hub's core.oam.dev/v1alpha1 Workflow
	// and Policy objects by namespace/name: what spec.workflow.ref and a
	// deploy step's external policies name.
	Workflows map[string]*render.Workflow
	Policies  map[string]*render.Policy
}

// Observed is read access to the clusters' state before the render
// (*cluster.Store satisfies it).
type Observed interface {
	Get(cluster string, key manifest.Key) (cluster.Entry, bool)
	List(cluster string) []cluster.Entry
}

// errSuspended ends a workflow at a suspend step.
var errSuspended = errors.New("workflow suspended")

type workflowRun struct {
	opts Options
	// wf is the Workflow object whose steps run (spec.workflow.ref).
	wf *render.Workflow
	// external are the Policy objects top-level deploy steps name.
	external []*render.Policy
	// warnings note what KubeVela does silently.
	warnings []string
	vars     map[string]any
	ran      map[string]bool
	e        *cueval.Engine
	defs     *render.Definitions
	app      *render.Application
	inv      *cluster.Inventory
	res      *AppResult
	services []service
}

// Run renders app by emulating its workflow (its own, the Workflow it
// refers to, or the one KubeVela generates) with engine e, and returns
// every write it makes, in order. Refusals of KubeVela's parser wrap
// render.ErrInvalidApplication; other errors about the input are
// *render.Error. A workflow stopped at a suspend step (Options) is a
// result, not an error.
func Run(e *cueval.Engine, app *render.Application, inv *cluster.Inventory, opts Options) (*AppResult, error) {
	defer e.ForApplication(app.Name)()
	run := &workflowRun{opts: opts, e: e, defs: e.Definitions(), app: app, inv: inv, res: &AppResult{App: app}, ran: map[string]bool{}}
	steps, err := run.admit()
	if err != nil {
		return nil, err
	}
	if err := policy.CheckResourcePolicies(app); err != nil {
		return nil, err
	}
	if err := run.renderPolicies(); err != nil {
		return nil, err
	}
	err = run.steps(steps)
	run.res.Warnings = run.warnings
	if errors.Is(err, errSuspended) {
		return run.res, nil
	}
	if err != nil {
		return nil, err
	}
	if err := run.postDispatch(); err != nil {
		return nil, err
	}
	return run.res, nil
}

// generateSteps is KubeVela's step generator chain after the ref one:
// the existing steps if any; else one deploy per topology policy (with
// every override), or a single deploy for overrides only; else the
// env-binding policies' deploy2env steps; else one apply-component step
// per component.
func (w *workflowRun) generateSteps(existing []render.WorkflowStep) ([]render.WorkflowStep, error) {
	if len(existing) > 0 {
		return existing, nil
	}
	if steps := generateDeploySteps(w.app); len(steps) > 0 {
		return steps, nil
	}
	steps, err := w.generateEnvBindingSteps()
	if err != nil || len(steps) > 0 {
		return steps, err
	}
	return generateApplySteps(w.app), nil
}

// generateDeploySteps is KubeVela's DeployWorkflowStepGenerator.
func generateDeploySteps(app *render.Application) []render.WorkflowStep {
	var topologies, overrides []any
	for _, p := range app.Policies {
		switch p.Type {
		case "topology":
			topologies = append(topologies, p.Name)
		case "override":
			overrides = append(overrides, p.Name)
		}
	}
	var steps []render.WorkflowStep
	for _, t := range topologies {
		pols := append(append([]any{}, overrides...), t)
		steps = append(steps, render.WorkflowStep{Name: "deploy-" + t.(string), Type: "deploy", Properties: map[string]any{"policies": pols}})
	}
	hasRef := false
	for _, c := range app.Components {
		hasRef = hasRef || c.Type == "ref-objects"
	}
	if len(topologies) == 0 && (len(overrides) > 0 || hasRef) {
		steps = append(steps, render.WorkflowStep{Name: "deploy", Type: "deploy", Properties: map[string]any{"policies": overrides}})
	}
	return steps
}

// generateEnvBindingSteps is KubeVela's Deploy2EnvWorkflowStepGenerator:
// a deploy2env step per env of each env-binding policy.
func (w *workflowRun) generateEnvBindingSteps() ([]render.WorkflowStep, error) {
	var steps []render.WorkflowStep
	for i := range w.app.Policies {
		p := &w.app.Policies[i]
		if p.Type != "env-binding" || p.Properties == nil {
			continue
		}
		var spec policy.EnvBindingSpec
		if err := render.DecodeLoose(p.Properties, &spec); err != nil {
			return nil, w.admitErr(render.JoinField(p.Path+".properties", render.ErrorPath(p.Properties, err)), fmt.Sprintf("policy %q", p.Name),
				"failed to parseWorkflowSteps: %s: %v", generatorFailed, err)
		}
		for _, env := range spec.Envs {
			steps = append(steps, render.WorkflowStep{Name: "deploy-" + p.Name + "-" + env.Name, Type: "deploy2env", Path: p.Path,
				Properties: map[string]any{"policy": p.Name, "env": env.Name}})
		}
	}
	return steps, nil
}

// generateApplySteps is KubeVela's ApplyComponentWorkflowStepGenerator:
// one apply-component step per component.
func generateApplySteps(app *render.Application) []render.WorkflowStep {
	var steps []render.WorkflowStep
	producer := map[string]string{}
	for _, c := range app.Components {
		for _, o := range c.Outputs {
			producer[o.Name] = c.Name
		}
	}
	for _, c := range app.Components {
		// A step whose inputs are not produced yet waits for them.
		deps := append([]string(nil), c.DependsOn...)
		for _, in := range c.Inputs {
			if p, ok := producer[strings.SplitN(in.From, ".", 2)[0]]; ok && p != c.Name && !slices.Contains(deps, p) {
				deps = append(deps, p)
			}
		}
		steps = append(steps, render.WorkflowStep{Name: c.Name, Type: "apply-component", DependsOn: deps, Path: c.Path,
			Properties: map[string]any{"component": c.Name}, FromComponent: true})
	}
	return steps
}

// steps runs a list of steps (or sub-steps) in dependency order.
func (w *workflowRun) steps(steps []render.WorkflowStep) error {
	ordered, err := w.orderSteps(steps)
	if err != nil {
		return err
	}
	for _, authored := range ordered {
		owner := fmt.Sprintf("step %q", authored.Name)
		props, inputs, err := w.withInputs(authored.Properties, authored.Inputs, owner, authored.Path)
		if err != nil {
			return err
		}
		s := *authored
		s.Properties = props
		run, err := w.shouldRun(&s, inputs)
		if err != nil {
			return err
		}
		if !run {
			w.tracef("step %s (%s): skipped (if %s)", s.Name, s.Type, s.If)
			w.ran[s.Name] = false
			continue
		}
		result, err := w.step(&s)
		if err != nil {
			return err
		}
		if result == nil {
			result = map[string]any{}
		}
		result["parameter"] = s.Properties
		if err := w.evalOutputs(s.Outputs, result, owner); err != nil {
			return err
		}
		w.ran[s.Name] = true
	}
	return nil
}

// step runs one step; the result is the scope its outputs' valueFrom
// expressions see (besides `parameter`).
func (w *workflowRun) step(s *render.WorkflowStep) (map[string]any, error) {
	w.tracef("step %s (%s)", s.Name, s.Type)
	switch s.Type {
	case "step-group":
		return nil, w.steps(s.SubSteps)
	case "suspend":
		if err := w.suspendDuration(s); err != nil {
			return nil, err
		}
		return nil, w.suspend(s.Name)
	case "apply-component":
		return nil, w.applyComponent(s)
	case "deploy":
		return nil, w.deploy(s)
	case "apply-object":
		return w.applyObject(s)
	case "read-object":
		return w.readObject(s)
	case "deploy2env":
		return nil, &render.Error{Pos: w.pos(s.Path), App: w.app.Name,
			Err: fmt.Errorf("%w: step %q of type %q: the deprecated env-binding policy's deploy2env step is not emulated by drydock; "+
				"KubeVela replaced env-binding with topology and override policies, which drydock renders", ErrUnsupportedStep, s.Name, s.Type)}
	}
	return nil, &render.Error{Pos: w.pos(s.Path + ".type"), App: w.app.Name,
		Err: fmt.Errorf("%w: step %q of type %q", ErrUnsupportedStep, s.Name, s.Type)}
}

// warnf records a warning once.
func (w *workflowRun) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !slices.Contains(w.warnings, msg) {
		w.warnings = append(w.warnings, msg)
	}
}

func (w *workflowRun) tracef(format string, args ...any) {
	w.res.Trace = append(w.res.Trace, fmt.Sprintf(format, args...))
}

// suspendDuration checks a suspend step's duration as the step does
// (kubevela/workflow pkg/providers/builtin/workspace.go Suspend): its
// template's parameter.duration is a string, and the provider fails on
// one time.ParseDuration refuses, so the step never completes.
func (w *workflowRun) suspendDuration(s *render.WorkflowStep) error {
	v, ok := s.Properties["duration"]
	if !ok || v == nil {
		return nil
	}
	d, ok := v.(string)
	if !ok {
		param := w.e.Context().Encode(map[string]any{"parameter": map[string]any{"duration": cueval.NormalizeNumbers(v)}}).
			Unify(w.e.Context().CompileString("parameter: duration?: string"))
		return w.stepErr(s, "properties.duration", render.CUEMessage(param.Validate()))
	}
	if d == "" {
		return nil
	}
	if _, err := time.ParseDuration(d); err != nil {
		return w.stepErr(s, "properties.duration", fmt.Sprintf("failed to parse duration %s: %v", d, err))
	}
	return nil
}

// suspend stops the workflow, or records that it is taken as resumed.
func (w *workflowRun) suspend(step string) error {
	if w.opts.StopAtSuspend {
		w.tracef("  suspended at %s: stopping (--stop-at-suspend)", step)
		return errSuspended
	}
	w.tracef("  suspended at %s: taken as resumed", step)
	return nil
}

func (w *workflowRun) applyComponent(s *render.WorkflowStep) error {
	name := manifest.String(s.Properties, "component")
	comp := w.app.Component(name)
	if comp == nil {
		return w.stepErr(s, "properties.component", fmt.Sprintf("component %q not found", name))
	}
	pl := cueval.Placement{Cluster: manifest.String(s.Properties, "cluster"), Namespace: manifest.String(s.Properties, "namespace")}
	if pl.Cluster != "" {
		if err := w.checkCluster(pl.Cluster, s.Path+".properties.cluster", fmt.Sprintf("step %q", s.Name)); err != nil {
			return err
		}
	}
	return w.apply(comp, pl, s.Name, nil)
}

func (w *workflowRun) checkCluster(name, path, who string) error {
	if _, ok := w.inv.Get(name); !ok {
		return &render.Error{Pos: w.pos(path), App: w.app.Name,
			Err: fmt.Errorf("%s: cluster %q is not in the inventory", who, name)}
	}
	return nil
}

// apply renders comp for a placement and records the writes. The
// component's inputs are filled first and its outputs evaluated over what
// it rendered (`output`, `outputs.<name>`).
func (w *workflowRun) apply(comp *render.Component, pl cueval.Placement, step string, policies []string) error {
	owner := fmt.Sprintf("component %q", comp.Name)
	props, _, err := w.withInputs(comp.Properties, comp.Inputs, owner, comp.Path)
	if err != nil {
		return err
	}
	if len(comp.Inputs) > 0 {
		c := *comp
		c.Properties = props
		comp = &c
	}
	if comp.Type == "ref-objects" {
		if comp, err = w.refObjects(comp); err != nil {
			return err
		}
	}
	target := pl.Cluster
	if target == "" {
		target = cluster.Local
	}
	pl.ClusterVersion = w.clusterVersion(target)
	m, err := w.e.RenderComponent(w.app, comp, pl)
	if err != nil {
		return err
	}
	for _, r := range m.Objects() {
		w.write(r, step, policies)
	}
	for _, msg := range m.Warnings {
		w.warnf("%s", msg)
	}
	if w.e.HasPostDispatch(comp) {
		w.services = append(w.services, service{comp: comp, pl: pl, step: step})
	}
	if len(comp.Outputs) > 0 {
		outs := map[string]any{}
		for _, a := range m.Auxiliaries {
			if a.Output != "" {
				outs[a.Output] = a.Object
			}
		}
		scope := map[string]any{"output": m.Workload.Object, "outputs": outs}
		if err := w.evalOutputs(comp.Outputs, scope, owner); err != nil {
			return err
		}
	}
	return nil
}

// write records a rendered object for the cluster its app.oam.dev/cluster
// label names (the hub when it has none).
func (w *workflowRun) write(r *cueval.Resource, step string, policies []string) {
	target := manifest.String(r.Object, "metadata", "labels", render.LabelAppCluster)
	if target == "" {
		target = cluster.Local
	}
	w.writeTo(target, r, step, policies)
}

func (w *workflowRun) writeTo(target string, r *cueval.Resource, step string, policies []string) {
	w.res.Writes = append(w.res.Writes, Write{Cluster: target, Resource: r, Step: step, Policies: policies})
	ns := manifest.String(r.Object, "metadata", "namespace")
	if ns == "" {
		ns = "_cluster"
	}
	w.tracef("  write %s/%s %s %s", target, ns, manifest.String(r.Object, "kind"), manifest.String(r.Object, "metadata", "name"))
}

// postDispatch renders PostDispatch traits of every applied component, as
// KubeVela does once the workflow has succeeded and components are healthy.
func (w *workflowRun) postDispatch() error {
	if len(w.services) > 0 {
		w.tracef("post-dispatch traits")
	}
	for _, s := range w.services {
		orig := w.app.Component(s.comp.Name)
		rs, err := w.e.RenderPostDispatch(w.app, orig, s.pl)
		if err != nil {
			return err
		}
		for _, r := range rs {
			w.write(r, "", nil)
		}
	}
	return nil
}

func (w *workflowRun) clusterVersion(name string) cueval.ClusterVersion {
	c, ok := w.inv.Get(name)
	if !ok {
		return cueval.ClusterVersion{}
	}
	return cueval.ParseClusterVersion(c.KubernetesVersion)
}
