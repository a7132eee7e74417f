package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/parsers"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/rules"
)

// testFlags are the flags of drydock test.
type testFlags struct {
	// charts are --charts and --source, for every suite.
	charts chartFlags
	// configIsConftest: -c named conftest's configuration file (conftest
	// mode, manifests given).
	configIsConftest bool
	// protoDirs are --proto-file-dirs.
	protoDirs []string
	// rules holds the rule flags; set ones apply to every suite.
	rules    ruleFlags
	config   string
	update   bool
	prune    bool
	adopt    bool
	ci       bool
	format   string
	shard    string
	suites   []string
	affected bool
	// definitionsOnly runs only the definition tests.
	definitionsOnly bool
	coverage        bool
	sarif           string
	failOnWarn      bool
	strict          bool
	fields          string
	// conftest gives conftest's exit codes, and with plain manifests
	// conftest's output (-o is its format).
	conftest    bool
	conftestOut conftestFlags
	// cformat is conftest's output format of a conftest-mode run of plain
	// manifests (set by setup), nil otherwise.
	cformat report.Format
	// listItems splits plain manifests' Lists into their items.
	listItems bool
	// parser and ignore are conftest test's --parser and --ignore, for
	// plain manifests.
	parser, ignore string
	watch          bool
	// stdout is where the report goes without -o (coloured on a terminal).
	stdout io.Writer
	// stdin is read for the plain manifest "-".
	stdin   io.Reader
	workers int
	// out is -o: the output format (conftest's with --conftest and plain
	// manifests); outFile is --output-file, where the report goes.
	out, outFile string
	// lim and ruleTimeout hold the limit flags.
	lim         limitFlags
	ruleTimeout time.Duration
	// loaded is the configuration of the last run (nil: it did not
	// load): what --watch reacts to.
	loaded atomic.Pointer[check.Config]
	// cache are --cache and --no-cache; store is the cache they name,
	// opened at the first run and kept for the next (--watch).
	cache     cacheFlags
	storeOnce sync.Once
	store     *cache.Store
}

// openStore is the process's cache: --cache DIR, else drydock's directory
// in the user's cache directory; none with --no-cache, or when it cannot
// be opened (a warning says why --cache DIR did not; the run reads and
// renders everything).
func (o *testFlags) openStore(stderr io.Writer) *cache.Store {
	o.storeOnce.Do(func() { o.store = o.cache.open(stderr, "checking without it", true) })
	return o.store
}

// closeStore closes the cache, if one was opened.
func (o *testFlags) closeStore(stderr io.Writer) {
	if o.store == nil {
		return
	}
	closeCache(o.store, nil, stderr)
}

