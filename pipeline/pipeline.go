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
	"time"

	"github.com/drydock-dev/drydock/cache"
	chartsource "github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada/controller"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
	"github.com/drydock-dev/drydock/render/workflow"
	"github.com/drydock-dev/drydock/schemas"
	"github.com/drydock-dev/drydock/tree"
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
	// Objects are inputs already in memory, read after Paths as their
	// documents are (they need no position).
	Objects []*manifest.Object
	// DefinitionPaths supply definitions (-d); they replace built-ins of
	// the same kind and name.
	DefinitionPaths []string
	// ClusterPaths supply the cluster inventory (--clusters).
	ClusterPaths []string
	// ClustersFromInputs makes the cluster.karmada.io Cluster objects
	// found among the inputs join the inventory
	// (--clusters-from-inputs, drydock.yaml's clustersFromInputs).
	// Without it they are not inventory nor rendered: a warning names
	// each (one also read through ClusterPaths is inventory all the same).
	ClustersFromInputs bool
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
	// Charts are the chart and source caches the charts stage renders
	// Helm releases and Kustomizations from (--charts, --source;
	// drydock.yaml charts: and sources:). Its FS, when set, is the tree
	// they are read from (a git revision's).
	Charts chartsource.Config
	// Workflow steers the workflow emulation.
	Workflow workflow.Options
	// Addons are installed into the hub before anything renders: their
	// definitions serve the Applications, their own Application renders
	// with the others.
	Addons []Addon
	// Limits bound the CUE evaluations (zero: none).
	Limits Limits
	// Record chooses the optional records the render keeps (none by
	// default).
	Record Record
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
	// holding tree.OwnershipFile (drydock wrote it) is left out too,
	// also in From. A path named in the lists above is read all the same.
	Skip []string
	// From, when set, is the tree every path above is read from (slash
	// paths; stdin is not read), such as a git revision's; FromName
	// prefixes its file names in messages and positions ("HEAD~1:").
	From     fs.FS
	FromName string
	// FieldValidation is what becomes of fields the CRDs of KubeVela's
	// objects (Applications, Policies, Workflows, definitions) do not
	// declare, in the inputs and -d definitions: errors (the zero value,
	// kubectl's default), warnings, or dropped silently. What addons
	// install is not checked: KubeVela's addon code applies it with a
	// client that does not ask for strict validation.
	FieldValidation schemas.FieldValidation
	// BaseRevisions are the revision hashes of the Applications as last
	// rendered (a base's Result.AppState.RevisionHashes), by
	// namespace/name: an Application whose hash differs renders as
	// KubeVela's next revision (<name>-v2), one that is the same as the
	// first.
	BaseRevisions map[string]string
	// Only, when not nil, are the Applications (namespace/name, the
	// namespace "default" when they name none) that render: the others,
	// addons' included, are loaded and checked but write nothing. What
	// is not an Application (observed objects, what addons install,
	// resource templates) is written all the same.
	Only map[string]bool
	// Select, when not nil, picks the Applications that render by their
	// namespace/name, as Only does (both apply when both are set), unless
	// the inputs show that applications may change each other's objects
	// (see crossApplication): then every Application renders and
	// Result.Whole says why. A shard of `drydock test --shard` is a
	// Select.
	Select func(app string) bool
	// Cache, when set, keeps each application's render by the hash of
	// what it reads and serves the next run's unchanged applications
	// from it (see cache.go for the key and what a run keeps nothing
	// of). Nil: every application renders.
	Cache *cache.Store

	// clock, for tests, is the time a run starts (nil: time.Now).
	clock func() time.Time
}

// now is when a run of in starts.
func (in *Inputs) now() time.Time {
	if in.clock != nil {
		return in.clock()
	}
	return time.Now()
}

// Record chooses the optional records a render keeps beside the final
// state: each costs time or memory, and a Result's record is nil unless
// its switch here is set.
type Record struct {
	// Trace keeps each application's workflow, step by step
	// (Result.Trace).
	Trace bool
	// Validate, when set, checks every object the render writes as the
	// API server of its cluster would (Result.Validation).
	Validate *Validation
	// Status evaluates every component's health and status message as
	// KubeVela's controller would (Result.Status), against the objects
	// as --observed gives them.
	Status bool
	// Provenance records, for every leaf of every object written, the
	// stages that set it (manifest.Object.Provenance): what drydock
	// explain shows and findings point with. It costs time.
	Provenance bool
	// Placement explains where Karmada placed each object
	// (Result.Placement).
	Placement bool
	// AppState keeps the Applications' state that drydock diff
	// reconciles with (Result.AppState), which a plain render does not
	// keep: memory that would grow with the number of applications.
	AppState bool
}

