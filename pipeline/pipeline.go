// Package pipeline runs drydock's main job: load the inputs, render every
// Application through the workflow emulation, reconcile the writes into the
// fake clusters, and return their final state (Run) or hand each object to
// a sink as soon as its application is rendered (Stream, whose memory does
// not grow with the number of applications).
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
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/policy"
	"github.com/drydock-dev/drydock/render/workflow"
)

// ErrInput is wrapped by every error about unreadable or invalid input.
var ErrInput = errors.New("bad input")

// inputError marks err as bad input without changing its message, which
// starts with the position of the problem.
func inputError(err error) error { return manifest.Mark(ErrInput, err) }

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
	// Definitions, when set, are the definitions LoadDefinitions loaded,
	// used in place of DefinitionPaths and NoBuiltins: many renders with
	// one set read and parse it once.
	Definitions *render.Definitions
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
	// Trace keeps each application's workflow, step by step (Result.Traces).
	Trace bool
	// Validate, when set, checks every object the render writes as the
	// API server of its cluster would (Result.Findings).
	Validate *Validation
	// Status evaluates every component's health and status message as
	// KubeVela's controller would (Result.Statuses), against the objects
	// as --observed gives them.
	Status bool
	// Provenance records, for every leaf of every object written, the
	// stages that set it (manifest.Object.Provenance): what drydock
	// explain shows and findings point with. It costs time.
	Provenance bool
	// Placement explains where each object went (Result.Placements).
	Placement bool
	// Progress, when set, is called after each application is rendered
	// with the number rendered and the total (from one goroutine).
	Progress func(done, total int)
	// Exclude are glob patterns (path.Match) of files a directory holds
	// that are not inputs, matched against the file's slash path and its
	// name ("examples/*", "*.tmpl.yaml").
	Exclude []string
	// Skip are files and directories under the input directories that a
	// directory's walk leaves out, compared by real path: drydock's own
	// output (an --output-dir, golden trees, the file stdout goes to),
	// which the next render must not read back as input. A directory
	// holding golden.OwnershipFile (drydock wrote it) is left out too,
	// also in From. A path named in the lists above is read all the same.
	Skip []string
	// From, when set, is the tree every path above is read from (slash
	// paths; stdin is not read), such as a git revision's; FromName
	// prefixes its file names in messages and positions ("HEAD~1:").
	From     fs.FS
	FromName string
	// BaseRevisions are the revision hashes of the Applications as last
	// rendered (a base's Result.RevisionHashes), by namespace/name: an
	// Application whose hash differs renders as KubeVela's next revision
	// (<name>-v2), one that is the same as the first.
	BaseRevisions map[string]string
	// Applications fills Result.Resources, RevisionHashes and Suspended
	// (what drydock diff reconciles with), which a plain render does not
	// keep: memory that would grow with the number of applications.
	Applications bool
}

// files is where in's paths are read from.
// ReadPaths are the files and directories a render of in reads (stdin
// left out): inputs, definitions, inventory, observed objects, CRDs and
// addon directories.
func (in *Inputs) ReadPaths() []string {
	lists := [][]string{in.Paths, in.DefinitionPaths, in.ClusterPaths, in.ObservedPaths}
	if in.Validate != nil {
		lists = append(lists, in.Validate.CRDPaths)
	}
	var out []string
	for _, p := range slices.Concat(lists...) {
		if p != "-" {
			out = append(out, p)
		}
	}
	for _, a := range in.Addons {
		out = append(out, a.Dir)
	}
	return out
}

func (in *Inputs) files() files {
	return files{fsys: in.From, name: in.FromName, exclude: in.Exclude, skip: in.Skip}
}

