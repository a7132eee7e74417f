package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/schemas"
)

// Exit codes, like diff and grep: check's contract.
const (
	exitOK       = check.ExitOK
	exitCheck    = check.ExitFail
	exitUsage    = check.ExitInput
	exitInternal = check.ExitInternal
)

// run is the whole CLI; it returns the exit code. A write to stdout that
// fails (a closed pipe, a full disk) makes the exit code at least 2: the
// output is incomplete. Everything written to stderr (messages, which
// quote names, file names and input text) goes through a
// report.PrintableWriter: an input's escape sequences reach a terminal
// or a CI log made visible, never run.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	out := &report.StickyWriter{W: stdout}
	stderr = &report.PrintableWriter{W: stderr}
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			if p, ok := r.(interface{ StackTrace() []byte }); ok { // a worker's panic, carried here
				stack = p.StackTrace()
			}
			code = internalError(stderr, r, stack)
		}
		if out.Err != nil && code < exitUsage {
			fmt.Fprintf(stderr, "drydock: write standard output: %v\n", out.Err)
			code = exitUsage
		}
	}()
	// Rego's time built-ins read the local zone for "Local"; drydock's
	// verdicts must not depend on the machine's TZ or /etc/localtime.
	time.Local = time.UTC
	return dispatch(args, stdin, out, stderr)
}

// internalError reports a panic in one line (the stack only with
// DRYDOCK_DEBUG=1) and returns exit code 3.
func internalError(stderr io.Writer, r any, stack []byte) int {
	fmt.Fprintf(stderr, "drydock: internal error: %v (set DRYDOCK_DEBUG=1 for the stack); please report it with the inputs that caused it\n", r)
	if os.Getenv("DRYDOCK_DEBUG") == "1" {
		stderr.Write(stack)
	}
	return exitInternal
}

// dispatch runs the command args[0]. Commands that print text for people
// to stdout write it through a report.PrintableWriter; render and addon
// render print data (YAML, JSON) and test its report, whose formats
// escape what they quote themselves (the text report keeps its colours).
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	text := &report.PrintableWriter{W: stdout}
	if len(args) == 0 {
		fmt.Fprint(stderr, topUsage())
		return exitUsage
	}
	switch args[0] {
	case "render":
		return runRender(args[1:], stdin, stdout, stderr)
	case "diff":
		return runDiff(args[1:], text, stderr)
	case "test":
		return runTest(args[1:], stdin, stdout, stderr)
	case "addon":
		return runAddon(args[1:], stdout, stderr)
	case "report":
		return runReport(args[1:], stdout, stderr)
	case "verify":
		return runVerify(args[1:], text, stderr)
	case "show":
		return runShow(args[1:], text, stderr)
	case "explain":
		return runExplain(args[1:], text, stderr)
	case "init":
		return runInit(args[1:], text, stderr)
	case "completion":
		return runCompletion(args[1:], stdout, stderr)
	case "version":
		return runVersion(args[1:], stdout, stderr)
	case "--version":
		fmt.Fprint(stdout, versionText())
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, topUsage())
		return exitOK
	}
	fmt.Fprintf(stderr, "%s\nRun 'drydock help' for usage.\n", unknownCommand(args[0]))
	return exitUsage
}

// renderFlags are the flags of a render, shared by render and diff.
type renderFlags struct {
	in     pipeline.Inputs
	addons []string
	charts chartFlags
	cache  cacheFlags
	lim    limitFlags
	fields string
	suite  suiteFlags
	fs     *pflag.FlagSet
	// suiteValidation is the validation of the --suite (nil: none, or
	// no --suite): render --validate takes its CRDs.
	suiteValidation *pipeline.Validation
	// flagged are the inputs the flags and PATHs alone give (set by
	// inputs): what diff lays over the suite as it was at the base.
	flagged pipeline.Inputs
}

