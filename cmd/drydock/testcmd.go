package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/rules"
)

// testConfig is drydock.yaml: the suites `drydock test` runs.
type testConfig struct {
	Suites []suiteConfig `json:"suites"`
	// Limits bound evaluation in every suite; the flags replace them.
	Limits limitsConfig `json:"limits,omitempty"`
}

// limitsConfig is drydock.yaml's limits: durations as Go writes them
// (30s, 2m), sizes as 512MiB or 8GiB.
type limitsConfig struct {
	EvalTimeout string `json:"evalTimeout,omitempty"`
	RuleTimeout string `json:"ruleTimeout,omitempty"`
	Memory      string `json:"memory,omitempty"`
	// evalTimeout and ruleTimeout are the durations, as loadConfig
	// parsed them.
	evalTimeout, ruleTimeout time.Duration
}

// suiteConfig is one suite: what to render and what to check it against.
// Paths are relative to the config file.
type suiteConfig struct {
	Name          string   `json:"name"`
	Inputs        []string `json:"inputs"`
	Definitions   []string `json:"definitions,omitempty"`
	Clusters      []string `json:"clusters,omitempty"`
	Observed      []string `json:"observed,omitempty"`
	NoBuiltins    bool     `json:"noBuiltins,omitempty"`
	StopAtSuspend bool     `json:"stopAtSuspend,omitempty"`
	// Golden is the committed tree the render must match ("" skips it).
	Golden string `json:"golden,omitempty"`
	// Policies are directories of .rego files (default: policy/ when it
	// exists beside the config).
	Policies      []string `json:"policies,omitempty"`
	Data          []string `json:"data,omitempty"`
	Namespaces    []string `json:"namespaces,omitempty"`
	AllNamespaces bool     `json:"allNamespaces,omitempty"`
	Combine       bool     `json:"combine,omitempty"`
	RegoVersion   string   `json:"regoVersion,omitempty"`
}

// Finding levels.
const (
	levelError   = "error"
	levelWarning = "warning"
)

// finding is one thing a check reports, located in the authored input.
type finding struct {
	Suite string `json:"suite"`
	// Check is "render", "golden" or "rules/<namespace>.<rule>".
	Check   string       `json:"check"`
	Level   string       `json:"level"`
	Message string       `json:"message"`
	Pos     manifest.Pos `json:"-"`
	// Object is the object's path in the output tree, when about one.
	Object string `json:"object,omitempty"`
	// Diff is the unified diff of a changed golden file.
	Diff string `json:"diff,omitempty"`
}

// suiteResult is what running one suite found.
type suiteResult struct {
	Name    string
	Objects int
	// Checks are the checks that ran, for reports listing passes too.
	Checks   []string
	Findings []finding
	// Updated lists golden files --update wrote or removed.
	Updated []string
	// Err is bad input: the suite could not be checked.
	Err error
}

func (r *suiteResult) failed() bool {
	for _, f := range r.Findings {
		if f.Level == levelError {
			return true
		}
	}
	return false
}

type testOptions struct {
	// rules holds the rule flags; set ones apply to every suite.
	rules ruleFlags
	// engines compiles each distinct rule set once for all suites.
	engines *engineCache
	config  string
	update  bool
	prune   bool
	ci      bool
	format  string
	shard   string
	workers int
	out     string
	// lim holds the limit flags; limits and ruleTimeout are in force.
	lim         limitFlags
	ruleTimeout time.Duration
	limits      pipeline.Limits
}