// Result is how a render went: the final state of every fake cluster
// (from Run) and what the render noticed.
type Result struct {
	// Clusters is the final state of every fake cluster (nil from Stream,
	// whose sink received it).
	Clusters *cluster.Store
	// Applications counts the Applications rendered.
	Applications int
	// Traces are the applications' workflows step by step, in input order
	// (with Inputs.Trace).
	Traces []Trace
	// Warnings are notes about inputs that produced nothing.
	Warnings []string
	// Resources are the resource policies (garbage-collect, read-only,
	// ...) of every Application rendered, by namespace/name: what decides
	// which of its objects KubeVela deletes when it changes. It, and
	// RevisionHashes and Suspended, are filled with Inputs.Applications.
	Resources map[string]*policy.Resources
	// RevisionHashes identify the Applications' revisions (their spec and
	// the definitions of the types they name, which KubeVela's revision
	// hash covers), by namespace/name: a later render's
	// Inputs.BaseRevisions.
	RevisionHashes map[string]string
	// Suspended names (namespace/name) the Applications whose workflow
	// stopped at a suspend step (Workflow.StopAtSuspend).
	Suspended map[string]bool
	// Works are what Karmada leaves in members without dispatching, and
	// what it keeps when a Work goes.
	Works Works
	// Findings are what validating the written objects found
	// (Inputs.Validate), in cluster and object order.
	Findings []Finding
	// Statuses are the components' health and status (Inputs.Status), in
	// input order.
	Statuses []ComponentStatus
	// Placements explain where objects went (Inputs.Placement), by
	// PlacementKey of the cluster and object that holds it.
	Placements map[string]*propagation.Explanation
}

// Trace is one application's workflow, step by step.
type Trace struct {
	// Application is namespace/name.
	Application string
	Lines       []string
}

// Run renders inputs and returns the final state of every fake cluster in
// Result.Clusters. With in.Limits set, a CUE evaluation that outlives its
// time limit or a heap past the memory limit stops the run at once with
// an error wrapping ErrLimit and ErrInput (see Limits).
func Run(ctx context.Context, in Inputs) (*Result, error) {
	return bounded(ctx, in.Limits, func(ctx context.Context, wd *watchdog) (*Result, error) { return run(ctx, in, nil, wd) })
}

// Stream renders inputs as Run does, but hands every object of the fake
// clusters to sink as it is written instead of keeping them: the objects
// already in the clusters (--observed, addons) first, then each
// application's writes in input order as soon as it is rendered, then
// what Karmada propagates. The calls come from one goroutine and their
// order does not depend on the number of workers; a later object of the
// same cluster and key replaces an earlier one, and Run's final state is
// what remains. Memory stays flat in the number of applications: only
// the objects' keys (and the Karmada control planes' objects, which
// propagation reads) are kept.
//
// When Stream returns an error, what the sink received is incomplete and
// must be discarded. An error of the sink stops the run and is returned as
// it is (it is not bad input).
func Stream(ctx context.Context, in Inputs, sink cluster.Sink) (*Result, error) {
	return bounded(ctx, in.Limits, func(ctx context.Context, wd *watchdog) (*Result, error) { return run(ctx, in, sink, wd) })
}

// guardedSink passes objects to the caller's sink and remembers its first
// error, which ends the run.
type guardedSink struct {
	sink cluster.Sink
	err  error
}

func (g *guardedSink) Put(c string, e cluster.Entry) error {
	if g.err == nil {
		g.err = g.sink.Put(c, e)
	}
	return g.err
}

// failed returns the sink's error, if any.
func (g *guardedSink) failed() error {
	if g == nil {
		return nil
	}
	return g.err
}