func (o *testFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&o.config, "config", "c", "drydock.yaml", "suite configuration file")
	fs.BoolVar(&o.update, "update", false, "rewrite the golden trees to match the render (not in CI mode)")
	fs.BoolVar(&o.prune, "prune", false, "with --update, delete golden files that no longer render")
	fs.BoolVar(&o.adopt, "adopt", false, "with --update, take over the golden files drydock did not write (a tree written before ownership files), listing them")
	fs.BoolVar(&o.ci, "ci", os.Getenv("CI") == "true", "CI mode: never write; missing, stale or extra golden files fail (default on when CI=true)")
	fs.StringVar(&o.format, "format", "text", "report format: text, json, junit, sarif or github")
	fs.StringVar(&o.shard, "shard", "", "run only shard i of n (i/n, 1-based): every suite's applications and plain files are split among n jobs by a hash of their names; merge the jobs' --format json reports with drydock report merge (see docs/sharding.md)")
	fs.StringArrayVar(&o.suites, "suite", nil, "run only the suite of this name (repeatable)")
	fs.BoolVar(&o.coverage, "coverage", false, "report which if branches of the tested definitions' templates the definition tests took")
	fs.BoolVar(&o.definitionsOnly, "definitions-only", false, "run only the suites' definition tests (*_test.yaml): no render, golden, validation or rules")
	fs.BoolVar(&o.affected, "affected", false, "the arguments are changed files: run only the suites that read them (pre-commit's hook)")
	fs.StringVar(&o.sarif, "sarif", "", "also write the SARIF report to FILE (one run for GitHub annotations and code scanning)")
	fs.BoolVar(&o.failOnWarn, "fail-on-warn", false, "exit 1 when a check warns (a rule's warn, a deprecated API, a render warning), as conftest --fail-on-warn")
	fs.BoolVar(&o.conftest, "conftest", false, "conftest's exit codes: 1 for failures and for any error (bad policy, bad input, bad usage); with --fail-on-warn 2 for failures, 1 for warnings only; with plain manifests, conftest's output (-o FORMAT)")
	fs.StringArrayVar(&o.rules.gatekeeper, "gatekeeper", nil, "Gatekeeper ConstraintTemplates and Constraints (file or directory, repeatable) for every suite: each cluster's objects are reviewed as gator does")
	fs.BoolVar(&o.rules.k8sNative, "enable-k8s-native-validation", true, "evaluate Gatekeeper templates with their K8sNativeValidation (CEL) code when they have it, as gator does; false: with their Rego only (replaces every suite's enableK8sNativeValidation)")
	fs.BoolVar(&o.rules.emptyNamespace, "gatekeeper-empty-namespace", false, "match objects with the Gatekeeper constraints as gator test does: one without metadata.namespace is in an empty Namespace, one of namespace default in an unlabeled default Namespace when there is none (default: in none, as gator verify and Gatekeeper's audit)")
	fs.BoolVar(&o.rules.showBuiltinErrors, "show-builtin-errors", false, "a failing built-in in a policy is an error, as conftest --show-builtin-errors (default: the rule does not fire)")
	fs.StringVar(&o.rules.capabilities, "capabilities", "", "OPA capabilities file: the policies may use only the built-ins it lists (conftest --capabilities)")
	fs.StringVar(&o.rules.now, "now", "", "the time the policies see, RFC 3339 (e.g. 2026-01-02T15:04:05Z): makes time.now_ns available and runs alike")
	fs.BoolVar(&o.listItems, "list-items", false, "with plain manifests, give the rules each item of a kind: List (default: the List as one document, as conftest)")
	fs.StringSliceVar(&o.protoDirs, "proto-file-dirs", nil, "with plain manifests, directories of .proto files giving textproto inputs their message types, as conftest test --proto-file-dirs")
	fs.String("config-file", "", "with --conftest: conftest's configuration file (conftest --config-file, and -c when files are given; default conftest.json, .toml, .yaml or .yml in the working directory, or $CONFTEST_CONFIG_FILE)")
	fs.StringVar(&o.parser, "parser", "", "with plain manifests, parse every file with this parser, as conftest test --parser ("+strings.Join(parsers.Names(), ", ")+"); default: each file's by its name")
	fs.StringVar(&o.ignore, "ignore", "", "with plain manifests, a regular expression: the files whose paths it matches are not read (conftest test --ignore)")
	fs.BoolVar(&o.strict, "strict", false, "strict mode for every suite: a suite rendering no object, a custom resource without a schema and Rego that OPA's strict mode refuses are errors (conftest --strict)")
	fs.IntVar(&o.workers, "workers", 0, "applications rendered in parallel in the whole run, as render --workers; shared among the suites that run at once (default: number of CPUs)")
	o.charts.register(fs)
	fs.StringVar(&o.fields, "field-validation", "", "for every suite, in place of its fieldValidation: strict, warn or ignore (see render --field-validation)")
	fs.StringVarP(&o.out, "output", "o", "", "output format, as --format ("+strings.Join(report.Formats, ", ")+"); with --conftest and plain manifests, conftest's: "+strings.Join(report.ConftestFormats, ", ")+" (default stdout)")
	fs.StringVar(&o.outFile, "output-file", "", "write the report to `FILE` instead of stdout")
	o.conftestOut.register(fs)
	fs.StringArrayVarP(&o.rules.policies, "policy", "p", nil, "directory of .rego policies for every suite (repeatable; default: each suite's policies, else policy/)")
	fs.StringArrayVarP(&o.rules.data, "data", "d", nil, "JSON/YAML data files or directories for the policies (repeatable): sub/x.yaml under a directory given is data.sub, as conftest --data; a.b:PATH loads PATH under data.a.b")
	fs.StringArrayVar(&o.rules.namespaces, "namespace", nil, "Rego namespace to evaluate (repeatable; default main)")
	fs.BoolVar(&o.rules.allNamespaces, "all-namespaces", false, "evaluate every namespace of the policies")
	fs.BoolVar(&o.rules.combine, "combine", false, "give each rule a whole cluster's objects at once (conftest --combine)")
	fs.StringVar(&o.rules.regoVersion, "rego-version", "", "Rego syntax of the policies: v1 (default) or v0")
	o.lim.register(fs)
	fs.DurationVar(&o.ruleTimeout, "rule-timeout", defaultRuleTimeout, "time limit of each policy namespace's (and Gatekeeper Rego template's) evaluation on one object; one that takes longer is not evaluated again in the run; 0: none")
	fs.BoolVar(&o.watch, "watch", false, "run again on every change under the config's directory; Ctrl-C ends")
	o.cache.register(fs, "keep renders and golden comparisons for the next run in `DIR` (default: drydock's directory in the user's cache directory)", "render, read and compare everything; keep nothing for the next run")
}