func runTest(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var o testOptions
	fs.StringVarP(&o.config, "config", "c", "drydock.yaml", "suite configuration file")
	fs.BoolVar(&o.update, "update", false, "rewrite the golden trees to match the render (not in CI mode)")
	fs.BoolVar(&o.prune, "prune", false, "with --update, delete golden files that no longer render")
	fs.BoolVar(&o.ci, "ci", os.Getenv("CI") == "true", "CI mode: never write; missing, stale or extra golden files fail (default on when CI=true)")
	fs.StringVar(&o.format, "format", "text", "report format: text, json, junit, sarif or github")
	fs.StringVar(&o.shard, "shard", "", "run only shard i of n (i/n, 1-based): suites are dealt round-robin by name")
	fs.IntVar(&o.workers, "workers", 0, "suites run in parallel (default: number of CPUs)")
	fs.StringVarP(&o.out, "output", "o", "", "write the report to FILE instead of stdout")
	fs.StringArrayVarP(&o.rules.policies, "policy", "p", nil, "directory of .rego policies for every suite (repeatable; default: each suite's policies, else policy/)")
	fs.StringArrayVar(&o.rules.data, "data", nil, "JSON/YAML data files or directories for the policies (repeatable)")
	fs.StringArrayVar(&o.rules.namespaces, "namespace", nil, "Rego namespace to evaluate (repeatable; default main)")
	fs.BoolVar(&o.rules.allNamespaces, "all-namespaces", false, "evaluate every namespace of the policies")
	fs.BoolVar(&o.rules.combine, "combine", false, "give each rule a whole cluster's objects at once (conftest --combine)")
	fs.StringVar(&o.rules.regoVersion, "rego-version", "", "Rego syntax of the policies: v1 (default) or v0")
	o.lim.register(fs)
	fs.DurationVar(&o.ruleTimeout, "rule-timeout", defaultRuleTimeout, "time limit of each policy namespace's evaluation on one object; 0: none")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: drydock test [flags]\n\nRenders every suite of the config, compares it with its golden tree and runs its\nOPA rules. Exit 0 ok, 1 a check failed, 2 bad input or usage.\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "drydock test: unexpected arguments %q (suites come from --config)\n", fs.Args())
		return exitUsage
	}
	report, ok := reporters[o.format]
	if !ok {
		fmt.Fprintf(stderr, "drydock test: unknown --format %q (text, json, junit, sarif, github)\n", o.format)
		return exitUsage
	}
	if o.update && o.ci {
		fmt.Fprintln(stderr, "drydock test: --update writes golden files, which CI mode never does (unset CI or --ci=false)")
		return exitUsage
	}
	if o.prune && !o.update {
		fmt.Fprintln(stderr, "drydock test: --prune only makes sense with --update")
		return exitUsage
	}
	cfg, base, err := loadConfig(o.config)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitUsage
	}
	if err := o.applyLimits(fs, cfg.Limits); err != nil {
		fmt.Fprintf(stderr, "drydock test: %v\n", err)
		return exitUsage
	}
	suites, err := shard(cfg.Suites, o.shard)
	if err != nil {
		fmt.Fprintf(stderr, "drydock test: %v\n", err)
		return exitUsage
	}
	if v := o.rules.regoVersion; v != "" && v != "v0" && v != "v1" {
		fmt.Fprintln(stderr, "drydock test: --rego-version must be v0 or v1")
		return exitUsage
	}
	if err := checkFlagPaths(flagPaths{"--policy", o.rules.policies}, flagPaths{"--data", o.rules.data}); err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitUsage
	}
	for i := range suites {
		o.rules.apply(fs, base, &suites[i])
	}
	o.engines = &engineCache{m: map[string]*cachedEngine{}}
	results := runSuites(context.Background(), suites, base, o)
	if err := writeReport(stdout, results, o, report); err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitUsage
	}
	if o.format == "github" {
		if err := writeStepSummary(results); err != nil {
			fmt.Fprintf(stderr, "drydock: writing the job summary: %v\n", err)
			return exitUsage
		}
	}
	code := exitOK
	for _, r := range results {
		switch {
		case r.Err != nil:
			fmt.Fprintf(stderr, "drydock: suite %s: %v\n", r.Name, r.Err)
			fmt.Fprint(stderr, limitHint(r.Err))
			code = max(code, exitUsage)
		case r.failed():
			code = max(code, exitCheck)
		}
	}
	return code
}

// writeReport writes the report to -o FILE, else to stdout. Any failed
// write or close is an error naming the destination: a truncated report
// must not pass for a complete one.
func writeReport(stdout io.Writer, results []*suiteResult, o testOptions, report func(io.Writer, []*suiteResult, testOptions) error) error {
	if o.out == "" {
		sw := &stickyWriter{w: stdout}
		if err := report(sw, results, o); err != nil || sw.err != nil {
			return fmt.Errorf("write the report to standard output: %w", errors.Join(err, sw.err))
		}
		return nil
	}
	f, err := os.Create(o.out)
	if err != nil {
		return err
	}
	sw := &stickyWriter{w: f}
	err = report(sw, results, o)
	if cerr := f.Close(); err == nil && sw.err == nil {
		err = cerr
	}
	if err != nil || sw.err != nil {
		return fmt.Errorf("write the report to %s: %w", o.out, errors.Join(err, sw.err))
	}
	return nil
}

