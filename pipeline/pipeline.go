// Package pipeline runs drydock's main job: load the inputs, render every
// Application through the workflow emulation, reconcile the writes into the
// fake clusters, and return their final state.
//
// It is the only package that knows the order of the stages; each stage's
// logic lives in its own package.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/workflow"
)

// ErrInput is wrapped by every error about unreadable or invalid input.
var ErrInput = errors.New("bad input")

// inputError marks err as bad input without changing its message, which
// starts with the position of the problem.
func inputError(err error) error { return &inputErr{err} }

type inputErr struct{ err error }

func (e *inputErr) Error() string   { return e.err.Error() }
func (e *inputErr) Unwrap() []error { return []error{ErrInput, e.err} }

// Inputs are what a render reads.
type Inputs struct {
	// Paths are files or directories (recursive) of inputs; "-" is Stdin.
	Paths []string
	Stdin io.Reader
	// DefinitionPaths supply definitions (-d); they replace built-ins of
	// the same kind and name.
	DefinitionPaths []string
	// ClusterPaths supply the cluster inventory (--clusters).
	ClusterPaths []string
	// NoBuiltins leaves drydock's embedded definitions out.
	NoBuiltins bool
	// Workers bounds parallel application renders (0: GOMAXPROCS).
	Workers int
	// ObservedPaths preload objects into the fake clusters before the
	// render (the cluster named by their app.oam.dev/cluster label, else
	// local): the actual state the render's writes are reconciled onto.
	ObservedPaths []string
	// Workflow steers the workflow emulation.
	Workflow workflow.Options
	// Addons are installed into the hub before anything renders: their
	// definitions serve the Applications, their own Application renders
	// with the others.
	Addons []Addon
	// Limits bound the CUE evaluations (zero: none).
	Limits Limits
}

// Result is the final state of every fake cluster and how it came about.
type Result struct {
	Clusters *cluster.Store
	Apps     []*workflow.AppResult
	// Warnings are notes about inputs that produced nothing.
	Warnings []string
}

// Run renders inputs. With in.Limits set, a CUE evaluation that outlives
// its time limit or a heap past the memory limit stops the run at once
// with an error wrapping ErrLimit and ErrInput (see Limits).
func Run(ctx context.Context, in Inputs) (*Result, error) {
	return bounded(ctx, in.Limits, func(ctx context.Context, wd *watchdog) (*Result, error) { return run(ctx, in, wd) })
}