func (r *renderFlags) register(fs *pflag.FlagSet) {
	r.fs = fs
	r.suite.register(fs)
	fs.StringArrayVarP(&r.in.DefinitionPaths, "definitions", "d", nil, "file or directory of definitions (repeatable); replaces built-ins of the same name")
	fs.StringArrayVar(&r.in.ClusterPaths, "clusters", nil, "cluster inventory: Karmada Cluster objects (repeatable)")
	fs.BoolVar(&r.in.ClustersFromInputs, "clusters-from-inputs", false, "the Karmada Cluster objects among the inputs join the inventory (without it they are left out, each named in a warning)")
	fs.BoolVar(&r.in.NoBuiltins, "no-builtins", false, "do not use drydock's built-in definitions")
	fs.IntVar(&r.in.Workers, "workers", 0, "applications rendered in parallel (default: number of CPUs)")
	fs.StringArrayVar(&r.in.ObservedPaths, "observed", nil, "objects already in the clusters (cluster from their app.oam.dev/cluster label, else local)")
	fs.BoolVar(&r.in.Workflow.StopAtSuspend, "stop-at-suspend", false, "stop each workflow at its first suspend instead of taking it as resumed")
	fs.StringArrayVar(&r.addons, "addon", nil, "install an addon directory first, DIR or DIR=k=v,k2=v2 (typed by the addon's parameter, as addon render --set; repeatable): its definitions serve the Applications")
	r.charts.register(fs)
	r.cache.register(fs, cacheUsage, noCacheUsage)
	fs.StringArrayVar(&r.in.Exclude, "exclude", nil, "glob of files in the input directories that are not inputs (repeatable), e.g. 'examples/*' or '*.tmpl.yaml'")
	registerFieldValidation(fs, &r.fields)
	r.lim.register(fs)
}

// registerFieldValidation declares --field-validation into v.
func registerFieldValidation(fs *pflag.FlagSet, v *string) {
	fs.StringVar(v, "field-validation", "strict", "fields the CRDs of Applications, Policies, Workflows and definitions do not declare: strict (errors, as kubectl's default --validate=strict), warn (dropped with a warning) or ignore (dropped)")
}

// fieldValidation reads --field-validation; an error is a usage error.
func fieldValidation(v string) (schemas.FieldValidation, error) {
	fv, err := schemas.ParseFieldValidation(v)
	if err != nil {
		return fv, fmt.Errorf("--field-validation %w", err)
	}
	return fv, nil
}

// inputs completes the inputs from the parsed flags and paths, checking
// that every path exists; an error is a usage error.
func (r *renderFlags) inputs(paths []string) (pipeline.Inputs, error) {
	in := r.in
	in.Paths = paths
	var err error
	if in.FieldValidation, err = fieldValidation(r.fields); err != nil {
		return in, err
	}
	for _, a := range r.addons {
		dir, args, _ := strings.Cut(a, "=")
		p := pipeline.AddonParams{SetFlag: "--addon " + dir + "="}
		if args != "" {
			p.Set = []string{args}
		}
		if err := p.Check(); err != nil {
			return in, err
		}
		in.Addons = append(in.Addons, pipeline.Addon{Dir: dir, Params: p})
	}
	if in.Charts, err = r.charts.config(); err != nil {
		return in, err
	}
	r.flagged = in
	suite, golden, ok, err := r.suite.inputs(r.fs)
	if err != nil {
		return in, err
	}
	if ok {
		in = r.overSuite(suite, in)
		in.Skip = append(in.Skip, golden...)
	}
	if len(in.Paths) == 0 && len(in.Addons) == 0 {
		return in, errors.New("no inputs (give files, directories or - for stdin)")
	}
	if err := checkFlagPaths(flagPaths{"", in.Paths}, flagPaths{"-d", in.DefinitionPaths},
		flagPaths{"--clusters", in.ClusterPaths}, flagPaths{"--observed", in.ObservedPaths},
		flagPaths{"--charts", in.Charts.Charts}, flagPaths{"--source", sourceDirs(in.Charts.Sources)}); err != nil {
		return in, &missingPath{err}
	}
	if in.Limits, err = r.lim.limits(); err != nil {
		return in, err
	}
	return in, nil
}

// overSuite is the --suite's inputs with the flags given on the command
// line (and PATHs) in place of the suite's keys they stand for. The
// suite's validation is kept aside in r.suiteValidation: whether a
// command validates is its own flag's choice.
func (r *renderFlags) overSuite(suite, flags pipeline.Inputs) pipeline.Inputs {
	in := suite
	in.Workers = flags.Workers
	if len(flags.Paths) > 0 {
		in.Paths = flags.Paths
	}
	given := r.fs.Changed
	if given("definitions") {
		in.DefinitionPaths = flags.DefinitionPaths
	}
	if given("clusters") {
		in.ClusterPaths = flags.ClusterPaths
	}
	if given("observed") {
		in.ObservedPaths = flags.ObservedPaths
	}
	if given("clusters-from-inputs") {
		in.ClustersFromInputs = flags.ClustersFromInputs
	}
	if given("no-builtins") {
		in.NoBuiltins = flags.NoBuiltins
	}
	if given("stop-at-suspend") {
		in.Workflow.StopAtSuspend = flags.Workflow.StopAtSuspend
	}
	if given("exclude") {
		in.Exclude = flags.Exclude
	}
	if given("field-validation") {
		in.FieldValidation = flags.FieldValidation
	}
	if given("addon") {
		in.Addons = flags.Addons
	}
	if given("charts") {
		in.Charts.Charts = flags.Charts.Charts
	}
	if given("source") {
		in.Charts.Sources = flags.Charts.Sources
	}
	r.suiteValidation, in.Record.Validate = in.Record.Validate, nil
	return in
}

