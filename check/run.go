package check

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drydock-dev/drydock/cache"
	chartsource "github.com/drydock-dev/drydock/charts/source"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/gatekeeper"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/regosandbox"
	"github.com/drydock-dev/drydock/rules"
	"github.com/drydock-dev/drydock/schemas"
)

// Options steer a Run.
type Options struct {
	// Shard is the part of the work to do (the zero Shard: all of it):
	// each suite's applications and plain files it Owns, the suites
	// that cannot split it Runs, and the definition tests in the first
	// shard only. The golden files a split suite does not render are
	// SuiteResult.Unclaimed, not stale. Not with Update.
	Shard Shard
	// Update rewrites each suite's golden tree to match the render
	// instead of comparing with it; Prune also deletes the golden files
	// that no longer render (else they are kept, with a warning).
	Update, Prune bool
	// Adopt, with Update, takes over the golden files at rendered paths
	// that drydock did not write (see tree.UpdateOptions.Adopt).
	Adopt bool
	// CI words a stale golden tree's findings for CI: update locally and
	// commit. It does not stop Update; the caller refuses that pairing.
	CI bool
	// Workers bounds the applications rendered in parallel in the whole
	// run (0: GOMAXPROCS), as pipeline.Inputs.Workers does in one render:
	// shared among the suites that run at once (splitWorkers).
	Workers int
	// Coverage records which ifs of the tested definitions' templates the
	// definition tests took, each way (SuiteResult.Coverage).
	Coverage bool
	// DefinitionsOnly runs only the suites' definition tests: nothing is
	// rendered, compared, validated or checked by rules.
	DefinitionsOnly bool
	// Stdin is read for a plain suite's input "-" (nil: none).
	Stdin io.Reader
	// ProtoFileDirs hold the .proto files giving plain suites' textproto
	// inputs their message types (conftest --proto-file-dirs).
	ProtoFileDirs []string
	// Progress, when set, is called as each suite ends with the number
	// ended and the total (from the suites' goroutines, one at a time).
	Progress func(done, total int)
	// Limits bound each suite's render (zero fields: none). Without a
	// Guard, Run makes one for its suites and definition tests: once an
	// evaluation a limit stopped goes on in the background, no other
	// render starts (it fails with pipeline.ErrNotRun).
	Limits pipeline.Limits
	// RuleTimeout bounds each policy namespace's, and each Gatekeeper
	// Rego template's, evaluation on one object (0: none). One that takes
	// longer is not evaluated again in the run: the suites report it once
	// each, with the count of evaluations skipped. Limits.Memory bounds
	// the heap while Rego runs too.
	RuleTimeout time.Duration
	// Strict makes every suite strict (Suite.Strict).
	Strict bool
	// FieldValidation, when not "", replaces every suite's
	// (Suite.FieldValidation); the caller has checked it parses.
	FieldValidation string
	// Skip are files and directories under the suites' input directories
	// that no suite reads as input (pipeline.Inputs.Skip), besides every
	// suite's golden directory: the golden directories of suites left out
	// of the config, the files the report goes to.
	Skip []string
	// Conftest makes a plain suite's ConftestResults hold print() output
	// as conftest test gives it: from conftest's own queries, one per
	// check and its exceptions (run again for that, only when a policy
	// prints or with Trace). Trace adds OPA's trace of those queries.
	Conftest, Trace bool
	// Charts are chart caches and sources given for every suite (test
	// --charts, --source): the charts come after each suite's own, a
	// source replaces the suite's of the same name.
	Charts chartsource.Config
	// Cache keeps, between runs, each application's render
	// (pipeline.Inputs.Cache) and what each golden comparison found equal
	// (tree.Known): a golden file unchanged since, compared with an
	// object rendered as it was, is not read again (nil: every file is).
	Cache *cache.Store

	// For tests: testStore replaces Cache, goldenStart moves the time a
	// golden comparison starts (files written just before it are not
	// learned), goldenReport sees each suite's golden report.
	testStore    store
	goldenStart  func(time.Time) time.Time
	goldenReport func(suite string, rep *golden.Report)
	// locateWhole makes locating causes render the whole suite;
	// locateRender sees the applications it renders (nil: all).
	locateWhole  bool
	locateRender func(only map[string]bool)
}

// store is where the run keeps what it may use again (nil: nowhere).
func (r *runner) store() store {
	switch {
	case r.opts.testStore != nil:
		return r.opts.testStore
	case r.opts.Cache != nil:
		return r.opts.Cache
	}
	return nil
}

