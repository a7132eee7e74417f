package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/gatekeeper"
	"github.com/drydock-dev/drydock/regosandbox"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/rules"
)

// verifyFlags are runVerify's switches beside rules.VerifyOptions.
type verifyFlags struct {
	regoVersion string
	gk          []string
	gkOpts      gatekeeper.Options
	policyGiven bool
	// conftest: conftest verify's output shapes and exit codes.
	conftest bool
	cf       cfOptions
	report   string
	varVals  bool
	quiet    bool
}

// runVerify runs the Rego unit tests of the policies.
func runVerify(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("verify", "verify [flags]", "Runs the Rego unit tests (test_ and todo_test_ rules) and, with --gatekeeper, the\nGatekeeper suites (kind: Suite, as gator verify). Exit 0 all pass, 1 a test failed, 2 bad input.\nWith --conftest or -o, conftest verify's output and exit codes.")
	fs := cmd.fs
	var o rules.VerifyOptions
	var f verifyFlags
	fs.StringArrayVarP(&o.PolicyDirs, "policy", "p", []string{"policy"}, "directory of .rego policies and _test.rego tests (repeatable)")
	fs.StringArrayVarP(&o.DataPaths, "data", "d", nil, "JSON/YAML data files or directories (repeatable): sub/x.yaml under a directory given is data.sub, as conftest --data; a.b:PATH loads PATH under data.a.b")
	fs.StringVar(&f.regoVersion, "rego-version", "v1", "Rego syntax: v1 or v0")
	fs.StringVar(&o.Run, "run", "", "only tests whose name matches this regular expression")
	fs.StringSliceVarP(&o.Namespaces, "namespace", "n", nil, "only the tests of the packages matching these glob patterns (* matches dots too: 'main.*'), as conftest verify --namespace")
	fs.BoolVar(&o.Strict, "strict", false, "compile the policies and tests in OPA's strict mode (conftest --strict)")
	fs.BoolVar(&o.Coverage, "coverage", false, "report the policies' coverage by their tests")
	fs.BoolVar(&o.Trace, "trace", false, "print the evaluation of every test that fails or errs, step by step (with --conftest: of every test, as conftest)")
	fs.StringVar(&f.report, "report", "", "conftest verify's report: OPA's verbose test report with the failing tests' traces cut to full, notes (trace(msg)) or fails")
	fs.BoolVar(&f.varVals, "var-values", false, "with --report, the values of the variables of failing expressions (conftest --var-values; alone it means --report fails)")
	fs.StringVarP(&f.cf.format, "output", "o", "", "conftest verify's output format: "+strings.Join(conftestFormats, ", ")+" (implies --conftest)")
	fs.BoolVar(&f.cf.noColor, "no-color", false, "with --conftest: no colours (conftest colours its stdout output by default)")
	fs.BoolVar(&f.quiet, "quiet", false, "with --conftest: print nothing when every test passes")
	fs.BoolVar(&f.cf.junitHideMessage, "junit-hide-message", false, "-o junit: leave the test's name out of the JUnit test name")
	fs.BoolVar(&f.cf.githubHidePassed, "github-hide-passed", false, "-o github: leave out the tests that passed")
	fs.DurationVar(&o.Timeout, "rule-timeout", 5*time.Second, "time limit of each test, and of each Gatekeeper template's evaluation on one case (a template that takes longer is not evaluated again)")
	memory := fs.String("memory-limit", defaultMemory, "memory limit of the process while Gatekeeper templates evaluate (e.g. 512MiB); 0: none")
	fs.StringArrayVar(&f.gk, "gatekeeper", nil, "file or directory of Gatekeeper suites (kind: Suite, test.gatekeeper.sh) to run as gator verify does (repeatable); without --policy, only these run")
	k8sNative := fs.Bool("enable-k8s-native-validation", true, "evaluate Gatekeeper templates with their K8sNativeValidation (CEL) code when they have it, as gator does; false: with their Rego only")
	fs.BoolVar(&o.StrictBuiltinErrors, "show-builtin-errors", false, "a failing built-in is a test error, as conftest verify --show-builtin-errors (default: its expression is undefined)")
	fs.StringVar(&o.Capabilities, "capabilities", "", "OPA capabilities file: the policies may use only the built-ins it lists")
	fs.StringP("config-file", "c", "", "with --conftest: conftest's configuration file (conftest -c/--config-file; default conftest.json, .toml, .yaml or .yml in the working directory, or $CONFTEST_CONFIG_FILE)")
	fs.BoolVar(&f.conftest, "conftest", false, "conftest verify's output (-o stdout) and exit codes: 1 for failed tests and for any error (bad policy, no policies, a test in error)")
	var sf suiteFlags
	sf.register(fs)
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	suitePolicies, err := sf.verify(fs, &o, &f.regoVersion)
	if err != nil {
		fmt.Fprintf(stderr, "drydock verify: %s\n", errText(err))
		if f.conftest {
			return exitCheck
		}
		return exitUsage
	}
	if f.conftest || fs.Changed("output") {
		if err := applyConftestConfig(fs, "verify", stderr); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return exitCheck // conftest's exit code for any error
		}
	}
	mem, err := check.ParseSize(*memory)
	if err != nil {
		fmt.Fprintf(stderr, "drydock verify: --memory-limit %q: %s\n", *memory, errText(err))
		return exitUsage
	}
	if err := f.settle(&o, fs.Changed("output")); err != nil {
		fmt.Fprintf(stderr, "drydock verify: %s\n", errText(err))
		if f.conftest {
			return exitCheck
		}
		return exitUsage
	}
	f.policyGiven = fs.Changed("policy") || suitePolicies
	budget := &regosandbox.Budget{Timeout: o.Timeout, Memory: mem}
	f.gkOpts = gatekeeper.Options{RegoOnly: !*k8sNative}
	code := verify(o, f, budget, stdout, stderr)
	if f.conftest && code == exitUsage {
		return exitCheck
	}
	return code
}