func run(ctx context.Context, in Inputs, wd *watchdog) (*Result, error) {
	var l loaded
	if err := readPaths(in.Paths, in.Stdin, &l); err != nil {
		return nil, err
	}
	var extra, given loaded
	if err := readPaths(in.DefinitionPaths, nil, &extra); err != nil {
		return nil, err
	}
	if err := extra.only("-d", "a definition (ComponentDefinition, TraitDefinition, PolicyDefinition or WorkflowStepDefinition)", false, true); err != nil {
		return nil, err
	}
	if err := readPaths(in.ClusterPaths, nil, &given); err != nil {
		return nil, err
	}
	if err := given.only("--clusters", "a cluster.karmada.io Cluster", true, false); err != nil {
		return nil, err
	}
	if len(in.ClusterPaths) > 0 && len(given.clusters) == 0 {
		return nil, inputError(fmt.Errorf("--clusters %s: no cluster.karmada.io Cluster object", strings.Join(in.ClusterPaths, ", ")))
	}
	inv, err := inventory(append(given.clusters, l.clusters...))
	if err != nil {
		return nil, err
	}
	installed, err := installAddons(in.Addons, inv, wd)
	if err != nil {
		return nil, err
	}
	defs, err := definitions(in.NoBuiltins, extra.defs, installed.defs, l.defs)
	if err != nil {
		return nil, err
	}
	l.apps = append(installed.apps, l.apps...)
	// Karmada policies are checked before anything renders.
	templates, props, ovs, err := karmadaPolicies(l.resources, asAuthored)
	if err != nil {
		return nil, err
	}
	apps, err := parseApps(l.apps)
	if err != nil {
		return nil, err
	}
	var observed loaded
	if err := readPaths(in.ObservedPaths, nil, &observed); err != nil {
		return nil, err
	}
	res := &Result{Clusters: cluster.NewStore()}
	if err := preload(res.Clusters, inv, observed.resources); err != nil {
		return nil, err
	}
	for _, e := range installed.hub {
		if err := res.Clusters.Apply(cluster.Local, e); err != nil {
			return nil, inputError(err)
		}
	}
	// Renders only read the observed state; reconcile writes after all of
	// them have finished.
	opts := in.Workflow
	opts.Observed = res.Clusters
	if opts.Workflows, opts.Policies, err = hubObjects(&l); err != nil {
		return nil, err
	}
	results, err := renderAll(ctx, defs, inv, apps, in.Workers, opts, wd)
	if err != nil {
		return nil, err
	}
	res.Apps = results
	for _, r := range results {
		res.Warnings = append(res.Warnings, r.Warnings...)
	}
	for _, r := range results {
		if err := reconcile(res.Clusters, r); err != nil {
			return nil, inputError(err)
		}
	}
	if len(templates) > 0 || len(props) > 0 || len(ovs) > 0 {
		cp := &controlPlane{members: inv.Members(""), templates: templates, props: props, ovs: ovs, inContext: asAuthored}
		for _, t := range templates {
			cp.sources = append(cp.sources, "template "+t.Pos.String())
			cp.origins = append(cp.origins, cluster.Origin{Pos: t.Pos})
			cp.owners = append(cp.owners, "input "+t.Pos.String())
		}
		warnings, err := propagate(ctx, res.Clusters, cp, in.Workers)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
	}
	for _, name := range inv.ControlPlanes() {
		warnings, err := propagateDispatched(ctx, res.Clusters, inv, name, in.Workers)
		if err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
	}
	if len(apps) == 0 && len(templates) == 0 {
		res.Warnings = append(res.Warnings, "no Application or resource template among the inputs: nothing rendered")
	}
	return res, nil
}

// hubObjects indexes the Workflow and Policy objects among the inputs by
// namespace/name; the API server keeps one of each.
func hubObjects(l *loaded) (map[string]*render.Workflow, map[string]*render.Policy, error) {
	workflows := map[string]*render.Workflow{}
	for _, wf := range l.workflows {
		key := wf.Namespace + "/" + wf.Name
		if first, dup := workflows[key]; dup {
			return nil, nil, inputError(manifest.At(wf.Object.FieldPos("metadata.name"), "Workflow %s is also defined at %s", key, first.Object.FieldPos("metadata.name")))
		}
		workflows[key] = wf
	}
	policies := map[string]*render.Policy{}
	for _, p := range l.policies {
		ns := p.Object.Namespace()
		if ns == "" {
			ns = "default"
		}
		key := ns + "/" + p.Name
		if first, dup := policies[key]; dup {
			return nil, nil, inputError(manifest.At(p.Object.FieldPos("metadata.name"), "Policy %s is also defined at %s", key, first.Object.FieldPos("metadata.name")))
		}
		policies[key] = p
	}
	return workflows, policies, nil
}

// parseApps parses Applications, refusing two of one namespace and name.
func parseApps(objs []*manifest.Object) ([]*render.Application, error) {
	apps := make([]*render.Application, len(objs))
	defined := map[string]*render.Application{}
	var errs []error
	for i, o := range objs {
		var err error
		if apps[i], err = render.ParseApplication(o); err != nil {
			errs = append(errs, err)
			continue
		}
		key := apps[i].Namespace + "/" + apps[i].Name
		if first, dup := defined[key]; dup {
			errs = append(errs, manifest.At(o.FieldPos("metadata.name"), "Application %s is also defined at %s: the API server keeps one Application per namespace and name", key, first.Object.FieldPos("metadata.name")))
			continue
		}
		defined[key] = apps[i]
	}
	if len(errs) > 0 {
		return nil, inputError(manifest.Join(errs...))
	}
	return apps, nil
}

