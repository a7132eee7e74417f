package main

// conftest verify's output shapes (-o stdout|json|tap|table|junit|github|
// azuredevops|sarif, --trace, --report, --quiet, --no-color), ported from
// conftest v0.71.1 (Apache-2.0): internal/commands/verify.go, runner/verify.go
// (one result per test) and output/*.go. These are verify's shapes only;
// drydock test's conftest formats live in report/.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/jstemmer/go-junit-report/formatter"
	"github.com/jstemmer/go-junit-report/parser"
	"github.com/olekukonko/tablewriter"
	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/rules"
)

// conftestFormats are conftest's output formats (output/output.go Outputs).
var conftestFormats = []string{"stdout", "json", "tap", "table", "junit", "github", "azuredevops", "sarif"}

// cfOptions are conftest verify's output switches.
type cfOptions struct {
	format           string
	noColor          bool
	trace            bool
	junitHideMessage bool
	githubHidePassed bool
}

// cfTest is one test as conftest verify's runner makes it a CheckResult:
// the test file, the rule name as query, and data.pkg.name as message of
// a failed or skipped test.
type cfTest struct {
	file, query, msg string
	outcome          rules.Outcome
	traces           []string
}

func cfTests(tests []rules.TestResult) []cfTest {
	out := make([]cfTest, len(tests))
	for i, t := range tests {
		out[i] = cfTest{file: t.Pos.File, query: t.Name, outcome: t.Outcome, traces: t.TraceLines()}
		if t.Outcome == rules.Fail || t.Outcome == rules.Skip {
			out[i].msg = "data." + t.Package + "." + t.Name
		}
	}
	return out
}

// cfTotals are conftest's output.Totals for verify: no warnings nor
// exceptions.
type cfTotals struct{ tests, passed, failed, skipped int }

func totals(tests []cfTest) cfTotals {
	var t cfTotals
	for _, x := range tests {
		t.tests++
		switch x.outcome {
		case rules.Fail:
			t.failed++
		case rules.Skip:
			t.skipped++
		default:
			t.passed++
		}
	}
	return t
}

// String is conftest's summary line (output/result.go Totals.String).
func (t cfTotals) String() string {
	return fmt.Sprintf("%s, %d passed, 0 warnings, %s, 0 exceptions",
		report.Count(t.tests, "test"), t.passed, report.Count(t.failed, "failure"))
}

// ansi colours s as aurora does, unless noColor.
func ansi(s string, code int, noColor bool) string {
	if noColor {
		return s
	}
	return fmt.Sprintf("\x1b[%dm%s\x1b[0m", code, s)
}

// The colours conftest's output uses (aurora).
const (
	red   = 31
	green = 32
	blue  = 34
)

// writeConftestVerify writes the tests in format; with trace, the traces
// go to errw first, as conftest's traceOutputter does.
func writeConftestVerify(w, errw io.Writer, tests []cfTest, o cfOptions) error {
	if o.trace {
		writeCfTrace(errw, tests, o.noColor)
	}
	switch o.format {
	case "json":
		return writeCfJSON(w, tests)
	case "tap":
		writeCfTAP(w, tests)
	case "table":
		return writeCfTable(w, tests)
	case "junit":
		return writeCfJUnit(w, tests, o.junitHideMessage)
	case "github":
		writeCfGitHub(w, tests, o.githubHidePassed)
	case "azuredevops":
		writeCfAzure(w, tests)
	case "sarif":
		return writeCfSARIF(w, tests)
	default:
		writeCfStandard(w, tests, o)
	}
	return nil
}

// writeCfTrace is output/standard.go outputTrace.
func writeCfTrace(w io.Writer, tests []cfTest, noColor bool) {
	for _, t := range tests {
		c := green
		if t.msg != "" {
			c = red
		}
		fmt.Fprintln(w, ansi("file: "+t.file+" | query: "+t.query, c, noColor))
		for _, line := range t.traces {
			fmt.Fprintln(w, ansi("TRAC ", blue, noColor), "", line)
		}
	}
}