// applyLimits sets the limits in force: a flag given on the command line,
// else drydock.yaml's limits (checked by loadConfig), else the default.
func (o *testOptions) applyLimits(fs *pflag.FlagSet, c limitsConfig) error {
	if c.EvalTimeout != "" && !fs.Changed("eval-timeout") {
		o.lim.evalTimeout = c.evalTimeout
	}
	if c.RuleTimeout != "" && !fs.Changed("rule-timeout") {
		o.ruleTimeout = c.ruleTimeout
	}
	if c.Memory != "" && !fs.Changed("memory-limit") {
		o.lim.memory = c.Memory
	}
	var err error
	o.limits, err = o.lim.limits()
	return err
}

// ruleFlags are conftest's flags; given on the command line they replace
// the suites' own settings.
type ruleFlags struct {
	policies, data, namespaces []string
	allNamespaces, combine     bool
	regoVersion                string
}

func (f ruleFlags) apply(fs *pflag.FlagSet, base string, s *suiteConfig) {
	if fs.Changed("policy") {
		s.Policies = fromBase(base, f.policies)
	}
	if fs.Changed("data") {
		s.Data = fromBase(base, f.data)
	}
	if fs.Changed("namespace") {
		s.Namespaces = f.namespaces
	}
	if fs.Changed("all-namespaces") {
		s.AllNamespaces = f.allNamespaces
	}
	if fs.Changed("combine") {
		s.Combine = f.combine
	}
	if fs.Changed("rego-version") {
		s.RegoVersion = f.regoVersion
	}
}

// fromBase rewrites command-line paths, relative to the working
// directory, relative to base (the config's directory, which a suite's
// paths are joined to), so that joined they read as the user typed them
// and messages name them so. Absolute paths stay absolute.
func fromBase(base string, paths []string) []string {
	absBase, baseErr := filepath.Abs(base)
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		abs, err := filepath.Abs(p)
		if err != nil || filepath.IsAbs(p) {
			continue
		}
		out[i] = abs
		if r, err := filepath.Rel(absBase, abs); baseErr == nil && err == nil {
			out[i] = r
		}
	}
	return out
}

// shard keeps the suites of shard "i/n": sorted by name, dealt round-robin.
func shard(suites []suiteConfig, spec string) ([]suiteConfig, error) {
	sorted := append([]suiteConfig(nil), suites...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	if spec == "" {
		return sorted, nil
	}
	is, ns, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return nil, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n", spec)
	}
	var out []suiteConfig
	for k, s := range sorted {
		if k%n == i-1 {
			out = append(out, s)
		}
	}
	return out, nil
}

// runSuites runs suites in parallel; results keep the suites' order.
func runSuites(ctx context.Context, suites []suiteConfig, base string, o testOptions) []*suiteResult {
	workers := o.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]*suiteResult, len(suites))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	var panicked atomic.Pointer[suitePanic]
	for i := range suites {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, &suitePanic{value: r, stack: debug.Stack()})
				}
			}()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = runSuite(ctx, suites[i], base, o)
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p) // in run's goroutine, where the command boundary recovers it
	}
	return results
}

// suitePanic is a panic of a suite's goroutine with that goroutine's stack.
type suitePanic struct {
	value any
	stack []byte
}

func (p *suitePanic) String() string     { return fmt.Sprint(p.value) }
func (p *suitePanic) StackTrace() []byte { return p.stack }

func rel(base string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if filepath.IsAbs(p) {
			out[i] = p
		} else {
			out[i] = filepath.Join(base, p)
		}
	}
	return out
}

