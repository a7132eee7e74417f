package rules

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/drydock-dev/drydock/manifest"
)

// VerifyOptions configures Verify.
type VerifyOptions struct {
	// PolicyDirs are directories (searched recursively) or files holding the
	// policies and their _test.rego tests. Default: "policy".
	PolicyDirs []string
	// DataPaths are JSON/YAML files or directories merged into data.
	DataPaths []string
	// RegoV0 parses the policies and tests as Rego v0 instead of v1.
	RegoV0 bool
	// Run, when set, is a regular expression selecting the tests to run by
	// name (as opa test --run).
	Run string
	// Coverage computes which lines of the policies (not the tests) the
	// tests evaluated.
	Coverage bool
	// Capabilities is an OPA capabilities file, as Options.Capabilities.
	Capabilities string
	// StrictBuiltinErrors makes a failing built-in a test error (conftest
	// verify --show-builtin-errors); by default its expression is
	// undefined, as in opa test.
	StrictBuiltinErrors bool
	// Root is the repository, as Options.Root: the tests' fixtures are
	// read below it. "": the working directory.
	Root string
	// Timeout bounds each test. Default: 5s.
	Timeout time.Duration
	// Trace records the evaluation of the tests: TestResult.Trace for
	// the tests that fail or err (as opa test --explain full), and every
	// test's events for TraceLines and WriteReport (conftest verify
	// --trace and --report).
	Trace bool
	// Namespaces, when set, keeps only the tests whose package (without
	// "data.") matches one of these path.Match patterns, as conftest
	// verify --namespace: "main.*" matches main.gke; all tests still run.
	Namespaces []string
	// Strict compiles the policies and tests in OPA's strict mode
	// (conftest verify --strict).
	Strict bool
}

// Outcome is how a test ended.
type Outcome int

// The outcomes of a test. A todo_ test is skipped; an error is an
// evaluation error (a failing built-in, a conflict, a timeout).
const (
	Pass Outcome = iota + 1
	Fail
	Skip
	Error
)

// String returns "PASS", "FAIL", "SKIPPED" or "ERROR", as opa test prints.
func (o Outcome) String() string {
	switch o {
	case Pass:
		return "PASS"
	case Fail:
		return "FAIL"
	case Skip:
		return "SKIPPED"
	case Error:
		return "ERROR"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// TestResult is one Rego test's outcome.
type TestResult struct {
	// Package is the test's package without "data.".
	Package string
	// Name is the test rule's name, e.g. test_deny_latest.
	Name    string
	Pos     manifest.Pos
	Outcome Outcome
	// Error is the evaluation error's text when Outcome is Error.
	Error string
	// Output is what the test print()ed.
	Output string
	// Trace is the test's evaluation step by step, when it failed or
	// erred and VerifyOptions.Trace is set.
	Trace string

	// raw is OPA's result, for TraceLines and WriteReport.
	raw *tester.Result
}

// Coverage is the share of the policies' lines the tests evaluated.
type Coverage struct {
	// Percent is covered lines × 100 / (covered + not covered lines) over
	// all policy files; 100 when there is nothing to cover.
	Percent float64
	Files   []FileCoverage
}

// FileCoverage is one policy file's coverage.
type FileCoverage struct {
	File       string
	Percent    float64
	Covered    int
	NotCovered int
	// Uncovered lists the line ranges (first, last) not evaluated.
	Uncovered [][2]int
}

// VerifyReport is the outcome of Verify: the tests sorted by file, line and
// name, and the coverage when it was requested.
type VerifyReport struct {
	Tests    []TestResult
	Coverage *Coverage
}

// Passed reports whether no test failed or errored.
func (r *VerifyReport) Passed() bool {
	return !slices.ContainsFunc(r.Tests, func(t TestResult) bool { return t.Outcome == Fail || t.Outcome == Error })
}

// Verify runs the Rego unit tests (test_ rules) of the policies, with the
// data, in the same sandbox as Load, except that time.now_ns and
// io.jwt.decode_verify are always there, for tests to mock (`with
// time.now_ns as ...`); a test that does not mock them sees the real
// clock, as in opa test. parse_config_file and parse_combined_config_files
// read files under the policy and data directories (the tests' fixtures).
// No policy at all is an error, as in conftest verify. Problems in the policies, tests or data
// wrap ErrInvalid; failing tests are reported, not returned as errors.
func Verify(ctx context.Context, opts VerifyOptions) (*VerifyReport, error) {
	dirs := opts.PolicyDirs
	if len(dirs) == 0 {
		dirs = []string{"policy"}
	}
	files, err := listFiles(dirs, isRego)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, invalid(fmt.Errorf("no policies found in %s", strings.Join(dirs, ", ")))
	}
	caps, err := loadCapabilities(opts.Capabilities)
	if err != nil {
		return nil, err
	}
	compiler := newCompiler(caps, true).WithStrict(opts.Strict)
	mods, err := parseModules(files, regoVersion(opts.RegoV0), compiler.Capabilities())
	if err != nil {
		return nil, err
	}
	// No checkShapes: tests exercise rules as Rego, whatever their shape
	// (conftest verify loads a boolean deny; drydock test refuses it).
	// No data.conftest.file either: conftest verify has none (it is set
	// per input file by conftest test, policy/engine.go addFileInfo), so
	// a test mocks it with `with data.conftest.file.name as ...`, which
	// OPA refuses on the rule drydock test defines it with.
	store, err := loadData(opts.DataPaths)
	if err != nil {
		return nil, err
	}
	runner := tester.NewRunner().
		SetCompiler(compiler).
		SetStore(store).
		SetModules(mods).
		SetTimeout(cmp.Or(opts.Timeout, 5*time.Second)).
		RaiseBuiltinErrors(opts.StrictBuiltinErrors).
		CapturePrintOutput(true).
		Filter(opts.Run).
		AddCustomBuiltins(testerBuiltins())
	var cov *cover.Cover
	if opts.Coverage {
		cov = cover.New()
		runner.SetCoverageQueryTracer(cov)
	}
	if opts.Trace {
		runner.EnableTracing(true)
	}
	// parse_config_file and parse_combined_config_files read the tests'
	// fixtures: the files below Root.
	// The tester runs tests in parallel: the state is only read (the
	// context term is made here, not lazily).
	state := &evalState{term: contextTerm(Context{}), root: opts.Root}
	ch, err := runner.RunTests(withState(ctx, state), nil)
	if err != nil {
		var errs ast.Errors
		if errors.As(err, &errs) {
			return nil, compileError(errs, true)
		}
		return nil, invalid(fmt.Errorf("run tests: %w", err))
	}
	rep := &VerifyReport{}
	for r := range ch {
		rep.Tests = append(rep.Tests, testResult(r))
	}
	if rep.Tests, err = inNamespaces(rep.Tests, opts.Namespaces); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(rep.Tests, func(a, b TestResult) int {
		return cmp.Or(strings.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line), strings.Compare(a.Name, b.Name))
	})
	if cov != nil {
		rep.Coverage = coverage(cov, mods)
	}
	return rep, nil
}