func runTest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := newCommand("test", "test [flags] [FILE...]", "Renders every suite of the config, compares it with its golden tree, validates its objects\nand runs its OPA rules. With FILEs (no --affected), checks them as plain manifests instead,\nas conftest test does: each document, parsed as conftest parses its file, goes to the rules.\nExit 0 ok, 1 a check failed, 2 bad input or usage.")
	fs := cmd.fs
	o := testFlags{stdout: stdout, stdin: stdin}
	o.register(fs)
	if code, done := cmd.parse(args, stdout, stderr); done {
		if code == exitUsage && conftestArg(args) {
			return exitConftestUsage
		}
		return code
	}
	if o.conftest {
		if fs.NArg() > 0 && !o.affected && fs.Changed("config") && !fs.Changed("config-file") {
			// Manifests given: no drydock.yaml is read, so -c is conftest's
			// -c, its --config-file.
			_ = fs.Set("config-file", o.config)
			o.configIsConftest = true
		}
		if err := applyConftestConfig(fs, "test", stderr); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return exitCheck // conftest's exit code for any error
		}
	}
	if err := o.outputFormat(fs, stderr); err != nil {
		return cmd.fail(stderr, err)
	}
	if o.cache.off && fs.Changed("cache") {
		return cmd.fail(stderr, errors.New("--no-cache keeps nothing: not with --cache"))
	}
	defer o.closeStore(stderr)
	if o.watch {
		_ = o.findConfig(fs) // not found: each run says so
		if o.update || o.outFile != "" || o.sarif != "" {
			return cmd.fail(stderr, errors.New("--watch reports to the terminal: not with --update, --output-file or --sarif"))
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return watchPaths(ctx, []string{filepath.Dir(o.config)}, o.trigger(stdout), stderr, func() {
			code := o.once(ctx, fs, stdout, stderr)
			fmt.Fprintf(stderr, "drydock: %s: exit %d; watching for changes (Ctrl-C ends)\n", time.Now().Format("15:04:05"), code)
		})
	}
	return o.once(context.Background(), fs, stdout, stderr)
}

// trigger is what test --watch reacts to: the config file and the files
// its suites read (Suite.Reads; every file while the config does not
// load), but not definition tests' snapshots, which a run writes when
// they are missing, nor the file stdout goes to.
func (o *testFlags) trigger(stdout io.Writer) trigger {
	config, _ := filepath.Abs(o.config)
	return trigger{
		file: func(p string) bool {
			cfg := o.loaded.Load()
			if a, _ := filepath.Abs(p); a == config || cfg == nil {
				return true
			}
			if filepath.Base(filepath.Dir(p)) == "__snapshot__" {
				return false
			}
			return slices.ContainsFunc(cfg.Suites, func(s check.Suite) bool { return s.Reads(cfg.Dir, p) })
		},
		dir:    func(p string) bool { return filepath.Base(p) != "__snapshot__" },
		stdout: regularFile(stdout),
	}
}

