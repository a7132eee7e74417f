package report

// conftest v0.71.1 output/table.go, junit.go, github.go and sarif.go
// (Apache-2.0), ported onto the libraries conftest uses.

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jstemmer/go-junit-report/formatter"
	"github.com/jstemmer/go-junit-report/parser"
	"github.com/olekukonko/tablewriter"
	"github.com/owenrumney/go-sarif/v2/sarif"
)

// conftestTable is output/table.go: a row per success, exception,
// warning and failure; nothing when there is none.
func conftestTable(w io.Writer, results []conftestResult) error {
	table := tablewriter.NewTable(w)
	table.Header("result", "file", "namespace", "message")
	var rows [][]string
	for _, r := range results {
		for range r.Successes {
			rows = append(rows, []string{"success", r.FileName, r.Namespace, "SUCCESS"})
		}
		for _, m := range r.Exceptions {
			rows = append(rows, []string{"exception", r.FileName, r.Namespace, m.Message})
		}
		for _, m := range r.Warnings {
			rows = append(rows, []string{"warning", r.FileName, r.Namespace, m.Message})
		}
		for _, m := range r.Failures {
			rows = append(rows, []string{"failure", r.FileName, r.Namespace, m.Message})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if err := table.Bulk(rows); err != nil {
		return err
	}
	return table.Render()
}

// conftestJUnit is output/junit.go: a test suite per namespace
// ("conftest.<namespace>"), a failing test per warning and failure, a
// passing one per success. conftest orders the suites by its map's
// iteration (random with several namespaces); here they are sorted.
type conftestJUnit struct{ o ConftestOptions }

func (j conftestJUnit) write(w io.Writer, results []conftestResult) error {
	tests := map[string][]*parser.Test{}
	for _, r := range results {
		ns := r.Namespace
		for _, m := range slices.Concat(r.Warnings, r.Failures) {
			tests[ns] = append(tests[ns], &parser.Test{Name: j.testName(r.FileName, m.Message), Result: parser.FAIL, Output: strings.Split(m.Message, "\n")})
		}
		for range r.Successes {
			tests[ns] = append(tests[ns], &parser.Test{Name: j.testName(r.FileName, ""), Result: parser.PASS})
		}
	}
	var rep parser.Report
	for _, ns := range slices.Sorted(func(yield func(string) bool) {
		for ns := range tests {
			if !yield(ns) {
				return
			}
		}
	}) {
		rep.Packages = append(rep.Packages, parser.Package{Name: "conftest." + ns, Tests: tests[ns]})
	}
	if err := formatter.JUnitReportXML(&rep, false, j.o.GoVersion, w); err != nil {
		return fmt.Errorf("format junit: %w", err)
	}
	return nil
}

func (j conftestJUnit) testName(file, message string) string {
	if j.o.JUnitHideMessage || message == "" {
		return file
	}
	summary, _, _ := strings.Cut(message, "\n")
	return fmt.Sprintf("%s - %s", file, summary)
}

// conftestGitHub is output/github.go: a group per file and namespace
// with workflow commands, then the totals.
type conftestGitHub struct{ o ConftestOptions }

func (g conftestGitHub) write(w io.Writer, results []conftestResult) error {
	for _, r := range results {
		if g.o.GitHubHidePassed && len(r.Failures) == 0 && len(r.Warnings) == 0 && len(r.Exceptions) == 0 {
			continue
		}
		fileLoc := &conftestLoc{File: r.FileName, Line: "1"}
		fmt.Fprintf(w, "::group::Testing %q against %d policies in namespace %q\n", r.FileName, totals([]conftestResult{r}).tests(), r.Namespace)
		for _, m := range r.Failures {
			g.writeLocs(w, "error", fileLoc, m.Location, m.Message)
		}
		for _, m := range r.Warnings {
			g.writeLocs(w, "warning", fileLoc, m.Location, m.Message)
		}
		for _, m := range r.Exceptions {
			g.writeLocs(w, "notice", fileLoc, m.Location, m.Message)
		}
		writeGitHubLoc(w, "notice", fileLoc, fmt.Sprintf("Number of successful checks: %d", r.Successes))
		fmt.Fprintln(w, "::endgroup::")
	}
	fmt.Fprintln(w, totals(results))
	return nil
}

// writeLocs writes a command at the result's _loc when it has one (and,
// when that is another file, one more at the input file naming it).
func (g conftestGitHub) writeLocs(w io.Writer, level string, fileLoc, loc *conftestLoc, msg string) {
	switch {
	case loc == nil:
		writeGitHubLoc(w, level, fileLoc, msg)
	case loc.File == fileLoc.File:
		writeGitHubLoc(w, level, loc, msg)
	default:
		og := &conftestLoc{File: relPath(g.o.Dir, loc.File), Line: loc.Line}
		writeGitHubLoc(w, level, og, msg)
		writeGitHubLoc(w, level, fileLoc, fmt.Sprintf("(ORIGINATING FROM %s) %s", og, msg))
	}
}

func writeGitHubLoc(w io.Writer, level string, loc *conftestLoc, msg string) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	fmt.Fprintf(w, "::%s file=%s,line=%s::%s\n", level, esc.Replace(loc.File), loc.Line, msg)
}

// conftestSARIF is output/sarif.go: one run of tool "conftest" with a
// rule per namespace and kind, on one line.
type conftestSARIF struct{ o ConftestOptions }

const (
	sarifSuccessDesc = "Policy was satisfied successfully"
	sarifSkippedDesc = "Policy check was skipped"
)

func (s conftestSARIF) write(w io.Writer, results []conftestResult) error {
	rep, err := sarif.New(sarif.Version210)
	if err != nil {
		return fmt.Errorf("create sarif report: %w", err)
	}
	driver := sarif.NewVersionedDriver("conftest", strings.TrimPrefix(s.o.ToolVersion, "v")).WithInformationURI("https://github.com/open-policy-agent/conftest")
	run := sarif.NewRun(sarif.Tool{Driver: driver})
	indices := map[string]int{}
	failed, warned := false, false
	for _, r := range results {
		for _, m := range r.Failures {
			addSARIFResult(run, m, r.Namespace, "deny", "error", r.FileName, indices)
		}
		for _, m := range r.Warnings {
			addSARIFResult(run, m, r.Namespace, "warn", "warning", r.FileName, indices)
		}
		for _, m := range r.Exceptions {
			addSARIFResult(run, m, r.Namespace, "allow", "note", r.FileName, indices)
		}
		failed = failed || len(r.Failures) > 0
		warned = warned || len(r.Warnings) > 0
		if len(r.Failures) > 0 || len(r.Warnings) > 0 {
			continue
		}
		kind, desc := "success", sarifSuccessDesc
		if r.Successes == 0 && len(r.Exceptions) == 0 {
			kind, desc = "skip", sarifSkippedDesc
		}
		addSARIFResult(run, conftestItem{Message: desc, Metadata: map[string]any{"description": desc}}, r.Namespace, kind, "none", r.FileName, indices)
	}
	exitCode, exitDesc := 0, "No policy violations found"
	switch {
	case failed:
		exitCode, exitDesc = 1, "Policy violations found"
	case warned:
		exitDesc = "Policy warnings found"
	}
	run.AddInvocations(sarif.NewInvocation().WithExecutionSuccess(true).WithExitCode(exitCode).WithExitCodeDescription(exitDesc))
	rep.AddRun(run)
	return rep.Write(w)
}

// sarifRuleDescription is output/sarif.go's getRuleDescription.
func sarifRuleDescription(kind string) string {
	switch kind {
	case "success":
		return sarifSuccessDesc
	case "skip":
		return sarifSkippedDesc
	case "allow":
		return "Policy exception"
	case "warn":
		return "Policy warning"
	}
	return "Policy violation"
}

func addSARIFResult(run *sarif.Run, m conftestItem, namespace, kind, level, fileName string, indices map[string]int) {
	ruleID := namespace + "/" + kind
	idx, ok := indices[ruleID]
	if !ok {
		desc := sarifRuleDescription(kind)
		run.AddRule(ruleID).WithDescription(desc).WithProperties(m.Metadata).WithShortDescription(sarif.NewMultiformatMessageString(desc))
		idx = len(run.Tool.Driver.Rules) - 1
		indices[ruleID] = idx
	}
	location := sarif.NewPhysicalLocation()
	if loc := m.Location; loc != nil {
		line, _ := strconv.Atoi(loc.Line.String())
		fileName = loc.File
		location.Region = sarif.NewRegion().WithStartLine(line).WithEndLine(line)
	}
	uri := url.URL{Path: filepath.ToSlash(fileName)}
	location.ArtifactLocation = sarif.NewSimpleArtifactLocation(uri.EscapedPath())
	run.CreateResultForRule(ruleID).WithRuleIndex(idx).WithLevel(level).
		WithMessage(sarif.NewTextMessage(m.Message)).
		AddLocation(sarif.NewLocationWithPhysicalLocation(location))
}