func run(ctx context.Context, in Inputs, sink cluster.Sink, wd *watchdog) (*Result, error) {
	var l loaded
	if err := in.files().readPaths(in.Paths, in.Stdin, &l); err != nil {
		return nil, err
	}
	given := in.Definitions
	if given == nil {
		var err error
		if given, err = in.files().definitions(in.DefinitionPaths, in.NoBuiltins); err != nil {
			return nil, err
		}
	}
	var inventoried loaded
	if err := in.files().readPaths(in.ClusterPaths, nil, &inventoried); err != nil {
		return nil, err
	}
	if err := inventoried.only("--clusters", "a cluster.karmada.io Cluster", true, false); err != nil {
		return nil, err
	}
	if len(in.ClusterPaths) > 0 && len(inventoried.clusters) == 0 {
		return nil, inputError(fmt.Errorf("--clusters %s: no cluster.karmada.io Cluster object", strings.Join(in.ClusterPaths, ", ")))
	}
	inv, err := inventory(append(inventoried.clusters, l.clusters...))
	if err != nil {
		return nil, err
	}
	installed, err := installAddons(in.files(), in.Addons, inv, wd)
	if err != nil {
		return nil, err
	}
	defs := given.Clone()
	for _, d := range slices.Concat(installed.defs, l.defs) {
		defs.Add(d)
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
	if err := in.files().readPaths(in.ObservedPaths, nil, &observed); err != nil {
		return nil, err
	}
	if in.Provenance {
		authoredProvenance(l.resources, observed.resources, installed.hub)
	}
	// The actual state before the render: what renders read.
	actual := cluster.NewStore()
	if err := preload(actual, inv, observed.resources); err != nil {
		return nil, err
	}
	for _, e := range installed.hub {
		if err := actual.Apply(cluster.Local, e); err != nil {
			return nil, inputError(err)
		}
	}
	opts := in.Workflow
	opts.Observed = actual
	if opts.Workflows, opts.Policies, err = hubObjects(&l); err != nil {
		return nil, err
	}
	// The final state, from the actual state on.
	res := &Result{Applications: len(apps)}
	var out *cluster.Store
	var guard *guardedSink
	var check *validator
	if in.Validate != nil {
		crds, err := in.crds(&l, &observed, installed.hub)
		if err != nil {
			return nil, err
		}
		if check, err = newValidator(*in.Validate, inv, crds); err != nil {
			return nil, err
		}
	}
	switch {
	case sink == nil && check == nil:
		out = cluster.NewStore()
		res.Clusters = out
	case sink == nil:
		out = cluster.NewStreamingStore(check, func(string) bool { return true })
		res.Clusters = out
	default:
		guard = &guardedSink{sink: sink}
		controlPlanes := map[string]bool{}
		for _, name := range inv.ControlPlanes() {
			controlPlanes[name] = true
		}
		var next cluster.Sink = guard
		if check != nil {
			check.next, next = guard, check
		}
		out = cluster.NewStreamingStore(next, func(c string) bool { return controlPlanes[c] })
	}
	for _, c := range actual.Clusters() {
		for _, e := range actual.List(c) {
			if err := out.Apply(c, e); err != nil {
				return nil, err // only the sink's: actual accepted e
			}
		}
	}
	r := renderAll(ctx, defs, inv, apps, &in, opts, wd, out)
	if err := r.err(ctx, guard); err != nil {
		return nil, err
	}
	res.Warnings, res.Traces, res.Resources, res.RevisionHashes, res.Suspended = r.warnings, r.traces, r.resources, r.hashes, r.suspended
	res.Statuses = r.statuses
	if in.Placement {
		res.Placements = map[string]*propagation.Explanation{}
	}
	if len(templates) > 0 || len(props) > 0 || len(ovs) > 0 {
		cp := &controlPlane{members: inv.Members(""), templates: templates, props: props, ovs: ovs, inContext: asAuthored, plainToHub: len(apps) == 0, placements: res.Placements}
		for _, t := range templates {
			cp.sources = append(cp.sources, "template "+t.Pos.String())
			cp.origins = append(cp.origins, cluster.Origin{Pos: t.Pos})
			cp.owners = append(cp.owners, "input "+t.Pos.String())
		}
		warnings, err := propagate(ctx, out, cp, in.Workers, &res.Works)
		if err := firstError(guard.failed(), err); err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
	}
	for _, name := range inv.ControlPlanes() {
		warnings, err := propagateDispatched(ctx, out, inv, name, in.Workers, res)
		if err := firstError(guard.failed(), err); err != nil {
			return nil, err
		}
		res.Warnings = append(res.Warnings, warnings...)
	}
	res.Warnings = slices.Concat(res.Warnings, l.notes, inventoried.notes, observed.notes)
	if len(apps) == 0 && len(templates) == 0 {
		res.Warnings = append(res.Warnings, "no Application or resource template among the inputs: nothing rendered")
	}
	if check != nil {
		res.Findings = append(r.props, check.result()...)
		res.Warnings = append(res.Warnings, check.notes...)
	}
	return res, nil
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// hubObjects indexes the Workflow and Policy objects among the inputs by
// namespace/name; the API server keeps one of each.
func hubObjects(l *loaded) (map[string]*render.Workflow, map[string]*render.Policy, error) {
	workflows := map[string]*render.Workflow{}
	for _, wf := range l.workflows {
		key := wf.Namespace + "/" + wf.Name
		if first, dup := workflows[key]; dup {
			return nil, nil, inputError(manifest.At(wf.Object.FieldPos(fieldpath.New("metadata", "name")), "Workflow %s is also defined at %s", key, first.Object.FieldPos(fieldpath.New("metadata", "name"))))
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
			return nil, nil, inputError(manifest.At(p.Object.FieldPos(fieldpath.New("metadata", "name")), "Policy %s is also defined at %s", key, first.Object.FieldPos(fieldpath.New("metadata", "name"))))
		}
		policies[key] = p
	}
	return workflows, policies, nil
}

// appSource is an Application to render: parsed, or the document it is
// parsed from again when its turn comes, so that the inputs' objects are
// not all held in memory at once. It is parsed once when read, to report
// what is wrong with it before anything renders.
type appSource struct {
	app *render.Application
	doc *manifest.Document
	// err is why the Application does not parse.
	err error
	// pos is where the Application starts, key its key, namePos where it
	// is named.
	pos     manifest.Pos
	key     manifest.Key
	namePos manifest.Pos
}

// newAppSource parses the Application o and keeps its document (when o
// decodes from it alone) or the parsed Application.
func newAppSource(o *manifest.Object) appSource {
	src := appSource{pos: o.Pos, key: o.Key(), namePos: o.FieldPos(fieldpath.New("metadata", "name"))}
	app, err := render.ParseApplication(o)
	switch doc, alone := o.Document(); {
	case err != nil:
		src.err = err
	case alone:
		src.doc = doc
	default:
		src.app = app
	}
	return src
}

// load returns the parsed Application.
func (a appSource) load() (*render.Application, error) {
	if a.app != nil || a.err != nil {
		return a.app, a.err
	}
	o, err := a.doc.Decode()
	if err != nil {
		return nil, fmt.Errorf("decode an application again: %w", err)
	}
	return render.ParseApplication(o)
}

// parseApps reports every Application that does not parse, and two of
// one namespace and name.
func parseApps(apps []appSource) ([]appSource, error) {
	defined := map[string]manifest.Pos{}
	var errs []error
	for _, a := range apps {
		if a.err != nil {
			errs = append(errs, a.err)
			continue
		}
		ns := a.key.Namespace
		if ns == "" {
			ns = "default"
		}
		key := ns + "/" + a.key.Name
		if first, dup := defined[key]; dup {
			errs = append(errs, manifest.At(a.namePos, "Application %s is also defined at %s: the API server keeps one Application per namespace and name", key, first))
			continue
		}
		defined[key] = a.namePos
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
func propagateDispatched(ctx context.Context, store *cluster.Store, inv *cluster.Inventory, name string, workers int, res *Result) ([]string, error) {
	entries := store.List(name)
	objs := make([]*manifest.Object, 0, len(entries))
	byObject := map[*manifest.Object]cluster.Entry{}
	for _, e := range entries {
		if !e.Object.Pos.IsValid() {
			e.Object.Pos = e.Origin.Pos
		}
		e.Object.PlaceFields()
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
	cp := &controlPlane{name: name, members: inv.Members(name), templates: templates, props: props, ovs: ovs, inContext: where, placements: res.Placements}
	for _, t := range templates {
		cp.sources = append(cp.sources, byObject[t].Source)
		cp.origins = append(cp.origins, byObject[t].Origin)
		cp.owners = append(cp.owners, byObject[t].Owner)
	}
	return propagate(ctx, store, cp, workers, &res.Works)
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
func definitions(noBuiltins bool, sets ...[]*render.Definition) *render.Definitions {
	defs := render.NewDefinitions()
	if !noBuiltins {
		defs = Builtins().Clone()
	}
	for _, set := range sets {
		for _, d := range set {
			defs.Add(d)
		}
	}
	return defs
}

// builtins are drydock's embedded definitions, each parsed at its first
// use: a render parses only those it uses.
var builtins = sync.OnceValue(func() *render.Definitions {
	return render.NewLazyDefinitions(func(kind, name string) *render.Definition {
		d, err := Builtin(name)
		if err != nil {
			panic(err) // TestBuiltinsParse keeps this from happening
		}
		if d == nil || d.Kind != kind {
			return nil
		}
		return d
	}, BuiltinNames)
})

// Builtins returns drydock's embedded definitions.
func Builtins() *render.Definitions { return builtins() }

// Builtin parses the embedded definition of a name (its file is
// <name>.cue); nil when there is none.
func Builtin(name string) (*render.Definition, error) {
	file := name + ".cue"
	data, err := fs.ReadFile(builtin.FS, file)
	if errors.Is(err, fs.ErrNotExist) || !fs.ValidPath(file) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ds, err := render.ParseCUEDefinitions("builtin/"+file, data)
	if err != nil {
		return nil, fmt.Errorf("built-in definition: %w", err)
	}
	if len(ds) != 1 || ds[0].Name != name {
		return nil, fmt.Errorf("built-in definition file %s: want one definition named %q", file, name)
	}
	return ds[0], nil
}

// BuiltinNames lists the embedded definitions' names.
func BuiltinNames() []string {
	entries, _ := fs.ReadDir(builtin.FS, ".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".cue"); ok {
			names = append(names, n)
		}
	}
	return names
}

// renderWindow is how many applications (per worker) may be rendered
// ahead of the one the final state waits for.
const renderWindow = 8

// rendered is what renderAll saw, in input order.
type rendered struct {
	// internal is the first error that is not about an application;
	// invalid are the applications' errors (every one, not only the
	// first); failed is the first write the final state refused.
	internal  error
	invalid   []error
	failed    error
	warnings  []string
	traces    []Trace
	resources map[string]*policy.Resources
	hashes    map[string]string
	suspended map[string]bool
	// props are the undeclared properties validation found.
	props []Finding
	// statuses are the components' health (Inputs.Status).
	statuses []ComponentStatus
}

// err is the run's error, in the order the stages report them: a
// cancelled run, the sink's failure, an internal error, every invalid
// application, then the first refused write.
func (r *rendered) err(ctx context.Context, guard *guardedSink) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case guard.failed() != nil:
		return guard.failed()
	case r.internal != nil:
		return r.internal
	case len(r.invalid) > 0:
		return inputError(manifest.Join(r.invalid...))
	case r.failed != nil:
		return inputError(r.failed)
	}
	return nil
}

// renderAll renders applications in parallel, one engine (one cue.Context)
// per worker, and writes each one's result into out in input order as
// soon as it is ready. After an error nothing more is written, but every
// application is still rendered, so that all invalid ones are reported.
func renderAll(ctx context.Context, defs *render.Definitions, inv *cluster.Inventory, apps []appSource, in *Inputs, opts workflow.Options, wd *watchdog, out *cluster.Store) *rendered {
	workers, trace := in.Workers, in.Trace
	type outcome struct {
		res *workflow.AppResult
		err error
		// props are the properties no parameter declares (validation).
		props []Finding
		// revision is the application's revision key (in.Applications).
		revision string
		// statuses are its components' (in.Status).
		statuses []ComponentStatus
	}
	newEngine := func() *cueval.Engine {
		e := cueval.New(defs)
		e.RecordProvenance(in.Provenance)
		wd.watch(e)
		return e
	}
	work := func(e *cueval.Engine, i int) outcome {
		app, err := apps[i].load()
		if err != nil {
			return outcome{err: err}
		}
		var o outcome
		base, changed := in.BaseRevisions[app.Namespace+"/"+app.Name]
		if changed || in.Applications {
			o.revision = revisionKey(app, defs)
		}
		if changed && base != o.revision {
			app.Revision = 2
		}
		if o.res, o.err = workflow.Run(e, app, inv, opts); o.err != nil {
			return o
		}
		if in.Validate != nil {
			o.props = undeclaredProperties(e, defs, app, in.Validate.Strict)
		}
		if in.Status {
			o.statuses = statuses(defs, o.res, opts.Observed)
		}
		return o
	}
	r := &rendered{resources: map[string]*policy.Resources{}, hashes: map[string]string{}, suspended: map[string]bool{}}
	apply := newApplier(out, opts.Observed)
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	done := 0
	ordered(ctx, len(apps), workers, renderWindow*workers, newEngine, work, func(_ int, o outcome) {
		if in.Progress != nil {
			done++
			defer in.Progress(done, len(apps))
		}
		var re *render.Error
		switch {
		case errors.As(o.err, &re) || errors.Is(o.err, render.ErrInvalidApplication):
			r.invalid = append(r.invalid, o.err)
			return
		case o.err != nil:
			if r.internal == nil {
				r.internal = o.err
			}
			return
		}
		r.warnings = append(r.warnings, o.res.Warnings...)
		r.props = append(r.props, o.props...)
		r.statuses = append(r.statuses, o.statuses...)
		// The workflow refused policies that do not decode.
		if in.Applications {
			key := o.res.App.Namespace + "/" + o.res.App.Name
			r.resources[key] = o.res.Resources
			r.hashes[key] = o.revision
			if o.res.Suspended {
				r.suspended[key] = true
			}
		}
		if trace {
			r.traces = append(r.traces, Trace{Application: o.res.App.Namespace + "/" + o.res.App.Name, Lines: o.res.Trace})
		}
		if r.internal == nil && len(r.invalid) == 0 && r.failed == nil {
			r.failed = apply.apply(o.res)
		}
	})
	return r
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

// LoadDefinitions returns the definitions a render with these -d paths
// would use: the built-ins (unless noBuiltins) replaced by those given.
func LoadDefinitions(paths []string, noBuiltins bool) (*render.Definitions, error) {
	return files{}.definitions(paths, noBuiltins)
}

// definitions reads the definitions of -d paths over the built-ins
// (unless noBuiltins).
func (f files) definitions(paths []string, noBuiltins bool) (*render.Definitions, error) {
	var given loaded
	if err := f.readPaths(paths, nil, &given); err != nil {
		return nil, err
	}
	if err := given.only("-d", "a definition (ComponentDefinition, TraitDefinition, PolicyDefinition or WorkflowStepDefinition)", false, true); err != nil {
		return nil, err
	}
	return definitions(noBuiltins, given.defs), nil
}

// authoredProvenance gives the objects taken as authored (resource
// templates, observed objects, what addons install) their provenance.
func authoredProvenance(templates, observed []*manifest.Object, hub []cluster.Entry) {
	for _, o := range slices.Concat(templates, observed) {
		o.Provenance = o.InputProvenance()
	}
	for _, e := range hub {
		e.Object.Provenance = e.Object.InputProvenance()
	}
}
