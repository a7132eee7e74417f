package report

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// JUnit is the report for test dashboards: JUnit XML with one testsuite
// per suite and one testcase per check that ran (sorted by name). A check
// with error findings is a failure listing them; a suite that could not
// be checked has an error (type bad-input) on its render testcase.
// Warnings go to the testcase's system-out. Every string from inputs
// has its controls made visible (Printable): XML 1.0 cannot hold most
// of them, and a dashboard shows them as text.
type JUnit struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// Write writes the JUnit report of r to w.
func (JUnit) Write(w io.Writer, r *check.Result) error {
	var out junitSuites
	for _, s := range r.Suites {
		js := junitSuiteOf(s)
		out.Tests += js.Tests
		out.Failures += js.Failures
		out.Errors += js.Errors
		out.Suites = append(out.Suites, js)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuiteOf is the testsuite of one suite.
func junitSuiteOf(s *check.SuiteResult) junitSuite {
	js := junitSuite{Name: Printable(s.Name)}
	byCheck := map[string][]check.Finding{}
	checks := append([]string(nil), s.Checks...)
	for _, f := range s.Findings {
		if _, ok := byCheck[f.Check]; !ok && !slices.Contains(checks, f.Check) {
			checks = append(checks, f.Check)
		}
		byCheck[f.Check] = append(byCheck[f.Check], f)
	}
	sort.Strings(checks)
	for _, c := range checks {
		tc := junitCaseOf(s, c, byCheck[c])
		switch {
		case tc.Error != nil:
			js.Errors++
		case tc.Failure != nil:
			js.Failures++
		}
		js.Cases = append(js.Cases, tc)
	}
	if s.Err != nil && !slices.Contains(checks, "render") {
		js.Cases = append(js.Cases, junitCase{Name: "render", Classname: js.Name, Error: badInput(s.Err)})
		js.Errors++
	}
	js.Tests = len(js.Cases)
	return js
}

// junitCaseOf is the testcase of check c of the suite s, with its findings.
func junitCaseOf(s *check.SuiteResult, c string, findings []check.Finding) junitCase {
	tc := junitCase{Name: Printable(c), Classname: Printable(s.Name)}
	var errLines, warnLines, exceptLines []string
	for _, f := range findings {
		line := locate(f.Pos) + f.Message
		if f.Diff != "" {
			line += "\n" + f.Diff
		}
		if len(f.Metadata) > 0 {
			if b, err := json.Marshal(f.Metadata); err == nil {
				line += "\n  metadata: " + string(b)
			}
		}
		switch f.Level {
		case check.LevelError:
			errLines = append(errLines, line)
		case check.LevelException:
			exceptLines = append(exceptLines, line)
		default:
			warnLines = append(warnLines, line)
		}
	}
	switch {
	case c == "render" && s.Err != nil:
		tc.Error = badInput(s.Err)
	case len(errLines) > 0:
		tc.Failure = &junitMessage{Message: fmt.Sprintf("%d findings", len(errLines)), Type: tc.Name, Text: Printable(strings.Join(errLines, "\n"))}
	}
	var out []string
	if len(warnLines) > 0 {
		out = append(out, "warnings:\n"+strings.Join(warnLines, "\n"))
	}
	if len(exceptLines) > 0 {
		out = append(out, "exceptions:\n"+strings.Join(exceptLines, "\n"))
	}
	tc.SystemOut = Printable(strings.Join(out, "\n"))
	return tc
}

// badInput is the error of a suite that could not be checked.
func badInput(err error) *junitMessage {
	text := manifest.Format(err, nil)
	return &junitMessage{Message: Printable(firstLine(text)), Type: "bad-input", Text: Printable(text)}
}