// propagateDispatched runs Karmada on what the workflow left in a control
// plane cluster: its policies and templates, for its members. Rendered
// objects have no position of their own: errors about them point at what
// produced them and name it.
func propagateDispatched(ctx context.Context, store *cluster.Store, inv *cluster.Inventory, name string, workers int) ([]string, error) {
	entries := store.List(name)
	objs := make([]*manifest.Object, 0, len(entries))
	byObject := map[*manifest.Object]cluster.Entry{}
	for _, e := range entries {
		if !e.Object.Pos.IsValid() {
			e.Object.Pos = e.Origin.Pos
		}
		objs = append(objs, e.Object)
		byObject[e.Object] = e
	}
	where := func(o *manifest.Object, err error) error {
		e := byObject[o]
		if e.Source == "" {
			return err
		}
		return fmt.Errorf("%w (dispatched to Karmada control plane %q by %s)", err, name, e.Source)
	}
	templates, props, ovs, err := karmadaPolicies(objs, where)
	if err != nil {
		return nil, err
	}
	cp := &controlPlane{name: name, members: inv.Members(name), templates: templates, props: props, ovs: ovs, inContext: where}
	for _, t := range templates {
		cp.sources = append(cp.sources, byObject[t].Source)
		cp.origins = append(cp.origins, byObject[t].Origin)
		cp.owners = append(cp.owners, byObject[t].Owner)
	}
	return propagate(ctx, store, cp, workers)
}

// inventory builds the cluster inventory from Cluster objects and checks
// that every control plane a member names exists.
func inventory(objs []*manifest.Object) (*cluster.Inventory, error) {
	inv := cluster.NewInventory()
	var errs []error
	for _, o := range objs {
		errs = append(errs, inv.Add(o))
	}
	if err := manifest.Join(errs...); err != nil {
		return nil, inputError(err)
	}
	for _, c := range inv.Clusters() {
		if _, ok := inv.Get(c.ControlPlane); c.ControlPlane != "" && !ok {
			return nil, inputError(manifest.At(c.Source, "Cluster %q: annotation %s names cluster %q, which is not in the inventory", c.Name, cluster.AnnotationControlPlane, c.ControlPlane))
		}
	}
	return inv, nil
}

// definitions merges built-ins, -d definitions and input definitions, each
// later set replacing same-named earlier ones.
func definitions(noBuiltins bool, sets ...[]*render.Definition) (*render.Definitions, error) {
	defs := render.NewDefinitions()
	if !noBuiltins {
		b, err := Builtins()
		if err != nil {
			return nil, err
		}
		defs = b.Clone()
	}
	for _, set := range sets {
		for _, d := range set {
			defs.Add(d)
		}
	}
	return defs, nil
}

var (
	builtinOnce sync.Once
	builtinDefs *render.Definitions
	builtinErr  error
)

// Builtins returns drydock's embedded definitions (parsed once).
func Builtins() (*render.Definitions, error) {
	builtinOnce.Do(func() {
		builtinDefs = render.NewDefinitions()
		entries, err := fs.ReadDir(builtin.FS, ".")
		if err != nil {
			builtinErr = err
			return
		}
		for _, e := range entries {
			data, err := fs.ReadFile(builtin.FS, e.Name())
			if err != nil {
				builtinErr = err
				return
			}
			ds, err := render.ParseCUEDefinitions("builtin/"+e.Name(), data)
			if err != nil {
				builtinErr = fmt.Errorf("built-in definition: %w", err)
				return
			}
			for _, d := range ds {
				builtinDefs.Add(d)
			}
		}
	})
	return builtinDefs, builtinErr
}