// files is where in's paths are read from.
// ReadPaths are the files and directories a render of in reads (stdin
// left out): inputs, definitions, inventory, observed objects, CRDs and
// addon directories.
func (in *Inputs) ReadPaths() []string {
	lists := [][]string{in.Paths, in.DefinitionPaths, in.ClusterPaths, in.ObservedPaths}
	if in.Record.Validate != nil {
		lists = append(lists, in.Record.Validate.CRDPaths)
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
	return files{fsys: in.From, name: in.FromName, exclude: in.Exclude, skip: in.Skip, fields: in.FieldValidation, sum: in.Cache != nil}
}

// Result is how a render went: the final state of every fake cluster
// (from Run) and what the render noticed.
type Result struct {
	// Clusters is the final state of every fake cluster (nil from Stream,
	// whose sink received it).
	Clusters *cluster.Store
	// Applications counts the Applications rendered.
	Applications int
	// Warnings are notes about inputs that produced nothing.
	Warnings []string
	// Works are what Karmada leaves in members without dispatching, and
	// what it keeps when a Work goes.
	Works controller.Works

	// The optional records, each nil unless Inputs.Record asks for it.

	// Trace is the applications' workflows (Record.Trace).
	Trace *TraceRecord
	// Validation is what validating the written objects found
	// (Record.Validate).
	Validation *ValidationRecord
	// Status is the components' health and status (Record.Status).
	Status *StatusRecord
	// Placement explains where Karmada placed objects
	// (Record.Placement).
	Placement *controller.Placements
	// CacheError is the first failure to write the render cache
	// (Inputs.Cache): a warning, never a failed render.
	CacheError error
	// AppState is the Applications' state that decides what a change
	// deletes (Record.AppState).
	AppState *AppState
	// Unselected counts the Applications Inputs.Select left out.
	Unselected int
	// Whole, when not "", is why Inputs.Select was not applied: what in
	// the inputs lets one application change another's objects.
	Whole string

	// findingHits and findingMisses count the findings cache's items
	// (findings.go), for tests.
	findingHits, findingMisses int
}

// TraceRecord is the applications' workflows (Record.Trace).
type TraceRecord struct {
	// Applications are the applications' workflows step by step, in
	// input order.
	Applications []Trace
}

// ValidationRecord is what validating the written objects found
// (Record.Validate).
type ValidationRecord struct {
	// Findings are in cluster and object order, after the properties no
	// parameter declares (in input order).
	Findings []Finding
}

// StatusRecord is the components' health and status (Record.Status).
type StatusRecord struct {
	// Components are in input order.
	Components []ComponentStatus
}

// AppState is the Applications' state that KubeVela keeps beside their
// objects (Record.AppState), by namespace/name: what drydock diff
// reconciles with.
type AppState struct {
	// Resources are the resource policies (garbage-collect, read-only,
	// ...) of every Application rendered: what decides which of its
	// objects KubeVela deletes when it changes.
	Resources map[string]*resourcekeeper.Resources
	// RevisionHashes identify the Applications' revisions (their spec and
	// the definitions of the types they name, which KubeVela's revision
	// hash covers): a later render's Inputs.BaseRevisions.
	RevisionHashes map[string]string
	// Suspended names the Applications whose workflow stopped at a
	// suspend step (Workflow.StopAtSuspend).
	Suspended map[string]bool
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
//
// One bad input hides nothing: an input file, document or Application
// that does not load or render is reported and the rest renders. Then
// Run returns a Result (its Validation holds the findings of what did
// render; its objects are incomplete, never to be written) together with
// an error (ErrInput) that lists every such error, sorted by place
// (manifest.Errors). An error that stops the run (an inventory, addon or
// Karmada policy that does not load, a write refused, a limit) comes
// with no Result, listed with the load errors before it.
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

// TakesLazy: whether the caller's sink does (cluster.LazySink).
func (g *guardedSink) TakesLazy() bool { return cluster.TakesLazy(g.sink) }

// failed returns the sink's error, if any.
func (g *guardedSink) failed() error {
	if g == nil {
		return nil
	}
	return g.err
}

// failed is a run's load errors (they do not stop it) and the error err
// that stops it: err alone when it is not about the inputs (a cancelled
// run, the sink's failure, a bug), else every one, sorted.
func failed(load []error, err error) error {
	if err != nil && !errors.Is(err, ErrInput) {
		return err
	}
	return manifest.Join(append(load, err)...)
}

func run(ctx context.Context, in Inputs, sink cluster.Sink, wd *watchdog) (*Result, error) {
	l := loaded{scan: in.Select != nil}
	// load are the errors of the inputs read: every file and document is
	// read and what loads renders, so that one bad input hides neither
	// the errors nor the findings of the others; the run then returns
	// them all, with its Result.
	var load []error
	l.known = openKnownInputs(&in, in.now())
	load = append(load, in.files().readPaths(in.Paths, in.Stdin, &l))
	knownErr := l.known.keep()
	for _, o := range in.Objects {
		load = append(load, l.add(o))
	}
	given := in.Definitions
	var defNotes []string
	var defSums []fileSum
	var userDefs []*render.Definition // -d's (Inputs.Select's scan)
	if given == nil {
		var err error
		var bad bool
		if given, userDefs, defNotes, defSums, bad, err = in.files().definitions(in.DefinitionPaths, in.NoBuiltins); given == nil {
			return nil, failed(load, err)
		}
		load = append(load, err)
		if bad {
			l.badDefs++
		}
	}
	// Without its whole inventory nothing would land where it should.
	var inventoried loaded
	if err := in.files().readPaths(in.ClusterPaths, nil, &inventoried); err != nil {
		return nil, failed(load, err)
	}
	if err := inventoried.only("--clusters", "a cluster.karmada.io Cluster", true, false); err != nil {
		return nil, failed(load, err)
	}
	if len(in.ClusterPaths) > 0 && len(inventoried.clusters) == 0 {
		return nil, failed(load, inputError(fmt.Errorf("--clusters %s: no cluster.karmada.io Cluster object", strings.Join(in.ClusterPaths, ", "))))
	}
	fromInputs, strayClusters := inputClusters(l.clusters, inventoried.clusters, in.ClustersFromInputs)
	inv, err := inventory(append(inventoried.clusters, fromInputs...))
	if err != nil {
		return nil, failed(load, err)
	}
	installed, err := installAddons(in.files(), in.Addons, inv, wd)
	if err != nil {
		return nil, failed(load, err)
	}
	defs := given.Clone()
	for _, d := range slices.Concat(installed.defs, l.defs) {
		defs.Add(d)
	}
	if len(installed.apps) > 0 { // else not a copy of every Application
		l.apps = append(installed.apps, l.apps...)
	}
	// Karmada policies are checked before anything renders.
	authored, err := controller.Parse(l.resources)
	if err != nil {
		return nil, failed(load, inputError(err))
	}
	apps, err := parseApps(l.apps)
	load = append(load, err)
	if in.Only != nil {
		apps = slices.DeleteFunc(apps, func(a appSource) bool { return !in.Only[a.name()] })
	}
	var whole string
	unselected := 0
	if in.Select != nil {
		if whole = crossApplication(&l, slices.Concat(userDefs, installed.defs, l.defs), installed.cross, in.Charts); whole == "" {
			n := len(apps)
			apps = slices.DeleteFunc(apps, func(a appSource) bool { return !in.Select(a.name()) })
			unselected = n - len(apps)
		}
	}
	if l.badDefs > 0 { // the applications would fail for want of them
		return nil, failed(load, nil)
	}
	// observed Applications are objects of the hub, as a workflow step
	// reads them (depends-on-app, read-object), not Applications to render
	observed := loaded{objectsOnly: true}
	if err := in.files().readPaths(in.ObservedPaths, nil, &observed); err != nil {
		return nil, failed(load, err)
	}
	if in.Record.Provenance {
		authoredProvenance(l.resources, observed.resources, installed.hub)
	}
	// The actual state before the render: what renders read.
	actual := cluster.NewStore()
	if err := preload(actual, inv, observed.resources); err != nil {
		return nil, failed(load, err)
	}
	for _, e := range installed.hub {
		if err := actual.Apply(cluster.Local, e); err != nil {
			return nil, failed(load, inputError(err))
		}
	}
	opts := in.Workflow
	if v := opts.KubeVersion; v != "" {
		if _, _, err := schemas.KubeVersion(v); err != nil {
			return nil, failed(load, inputError(fmt.Errorf("--kube-version: %w", err)))
		}
	}
	opts.Observed = actual
	if opts.Workflows, opts.Policies, err = hubObjects(&l); err != nil {
		return nil, failed(load, err)
	}
	// The final state, from the actual state on.
	res := &Result{Applications: len(apps), Unselected: unselected, Whole: whole}
	var out *cluster.Store
	var guard *guardedSink
	var check *schemas.Stream
	var memo *findingsMemo
	if in.Record.Validate != nil {
		crds, digest, err := in.crds(&l, &observed, installed.hub)
		if err != nil {
			return nil, failed(load, err)
		}
		memo = newFindingsMemo(&in, digest)
		if check, err = newValidator(*in.Record.Validate, inv, crds, memo); err != nil {
			return nil, failed(load, err)
		}
	}
	controlPlanes := map[string]bool{}
	for _, name := range inv.ControlPlanes() {
		controlPlanes[name] = true
	}
	// The chart cache, opened when given: KubeVela's helm provider (the
	// helmchart component) reads it while the applications render, the
	// charts stage after.
	var charts *chartsource.Cache
	if c := in.Charts; len(c.Charts)+len(c.Sources)+len(c.Repositories) > 0 {
		if charts, err = chartsource.Open(c); err != nil {
			return nil, failed(load, inputError(fmt.Errorf("charts: %w", err)))
		}
		opts.Charts = charts
	}
	// The charts stage sees every object written, kept or streamed.
	var stage *chartStage
	switch {
	case sink == nil && check == nil:
		stage = newChartStage(nil, in.Charts, charts, in.Record.Provenance)
		out = cluster.NewStreamingStore(stage, func(string) bool { return true })
		res.Clusters = out
	case sink == nil:
		stage = newChartStage(check, in.Charts, charts, in.Record.Provenance)
		out = cluster.NewStreamingStore(stage, func(string) bool { return true })
		res.Clusters = out
	default:
		guard = &guardedSink{sink: sink}
		var next cluster.Sink = guard
		if check != nil {
			check.Next, next = guard, check
		}
		stage = newChartStage(next, in.Charts, charts, in.Record.Provenance)
		out = cluster.NewStreamingStore(stage, func(c string) bool { return controlPlanes[c] })
	}
	for _, c := range actual.Clusters() {
		for _, e := range actual.List(c) {
			if err := out.Apply(c, e); err != nil {
				return nil, err // only the sink's: actual accepted e
			}
		}
	}
	var keys *appKeys
	if in.cacheable(opts) {
		keys = newAppKeys(runKey(&in, opts, l.sums, defSums, inventoried.sums, observed.sums), l.sums, in.BaseRevisions)
		keys.openPack(&in)
		// A streamed run's stages may take a hit's objects undecoded; a
		// store that keeps every object (Run) decodes them all anyway.
		keys.lazy = sink != nil && cluster.TakesLazy(stage)
		keys.trace = in.Record.Trace
	}
	r := renderAll(ctx, defs, inv, apps, &in, opts, wd, out, keys, memo)
	res.CacheError = firstError(r.cacheErr, knownErr)
	if err := r.err(ctx, guard); err != nil {
		return nil, failed(slices.Concat(load, r.invalid), err)
	}
	load = append(load, r.invalid...)
	res.Warnings = r.warnings
	r.keep(in.Record, res)
	// Helm releases and Kustomizations KubeVela dispatched (or observed)
	// render before Karmada: on a control plane their objects are
	// templates it propagates.
	notes, bad, err := stage.reconcile(ctx, inv, out, controlPlanes)
	if err := firstError(guard.failed(), err); err != nil {
		return nil, failed(load, err)
	}
	load = append(load, bad...)
	res.Warnings = append(res.Warnings, notes...)
	karmada, err := controller.Run(ctx, out, inv, controller.Options{Authored: authored, PlainToHub: len(l.apps) == 0, Explain: in.Record.Placement, Each: each(in.Workers)})
	if err := firstError(guard.failed(), err); err != nil {
		return nil, failed(load, karmadaError(err))
	}
	res.Warnings = append(res.Warnings, karmada.Warnings...)
	// Then those Karmada (or the inputs) put on a cluster.
	notes, bad, err = stage.reconcile(ctx, inv, out, controlPlanes)
	if err := firstError(guard.failed(), err); err != nil {
		return nil, failed(load, err)
	}
	load = append(load, bad...)
	res.Warnings = append(res.Warnings, notes...)
	res.Works, res.Placement = karmada.Works, karmada.Placements
	res.Warnings = slices.Concat(res.Warnings, defNotes, l.notes, inventoried.notes, observed.notes, strayClusters)
	loadErr := manifest.Join(load...)
	if len(apps)+unselected == 0 && !authored.HasTemplates() && loadErr == nil {
		res.Warnings = append(res.Warnings, "no Application or resource template among the inputs: nothing rendered")
	}
	if check != nil {
		res.Validation = &ValidationRecord{Findings: append(r.props, check.Findings()...)}
		res.Warnings = append(res.Warnings, check.Notes()...)
	}
	if err := keys.save(in.Cache, in.Only != nil || in.Select != nil || loadErr != nil); err != nil && res.CacheError == nil {
		res.CacheError = err
	}
	if memo != nil {
		res.findingHits, res.findingMisses = memo.hits, memo.misses
		if err := memo.save(in.Only != nil || loadErr != nil); err != nil && res.CacheError == nil {
			res.CacheError = err
		}
	}
	return res, loadErr
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
	// lazy is the known file (inputknown.go) the Application is read
	// from when it renders: neither app nor doc is at hand.
	lazy *lazyApp
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
	if a.lazy != nil {
		read, err := a.lazy.load(a.pos)
		if err != nil {
			return nil, err
		}
		return read.load()
	}
	o, err := a.doc.Decode()
	if err != nil {
		return nil, fmt.Errorf("decode an application again: %w", err)
	}
	return render.ParseApplication(o)
}

// name is the Application's namespace/name, its namespace "default"
// when it names none.
func (a *appSource) name() string { return a.namespace() + "/" + a.key.Name }

// namespace is the Application's namespace, "default" when it names none.
func (a *appSource) namespace() string {
	if a.key.Namespace == "" {
		return "default"
	}
	return a.key.Namespace
}

// parseApps returns the Applications that parse, the first of one
// namespace and name, and an error that reports every other.
//
// A suite holds thousands of Applications: the list and the map are
// sized for them all at once (appended one by one, the ~170-byte
// sources were copied over and over), and the map is keyed by namespace
// and name as they are, not by a string made of them for each.
func parseApps(apps []appSource) ([]appSource, error) {
	defined := make(map[[2]string]manifest.Pos, len(apps))
	var errs []error
	ok := make([]appSource, 0, len(apps))
	for i := range apps {
		a := &apps[i]
		if a.err != nil {
			errs = append(errs, inputError(a.err))
			continue
		}
		key := [2]string{a.namespace(), a.key.Name}
		if first, dup := defined[key]; dup {
			errs = append(errs, inputError(manifest.At(a.namePos, "Application %s is also defined at %s: the API server keeps one Application per namespace and name", a.name(), first)))
			continue
		}
		defined[key] = a.namePos
		ok = append(ok, *a)
	}
	return ok, manifest.Join(errs...)
}

// each runs Karmada's placements on workers goroutines, as renderAll
// runs the applications (controller.Options.Each).
func each(workers int) func(context.Context, int, func(int) func()) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return func(ctx context.Context, n int, place func(int) func()) {
		ordered(ctx, n, workers, renderWindow*workers, func() struct{} { return struct{}{} }, func(_ struct{}, i int) func() {
			return place(i)
		}, func(_ int, commit func()) { commit() })
	}
}

// karmadaError marks the controller's errors about its input as bad input.
func karmadaError(err error) error {
	if errors.Is(err, controller.ErrInvalid) {
		return inputError(err)
	}
	return err
}

// inventory builds the cluster inventory from Cluster objects and checks
// that every control plane a member names exists.
// inputClusters are the Cluster objects found among the inputs that join
// the inventory: all of them when fromInputs, else none, and a warning for
// each that the inventory (inventoried, read through --clusters) does not
// hold by name.
func inputClusters(found, inventoried []*manifest.Object, fromInputs bool) (join []*manifest.Object, warnings []string) {
	if fromInputs {
		return found, nil
	}
	have := map[string]bool{}
	for _, o := range inventoried {
		have[o.Name()] = true
	}
	for _, o := range found {
		if have[o.Name()] {
			continue
		}
		warnings = append(warnings, manifest.Format(manifest.At(o.Pos, "%sCluster %q in the inputs is not in the inventory: give its file to --clusters, "+
			"or let the inputs' Clusters join it with --clusters-from-inputs (drydock.yaml: clustersFromInputs: true)", o.Item(), o.Name()), nil))
	}
	return nil, warnings
}

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
	resources map[string]*resourcekeeper.Resources
	hashes    map[string]string
	suspended map[string]bool
	// props are the undeclared properties validation found.
	props []Finding
	// statuses are the components' health (Record.Status).
	statuses []ComponentStatus
	// cacheErr is the first failure to write the render cache.
	cacheErr error
}

