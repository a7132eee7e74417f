package report

// conftest's output formats, ported from conftest v0.71.1 output/
// (Apache-2.0): output.go, result.go, standard.go, json.go, tap.go,
// azuredevops.go here; table.go, junit.go, github.go and sarif.go in
// conftestci.go. They write check.SuiteResult.Conftest, on the libraries
// conftest uses (aurora, tablewriter, go-junit-report, go-sarif), so that
// their bytes are conftest's.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/logrusorgru/aurora"

	"github.com/drydock-dev/drydock/check"
)

// ConftestFormats are the names LookupConftest knows, in conftest's order
// (output.Outputs).
var ConftestFormats = []string{"stdout", "json", "tap", "table", "junit", "github", "azuredevops", "sarif"}

// ConftestOptions are conftest's output flags (output.Options) and what
// some formats need besides the result.
type ConftestOptions struct {
	// NoColor: --no-color (conftest colours stdout's output whatever
	// the destination).
	NoColor bool
	// SuppressExceptions: --suppress-exceptions (stdout format).
	SuppressExceptions bool
	// JUnitHideMessage: --junit-hide-message.
	JUnitHideMessage bool
	// GitHubHidePassed: --github-hide-passed.
	GitHubHidePassed bool
	// Trace: --trace, with which the stdout format writes the queries'
	// traces instead of the results (conftest's Standard.Tracing).
	Trace bool
	// Dir is the working directory, which the github format makes a
	// result's absolute _loc file relative to ("": kept absolute).
	Dir string
	// GoVersion is the go.version property of the junit format
	// (conftest: the Go version it was built with).
	GoVersion string
	// ToolVersion is the driver version of the sarif format.
	ToolVersion string
}

// LookupConftest returns conftest's format named name (one of
// ConftestFormats); ok is false for any other name.
func LookupConftest(name string, o ConftestOptions) (f Format, ok bool) {
	var w func(io.Writer, []conftestResult) error
	switch name {
	case "stdout":
		w = conftestStandard{o}.write
	case "json":
		w = conftestJSON
	case "tap":
		w = conftestTAP
	case "table":
		w = conftestTable
	case "junit":
		w = conftestJUnit{o}.write
	case "github":
		w = conftestGitHub{o}.write
	case "azuredevops":
		w = conftestAzureDevOps
	case "sarif":
		w = conftestSARIF{o}.write
	default:
		return nil, false
	}
	return conftestFormat(w), true
}

// conftestFormat writes every suite's conftest results in one format.
type conftestFormat func(io.Writer, []conftestResult) error

func (f conftestFormat) Write(out io.Writer, r *check.Result) error {
	w := &StickyWriter{W: out}
	var results []conftestResult
	for _, s := range r.Suites {
		for _, c := range s.Conftest {
			results = append(results, toConftest(c))
		}
	}
	if err := f(w, results); err != nil {
		return err
	}
	return w.Err
}

// conftestResult is check.ConftestResult in conftest's JSON shape
// (output.CheckResult; Skipped and Queries are never set by conftest
// test's JSON).
type conftestResult struct {
	FileName   string         `json:"filename"`
	Namespace  string         `json:"namespace"`
	Successes  int            `json:"successes"`
	Warnings   []conftestItem `json:"warnings,omitempty"`
	Failures   []conftestItem `json:"failures,omitempty"`
	Exceptions []conftestItem `json:"exceptions,omitempty"`
	prints     []string
	traces     []check.ConftestTrace
}