// writeCfStandard is output/standard.go Output with ShowSkipped.
func writeCfStandard(w io.Writer, tests []cfTest, o cfOptions) {
	if o.trace {
		writeCfTrace(w, tests, o.noColor)
		return
	}
	for _, t := range tests {
		if t.outcome == rules.Fail {
			fmt.Fprintln(w, ansi("FAIL", red, o.noColor), "- "+t.file, "-  -", t.msg)
		}
	}
	tot := totals(tests)
	c := green
	if tot.failed > 0 {
		c = red
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, ansi(fmt.Sprintf("%s, %d skipped", tot, tot.skipped), c, o.noColor))
}

// cfJSONResult is output.CheckResult's JSON for one test.
type cfJSONResult struct {
	FileName  string      `json:"filename"`
	Namespace string      `json:"namespace"`
	Successes int         `json:"successes"`
	Skipped   []cfJSONMsg `json:"skipped,omitempty"`
	Failures  []cfJSONMsg `json:"failures,omitempty"`
}

type cfJSONMsg struct {
	Msg string `json:"msg"`
}

// writeCfJSON is output/json.go Output.
func writeCfJSON(w io.Writer, tests []cfTest) error {
	var out []cfJSONResult // null without tests, as conftest
	if len(tests) > 0 {
		out = make([]cfJSONResult, len(tests))
	}
	for i, t := range tests {
		out[i].FileName = t.file
		switch t.outcome {
		case rules.Fail:
			out[i].Failures = []cfJSONMsg{{t.msg}}
		case rules.Skip:
			out[i].Skipped = []cfJSONMsg{{t.msg}}
		default:
			out[i].Successes = 1
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("marshal json: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "\t"); err != nil {
		return fmt.Errorf("indent: %w", err)
	}
	fmt.Fprintln(w, buf.String())
	return nil
}

// writeCfTAP is output/tap.go Output.
func writeCfTAP(w io.Writer, tests []cfTest) {
	if len(tests) == 0 {
		return
	}
	fmt.Fprintf(w, "1..%d\n", len(tests))
	for i, t := range tests {
		status, msg := "ok", "SUCCESS"
		switch t.outcome {
		case rules.Fail:
			status, msg = "not ok", t.msg
		case rules.Skip:
			fmt.Fprintln(w, "# skip")
			msg = t.msg
		default:
			fmt.Fprintln(w, "# successes")
		}
		fmt.Fprintf(w, "%s %d - %s -  - %s\n", status, i+1, t.file, msg)
	}
}

// writeCfTable is output/table.go Output.
func writeCfTable(w io.Writer, tests []cfTest) error {
	if len(tests) == 0 {
		return nil
	}
	var rows [][]string
	for _, t := range tests {
		switch t.outcome {
		case rules.Fail:
			rows = append(rows, []string{"failure", t.file, "", t.msg})
		case rules.Skip:
			rows = append(rows, []string{"skipped", t.file, "", t.msg})
		default:
			rows = append(rows, []string{"success", t.file, "", "SUCCESS"})
		}
	}
	table := tablewriter.NewTable(w)
	table.Header("result", "file", "namespace", "message")
	if err := table.Bulk(rows); err != nil {
		return err
	}
	return table.Render()
}

// writeCfJUnit is output/junit.go Output: one package, conftest. (the
// namespace is empty in verify).
func writeCfJUnit(w io.Writer, tests []cfTest, hideMessage bool) error {
	name := func(t cfTest) string {
		if hideMessage || t.msg == "" {
			return t.file
		}
		return t.file + " - " + strings.Split(t.msg, "\n")[0]
	}
	var cases []*parser.Test
	for _, t := range tests {
		c := &parser.Test{Name: name(t), Result: parser.PASS}
		switch t.outcome {
		case rules.Fail:
			c.Result, c.Output = parser.FAIL, strings.Split(t.msg, "\n")
		case rules.Skip:
			c.Result, c.Output = parser.SKIP, strings.Split(t.msg, "\n")
		}
		cases = append(cases, c)
	}
	var rep parser.Report
	if len(cases) > 0 {
		rep.Packages = []parser.Package{{Name: "conftest.", Tests: cases}}
	}
	if err := formatter.JUnitReportXML(&rep, false, runtime.Version(), w); err != nil {
		return fmt.Errorf("format junit: %w", err)
	}
	return nil
}

// writeCfGitHub is output/github.go Output.
func writeCfGitHub(w io.Writer, tests []cfTest, hidePassed bool) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	for _, t := range tests {
		if hidePassed && t.outcome != rules.Fail && t.outcome != rules.Skip {
			continue
		}
		loc := fmt.Sprintf("file=%s,line=1", esc.Replace(t.file))
		fmt.Fprintf(w, "::group::Testing %q against 1 policies in namespace \"\"\n", t.file)
		successes := 0
		switch t.outcome {
		case rules.Fail:
			fmt.Fprintf(w, "::error %s::%s\n", loc, t.msg)
		case rules.Skip:
			fmt.Fprintf(w, "::notice %s::Test was skipped: %s\n", loc, t.msg)
		default:
			successes = 1
		}
		fmt.Fprintf(w, "::notice %s::Number of successful checks: %d\n", loc, successes)
		fmt.Fprintln(w, "::endgroup::")
	}
	fmt.Fprintln(w, totals(tests))
}

// writeCfAzure is output/azuredevops.go Output.
func writeCfAzure(w io.Writer, tests []cfTest) {
	for _, t := range tests {
		fmt.Fprintf(w, "##[section]Testing '%s' against 1 policies in namespace ''\n", t.file)
		fmt.Fprintln(w, "##[group]See conftest results")
		switch t.outcome {
		case rules.Fail:
			fmt.Fprintf(w, "##vso[task.logissue type=error] file=%s --> %s\n", t.file, t.msg)
		case rules.Skip:
			fmt.Fprintf(w, "skipped file=%s %s\n", t.file, t.msg)
		default:
			fmt.Fprintf(w, "success file=%s 1\n", t.file)
		}
		fmt.Fprintln(w, "##[endgroup]")
	}
	fmt.Fprintln(w, totals(tests))
}

// The SARIF descriptions of conftest's output/sarif.go.
const (
	sarifSuccess = "Policy was satisfied successfully"
	sarifSkipped = "Policy check was skipped"
	sarifFailure = "Policy violation"
)

// writeCfSARIF is output/sarif.go Output for verify's results (the
// namespace is empty: rule IDs /deny, /success, /skip). The driver is
// conftest at the release drydock emulates (a conftest built without
// release flags says "dev").
func writeCfSARIF(w io.Writer, tests []cfTest) error {
	report, err := sarif.New(sarif.Version210)
	if err != nil {
		return fmt.Errorf("create sarif report: %w", err)
	}
	driver := sarif.NewVersionedDriver("conftest", "0.71.1").WithInformationURI("https://github.com/open-policy-agent/conftest")
	run := sarif.NewRun(sarif.Tool{Driver: driver})
	indices := map[string]int{}
	add := func(ruleID, level, msg, desc string, props map[string]any, file string) {
		idx, ok := indices[ruleID]
		if !ok {
			run.AddRule(ruleID).WithDescription(desc).WithProperties(props).WithShortDescription(sarif.NewMultiformatMessageString(desc))
			idx = len(run.Tool.Driver.Rules) - 1
			indices[ruleID] = idx
		}
		loc := sarif.NewPhysicalLocation()
		uri := url.URL{Path: filepath.ToSlash(file)}
		loc.ArtifactLocation = sarif.NewSimpleArtifactLocation(uri.EscapedPath())
		run.CreateResultForRule(ruleID).WithRuleIndex(idx).WithLevel(level).
			WithMessage(sarif.NewTextMessage(msg)).AddLocation(sarif.NewLocationWithPhysicalLocation(loc))
	}
	failed := false
	for _, t := range tests {
		switch t.outcome {
		case rules.Fail:
			failed = true
			add("/deny", "error", t.msg, sarifFailure, nil, t.file)
		case rules.Skip:
			add("/skip", "none", sarifSkipped, sarifSkipped, map[string]any{"description": sarifSkipped}, t.file)
		default:
			add("/success", "none", sarifSuccess, sarifSuccess, map[string]any{"description": sarifSuccess}, t.file)
		}
	}
	exit, desc := 0, "No policy violations found"
	if failed {
		exit, desc = 1, "Policy violations found"
	}
	run.AddInvocations(sarif.NewInvocation().WithExecutionSuccess(true).WithExitCode(exit).WithExitCodeDescription(desc))
	report.AddRun(run)
	return report.Write(w)
}

// cfHasFailure is conftest's CheckResults.ExitCode: 1 when a test failed.
func cfHasFailure(tests []cfTest) bool {
	return slices.ContainsFunc(tests, func(t cfTest) bool { return t.outcome == rules.Fail })
}