// once is one drydock test run: its exit code. Under --watch, ctx ends
// with an interrupt, which stops a run under way.
func (o *testFlags) once(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) int {
	cfg, opts, format, err := o.setup(fs)
	o.loaded.Store(cfg)
	if err != nil {
		fmt.Fprintln(stderr, errText(err))
		if o.conftest {
			return exitConftestUsage
		}
		return exitUsage
	}
	if o.affected && len(cfg.Suites) == 0 {
		fmt.Fprintln(stderr, "drydock test: no suite reads the changed files")
		return exitOK
	}
	opts.Cache = o.openStore(stderr)
	bar := startProgress(stderr, "checked %d/%d suites")
	if bar != nil {
		opts.Progress = bar.update
	}
	res := check.Run(ctx, cfg, opts)
	bar.end()
	if o.cformat != nil {
		return o.conftestRun(stdout, stderr, res)
	}
	if err := writeReport(stdout, res, o.outFile, format); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	if o.sarif != "" {
		wd, _ := os.Getwd()
		sarif, _ := report.Lookup("sarif", report.Options{Version: version, Dir: wd})
		if err := writeReport(stdout, res, o.sarif, sarif); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return exitUsage
		}
	}
	if o.format == "github" {
		if err := writeStepSummary(res); err != nil {
			fmt.Fprintf(stderr, "drydock: writing the job summary: %s\n", errText(err))
			return exitUsage
		}
	}
	for _, s := range res.Suites {
		for _, n := range s.Notes {
			fmt.Fprintf(stderr, "drydock: suite %s: %s\n", s.Name, n)
		}
		if s.Err != nil {
			fmt.Fprintf(stderr, "drydock: suite %s: %s\n", s.Name, errText(s.Err))
			fmt.Fprint(stderr, limitHint(s.Err))
		}
	}
	return res.Exit(o.failOnWarn, o.conftest)
}

// findConfig sets o.config to the drydock.yaml found from the working
// directory up to the repository root when --config is not given
// (check.FindConfig); an explicit --config is read as it is.
func (o *testFlags) findConfig(fs *pflag.FlagSet) error {
	if fs.Changed("config") {
		return nil
	}
	path, err := check.FindConfig(fs.Lookup("config").DefValue)
	if err == nil {
		o.config = path
	}
	return err
}

// setup checks the flags and loads the config, with the rule flags
// applied to its suites. An error is the whole line to print (exit 2).
func (o *testFlags) setup(fs *pflag.FlagSet) (*check.Config, check.Options, report.Format, error) {
	fail := func(format string, args ...any) (*check.Config, check.Options, report.Format, error) {
		return nil, check.Options{}, nil, fmt.Errorf(format, args...)
	}
	plain := fs.NArg() > 0 && !o.affected
	if plain && fs.Changed("config") && !o.configIsConftest {
		return fail("drydock test: arguments are plain manifests to check, which --config does not take (suites come from --config; with --affected the arguments are changed files)")
	}
	wd, _ := os.Getwd() // "": SARIF keeps absolute paths
	format, ok := report.Lookup(o.format, report.Options{Version: version, Dir: wd, Colour: o.outFile == "" && colour(o.stdout)})
	var err error
	if o.cformat, err = o.checkOutputFlags(fs, plain); err != nil {
		return fail("%w", err)
	}
	switch {
	case !ok:
		return fail("drydock test: unknown --format %q (%s)", o.format, strings.Join(report.Formats, ", "))
	case o.update && o.ci:
		return fail("drydock test: --update writes golden files, which CI mode never does (unset CI or --ci=false)")
	case o.prune && !o.update:
		return fail("drydock test: --prune only makes sense with --update")
	case o.adopt && !o.update:
		return fail("drydock test: --adopt only makes sense with --update")
	}
	if _, err = check.ParseNow(o.rules.now); err != nil {
		return fail("drydock test: --now %q: %w", o.rules.now, err)
	}
	var cfg *check.Config
	if plain {
		// An empty argument names nothing: conftest skips it (runner/test.go).
		args := slices.DeleteFunc(slices.Clone(fs.Args()), func(a string) bool { return a == "" })
		if err := checkFlagPaths(flagPaths{"argument", args}); err != nil {
			return fail("drydock: %w", err)
		}
		cfg = &check.Config{Dir: ".", Suites: []check.Suite{{Name: "manifests", Inputs: args, Plain: true, ListItems: o.listItems}}}
	} else if err = o.findConfig(fs); err != nil {
		return fail("drydock: %w", err)
	} else if cfg, err = check.LoadConfig(o.config); err != nil {
		return fail("drydock: %w", err)
	}
	if err := o.plainFlags(cfg); err != nil {
		return fail("drydock test: %w", err)
	}
	// What drydock writes is never a suite's input, whichever suites run.
	skip := slices.Concat(cfg.GoldenDirs(), nonEmpty(o.sarif))
	if o.cformat == nil {
		skip = append(skip, nonEmpty(o.outFile)...)
	}
	if len(o.suites) > 0 {
		for _, want := range o.suites {
			if _, err := cfg.Suite(want); err != nil {
				return fail("drydock test: %w", err)
			}
		}
		cfg.Suites = slices.DeleteFunc(cfg.Suites, func(s check.Suite) bool { return !slices.Contains(o.suites, s.Name) })
	}
	if o.affected {
		config, _ := filepath.Abs(o.config)
		var keep []check.Suite
		for _, s := range cfg.Suites {
			for _, f := range fs.Args() {
				if a, _ := filepath.Abs(f); a == config || s.Reads(cfg.Dir, f) {
					keep = append(keep, s)
					break
				}
			}
		}
		cfg.Suites = keep
	}
	opts, err := o.options(fs, cfg.Limits)
	if err != nil {
		return fail("drydock test: %w", err)
	}
	opts.Skip = skip
	opts.Conftest, opts.Trace = o.cformat != nil, o.conftestOut.trace
	if fs.Changed("shard") && o.shard == "" {
		// An unset matrix variable: every job would run everything.
		return fail("drydock test: --shard \"\": want i/n with 1 <= i <= n")
	}
	if opts.Shard, err = check.ParseShard(o.shard); err != nil {
		return fail("drydock test: --shard %w", err)
	}
	if opts.Shard.Split() && o.update {
		return fail("drydock test: --update with --shard %s would write a part of each golden tree: update without --shard", o.shard)
	}
	if v := o.rules.regoVersion; v != "" && v != "v0" && v != "v1" {
		return fail("drydock test: --rego-version must be v0 or v1")
	}
	if err := checkFlagPaths(flagPaths{"--policy", o.rules.policies}, flagPaths{"--data", dataFilePaths(o.rules.data)}, flagPaths{"--capabilities", nonEmpty(o.rules.capabilities)}, flagPaths{"--gatekeeper", o.rules.gatekeeper}); err != nil {
		return fail("drydock: %w", err)
	}
	for i := range cfg.Suites {
		o.rules.apply(fs, cfg.Dir, &cfg.Suites[i])
	}
	return cfg, opts, format, nil
}

