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
// per suite and, per check that ran (sorted by name), one testcase per
// error finding (a failure carrying its message, named by the check and
// the object or place it is about), or one passing testcase when the
// check found no error; a suite that could not be checked has an error
// (type bad-input) on its render testcase.
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
		for _, tc := range junitCasesOf(s, c, byCheck[c]) {
			switch {
			case tc.Error != nil:
				js.Errors++
			case tc.Failure != nil:
				js.Failures++
			}
			js.Cases = append(js.Cases, tc)
		}
	}
	if s.Err != nil && !slices.Contains(checks, "render") {
		js.Cases = append(js.Cases, junitCase{Name: "render", Classname: js.Name, Error: badInput(s.Err)})
		js.Errors++
	}
	js.Tests = len(js.Cases)
	return js
}

// junitCasesOf are the testcases of check c of the suite s: one per
// error finding, a failure carrying its message, named by the check and
// what it is about; one passing testcase named by the check when it has
// none. The check's warnings and exceptions go to its first testcase's
// system-out.
func junitCasesOf(s *check.SuiteResult, c string, findings []check.Finding) []junitCase {
	class := Printable(s.Name)
	if c == "render" && s.Err != nil {
		return []junitCase{{Name: "render", Classname: class, Error: badInput(s.Err)}}
	}
	var cases []junitCase
	var warnLines, exceptLines []string
	names := map[string]int{}
	for _, f := range findings {
		switch f.Level {
		case check.LevelError:
			name := junitCaseName(c, f)
			if names[name]++; names[name] > 1 { // two findings about one thing
				name = fmt.Sprintf("%s (%d)", name, names[name])
			}
			cases = append(cases, junitCase{Name: Printable(name), Classname: class,
				Failure: &junitMessage{Message: Printable(firstLine(f.Message)), Type: Printable(c), Text: Printable(junitFindingText(f))}})
		case check.LevelException:
			exceptLines = append(exceptLines, junitFindingText(f))
		default:
			warnLines = append(warnLines, junitFindingText(f))
		}
	}
	if len(cases) == 0 {
		cases = []junitCase{{Name: Printable(c), Classname: class}}
	}
	var out []string
	if len(warnLines) > 0 {
		out = append(out, "warnings:\n"+strings.Join(warnLines, "\n"))
	}
	if len(exceptLines) > 0 {
		out = append(out, "exceptions:\n"+strings.Join(exceptLines, "\n"))
	}
	cases[0].SystemOut = Printable(strings.Join(out, "\n"))
	return cases
}

// junitCaseName names the testcase of an error finding: its check and
// what it is about, the object (its output path), else its place, else
// its message's first line.
func junitCaseName(c string, f check.Finding) string {
	switch {
	case f.Object != "":
		return c + " " + f.Object
	case f.Pos.IsValid():
		return c + " " + f.Pos.String()
	}
	return c + " " + firstLine(f.Message)
}

// junitFindingText is a finding as a testcase's text: its place, its
// message, its golden diff and its rule metadata.
func junitFindingText(f check.Finding) string {
	line := locate(f.Pos) + f.Message
	if f.Diff != "" {
		line += "\n" + f.Diff
	}
	if len(f.Metadata) > 0 {
		if b, err := json.Marshal(f.Metadata); err == nil {
			line += "\n  metadata: " + string(b)
		}
	}
	return line
}

// badInput is the error of a suite that could not be checked.
func badInput(err error) *junitMessage {
	text := manifest.Format(err, nil)
	return &junitMessage{Message: Printable(firstLine(text)), Type: "bad-input", Text: Printable(text)}
}