// Run runs the suites of cfg that opts.Shard selects, in parallel, and
// returns their results sorted by suite name. A suite whose inputs or
// policies are bad has SuiteResult.Err set (and, for a render error, a
// "render" finding at the error's place); the other suites still run.
// Run writes golden trees, only with opts.Update, and definition-test
// snapshots: missing ones (outside CI mode) and, with opts.Update, the
// ones drydock wrote before (see the snapshot assertion). Suites that
// share policies share one compiled engine.
//
// A panic in a suite is re-raised in Run's goroutine once every suite has
// stopped; its value has a StackTrace() []byte method returning the
// suite goroutine's stack.
func Run(ctx context.Context, cfg *Config, opts Options) *Result {
	suites := slices.DeleteFunc(Shard{}.Suites(cfg.Suites), func(s Suite) bool {
		return !opts.Shard.Runs(s) || opts.DefinitionsOnly && !opts.Shard.First()
	})
	r := newRunner(cfg, opts)
	return &Result{Config: cfg.File, Shard: opts.Shard, Suites: r.all(ctx, suites)}
}

// newRunner is the runner of one Run of cfg's suites.
func newRunner(cfg *Config, opts Options) *runner {
	if opts.Limits.Guard == nil {
		opts.Limits.Guard = &pipeline.Guard{} // the suites and definition tests share it
	}
	return &runner{dir: cfg.Dir, opts: opts, skip: slices.Concat(opts.Skip, cfg.GoldenDirs()),
		budget: &regosandbox.Budget{Timeout: opts.RuleTimeout, Memory: opts.Limits.Memory}}
}

// runner runs the suites of one Run.
type runner struct {
	dir  string // the config's directory
	opts Options
	// skip are the golden directories, which no suite reads as input.
	skip []string
	// engines compiles each distinct rule set once for all suites.
	engines onceCache[*rules.Engine]
	// gatekeepers loads each distinct set of constraints once.
	gatekeepers onceCache[*gatekeeper.Set]
	// renderWorkers are each suite's render workers: the processors
	// shared among the suites that run at once.
	renderWorkers int
	// budget bounds the run's Rego (rules and Gatekeeper templates): a
	// rule or template stopped by its time limit in one suite is not
	// evaluated again in any.
	budget *regosandbox.Budget
}

// splitWorkers shares total workers (0: GOMAXPROCS), the applications
// rendered at once in the whole run as render --workers counts them,
// among n suites: how many suites run at once, and how many applications
// each renders at once.
func splitWorkers(total, n int) (suites, renders int) {
	if total <= 0 {
		total = runtime.GOMAXPROCS(0)
	}
	suites = max(1, min(total, n))
	return suites, max(1, total/suites)
}

// all runs suites in parallel; results keep the suites' order.
func (r *runner) all(ctx context.Context, suites []Suite) []*SuiteResult {
	var workers int
	workers, r.renderWorkers = splitWorkers(r.opts.Workers, len(suites))
	results := make([]*SuiteResult, len(suites))
	var progressMu sync.Mutex
	ended := 0
	parallel(len(suites), workers, func(i int) {
		results[i] = r.suite(ctx, suites[i])
		if r.opts.Progress != nil {
			progressMu.Lock()
			ended++
			r.opts.Progress(ended, len(suites))
			progressMu.Unlock()
		}
	})
	return results
}

// parallel calls f(i) for every i in [0, n) on at most workers
// goroutines (at least one) and waits for them all. A panic in f is
// raised again in the caller's goroutine, where a command boundary can
// recover it, as a *pipeline.WorkerPanic carrying the stack of the
// goroutine that panicked.
func parallel(n, workers int, f func(i int)) {
	sem := make(chan struct{}, max(1, workers))
	var wg sync.WaitGroup
	var panicked atomic.Pointer[pipeline.WorkerPanic]
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					panicked.CompareAndSwap(nil, &pipeline.WorkerPanic{Value: v, Stack: debug.Stack()})
				}
			}()
			sem <- struct{}{}
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}

// paths joins relative paths to the config's directory.
func (r *runner) paths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if filepath.IsAbs(p) {
			out[i] = p
		} else {
			out[i] = filepath.Join(r.dir, p)
		}
	}
	return out
}

// dataPaths joins relative data paths to the config's directory, each
// keeping its place under data ("a.b:dir", rules.SplitDataPath).
func (r *runner) dataPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		prefix, path := rules.SplitDataPath(p)
		out[i] = rules.JoinDataPath(prefix, r.paths([]string{path})[0])
	}
	return out
}

// dataFilePaths are the file paths of data paths, without their place
// under data.
func dataFilePaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		_, out[i] = rules.SplitDataPath(p)
	}
	return out
}

// fail records err as why the suite failed, with its findings under the
// check that could not run: the stage's (a stageError), else check.
func (res *SuiteResult) fail(err error, check string) {
	res.Err = err
	var se *stageError
	if errors.As(err, &se) {
		check = se.check
	}
	res.Findings = append(res.Findings, errorFindings(res.Name, check, err)...)
}