// options are the run's options. A limit flag given on the command line
// wins, else drydock.yaml's limit (checked by LoadConfig), else the
// flag's default. The flags are left as parsed: under --watch the next
// run reads the config again.
func (o *testFlags) options(fs *pflag.FlagSet, c check.Limits) (check.Options, error) {
	eval, rule, err := c.Durations()
	if err != nil {
		return check.Options{}, err
	}
	lim, ruleTimeout := o.lim, o.ruleTimeout
	if c.EvalTimeout != "" && !fs.Changed("eval-timeout") {
		lim.evalTimeout = eval
	}
	if c.RuleTimeout != "" && !fs.Changed("rule-timeout") {
		ruleTimeout = rule
	}
	if c.Memory != "" && !fs.Changed("memory-limit") {
		lim.memory = c.Memory
	}
	limits, err := lim.limits()
	if err != nil {
		return check.Options{}, err
	}
	if o.fields != "" {
		if _, err := fieldValidation(o.fields); err != nil {
			return check.Options{}, err
		}
	}
	charts, err := o.charts.config()
	if err != nil {
		return check.Options{}, err
	}
	return check.Options{Charts: charts, Stdin: o.stdin, ProtoFileDirs: o.protoDirs, Update: o.update, Prune: o.prune, Adopt: o.adopt, CI: o.ci, Workers: o.workers, Limits: limits, RuleTimeout: ruleTimeout, DefinitionsOnly: o.definitionsOnly, Coverage: o.coverage, Strict: o.strict, FieldValidation: o.fields}, nil
}