// conftestItem is output.Result.
type conftestItem struct {
	Message  string         `json:"msg"`
	Location *conftestLoc   `json:"loc,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// conftestLoc is output.Location.
type conftestLoc struct {
	File string      `json:"file,omitempty"`
	Line json.Number `json:"line,omitempty"`
}

func (l conftestLoc) String() string { return fmt.Sprintf("%s L%s", l.File, l.Line.String()) }

func toConftest(c check.ConftestResult) conftestResult {
	items := func(ms []check.ConftestMessage) []conftestItem {
		var out []conftestItem
		for _, m := range ms {
			it := conftestItem{Message: m.Message, Metadata: m.Metadata}
			if m.LocFile != "" || m.LocLine != "" {
				it.Location = &conftestLoc{File: m.LocFile, Line: json.Number(m.LocLine)}
			}
			out = append(out, it)
		}
		return out
	}
	return conftestResult{FileName: c.File, Namespace: c.Namespace, Successes: c.Successes,
		Warnings: items(c.Warnings), Failures: items(c.Failures), Exceptions: items(c.Exceptions), prints: c.Prints, traces: c.Traces}
}

// conftestTotals is output.Totals (Skipped is always 0 in conftest test).
type conftestTotals struct{ successes, failures, warnings, exceptions int }

func totals(results []conftestResult) conftestTotals {
	var t conftestTotals
	for _, r := range results {
		t.successes += r.Successes
		t.failures += len(r.Failures)
		t.warnings += len(r.Warnings)
		t.exceptions += len(r.Exceptions)
	}
	return t
}

func (t conftestTotals) tests() int { return t.successes + t.failures + t.warnings + t.exceptions }

func (t conftestTotals) String() string {
	return fmt.Sprintf("%s, %d passed, %s, %s, %s",
		Count(t.tests(), "test"), t.successes, Count(t.warnings, "warning"),
		Count(t.failures, "failure"), Count(t.exceptions, "exception"))
}

// indicators are the file and namespace columns of the stdout and tap
// formats ("-" for stdin).
func indicators(r conftestResult) (file, namespace string) {
	file, namespace = "- "+r.FileName, "- "+r.Namespace+" -"
	if r.FileName == "-" {
		file = "-"
	}
	if r.Namespace == "-" {
		namespace = "-"
	}
	return file, namespace
}

// conftestStandard is output/standard.go: print() output first, then a
// line per warning, failure and exception, and the totals, coloured.
type conftestStandard struct{ o ConftestOptions }

func (s conftestStandard) write(w io.Writer, results []conftestResult) error {
	colour := aurora.NewAurora(!s.o.NoColor)
	if s.o.Trace {
		writeTraces(w, results, colour)
		return nil
	}
	for _, r := range results {
		for _, p := range r.prints {
			fmt.Fprintln(w, colour.Colorize("PRNT ", aurora.BlueFg), "", p)
		}
	}
	for _, r := range results {
		file, ns := indicators(r)
		for _, m := range r.Warnings {
			fmt.Fprintln(w, colour.Colorize("WARN", aurora.YellowFg), file, ns, m.Message)
		}
		for _, m := range r.Failures {
			fmt.Fprintln(w, colour.Colorize("FAIL", aurora.RedFg), file, ns, m.Message)
		}
		if !s.o.SuppressExceptions {
			for _, m := range r.Exceptions {
				fmt.Fprintln(w, colour.Colorize("EXCP", aurora.CyanFg), file, ns, m.Message)
			}
		}
	}
	t := totals(results)
	c := aurora.GreenFg
	switch {
	case t.failures > 0:
		c = aurora.RedFg
	case t.warnings > 0:
		c = aurora.YellowFg
	case t.exceptions > 0:
		c = aurora.CyanFg
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, colour.Colorize(t.String(), c))
	return nil
}

// ConftestTrace writes the traces of r's conftest queries as conftest
// --trace writes them to stderr (output.go's traceOutputter): per query a
// header, green when it passed, then its trace lines. The colours go to w
// as they are, the text (which quotes inputs) through a PrintableWriter.
func ConftestTrace(w io.Writer, r *check.Result, noColor bool) error {
	sw := &StickyWriter{W: w}
	p := &PrintableWriter{W: sw}
	paint := func(text string, c aurora.Color) {
		if noColor {
			io.WriteString(p, text)
			return
		}
		io.WriteString(sw, "\x1b["+c.Nos(false)+"m")
		io.WriteString(p, text)
		io.WriteString(sw, "\x1b[0m")
	}
	for _, s := range r.Suites {
		for _, c := range s.Conftest {
			for _, q := range c.Traces {
				c2 := aurora.GreenFg
				if !q.Passed {
					c2 = aurora.RedFg
				}
				paint("file: "+c.File+" | query: "+q.Query, c2)
				io.WriteString(p, "\n")
				for _, line := range q.Lines {
					paint("TRAC ", aurora.BlueFg)
					io.WriteString(p, "  "+line+"\n")
				}
			}
		}
	}
	return sw.Err
}

// writeTraces is standard.go's outputTrace.
func writeTraces(w io.Writer, results []conftestResult, colour aurora.Aurora) {
	for _, r := range results {
		for _, q := range r.traces {
			c := aurora.GreenFg
			if !q.Passed {
				c = aurora.RedFg
			}
			fmt.Fprintln(w, colour.Colorize("file: "+r.FileName+" | query: "+q.Query, c))
			for _, line := range q.Lines {
				fmt.Fprintln(w, colour.Colorize("TRAC ", aurora.BlueFg), "", line)
			}
		}
	}
}

// conftestJSON is output/json.go: the results tab-indented, "" for
// stdin's file name.
func conftestJSON(w io.Writer, results []conftestResult) error {
	for i := range results {
		if results[i].FileName == "-" {
			results[i].FileName = ""
		}
	}
	b, err := json.Marshal(results)
	if err != nil {
		return fmt.Errorf("marshal json: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "\t"); err != nil {
		return fmt.Errorf("indent: %w", err)
	}
	fmt.Fprintln(w, out.String())
	return nil
}

// conftestTAP is output/tap.go: nothing when there is no test.
func conftestTAP(w io.Writer, results []conftestResult) error {
	n := totals(results).tests()
	if n == 0 {
		return nil
	}
	fmt.Fprintf(w, "1..%d\n", n)
	counter := 1
	for _, r := range results {
		file, ns := indicators(r)
		sections := []struct {
			header, status string
			items          []conftestItem
		}{
			{status: "not ok", items: r.Failures},
			{header: "warnings", status: "not ok", items: r.Warnings},
			{header: "exceptions", status: "ok", items: r.Exceptions},
			{header: "successes", status: "ok", items: slices.Repeat([]conftestItem{{Message: "SUCCESS"}}, r.Successes)},
		}
		for _, sec := range sections {
			if sec.header != "" && len(sec.items) > 0 {
				fmt.Fprintln(w, "#", sec.header)
			}
			for _, it := range sec.items {
				fmt.Fprintf(w, "%s %d %s %s %s\n", sec.status, counter, file, ns, it.Message)
				counter++
			}
		}
	}
	return nil
}

// conftestAzureDevOps is output/azuredevops.go.
func conftestAzureDevOps(w io.Writer, results []conftestResult) error {
	for _, r := range results {
		n := totals([]conftestResult{r}).tests()
		fmt.Fprintf(w, "##[section]Testing '%s' against %d policies in namespace '%s'\n", r.FileName, n, r.Namespace)
		fmt.Fprintf(w, "##[group]See conftest results\n")
		for _, m := range r.Failures {
			fmt.Fprintf(w, "##vso[task.logissue type=error] file=%s --> %s\n", r.FileName, m.Message)
		}
		for _, m := range r.Warnings {
			fmt.Fprintf(w, "##vso[task.logissue type=warning] file=%s --> %s\n", r.FileName, m.Message)
		}
		for _, m := range r.Exceptions {
			fmt.Fprintf(w, "##vso[task.logissue type=warning] file=%s --> %s\n", r.FileName, m.Message)
		}
		if r.Successes > 0 {
			fmt.Fprintf(w, "success file=%s %d\n", r.FileName, r.Successes)
		}
		fmt.Fprintf(w, "##[endgroup]\n")
	}
	fmt.Fprintln(w, totals(results))
	return nil
}

// relPath is output.relPath with the working directory given.
func relPath(dir, path string) string {
	if !filepath.IsAbs(path) || dir == "" {
		return path
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return rel
}