// validationFindings are the findings of a render's validation (none
// when v is nil) as suite's findings.
func validationFindings(suite string, v *pipeline.ValidationRecord) []Finding {
	if v == nil {
		return nil
	}
	var out []Finding
	for _, f := range v.Findings {
		level := LevelError
		if f.Warning {
			level = LevelWarning
		}
		msg := ""
		if f.Cluster != "" { // else about an Application's properties
			msg = fmt.Sprintf("cluster %s: %s: ", f.Cluster, f.Key)
		}
		if f.Field != "" {
			msg += f.Field + ": "
		}
		out = append(out, Finding{Suite: suite, Check: "validate", Level: level, Message: msg + f.Message,
			Pos: f.Pos, Object: f.Path, Origin: f.Origin, Field: f.Field})
	}
	return out
}

// errorFindings are the findings of a check that could not run: one per
// error, at its place (manifest.PosOf: the error's chain, never its text),
// with the related places of its located error.
func errorFindings(suite, check string, err error) []Finding {
	errs := []error{err}
	var list manifest.Errors
	if errors.As(err, &list) {
		errs = list
	}
	out := make([]Finding, len(errs))
	for i, e := range errs {
		pos, _ := manifest.PosOf(e)
		msg := strings.TrimPrefix(manifest.Format(e, nil), pos.String()+": ")
		out[i] = Finding{Suite: suite, Check: check, Level: LevelError, Message: msg, Pos: pos, Related: relatedOf(e)}
	}
	return out
}

// relatedOf is the related places of the first manifest.Error in err's
// chain that has any (nil when none has).
func relatedOf(err error) []manifest.Related {
	for err != nil {
		if me, ok := err.(*manifest.Error); ok {
			var out []manifest.Related
			for _, r := range me.Related {
				if r.Pos.IsValid() {
					out = append(out, r)
				}
			}
			if out != nil {
				return out
			}
		}
		if list, ok := err.(interface{ Unwrap() []error }); ok {
			for _, inner := range list.Unwrap() {
				if out := relatedOf(inner); out != nil {
					return out
				}
			}
			return nil
		}
		err = errors.Unwrap(err)
	}
	return nil
}

// strict reports whether suite s runs strict (Suite.Strict, Options.Strict).
func (r *runner) strict(s Suite) bool { return s.Strict || r.opts.Strict }

// nothingChecked reports that suite s had no object to check, under check:
// a warning, an error when the suite is strict (a suite that checks
// nothing must not pass for one whose objects passed). In a shard that
// checks a part of s it is unclaimed (SuiteResult.Unclaimed).
func (r *runner) nothingChecked(s Suite, res *SuiteResult, check, why string) {
	level := LevelWarning
	if r.strict(s) {
		level = LevelError
	}
	f := Finding{Suite: s.Name, Check: check, Level: level,
		Message: fmt.Sprintf("%s (inputs: %s)", why, strings.Join(s.Inputs, ", "))}
	if r.opts.Shard.splits(s) {
		// Another shard may have checked something: true of the suite
		// only if every shard finds it (report merge decides).
		res.Unclaimed = append(res.Unclaimed, f)
		return
	}
	res.Findings = append(res.Findings, f)
}

// fieldValidation is s's field validation: Options', else the suite's
// (LoadConfig has checked both parse).
func (r *runner) fieldValidation(s Suite) schemas.FieldValidation {
	fv, _ := schemas.ParseFieldValidation(cmp.Or(r.opts.FieldValidation, s.FieldValidation))
	return fv
}

// Params are the entry's parameters; parameters and arguments are
// located in the configuration file when it was loaded from one.
func (a SuiteAddon) Params() pipeline.AddonParams {
	p := pipeline.AddonParams{Set: a.Set, SetString: a.SetString}
	if a.Values != nil {
		v := pipeline.AddonValues{Data: a.Values, Source: "values of addon " + a.Dir}
		if a.at != nil {
			v.Pos = func(p fieldpath.Path) manifest.Pos { return a.at(fieldpath.New("values").Join(p)) }
		}
		p.Values = []pipeline.AddonValues{v}
	}
	if a.at != nil {
		p.Pos = func(setString bool, i int) manifest.Pos {
			if setString {
				return a.at(fieldpath.New("setString", i))
			}
			return a.at(fieldpath.New("set", i))
		}
	}
	return p
}