// plainFlags applies --parser and --ignore to the plain suites of cfg
// (they replace the suites' settings); either flag with no plain suite
// to apply to, an unknown parser or a bad expression is an error.
func (o *testFlags) plainFlags(cfg *check.Config) error {
	if o.parser == "" && o.ignore == "" {
		return nil
	}
	if o.parser != "" && !parsers.Known(o.parser) {
		return fmt.Errorf("--parser %q: %w (parsers: %s)", o.parser, parsers.ErrUnknown, strings.Join(parsers.Names(), ", "))
	}
	if _, err := regexp.Compile(o.ignore); err != nil {
		return fmt.Errorf("--ignore: %w", err)
	}
	plain := false
	for i := range cfg.Suites {
		if s := &cfg.Suites[i]; s.Plain {
			plain = true
			s.Parser = cmp.Or(o.parser, s.Parser)
			s.IgnorePattern = cmp.Or(o.ignore, s.IgnorePattern)
		}
	}
	if !plain {
		return errors.New("--parser and --ignore are for plain manifests (drydock test FILE..., or a suite with plain: true); no suite here is one")
	}
	return nil
}

// writeReport writes the report to the file out, else to stdout. Any
// failed write or close is an error naming the destination: a truncated
// report must not pass for a complete one.
func writeReport(stdout io.Writer, res *check.Result, out string, format report.Format) error {
	if out == "" {
		sw := &report.StickyWriter{W: stdout}
		if err := format.Write(sw, res); err != nil || sw.Err != nil {
			return fmt.Errorf("write the report to standard output: %w", errors.Join(err, sw.Err))
		}
		return nil
	}
	if err := writeFile(out, func(w io.Writer) error { return format.Write(w, res) }); err != nil {
		return fmt.Errorf("write the report to %s: %w", out, err)
	}
	return nil
}

// writeStepSummary appends the Markdown job summary to
// $GITHUB_STEP_SUMMARY when GitHub Actions provides one.
func writeStepSummary(res *check.Result) error {
	return appendStepSummary(func(w io.Writer, room int) error { return report.StepSummary(w, res, room) })
}

// appendStepSummary appends what write writes to $GITHUB_STEP_SUMMARY when
// GitHub Actions provides one. room is what the step's summary has left
// of GitHub's 1 MiB (report.SummaryCap): the file may already hold what
// an earlier command of the step wrote.
func appendStepSummary(write func(w io.Writer, room int) error) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	room := report.SummaryCap
	if fi, err := f.Stat(); err == nil {
		room -= int(min(fi.Size(), int64(room-1)))
	}
	err = write(f, room)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ruleFlags are conftest's flags; given on the command line they replace
// the suites' own settings.
type ruleFlags struct {
	policies, data, namespaces, gatekeeper []string
	allNamespaces, combine                 bool
	regoVersion, capabilities, now         string
	showBuiltinErrors                      bool
	// k8sNative and emptyNamespace are the Gatekeeper switches.
	k8sNative, emptyNamespace bool
}

// nonEmpty is p as a list: none when p is "".
func nonEmpty(p string) []string {
	if p == "" {
		return nil
	}
	return []string{p}
}

func (f ruleFlags) apply(fs *pflag.FlagSet, base string, s *check.Suite) {
	if fs.Changed("policy") {
		s.Policies = fromBase(base, f.policies)
	}
	if fs.Changed("data") {
		s.Data = dataFromBase(base, f.data)
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
	if fs.Changed("gatekeeper") {
		s.Gatekeeper = fromBase(base, f.gatekeeper)
	}
	if fs.Changed("enable-k8s-native-validation") {
		s.EnableK8sNativeValidation = &f.k8sNative
	}
	if fs.Changed("gatekeeper-empty-namespace") {
		s.GatekeeperEmptyNamespace = f.emptyNamespace
	}
	if fs.Changed("show-builtin-errors") {
		s.StrictBuiltinErrors = f.showBuiltinErrors
	}
	if fs.Changed("capabilities") {
		s.Capabilities = fromBase(base, []string{f.capabilities})[0]
	}
	if fs.Changed("now") {
		s.Now = f.now
	}
}

// dataFilePaths are the file paths of --data paths, without their place
// under data ("a.b:dir", rules.SplitDataPath).
func dataFilePaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		_, out[i] = rules.SplitDataPath(p)
	}
	return out
}

// dataFromBase is fromBase for --data paths, each keeping its place
// under data.
func dataFromBase(base string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		prefix, path := rules.SplitDataPath(p)
		out[i] = rules.JoinDataPath(prefix, fromBase(base, []string{path})[0])
	}
	return out
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