// keep fills the records of res that rec asks for.
func (r *rendered) keep(rec Record, res *Result) {
	if rec.Trace {
		res.Trace = &TraceRecord{Applications: r.traces}
	}
	if rec.Status {
		res.Status = &StatusRecord{Components: r.statuses}
	}
	if rec.AppState {
		res.AppState = &AppState{Resources: r.resources, RevisionHashes: r.hashes, Suspended: r.suspended}
	}
}

// err is the error that ends the run, in the order the stages report
// them: a cancelled run, the sink's failure, an internal error, then the
// first refused write. The invalid applications do not end it: the
// others render, and are checked.
func (r *rendered) err(ctx context.Context, guard *guardedSink) error {
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case guard.failed() != nil:
		return guard.failed()
	case r.internal != nil:
		return r.internal
	case r.failed != nil:
		return inputError(r.failed)
	}
	return nil
}

// renderAll renders applications in parallel, one engine (one cue.Context)
// per worker, and writes each one's result into out in input order as
// soon as it is ready. Every application is rendered, so that all invalid
// ones are reported; after an error that is not an invalid application
// nothing more is written.
func renderAll(ctx context.Context, defs *render.Definitions, inv *cluster.Inventory, apps []appSource, in *Inputs, opts workflow.Options, wd *watchdog, out *cluster.Store, keys *appKeys, memo *findingsMemo) *rendered {
	workers, trace := in.Workers, in.Record.Trace
	type outcome struct {
		res *workflow.AppResult
		err error
		// props are the properties no parameter declares (validation).
		props []Finding
		// revision is the application's revision key (Record.AppState).
		revision string
		// statuses are its components' (Record.Status).
		statuses []ComponentStatus
		// cacheErr is why its render was not kept (Inputs.Cache).
		cacheErr error
		// hit is the cache entry the result came from: its writes'
		// objects' hashes, and for a lean entry (res nil: its
		// Application was not parsed) all the result is.
		hit *cached
		// lazy says a lean hit's objects go out undecoded
		// (appKeys.lazy, cached.lazily).
		lazy bool
	}
	newEngine := func() *cueval.Engine {
		e := cueval.New(defs)
		e.RecordProvenance(in.Record.Provenance)
		wd.watch(e)
		return e
	}
	work := func(e *cueval.Engine, i int) outcome {
		key, keyed := keys.key(apps[i])
		if props, ok := memo.hitProps(in, key, keyed); ok {
			if c := keys.get(in.Cache, key); c != nil {
				lean := c.lean && len(in.BaseRevisions) == 0
				if lean && keys.lazy && c.lazily() {
					return outcome{hit: c, revision: c.revision, props: props, lazy: true}
				}
				if err := c.objects(); err == nil && lean {
					return outcome{hit: c, revision: c.revision, props: props}
				} else if err == nil {
					if o, ok := c.outcome(apps[i], in.BaseRevisions); ok {
						return outcome{res: o, hit: c, revision: c.revision, props: props}
					}
				}
			}
		}
		app, err := apps[i].load()
		if err != nil {
			return outcome{err: err}
		}
		var o outcome
		base, changed := in.BaseRevisions[app.Namespace+"/"+app.Name]
		if changed || in.Record.AppState {
			o.revision = revisionKey(app, defs)
		}
		if changed && base != o.revision {
			app.Revision = 2
		}
		if o.res, o.err = workflow.Run(e, app, inv, opts); o.err != nil {
			return o
		}
		if keyed {
			o.cacheErr = keys.put(in.Cache, key, o.res, o.revision)
		}
		if in.Record.Validate != nil {
			o.props = undeclaredProperties(e, defs, app, in.Record.Validate.Strict)
			if keyed {
				memo.putProps(key, o.props)
			}
		}
		if in.Record.Status {
			o.statuses = statuses(defs, o.res, opts.Observed)
		}
		return o
	}
	r := &rendered{resources: map[string]*resourcekeeper.Resources{}, hashes: map[string]string{}, suspended: map[string]bool{}}
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
			r.invalid = append(r.invalid, inputError(o.err))
			return
		case o.err != nil:
			if r.internal == nil {
				r.internal = o.err
			}
			return
		}
		if o.cacheErr != nil && r.cacheErr == nil {
			r.cacheErr = o.cacheErr
		}
		// A lean hit's result is its entry's (cached.lean): an
		// Application only named, no resource policies.
		var name, namespace string
		var warnings, lines []string
		var resources *resourcekeeper.Resources
		var suspended bool
		if o.res != nil {
			name, namespace, warnings, lines, resources, suspended = o.res.App.Name, o.res.App.Namespace, o.res.Warnings, o.res.Trace, o.res.Resources, o.res.Suspended
		} else {
			name, namespace, warnings, lines, resources, suspended = o.hit.name, o.hit.namespace, o.hit.warnings, o.hit.trace, nil, o.hit.suspended
		}
		r.warnings = append(r.warnings, warnings...)
		r.props = append(r.props, o.props...)
		r.statuses = append(r.statuses, o.statuses...)
		// The workflow refused policies that do not decode.
		if in.Record.AppState {
			key := namespace + "/" + name
			if resources == nil {
				resources = &resourcekeeper.Resources{}
			}
			r.resources[key] = resources
			r.hashes[key] = o.revision
			if suspended {
				r.suspended[key] = true
			}
		}
		if trace {
			r.traces = append(r.traces, Trace{Application: namespace + "/" + name, Lines: lines})
		}
		// An invalid application's objects are missing, the others' are
		// written (and checked); the run's error says it is incomplete.
		if r.internal == nil && r.failed == nil {
			r.failed = apply.apply(o.res, o.hit, o.lazy)
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
func Tree(store *cluster.Store) (tree.Tree, error) {
	t := tree.Tree{}
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			if err := t.Add(c, e.Object); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// LoadDefinitions returns the definitions a render with these -d paths
// would use: the built-ins (unless noBuiltins) replaced by those given.
// Their unknown fields are errors (strict field validation).
func LoadDefinitions(paths []string, noBuiltins bool) (*render.Definitions, error) {
	defs, _, err := LoadDefinitionsFields(paths, noBuiltins, schemas.FieldStrict)
	return defs, err
}

// LoadDefinitionsFields is LoadDefinitions with field validation v
// (Inputs.FieldValidation); it returns the warnings of Warn.
func LoadDefinitionsFields(paths []string, noBuiltins bool, v schemas.FieldValidation) (*render.Definitions, []string, error) {
	defs, _, notes, _, _, err := files{fields: v}.definitions(paths, noBuiltins)
	if err != nil {
		return nil, nil, err
	}
	return defs, notes, nil
}

// definitions reads the definitions of -d paths over the built-ins
// (unless noBuiltins), and the warnings of their field validation. With
// an error in one of them, the others are returned with it (bad set);
// nil definitions when -d gives something else.
func (f files) definitions(paths []string, noBuiltins bool) (defs *render.Definitions, user []*render.Definition, notes []string, sums []fileSum, bad bool, err error) {
	var given loaded
	err = f.readPaths(paths, nil, &given)
	if stray := given.only("-d", "a definition (ComponentDefinition, TraitDefinition, PolicyDefinition or WorkflowStepDefinition)", false, true); stray != nil {
		return nil, nil, nil, nil, true, manifest.Join(err, stray)
	}
	return builtin.Merge(noBuiltins, given.defs), given.defs, given.notes, given.sums, err != nil, err
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