// settle checks the output switches and derives the rest, as conftest's
// internal/commands/verify.go does: --var-values alone means --report
// fails; the report and --var-values need the traces; -o means conftest's
// shapes.
func (f *verifyFlags) settle(o *rules.VerifyOptions, outputGiven bool) error {
	if outputGiven {
		if !slices.Contains(conftestFormats, f.cf.format) {
			return fmt.Errorf("--output %q: want one of %s", f.cf.format, strings.Join(conftestFormats, ", "))
		}
		f.conftest = true
	}
	if o.Coverage && (f.conftest || f.report != "" || f.varVals) {
		return fmt.Errorf("--coverage is drydock's own output: not with --conftest, -o, --report or --var-values")
	}
	if f.varVals && f.report == "" {
		f.report = rules.ReportFails
	}
	if f.report != "" && !slices.Contains([]string{rules.ReportFull, rules.ReportNotes, rules.ReportFails}, f.report) {
		return fmt.Errorf("--report %q: want full, notes or fails", f.report)
	}
	f.cf.trace = f.conftest && o.Trace
	o.Trace = o.Trace || f.report != ""
	return nil
}

// verify runs the tests runVerify parsed the flags of; without
// policyGiven, Gatekeeper suites run alone.
func verify(o rules.VerifyOptions, f verifyFlags, budget *regosandbox.Budget, stdout, stderr io.Writer) int {
	gk := f.gk
	switch f.regoVersion {
	case "v1":
	case "v0":
		o.RegoV0 = true
	default:
		fmt.Fprintf(stderr, "drydock verify: --rego-version must be v0 or v1\n")
		return exitUsage
	}
	if err := checkFlagPaths(flagPaths{"--gatekeeper", gk}); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	gkPassed, gkFailed := 0, 0
	if len(gk) > 0 {
		cases, err := gatekeeper.Verify(context.Background(), gk, budget, f.gkOpts)
		if err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return exitUsage
		}
		for _, c := range cases {
			status := "PASS"
			switch {
			case c.Skipped:
				status = "SKIPPED"
			case c.Err != "":
				status = "FAIL"
			}
			fmt.Fprintf(stdout, "%s: %s/%s: %s\n", c.Pos, c.Test, c.Case, status)
			if c.Err != "" {
				fmt.Fprintf(stdout, "  %s\n", c.Err)
				gkFailed++
			} else {
				gkPassed++
			}
		}
		if !f.policyGiven {
			fmt.Fprintf(stdout, "%s: %d passed, %d failed\n", report.Count(gkPassed+gkFailed, "gatekeeper case"), gkPassed, gkFailed)
			if gkFailed > 0 {
				return exitCheck
			}
			return exitOK
		}
	}
	if err := checkFlagPaths(flagPaths{"--policy", o.PolicyDirs}, flagPaths{"--data", dataFilePaths(o.DataPaths)}, flagPaths{"--capabilities", nonEmpty(o.Capabilities)}); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	rep, err := rules.Verify(context.Background(), o)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	if f.conftest || f.report != "" {
		code := verifyConftest(rep, f, stdout, stderr)
		if len(gk) > 0 {
			fmt.Fprintf(stdout, "%s: %d passed, %d failed\n", report.Count(gkPassed+gkFailed, "gatekeeper case"), gkPassed, gkFailed)
			if gkFailed > 0 {
				code = exitCheck
			}
		}
		return code
	}
	passed, failed, skipped := 0, 0, 0
	for _, t := range rep.Tests {
		status := t.Outcome.String()
		fmt.Fprintf(stdout, "%s: %s.%s: %s\n", t.Pos, t.Package, t.Name, status)
		if t.Error != "" {
			fmt.Fprintf(stdout, "  %s\n", t.Error)
		}
		for _, line := range strings.Split(strings.TrimRight(t.Trace, "\n"), "\n") {
			if line != "" {
				fmt.Fprintf(stdout, "  %s\n", line)
			}
		}
		switch t.Outcome {
		case rules.Pass:
			passed++
		case rules.Skip:
			skipped++
		default:
			failed++
		}
	}
	if rep.Coverage != nil {
		fmt.Fprintf(stdout, "coverage: %.1f%%\n", rep.Coverage.Percent)
		for _, f := range rep.Coverage.Files {
			fmt.Fprintf(stdout, "  %s: %.1f%%\n", f.File, f.Percent)
		}
	}
	fmt.Fprintf(stdout, "%s: %d passed, %d failed, %d skipped\n", report.Count(passed+failed+skipped, "test"), passed, failed, skipped)
	if len(gk) > 0 {
		fmt.Fprintf(stdout, "%s: %d passed, %d failed\n", report.Count(gkPassed+gkFailed, "gatekeeper case"), gkPassed, gkFailed)
	}
	if !rep.Passed() || gkFailed > 0 {
		return exitCheck
	}
	return exitOK
}