func testResult(r *tester.Result) TestResult {
	t := TestResult{
		Package: strings.TrimPrefix(r.Package, "data."),
		Name:    r.Name,
		Output:  string(r.Output),
		raw:     r,
	}
	if r.Location != nil {
		t.Pos = manifest.Pos{File: r.Location.File, Line: r.Location.Row, Col: r.Location.Col}
	}
	switch {
	case r.Error != nil:
		t.Outcome, t.Error = Error, r.Error.Error()
	case r.Skip:
		t.Outcome = Skip
	case r.Fail:
		t.Outcome = Fail
	default:
		t.Outcome = Pass
	}
	if len(r.Trace) > 0 && (t.Outcome == Fail || t.Outcome == Error) {
		var b strings.Builder
		topdown.PrettyTraceWithLocation(&b, r.Trace)
		t.Trace = b.String()
	}
	return t
}

// coverage reports the coverage of the policy modules (the tests left out).
func coverage(cov *cover.Cover, mods map[string]*ast.Module) *Coverage {
	policies := maps.Clone(mods)
	maps.DeleteFunc(policies, func(file string, _ *ast.Module) bool { return isTest(file) || file == conftestModuleName })
	rep := cov.Report(policies)
	out := &Coverage{}
	var covered, notCovered int
	for _, file := range slices.Sorted(maps.Keys(policies)) {
		fc := FileCoverage{File: file, Percent: 100}
		if fr := rep.Files[file]; fr != nil {
			fc.Covered, fc.NotCovered = fr.CoveredLines, fr.NotCoveredLines
			fc.Percent = percent(fc.Covered, fc.NotCovered)
			for _, r := range fr.NotCovered {
				fc.Uncovered = append(fc.Uncovered, [2]int{r.Start.Row, r.End.Row})
			}
		}
		covered += fc.Covered
		notCovered += fc.NotCovered
		out.Files = append(out.Files, fc)
	}
	out.Percent = percent(covered, notCovered)
	return out
}

func percent(covered, notCovered int) float64 {
	if covered+notCovered == 0 {
		return 100
	}
	return float64(covered) * 100 / float64(covered+notCovered)
}

// testerBuiltins are drydock's functions for the test runner.
func testerBuiltins() []*tester.Builtin {
	out := make([]*tester.Builtin, len(builtins))
	for i, b := range builtins {
		out[i] = &tester.Builtin{Decl: &ast.Builtin{Name: b.decl.Name, Decl: b.decl.Decl}, Func: rego.FunctionDyn(b.decl, b.impl)}
	}
	return out
}
