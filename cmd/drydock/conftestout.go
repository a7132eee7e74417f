package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/report"
)

// exitConftestUsage is conftest's exit code for bad usage (an unknown
// flag, a bad value): cobra's error, main.go's os.Exit(1).
const exitConftestUsage = 1

// conftestFlags are conftest test's output flags (conftest v0.71.1
// internal/commands/test.go), named as conftest names them so that
// conftest.toml's keys map onto them. They apply with --conftest to plain
// manifests.
type conftestFlags struct {
	noFail, quiet, noColor, suppressExceptions bool
	junitHideMessage, githubHidePassed, trace  bool
}

func (c *conftestFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&c.noFail, "no-fail", false, "with --conftest: exit 0 even if a policy fails (conftest --no-fail)")
	fs.BoolVar(&c.quiet, "quiet", false, "with --conftest: write nothing when every check passes (conftest --quiet)")
	fs.BoolVar(&c.noColor, "no-color", false, "with --conftest: no colours in the stdout format, which conftest colours wherever it goes (conftest --no-color)")
	fs.BoolVar(&c.suppressExceptions, "suppress-exceptions", false, "with --conftest: leave exceptions out of the stdout format (conftest --suppress-exceptions)")
	fs.BoolVar(&c.junitHideMessage, "junit-hide-message", false, "with --conftest: JUnit test names without the message (conftest --junit-hide-message)")
	fs.BoolVar(&c.githubHidePassed, "github-hide-passed", false, "with --conftest: the github format skips files whose checks all passed (conftest --github-hide-passed)")
	fs.BoolVar(&c.trace, "trace", false, "with --conftest: OPA's trace of every query on stderr, as conftest --trace")
}

// names are the flags' names, for the checks that they come with
// --conftest.
func (c *conftestFlags) names() []string {
	return []string{"no-fail", "quiet", "no-color", "suppress-exceptions", "junit-hide-message", "github-hide-passed", "trace"}
}

// conftestArg reports whether args turn conftest mode on, for a usage
// error found before the flags are parsed to exit as conftest does.
func conftestArg(args []string) bool {
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case a == "--conftest", a == "--conftest=true", a == "--conftest=1":
			return true
		}
	}
	return false
}

// checkOutputFlags checks -o and the conftest output flags. With
// --conftest and plain manifests, -o is conftest's output format (default
// stdout); the returned format writes it, unless --format asks for
// drydock's report (nil). Elsewhere -o is the file the
// report goes to, and never a format's name: `-o json` used to write the
// text report to a file named json.
func (o *testFlags) checkOutputFlags(fs *pflag.FlagSet, plain bool) (report.Format, error) {
	var given []string
	for _, n := range o.conftestOut.names() {
		if fs.Changed(n) {
			given = append(given, "--"+n)
		}
	}
	if !o.conftest || !plain {
		if len(given) > 0 {
			return nil, fmt.Errorf("drydock test: %s: conftest's output flags go with --conftest and plain manifests (drydock test --conftest -p POLICY FILE...)", strings.Join(given, ", "))
		}
		if o.conftest && fs.Changed("output") {
			return nil, fmt.Errorf("drydock test: with --conftest, -o is conftest's output format, for plain manifests (drydock test --conftest -o %s -p POLICY FILE...); suites report with --format and -o FILE without --conftest", o.out)
		}
		if isFormatName(o.out) {
			return nil, fmt.Errorf("drydock test: -o writes the report to a file, and %q is a format's name: choose the format with --format %s (conftest's: --conftest -o %s), or give -o ./%s for a file of that name", o.out, o.out, o.out, o.out)
		}
		return nil, nil
	}
	if fs.Changed("format") { // drydock's report, with conftest's exit codes
		if fs.Changed("output") || len(given) > 0 {
			return nil, errors.New("drydock test: --format gives drydock's report; -o FORMAT and conftest's output flags give conftest's: not both")
		}
		return nil, nil
	}
	wd, _ := os.Getwd() // "": absolute _loc files stay absolute
	name := o.out
	if name == "" {
		name = "stdout"
	}
	f, ok := report.LookupConftest(name, report.ConftestOptions{NoColor: o.conftestOut.noColor, SuppressExceptions: o.conftestOut.suppressExceptions,
		JUnitHideMessage: o.conftestOut.junitHideMessage, Trace: o.conftestOut.trace, GitHubHidePassed: o.conftestOut.githubHidePassed, Dir: wd, GoVersion: runtime.Version(), ToolVersion: version})
	if !ok {
		// conftest v0.71.1 falls back to its stdout format for an unknown
		// name (output/output.go newOutputter): a typo must not pass.
		return nil, fmt.Errorf("drydock test: unknown output format %q: -o takes one of %s", name, strings.Join(report.ConftestFormats, ", "))
	}
	return f, nil
}

// isFormatName reports whether s names a report format, drydock's or
// conftest's.
func isFormatName(s string) bool {
	return slices.Contains(report.Formats, s) || slices.Contains(report.ConftestFormats, s)
}

// conftestRun writes a run's results as conftest test does and returns
// its exit code (conftest v0.71.1 internal/commands/test.go): an error
// goes to stderr alone, exit 1; --quiet writes nothing when the exit code
// is 0; --no-fail exits 0. --sarif still writes drydock's SARIF file.
func (o *testFlags) conftestRun(stdout, stderr io.Writer, res *check.Result) int {
	if o.sarif != "" {
		wd, _ := os.Getwd()
		sarif, _ := report.Lookup("sarif", report.Options{Version: version, Dir: wd})
		if err := writeReport(stdout, res, o.sarif, sarif); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return 1
		}
	}
	for _, s := range res.Suites {
		if s.Err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(s.Err))
			fmt.Fprint(stderr, limitHint(s.Err))
			return 1
		}
	}
	if o.conftestOut.trace {
		raw := stderr // the colours as they are; the text made printable
		if pw, ok := stderr.(*report.PrintableWriter); ok {
			raw = pw.W
		}
		if err := report.ConftestTrace(raw, res, o.conftestOut.noColor); err != nil {
			return 1
		}
	}
	code := res.Exit(o.failOnWarn, true)
	if o.conftestOut.quiet && code == 0 {
		return 0
	}
	if err := writeReport(stdout, res, "", o.cformat); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return 1
	}
	if o.conftestOut.noFail {
		return 0
	}
	return code
}
