package rules

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"
	"github.com/open-policy-agent/opa/v1/topdown/lineage"
)

// The trace reports of WriteReport, as conftest verify --report names them.
const (
	// ReportFull keeps every trace event of a failing test.
	ReportFull = "full"
	// ReportNotes keeps the trace(msg) notes.
	ReportNotes = "notes"
	// ReportFails keeps the failed expressions.
	ReportFails = "fails"
)

// inNamespaces keeps the tests whose package matches one of the patterns
// (all of them without patterns), as conftest's runner/verify.go and
// runner/test.go filterNamespaces (v0.71.1) do: path.Match, "." an
// ordinary character. A malformed pattern is an error.
func inNamespaces(tests []TestResult, patterns []string) ([]TestResult, error) {
	if len(patterns) == 0 {
		return tests, nil
	}
	var kept []TestResult
	for _, t := range tests {
		for _, p := range patterns {
			ok, err := path.Match(p, t.Package)
			if err != nil {
				return nil, invalid(fmt.Errorf("--namespace: match pattern %q: %w", p, err))
			}
			if ok {
				kept = append(kept, t)
				break
			}
		}
	}
	return kept, nil
}

// TraceLines is the test's evaluation step by step (OPA's pretty trace
// without locations, one event a line), as conftest verify --trace shows
// it (runner/verify.go); nil unless VerifyOptions.Trace was set.
func (t TestResult) TraceLines() []string {
	if t.raw == nil || len(t.raw.Trace) == 0 {
		return nil
	}
	var b bytes.Buffer
	topdown.PrettyTrace(&b, t.raw.Trace)
	var lines []string
	for line := range strings.SplitSeq(b.String(), "\n") {
		if line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// WriteReport writes the tests as conftest verify --report does
// (output/standard.go Report, v0.71.1): OPA's verbose test report, each
// failing test's trace cut down to mode (ReportFull, ReportNotes or
// ReportFails), with the values of the variables of the failing
// expressions when localVars is set (conftest's --var-values). The tests
// need VerifyOptions.Trace for their traces.
func WriteReport(w io.Writer, tests []TestResult, mode string, localVars bool) error {
	if !slices.Contains([]string{ReportFull, ReportNotes, ReportFails}, mode) {
		return fmt.Errorf("report %q: want full, notes or fails", mode)
	}
	ch := make(chan *tester.Result)
	go func() {
		defer close(ch)
		for _, t := range tests {
			if t.raw == nil {
				continue
			}
			r := *t.raw
			r.Trace = filterTrace(r.Trace, mode)
			ch <- &r
		}
	}()
	rep := tester.PrettyReporter{Verbose: true, Output: w, FailureLine: true, LocalVars: localVars}
	if err := rep.Report(ch); err != nil {
		return fmt.Errorf("report results: %w", err)
	}
	return nil
}

// filterTrace keeps the events mode asks for, with their lineage
// (conftest's output/standard.go filterTrace).
func filterTrace(trace []*topdown.Event, mode string) []*topdown.Event {
	if mode == ReportFull {
		return trace
	}
	op := topdown.FailOp
	if mode == ReportNotes {
		op = topdown.NoteOp
	}
	return lineage.Filter(trace, func(e *topdown.Event) bool { return e.Op == op })
}