// SuiteInputs are what the suite s of the configuration in dir renders:
// its inputs, definitions, clusters, observed objects, addons, charts
// and sources (joined to dir), noBuiltins, exclude, stopAtSuspend, kubeVersion and
// fieldValidation, and, unless it opts out, validation against its CRDs
// (Strict as the suite says). Workers, Limits and Skip are the caller's;
// a plain suite is not for rendering. The error is an addon's parameters
// that do not parse.
func SuiteInputs(dir string, s Suite) (pipeline.Inputs, error) {
	r := &runner{dir: dir}
	in := pipeline.Inputs{
		Paths: r.paths(s.Inputs), DefinitionPaths: r.paths(s.Definitions), ClusterPaths: r.paths(s.Clusters),
		ObservedPaths: r.paths(s.Observed), NoBuiltins: s.NoBuiltins, Exclude: s.Exclude,
		ClustersFromInputs: s.ClustersFromInputs,
		Charts:             chartsource.Config{Charts: r.paths(s.Charts)},
	}
	for name, dir := range s.Sources {
		if in.Charts.Sources == nil {
			in.Charts.Sources = map[string]string{}
		}
		in.Charts.Sources[name] = r.paths([]string{dir})[0]
	}
	in.Workflow.StopAtSuspend = s.StopAtSuspend
	in.Workflow.KubeVersion = s.KubeVersion
	in.FieldValidation, _ = schemas.ParseFieldValidation(s.FieldValidation) // LoadConfig checked it
	for _, a := range s.Addons {
		params := a.Params()
		if err := params.Check(); err != nil {
			if _, located := manifest.PosOf(err); located {
				return in, err
			}
			return in, fmt.Errorf("addon %s: %w", a.Dir, err)
		}
		in.Addons = append(in.Addons, pipeline.Addon{Dir: r.paths([]string{a.Dir})[0], Params: params})
	}
	if s.Validate == nil || *s.Validate {
		in.Record.Validate = &pipeline.Validation{KubeVersion: s.KubeVersion, CRDPaths: r.paths(s.CRDs), Strict: s.Strict}
	}
	return in, nil
}

// withCharts is a suite's chart config with more laid over it: the
// charts after its own, the sources replacing its of the same name.
func withCharts(suite, more chartsource.Config) chartsource.Config {
	out := suite
	out.Charts = slices.Concat(suite.Charts, more.Charts)
	if len(more.Sources) > 0 {
		out.Sources = maps.Clone(suite.Sources)
		if out.Sources == nil {
			out.Sources = map[string]string{}
		}
		maps.Copy(out.Sources, more.Sources)
	}
	return out
}

// suite renders s and checks the render, as it streams, against its
// golden tree and its rules.
func (r *runner) suite(ctx context.Context, s Suite) *SuiteResult {
	if r.opts.DefinitionsOnly {
		res := &SuiteResult{Name: s.Name}
		if err := r.defTests(ctx, s, res); err != nil {
			res.fail(err, "tests")
		}
		return res
	}
	if s.Plain {
		return r.plainSuite(ctx, s)
	}
	res := &SuiteResult{Name: s.Name, Checks: []string{"render"}}
	in, err := SuiteInputs(r.dir, s)
	if err != nil {
		res.fail(err, "render")
		return res
	}
	in.Workers, in.Limits, in.Skip = r.renderWorkers, r.opts.Limits, r.skip
	in.Cache = r.opts.Cache // the unchanged applications are not rendered again
	in.Charts = withCharts(in.Charts, r.opts.Charts)
	in.FieldValidation = r.fieldValidation(s)
	split := r.opts.Shard.splits(s)
	if split {
		in.Select = r.opts.Shard.Owns
	}
	if in.Record.Validate != nil {
		in.Record.Validate.Strict = r.strict(s)
		res.Checks = append(res.Checks, "validate")
	}
	sink := r.newSuiteSink(ctx, s)
	out, err := pipeline.Stream(ctx, in, sink)
	if err != nil {
		sink.abort()
		res.fail(err, "render")
		if out != nil { // the findings of what did render
			res.Findings = append(res.Findings, validationFindings(s.Name, out.Validation)...)
		}
		return res
	}
	if out.Whole != "" {
		res.Findings = append(res.Findings, Finding{Suite: s.Name, Check: "render", Level: LevelWarning,
			Message: fmt.Sprintf("shards render the whole suite, each reporting only its applications' objects: %s", out.Whole)})
	}
	for _, w := range out.SortedWarnings() {
		res.Findings = append(res.Findings, Finding{Suite: s.Name, Check: "render", Level: LevelWarning, Message: w})
	}
	res.Findings = append(res.Findings, sink.owned(validationFindings(s.Name, out.Validation))...)
	err = sink.finish(res)
	if err == nil && sink.rendered == 0 {
		r.nothingChecked(s, res, "render", "the suite renders no object: its checks had nothing to check")
	}
	if err == nil && !r.opts.Update {
		r.locateCauses(ctx, s, in, res, sink)
	}
	if err == nil && r.opts.Shard.First() {
		err = r.defTests(ctx, s, res)
	}
	if err != nil {
		res.fail(err, "render")
	}
	return res
}