func runSuite(ctx context.Context, s suiteConfig, base string, o testOptions) *suiteResult {
	r := &suiteResult{Name: s.Name, Checks: []string{"render"}}
	in := pipeline.Inputs{
		Paths: rel(base, s.Inputs), DefinitionPaths: rel(base, s.Definitions), ClusterPaths: rel(base, s.Clusters),
		ObservedPaths: rel(base, s.Observed), NoBuiltins: s.NoBuiltins, Workers: 1, Limits: o.limits,
	}
	in.Workflow.StopAtSuspend = s.StopAtSuspend
	res, err := pipeline.Run(ctx, in)
	if err != nil {
		r.Err = err
		pos := errorPos(err)
		msg := strings.TrimPrefix(err.Error(), pos.String()+": ")
		r.Findings = append(r.Findings, finding{Suite: s.Name, Check: "render", Level: levelError, Message: msg, Pos: pos})
		return r
	}
	for _, w := range res.SortedWarnings() {
		r.Findings = append(r.Findings, finding{Suite: s.Name, Check: "render", Level: levelWarning, Message: w})
	}
	tree, err := outputTree(res.Clusters)
	if err != nil {
		r.Err = err
		return r
	}
	r.Objects = len(tree)
	origins := map[string]cluster.Origin{}
	for _, c := range res.Clusters.Clusters() {
		for _, e := range res.Clusters.List(c) {
			origins[golden.ObjectPath(c, e.Object)] = e.Origin
		}
	}
	if s.Golden != "" {
		r.Checks = append(r.Checks, "golden")
		if err := checkGolden(r, filepath.Join(base, s.Golden), tree, origins, o); err != nil {
			r.Err = err
			return r
		}
	}
	if err := checkRules(ctx, r, s, base, res.Clusters, o.engines, o.ruleTimeout); err != nil {
		r.Err = err
	}
	return r
}

func checkGolden(r *suiteResult, dir string, tree golden.Tree, origins map[string]cluster.Origin, o testOptions) error {
	if o.update {
		rep, err := golden.Update(dir, tree, golden.UpdateOptions{Prune: o.prune})
		if err != nil {
			return err
		}
		r.Updated = append(append(append(r.Updated, rep.Added...), rep.Changed...), prunedPaths(rep)...)
		leftoverFindings(r, dir, rep, "removed")
		if !rep.Pruned {
			for _, p := range rep.Removed {
				r.Findings = append(r.Findings, finding{Suite: r.Name, Check: "golden", Level: levelWarning, Object: p,
					Pos:     manifest.Pos{File: filepath.Join(dir, filepath.FromSlash(p)), Line: 1, Col: 1},
					Message: fmt.Sprintf("%s no longer renders; kept (use --prune to delete it)", p)})
			}
		}
		return nil
	}
	rep, err := golden.Compare(dir, tree)
	if err != nil {
		return err
	}
	leftoverFindings(r, dir, rep, "the next drydock test --update removes it")
	hint := "run drydock test --update to accept it"
	if o.ci {
		hint = "the golden tree is stale: run drydock test --update locally and commit it"
	}
	for _, p := range rep.Added {
		r.Findings = append(r.Findings, finding{Suite: r.Name, Check: "golden", Level: levelError, Object: p, Pos: origins[p].Pos,
			Message: fmt.Sprintf("%s renders but is not in the golden tree (%s)", p, hint)})
	}
	for _, p := range rep.Changed {
		r.Findings = append(r.Findings, finding{Suite: r.Name, Check: "golden", Level: levelError, Object: p, Pos: origins[p].Pos,
			Message: fmt.Sprintf("%s differs from the golden tree (%s)", p, hint), Diff: rep.Diffs[p]})
	}
	for _, p := range rep.Removed {
		r.Findings = append(r.Findings, finding{Suite: r.Name, Check: "golden", Level: levelError, Object: p,
			Pos:     manifest.Pos{File: filepath.Join(dir, filepath.FromSlash(p)), Line: 1, Col: 1},
			Message: fmt.Sprintf("%s is in the golden tree but no longer renders (%s with --prune)", p, hint)})
	}
	return nil
}