// renderAll renders applications in parallel, one engine (one cue.Context)
// per worker, and returns results in input order.
func renderAll(ctx context.Context, defs *render.Definitions, inv *cluster.Inventory, apps []*render.Application, workers int, opts workflow.Options, wd *watchdog) ([]*workflow.AppResult, error) {
	results := make([]*workflow.AppResult, len(apps))
	errs := make([]error, len(apps))
	newEngine := func() *cueval.Engine {
		e := cueval.New(defs)
		wd.watch(e)
		return e
	}
	parallel(ctx, len(apps), workers, newEngine, func(e *cueval.Engine, i int) {
		results[i], errs[i] = workflow.Run(e, apps[i], inv, opts)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var bad []error
	for _, err := range errs {
		var re *render.Error
		switch {
		case errors.As(err, &re) || errors.Is(err, render.ErrInvalidApplication):
			bad = append(bad, err)
		case err != nil:
			return nil, err
		}
	}
	if len(bad) > 0 { // every application's error, not only the first
		return nil, inputError(manifest.Join(bad...))
	}
	return results, nil
}

// preload writes observed objects into the fake clusters. They are
// first gathered with each document as the owner of its object, so that
// Store.Apply refuses two documents giving one object (naming both) as it
// refuses two owners; in the actual state they have no owner, since the
// render's writes replace them.
func preload(store *cluster.Store, inv *cluster.Inventory, objs []*manifest.Object) error {
	given := cluster.NewStore()
	for _, o := range objs {
		target := o.Labels()[render.LabelAppCluster]
		if target == "" {
			target = cluster.Local
		}
		if _, ok := inv.Get(target); !ok {
			return inputError(manifest.At(o.Pos, "observed %s: cluster %q is not in the inventory", o.Key(), target))
		}
		e := cluster.Entry{Object: o, Source: "observed " + o.Pos.String(), Origin: cluster.Origin{Pos: o.Pos}, Owner: "observed input " + o.Pos.String()}
		if err := given.Apply(target, e); err != nil {
			return inputError(err)
		}
	}
	for _, c := range given.Clusters() {
		for _, e := range given.List(c) {
			e.Owner = ""
			if err := store.Apply(c, e); err != nil {
				return inputError(err)
			}
		}
	}
	return nil
}

// reconcile applies an application's writes, in workflow order, to the
// fake clusters; the application owns what it writes.
func reconcile(store *cluster.Store, r *workflow.AppResult) error {
	owner := fmt.Sprintf("application %s/%s", r.App.Namespace, r.App.Name)
	for _, w := range r.Writes {
		e := cluster.Entry{Object: manifest.New(w.Resource.Object), Source: source(r.App, w), Origin: origin(r.App, w), Owner: owner}
		var me *cluster.MetaError
		if err := cluster.ValidateMeta(e.Object); errors.As(err, &me) {
			e.Origin.Pos = metaValuePos(r.App, w, me, e.Origin.Pos)
		}
		if err := store.Apply(w.Cluster, e); err != nil {
			return err
		}
	}
	return nil
}

func source(app *render.Application, w workflow.Write) string {
	parts := []string{"application " + app.Name}
	if w.Resource.Policy != "" {
		parts = append(parts, "policy "+w.Resource.Policy)
	} else if w.Resource.Component != "" {
		parts = append(parts, "component "+w.Resource.Component)
	}
	switch {
	case w.Resource.Trait == cueval.AuxiliaryWorkload:
		parts = append(parts, "output "+w.Resource.Output)
	case w.Resource.Trait != "":
		t := "trait " + w.Resource.Trait
		if w.Resource.Output != "" {
			t += " (" + w.Resource.Output + ")"
		}
		parts = append(parts, t)
	}
	if w.Step != "" {
		parts = append(parts, "step "+w.Step)
	}
	if len(w.Policies) > 0 && w.Resource.Policy == "" {
		ps := append([]string(nil), w.Policies...)
		parts = append(parts, "policies "+strings.Join(ps, ","))
	}
	return strings.Join(parts, ", ")
}

// SortedWarnings returns the result's warnings in a stable order.
func (r *Result) SortedWarnings() []string {
	out := append([]string(nil), r.Warnings...)
	sort.Strings(out)
	return out
}

// Tree is the output tree of the objects in store: every cluster's
// objects at their canonical paths.
func Tree(store *cluster.Store) (golden.Tree, error) {
	tree := golden.Tree{}
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			if err := tree.Add(c, e.Object); err != nil {
				return nil, err
			}
		}
	}
	return tree, nil
}