// verifyConftest reports the tests as conftest verify does
// (internal/commands/verify.go, runner/verify.go at v0.71.1): a test in
// error stops it ("run test: ..."), exit 1; --report writes OPA's test
// report, with -o stdout only; --quiet prints nothing when all passed;
// exit 1 when a test failed.
func verifyConftest(rep *rules.VerifyReport, f verifyFlags, stdout, stderr io.Writer) int {
	for _, t := range rep.Tests {
		if t.Outcome == rules.Error {
			fmt.Fprintf(stderr, "drydock: run test: %s\n", t.Error)
			return exitCheck
		}
	}
	tests := cfTests(rep.Tests)
	failed := cfHasFailure(tests)
	if !f.cf.noColor {
		// conftest colours whatever the output is (aurora): the
		// sequences go past drydock's printable filter.
		stdout, stderr = raw(stdout), raw(stderr)
	}
	if f.quiet && !failed {
		return exitOK
	}
	if f.report != "" {
		if f.cf.format != "" && f.cf.format != "stdout" {
			fmt.Fprintln(stderr, "drydock: report flag is supported with stdout only")
			return exitCheck
		}
		if err := rules.WriteReport(stdout, rep.Tests, f.report, f.varVals); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return exitCheck
		}
	} else if err := writeConftestVerify(stdout, stderr, tests, f.cf); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitCheck
	}
	if failed {
		return exitCheck
	}
	return exitOK
}