// leftoverFindings warns about what an interrupted update left beside the
// golden directory dir.
func leftoverFindings(r *suiteResult, dir string, rep *golden.Report, what string) {
	for _, l := range rep.Leftovers {
		r.Findings = append(r.Findings, finding{Suite: r.Name, Check: "golden", Level: levelWarning,
			Pos:     manifest.Pos{File: filepath.Join(filepath.Dir(dir), l), Line: 1, Col: 1},
			Message: fmt.Sprintf("%s is left over from an interrupted golden update (%s)", l, what)})
	}
}

func prunedPaths(rep *golden.Report) []string {
	if rep.Pruned {
		return rep.Removed
	}
	return nil
}

// engineCache loads and compiles each distinct rule set once; suites
// sharing policies share the prepared engine (safe for concurrent use).
type engineCache struct {
	mu sync.Mutex
	m  map[string]*cachedEngine
}

type cachedEngine struct {
	once sync.Once
	eng  *rules.Engine
	err  error
}

func (c *engineCache) load(ctx context.Context, opts rules.Options) (*rules.Engine, error) {
	key := fmt.Sprintf("%q %q %q %t %t %s", opts.PolicyDirs, opts.DataPaths, opts.Namespaces, opts.AllNamespaces, opts.RegoV0, opts.QueryTimeout)
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &cachedEngine{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.eng, e.err = rules.Load(ctx, opts) })
	return e.eng, e.err
}

func checkRules(ctx context.Context, r *suiteResult, s suiteConfig, base string, store *cluster.Store, engines *engineCache, timeout time.Duration) error {
	dirs := rel(base, s.Policies)
	if len(s.Policies) == 0 {
		def := filepath.Join(base, "policy")
		if info, err := os.Stat(def); err != nil || !info.IsDir() {
			return nil
		}
		dirs = []string{def}
	}
	eng, err := engines.load(ctx, rules.Options{PolicyDirs: dirs, DataPaths: rel(base, s.Data),
		Namespaces: s.Namespaces, AllNamespaces: s.AllNamespaces, RegoV0: s.RegoVersion == "v0", QueryTimeout: timeout})
	if err != nil {
		return err
	}
	var inputs []rules.Input
	var paths []string
	var origins []manifest.Pos
	groups := map[string][]rules.Input{}
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			in := rules.Input{Object: e.Object, Context: rules.Context{Cluster: c, Namespace: e.Object.Namespace(),
				Application: e.Origin.Application, Component: e.Origin.Component, Source: posString(e.Origin.Pos)}}
			inputs = append(inputs, in)
			paths = append(paths, golden.ObjectPath(c, e.Object))
			origins = append(origins, e.Origin.Pos)
			groups[c] = append(groups[c], in)
		}
	}
	var rep *rules.Report
	if s.Combine {
		rep, err = eng.EvalCombined(ctx, groups)
	} else {
		rep, err = eng.Eval(ctx, inputs, 0)
	}
	if err != nil {
		return err
	}
	checks := map[string]bool{}
	for _, ns := range eng.Namespaces() {
		checks["rules/"+ns] = true
	}
	for _, res := range rep.Results {
		check := "rules/" + res.Namespace + "." + res.Rule
		checks[check] = true
		f := finding{Suite: r.Name, Check: check, Message: res.Message}
		switch res.Kind {
		case rules.Failure:
			f.Level = levelError
		case rules.Warning:
			f.Level = levelWarning
		default:
			continue
		}
		if !s.Combine && res.Input >= 0 && res.Input < len(inputs) {
			f.Object = paths[res.Input]
			f.Pos = origins[res.Input]
		} else if s.Combine {
			f.Object = res.Group
		}
		r.Findings = append(r.Findings, f)
	}
	r.Checks = append(r.Checks, manifest.SortedKeys(checks)...)
	return nil
}

func posString(p manifest.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return p.String()
}

// errorPos reads the file:line:col an input error starts with.
func errorPos(err error) manifest.Pos {
	msg := err.Error()
	parts := strings.SplitN(msg, ":", 4)
	if len(parts) < 3 {
		return manifest.Pos{}
	}
	line, err1 := strconv.Atoi(parts[1])
	if err1 != nil || line < 1 {
		return manifest.Pos{}
	}
	p := manifest.Pos{File: parts[0], Line: line}
	if len(parts) == 4 {
		if col, err := strconv.Atoi(parts[2]); err == nil {
			p.Col = col
		}
	}
	return p
}
