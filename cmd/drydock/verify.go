package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/gatekeeper"
	"github.com/drydock-dev/drydock/regosandbox"
	"github.com/drydock-dev/drydock/rules"
)

// runVerify runs the Rego unit tests of the policy directories.
func runVerify(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("verify", "verify [flags]", "Runs the Rego unit tests (test_ rules in _test.rego files) and, with --gatekeeper, the\nGatekeeper suites (kind: Suite, as gator verify). Exit 0 all pass, 1 a test failed, 2 bad input.")
	fs := cmd.fs
	var o rules.VerifyOptions
	fs.StringArrayVarP(&o.PolicyDirs, "policy", "p", []string{"policy"}, "directory of .rego policies and _test.rego tests (repeatable)")
	fs.StringArrayVar(&o.DataPaths, "data", nil, "JSON/YAML data files or directories (repeatable)")
	regoVersion := fs.String("rego-version", "v1", "Rego syntax: v1 or v0")
	fs.StringVar(&o.Run, "run", "", "only tests whose name matches this regular expression")
	fs.BoolVar(&o.Coverage, "coverage", false, "report the policies' coverage by their tests")
	fs.BoolVar(&o.Trace, "trace", false, "print the evaluation of every test that fails or errs, step by step")
	fs.DurationVar(&o.Timeout, "rule-timeout", 5*time.Second, "time limit of each test, and of each Gatekeeper template's evaluation on one case (a template that takes longer is not evaluated again)")
	memory := fs.String("memory-limit", defaultMemory, "memory limit of the process while Gatekeeper templates evaluate (e.g. 512MiB); 0: none")
	gk := fs.StringArray("gatekeeper", nil, "file or directory of Gatekeeper suites (kind: Suite, test.gatekeeper.sh) to run as gator verify does (repeatable); without --policy, only these run")
	k8sNative := fs.Bool("enable-k8s-native-validation", true, "evaluate Gatekeeper templates with their K8sNativeValidation (CEL) code when they have it, as gator does; false: with their Rego only")
	fs.BoolVar(&o.StrictBuiltinErrors, "show-builtin-errors", false, "a failing built-in is a test error, as conftest verify --show-builtin-errors (default: its expression is undefined)")
	fs.StringVar(&o.Capabilities, "capabilities", "", "OPA capabilities file: the policies may use only the built-ins it lists")
	conftest := fs.Bool("conftest", false, "conftest verify's exit codes: 1 for failed tests and for any error (bad policy, no policies)")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	mem, err := check.ParseSize(*memory)
	if err != nil {
		fmt.Fprintf(stderr, "drydock verify: --memory-limit %q: %s\n", *memory, errText(err))
		return exitUsage
	}
	budget := &regosandbox.Budget{Timeout: o.Timeout, Memory: mem}
	code := verify(o, *regoVersion, *gk, gatekeeper.Options{RegoOnly: !*k8sNative}, budget, fs.Changed("policy"), stdout, stderr)
	if *conftest && code == exitUsage {
		return exitCheck
	}
	return code
}

// verify runs the tests runVerify parsed the flags of; without
// policyGiven, Gatekeeper suites run alone.
func verify(o rules.VerifyOptions, regoVersion string, gk []string, gkOpts gatekeeper.Options, budget *regosandbox.Budget, policyGiven bool, stdout, stderr io.Writer) int {
	switch regoVersion {
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
		cases, err := gatekeeper.Verify(context.Background(), gk, budget, gkOpts)
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
		if !policyGiven {
			fmt.Fprintf(stdout, "%d gatekeeper cases: %d passed, %d failed\n", gkPassed+gkFailed, gkPassed, gkFailed)
			if gkFailed > 0 {
				return exitCheck
			}
			return exitOK
		}
	}
	if err := checkFlagPaths(flagPaths{"--policy", o.PolicyDirs}, flagPaths{"--data", o.DataPaths}, flagPaths{"--capabilities", nonEmpty(o.Capabilities)}); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	rep, err := rules.Verify(context.Background(), o)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	passed, failed := 0, 0
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
		if t.Outcome == rules.Pass || t.Outcome == rules.Skip {
			passed++
		} else {
			failed++
		}
	}
	if rep.Coverage != nil {
		fmt.Fprintf(stdout, "coverage: %.1f%%\n", rep.Coverage.Percent)
		for _, f := range rep.Coverage.Files {
			fmt.Fprintf(stdout, "  %s: %.1f%%\n", f.File, f.Percent)
		}
	}
	fmt.Fprintf(stdout, "%d tests: %d passed, %d failed\n", passed+failed, passed, failed)
	if len(gk) > 0 {
		fmt.Fprintf(stdout, "%d gatekeeper cases: %d passed, %d failed\n", gkPassed+gkFailed, gkPassed, gkFailed)
	}
	if !rep.Passed() || gkFailed > 0 {
		return exitCheck
	}
	return exitOK
}