// missingPath is a path on the command line that does not exist; its
// message names the flag, and no command.
type missingPath struct{ error }

// usageError prints a usage error of the command and returns its code: a
// path that does not exist is named alone; anything else comes with the
// usage.
func (c *command) usageError(stderr io.Writer, err error) int {
	var mp *missingPath
	if errors.As(err, &mp) {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	return c.fail(stderr, err)
}

func runRender(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := newCommand("render", "render [PATH...] [flags]", "PATHs are files or directories (recursive) of YAML/JSON/CUE inputs; - is stdin.")
	fs := cmd.fs
	var rf renderFlags
	rf.register(fs)
	var outDir string
	fs.StringVar(&outDir, "output-dir", "", "write one file per object under `DIR`/<cluster>/<namespace>/ instead of a stream")
	adopt := fs.Bool("adopt", false, "with --output-dir: take over the files at rendered paths that drydock did not write (listed as adopted)")
	trace := fs.Bool("trace", false, "print each application's workflow, step by step, to stderr")
	quiet := fs.BoolP("quiet", "q", false, "print no objects: only check that the inputs render (exit code and errors)")
	watch := fs.Bool("watch", false, "render again on every change of the inputs, definitions, inventory and addons, printing what changed; Ctrl-C ends")
	status := fs.Bool("status", false, "print each component's health and status message, as vela status would, evaluated against the objects --observed gives (to stderr)")
	format := fs.StringP("format", "o", "yaml", "output format: yaml (one stream, each object after a # Source comment) or json (an array of {cluster, namespace, source, object}, source {file, line, column, application, component, trait, policy, text})")
	var filter filterOutput
	fs.StringArrayVar(&filter.apps, "app", nil, "print only the objects of this application (repeatable)")
	fs.StringArrayVar(&filter.clusters, "cluster", nil, "print only the objects of this cluster (repeatable)")
	fs.StringArrayVar(&filter.components, "component", nil, "print only the objects of this component (repeatable)")
	var val pipeline.Validation
	validate := fs.Bool("validate", false, "check every object as its cluster's API server would (schemas of its Kubernetes version, CRDs, removed APIs); exit 1 on findings")
	fs.StringVar(&val.KubeVersion, "kube-version", "", "Kubernetes version of clusters whose inventory gives none: what templates see as context.clusterVersion (default: unknown) and, with --validate, the schemas (default: the newest embedded, "+schemas.DefaultKubeVersion()+")")
	fs.StringArrayVar(&val.CRDPaths, "crds", nil, "with --validate: CustomResourceDefinitions that validate custom resources (repeatable)")
	fs.BoolVar(&val.Strict, "strict", false, "with --validate: a custom resource with no known schema is an error, not a warning")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if err := deprecatedOutputDir(cmd, args, format, &outDir, stderr); err != nil {
		return cmd.fail(stderr, err)
	}
	in, err := rf.inputs(fs.Args())
	if err != nil {
		return cmd.usageError(stderr, err)
	}
	in.Stdin = stdin
	in.Record.Trace = *trace
	in.Record.Status = *status
	if fs.Changed("kube-version") || rf.suite.name == "" {
		in.Workflow.KubeVersion = val.KubeVersion
	} else {
		val.KubeVersion = in.Workflow.KubeVersion // the suite's
	}
	if *validate && !fs.Changed("crds") && rf.suiteValidation != nil {
		val.CRDPaths = rf.suiteValidation.CRDPaths
	}
	heapBudget.Store(renderHeapBudget)
	if *validate {
		if err := checkFlagPaths(flagPaths{"--crds", val.CRDPaths}); err != nil {
			return cmd.usageError(stderr, &missingPath{err})
		}
		in.Record.Validate = &val
		heapBudget.Store(validateHeapBudget)
	} else if len(val.CRDPaths) > 0 || val.Strict {
		return cmd.usageError(stderr, errors.New("--crds and --strict need --validate"))
	}
	if outDir != "" {
		if err := checkOutputDir(outDir, in.ReadPaths()); err != nil {
			fmt.Fprintf(stderr, "drydock render: %s\n", errText(err))
			return exitUsage
		}
	}
	if *adopt && outDir == "" {
		return cmd.usageError(stderr, errors.New("--adopt takes over the files of --output-dir: give --output-dir"))
	}
	if *watch {
		if *adopt {
			return cmd.usageError(stderr, errors.New("--adopt is a one-time step: run render --output-dir DIR --adopt once, then --watch"))
		}
		if *validate || *status || *format != "yaml" || len(filter.apps)+len(filter.clusters)+len(filter.components) > 0 || slices.Contains(in.Paths, "-") {
			return cmd.fail(stderr, errors.New("--watch renders files (not stdin) to a tree or a change list: not with --validate, --status, --format or filters"))
		}
		in.Cache = rf.cache.open(stderr, "rendering without it", false)
		defer closeCache(in.Cache, nil, stderr)
		return runWatch(in, outDir, &report.PrintableWriter{W: stdout}, stderr) // a change list, not data
	}
	// What this render writes is never its input, nor the next one's.
	if outDir != "" {
		in.Skip = append(in.Skip, outDir)
	}
	in.Skip = append(in.Skip, stdoutInputs(in, stdout)...)
	// The cache serves the render and the tree: files unchanged since the
	// last update into the directory, of unchanged objects, are neither
	// read nor encoded again.
	in.Cache = rf.cache.open(stderr, "rendering without it", false)
	var cacheErr error
	defer func() { closeCache(in.Cache, cacheErr, stderr) }()
	var o output
	switch *format {
	case "yaml":
		o = newOutput(stdout, treeOutput{dir: outDir, adopt: *adopt, log: stderr, cache: in.Cache}, *quiet)
	case "json":
		if outDir != "" || *quiet {
			return cmd.fail(stderr, errors.New("--format json prints to stdout: not with --output-dir or --quiet"))
		}
		o = newJSONOutput(stdout)
	default:
		return cmd.fail(stderr, fmt.Errorf("--format %q: want yaml or json", *format))
	}
	if len(filter.apps)+len(filter.clusters)+len(filter.components) > 0 {
		filter.output, o = o, &filter
	}
	out := &recorded{output: o}
	bar := startProgress(stderr, "rendered %d/%d applications")
	if bar != nil {
		in.Progress = bar.update
	}
	res, err := pipeline.Stream(context.Background(), in, out)
	bar.end()
	if res != nil {
		cacheErr = res.CacheError
	}
	if err != nil {
		out.abort()
		if out.err != nil && errors.Is(err, out.err) {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return outputCode(err)
		}
		code := reportError(stderr, err)
		if res != nil && res.Validation != nil { // the findings of what did render
			reportFindings(stderr, res.Validation.Findings)
		}
		return code
	}
	if res.Trace != nil {
		printTraces(stderr, res.Trace.Applications)
	}
	printWarnings(stderr, res.SortedWarnings())
	if res.Status != nil {
		printStatuses(stderr, res.Status.Components)
	}
	if err := out.finish(""); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return outputCode(err)
	}
	if filter.output != nil {
		for _, w := range filter.unmatched() {
			fmt.Fprintf(stderr, "drydock: %s\n", located("warning", w))
		}
	}
	if res.Validation != nil {
		return reportFindings(stderr, res.Validation.Findings)
	}
	return exitOK
}

