// Package workflow renders an Application by emulating what KubeVela's
// controller does with it: the parser's admission checks, the steps
// (its own, those of the Workflow it refers to, or the ones KubeVela
// generates), run in dependency order with their conditions, inputs and
// outputs: deploy, apply-component, step-group, suspend, apply-object and
// read-object natively, every other type from its WorkflowStepDefinition
// (render/stepexec, with the workflow as the host of its providers); then
// the PostDispatch traits. Run is the entry point; its result is every
// write to a cluster, in order.
//
// It owns the order and the data flow, not what a component renders into
// (render/cueval) nor what a policy does to placements and components
// (render/policy; override policies: overrides/kubevela). It never
// reaches a cluster: what already exists is read from Options.Observed.
package workflow

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
	"github.com/drydock-dev/drydock/render/revision"
)

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
	// Resources are the Application's resource policies, decoded.
	Resources *resourcekeeper.Resources
	// Suspended is true when the workflow stopped at a suspend step
	// (Options.StopAtSuspend): it has not succeeded, so KubeVela
	// garbage-collects nothing of earlier revisions yet.
	Suspended bool
	// Terminated is true when a step terminated the workflow
	// (builtin.#Break): later steps do not run.
	Terminated bool
}

// service is a component applied somewhere: PostDispatch traits follow it.
type service struct {
	comp *render.Component
	pl   cueval.Placement
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
	// KubeVersion is the Kubernetes version ("1.30", "v1.30.2") templates
	// see as context.clusterVersion on clusters whose inventory gives
	// none; "" leaves their version unknown, as an unreachable cluster's
	// is to KubeVela.
	KubeVersion string
	// Charts is the chart cache KubeVela's helm provider (the helmchart
	// component's helm.#Render) renders charts from; nil refuses them.
	Charts *source.Cache
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
	// stepTypes are the types of the steps in ran.
	stepTypes map[string]string
	e         *cueval.Engine
	defs      *render.Definitions
	app       *render.Application
	inv       *cluster.Inventory
	res       *AppResult
	services  []service
	// writers are the producers of the objects written, by cluster and
	// key (noteOverlap).
	writers map[string]producer
	// crds caches observedResources.
	crds []resourceKind
	// referred are the objects ref-objects components refer to
	// (KubeVela's Appfile.ReferredObjects).
	referred []map[string]any
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
	// The helm provider reads valuesFrom on the hub as it is when the
	// component renders: the workflow's writes so far over the observed.
	e.SetHelm(cueval.Helm{Charts: opts.Charts, Hub: func(key manifest.Key) (map[string]any, bool) {
		return run.current(cluster.Local, key)
	}, KubeVersion: run.clusterVersion(cluster.Local).GitVersion})
	defer e.SetHelm(cueval.Helm{})
	run.noSpec()
	steps, err := run.admit()
	if err != nil {
		return nil, err
	}
	if err := run.revisionHash(steps); err != nil {
		return nil, err
	}
	if run.res.Resources, err = resourcekeeper.ResourcePolicies(app); err != nil {
		return nil, err
	}
	if err := run.renderPolicies(); err != nil {
		return nil, err
	}
	err = run.steps(steps)
	run.res.Warnings = run.warnings
	if errors.Is(err, errSuspended) {
		run.res.Suspended = true
		run.stateKeep()
		return run.res, nil
	}
	if errors.Is(err, errTerminated) {
		// a terminated workflow has not succeeded: no PostDispatch
		run.res.Terminated = true
		return run.res, nil
	}
	if err != nil {
		return nil, err
	}
	if err := run.postDispatch(); err != nil {
		return nil, err
	}
	run.stateKeep()
	return run.res, nil
}

// revisionHash sets the application-revision hash KubeVela computes once
// the parser has read the Application (PrepareCurrentAppRevision).
func (w *workflowRun) revisionHash(steps []render.WorkflowStep) error {
	h, err := revision.AppRevisionHash(revision.Inputs{App: w.app, Definitions: w.defs, Steps: steps,
		Workflow: w.wf, ExternalPolicies: w.external, ReferredObjects: w.referred})
	if err != nil {
		return err
	}
	w.app.SetRevisionHash(h)
	return nil
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
			w.finish(&s, false)
			continue
		}
		result, err := w.step(&s)
		if err != nil {
			return err
		}
		if result == nil {
			result = map[string]any{}
		}
		if _, ok := result["parameter"]; !ok {
			result["parameter"] = s.Properties
		}
		if _, ok := result["context"]; !ok {
			result["context"] = w.stepContext(s.Name)
		}
		w.stepOutputs(s.Outputs, result, owner)
		w.finish(&s, true)
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
		return w.applyComponent(s)
	case "deploy":
		return nil, w.deploy(s)
	case "apply-object":
		return w.applyObject(s)
	case "read-object":
		return w.readObject(s)
	}
	return w.fromDefinition(s)
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
			Unify(w.e.Compile("parameter: duration?: string"))
		return w.stepErr(s, fieldpath.New("properties", "duration"), render.CUEMessage(param.Validate()))
	}
	if d == "" {
		return nil
	}
	if _, err := time.ParseDuration(d); err != nil {
		return w.stepErr(s, fieldpath.New("properties", "duration"), fmt.Sprintf("failed to parse duration %s: %v", d, err))
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
