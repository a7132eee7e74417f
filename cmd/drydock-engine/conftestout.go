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

// outputFormat settles -o, the output format in every drydock command.
// With --conftest and plain manifests it is conftest's (checkOutputFlags);
// elsewhere it is drydock's report format, as --format. -o FILE, which
// used to name the report's file, still does, with a warning: a value no
// format has is taken for --output-file.
func (o *testFlags) outputFormat(fs *pflag.FlagSet, stderr io.Writer) error {
	if !fs.Changed("output") || o.conftest {
		return nil // conftest's, or no -o
	}
	switch v := o.out; {
	case slices.Contains(report.Formats, v):
		if fs.Changed("format") && o.format != v {
			return fmt.Errorf("-o %s and --format %s: give the format once", v, o.format)
		}
		o.format, o.out = v, ""
	case slices.Contains(report.ConftestFormats, v):
		return fmt.Errorf("-o %s is one of conftest's formats, for --conftest and plain manifests (drydock test --conftest -o %s -p POLICY FILE...); drydock's report formats are %s", v, v, strings.Join(report.Formats, ", "))
	default:
		if fs.Changed("output-file") {
			return fmt.Errorf("-o %s is not a format (%s); the report's file is --output-file", v, strings.Join(report.Formats, ", "))
		}
		fmt.Fprintf(stderr, "drydock test: warning: -o FILE is deprecated: -o is the output format in every command (%s); write the report to a file with --output-file %s\n", strings.Join(report.Formats, ", "), v)
		o.outFile, o.out = v, ""
	}
	return nil
}

// checkOutputFlags checks -o and the conftest output flags. With
// --conftest and plain manifests, -o is conftest's output format (default
// stdout); the returned format writes it, unless --format asks for
// drydock's report (nil).
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
			return nil, fmt.Errorf("drydock test: with --conftest, -o is conftest's output format, for plain manifests (drydock test --conftest -o %s -p POLICY FILE...); suites report with --format FORMAT and --output-file FILE", o.out)
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