// deprecatedOutputDir takes render's -o DIR, which named the output
// directory before -o became the output format in every command, for
// --output-dir DIR, with a warning: -o with a value no format has.
func deprecatedOutputDir(cmd *command, args []string, format, outDir *string, stderr io.Writer) error {
	if *format == "yaml" || *format == "json" || !shortFlagGiven(args, 'o') {
		return nil
	}
	if cmd.fs.Changed("output-dir") {
		return fmt.Errorf("-o %s: -o is the output format (yaml or json); the directory is --output-dir", *format)
	}
	fmt.Fprintf(stderr, "drydock %s: warning: -o DIR is deprecated: -o is the output format in every command (yaml or json here); use --output-dir %s\n", cmd.name, *format)
	*outDir, *format = *format, "yaml"
	return nil
}

// shortFlagGiven reports whether args spell the one-letter flag -c
// (-c V, -cV, -c=V, or last in a group of them such as -qc V), before a
// "--".
func shortFlagGiven(args []string, c byte) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		if i := strings.IndexByte(a[1:], c); i >= 0 && !strings.Contains(a[1:1+i], "=") {
			return true
		}
	}
	return false
}

// printWarnings prints a render's warnings, one a line.
func printWarnings(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(stderr, "drydock: %s\n", located("warning", w))
	}
}

// leadingPos is the place a message starts with: "path:line: " or
// "path:line:col: ".
var leadingPos = regexp.MustCompile(`^[^\s:][^:]*:\d+(:\d+)?: `)

// located is a message with its severity after its place, as compilers
// print them (path:line:col: warning: message), so that editors and CI
// problem matchers find the place; "warning: message" when the message
// starts with no place.
func located(severity, msg string) string {
	if loc := leadingPos.FindString(msg); loc != "" {
		return loc + severity + ": " + msg[len(loc):]
	}
	return severity + ": " + msg
}

// findingText is a validation finding as render prints it, compiler
// style: its place, its severity, then what it is about and the message.
func findingText(f pipeline.Finding) string {
	severity := "error"
	if f.Warning {
		severity = "warning"
	}
	rest := f
	rest.Pos, rest.Warning = manifest.Pos{}, false
	if f.Pos.IsValid() {
		return f.Pos.String() + ": " + severity + ": " + rest.String()
	}
	return severity + ": " + rest.String()
}

// reportFindings prints a validation's findings and a summary; it returns
// exit code 1 when one is an error.
func reportFindings(stderr io.Writer, findings []pipeline.Finding) int {
	errs, warns := 0, 0
	for _, f := range findings {
		fmt.Fprintf(stderr, "drydock: %s\n", findingText(f))
		if f.Warning {
			warns++
		} else {
			errs++
		}
	}
	fmt.Fprintf(stderr, "drydock: validation: %s, %s\n", report.Count(errs, "error"), report.Count(warns, "warning"))
	if errs > 0 {
		return exitCheck
	}
	return exitOK
}

// recorded is an output that remembers the error it returned, which the
// pipeline passes back as it is.
type recorded struct {
	output
	err error
}

func (r *recorded) Put(c string, e cluster.Entry) error {
	if err := r.output.Put(c, e); err != nil {
		r.err = err
		return err
	}
	return nil
}

// reportError prints a pipeline error (with a hint when a limit stopped
// the run) and returns its exit code.
func reportError(stderr io.Writer, err error) int {
	var list manifest.Errors
	if errors.As(err, &list) { // every error of a list on its own line
		for _, e := range list {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(e))
		}
	} else {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
	}
	fmt.Fprint(stderr, limitHint(err))
	return errorCode(err)
}

// errorCode maps an error to the exit code contract: bad input (the
// pipeline marks it) is 2, anything else is a bug (3).
func errorCode(err error) int {
	if errors.Is(err, pipeline.ErrInput) {
		return exitUsage
	}
	return exitInternal
}

// printTraces writes the applications' workflows, step by step.
func printTraces(w io.Writer, traces []pipeline.Trace) {
	for _, t := range traces {
		fmt.Fprintf(w, "application %s:\n", t.Application)
		for _, line := range t.Lines {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}

// printStatuses prints the components' health as vela status shows it.
func printStatuses(w io.Writer, statuses []pipeline.ComponentStatus) {
	line := func(indent, what string, st render.Status) {
		health := "healthy"
		if !st.Healthy {
			health = "unhealthy"
		}
		fmt.Fprintf(w, "%s%s: %s", indent, what, health)
		if st.Message != "" {
			fmt.Fprintf(w, ": %s", st.Message)
		}
		for _, err := range []error{st.HealthErr, st.MessageErr} {
			if err != nil {
				fmt.Fprintf(w, " (%s)", errText(err))
			}
		}
		fmt.Fprintln(w)
		for _, k := range manifest.SortedKeys(st.Details) {
			fmt.Fprintf(w, "%s  %s: %s\n", indent, k, st.Details[k])
		}
	}
	fmt.Fprintln(w, "status:")
	for _, cs := range statuses {
		line("  ", fmt.Sprintf("%s component %s in cluster %s", cs.Application, cs.Component, cs.Cluster), cs.Status)
		for _, t := range cs.Traits {
			line("    ", "trait "+t.Type, t.Status)
		}
	}
}
