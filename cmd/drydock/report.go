package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// reportFormat writes a check.Result in one format.
type reportFormat interface {
	// Write writes the report of r to w and returns the first write
	// error; after one it writes nothing more.
	Write(w io.Writer, r *check.Result) error
}

// reportOptions are what some formats need besides the result.
type reportOptions struct {
	// Version is the drydock version SARIF names as its tool's.
	Version string
	// Dir is the directory SARIF makes absolute file paths relative to
	// (the working directory); a path outside it, or any path when Dir
	// is "", stays as it is.
	Dir string
}

// reportFormats are the names lookupFormat knows, in the order help text lists them.
var reportFormats = []string{"text", "json", "junit", "sarif", "github"}

// lookupFormat returns the format named name (one of Formats); ok is false for
// any other name.
func lookupFormat(name string, o reportOptions) (f reportFormat, ok bool) {
	switch name {
	case "text":
		return Text{}, true
	case "json":
		return JSON{}, true
	case "junit":
		return JUnit{}, true
	case "sarif":
		return SARIF{Version: o.Version, Dir: o.Dir}, true
	case "github":
		return GitHub{}, true
	}
	return nil, false
}

// locate is "file:line:col: ", or "" for a finding without a place.
func locate(p manifest.Pos) string {
	if s := p.String(); s != "" {
		return s + ": "
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Text is the report for people: per suite a status line, its findings
// (with golden diffs indented below) and the golden files it updated,
// then a closing count of ok and failed suites.
type Text struct{}

// Write writes the text report of r to w.
func (Text) Write(out io.Writer, r *check.Result) error {
	w := &stickyWriter{w: out}
	for _, s := range r.Suites {
		errs, warns := s.Counts()
		fmt.Fprintf(w, "suite %s: %s (%d objects, %d errors, %d warnings)\n", s.Name, s.Status(), s.Objects, errs, warns)
		for _, f := range s.Findings {
			fmt.Fprintf(w, "  %s%s [%s] %s\n", locate(f.Pos), f.Level, f.Check, f.Message)
			if f.Diff != "" {
				for _, line := range strings.Split(strings.TrimRight(f.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "    %s\n", line)
				}
			}
		}
		for _, p := range s.Updated {
			fmt.Fprintf(w, "  updated %s\n", p)
		}
	}
	failed := r.FailedSuites()
	fmt.Fprintf(w, "%d suites: %d ok, %d failed\n", len(r.Suites), len(r.Suites)-failed, failed)
	return w.err
}

// JSON is the report for tools: one indented object,
// {"ok": bool, "suites": [{name, status, objects, checks, findings,
// updated, error}]}, each finding {suite, check, level, message, object,
// diff, file, line, column} with empty optional fields left out.
type JSON struct{}

type jsonReport struct {
	OK     bool        `json:"ok"`
	Suites []jsonSuite `json:"suites"`
}

type jsonSuite struct {
	Name     string        `json:"name"`
	Status   string        `json:"status"`
	Objects  int           `json:"objects"`
	Checks   []string      `json:"checks"`
	Findings []jsonFinding `json:"findings"`
	Updated  []string      `json:"updated,omitempty"`
	Error    string        `json:"error,omitempty"`
}

type jsonFinding struct {
	Suite   string      `json:"suite"`
	Check   string      `json:"check"`
	Level   check.Level `json:"level"`
	Message string      `json:"message"`
	Object  string      `json:"object,omitempty"`
	Diff    string      `json:"diff,omitempty"`
	File    string      `json:"file,omitempty"`
	Line    int         `json:"line,omitempty"`
	Column  int         `json:"column,omitempty"`
}

// Write writes the JSON report of r to w.
func (JSON) Write(w io.Writer, r *check.Result) error {
	out := jsonReport{OK: r.OK(), Suites: []jsonSuite{}}
	for _, s := range r.Suites {
		js := jsonSuite{Name: s.Name, Status: s.Status(), Objects: s.Objects, Checks: s.Checks, Findings: []jsonFinding{}, Updated: s.Updated}
		if s.Err != nil {
			js.Error = s.Err.Error()
		}
		for _, f := range s.Findings {
			js.Findings = append(js.Findings, jsonFinding{Suite: f.Suite, Check: f.Check, Level: f.Level, Message: f.Message,
				Object: f.Object, Diff: f.Diff, File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col})
		}
		out.Suites = append(out.Suites, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// JUnit is the report for test dashboards: JUnit XML with one testsuite
// per suite and one testcase per check that ran (sorted by name). A check
// with error findings is a failure listing them; a suite that could not
// be checked has an error (type bad-input) on its render testcase.
// Warnings go to the testcase's system-out.
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
	js := junitSuite{Name: s.Name}
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
		js.Cases = append(js.Cases, junitCase{Name: "render", Classname: s.Name, Error: badInput(s.Err)})
		js.Errors++
	}
	js.Tests = len(js.Cases)
	return js
}

// junitCaseOf is the testcase of check c of the suite s, with its findings.
func junitCaseOf(s *check.SuiteResult, c string, findings []check.Finding) junitCase {
	tc := junitCase{Name: c, Classname: s.Name}
	var errLines, warnLines []string
	for _, f := range findings {
		line := locate(f.Pos) + f.Message
		if f.Diff != "" {
			line += "\n" + f.Diff
		}
		if f.Level == check.LevelError {
			errLines = append(errLines, line)
		} else {
			warnLines = append(warnLines, line)
		}
	}
	switch {
	case c == "render" && s.Err != nil:
		tc.Error = badInput(s.Err)
	case len(errLines) > 0:
		tc.Failure = &junitMessage{Message: fmt.Sprintf("%d findings", len(errLines)), Type: c, Text: strings.Join(errLines, "\n")}
	}
	if len(warnLines) > 0 {
		tc.SystemOut = "warnings:\n" + strings.Join(warnLines, "\n")
	}
	return tc
}

// badInput is the error of a suite that could not be checked.
func badInput(err error) *junitMessage {
	return &junitMessage{Message: firstLine(err.Error()), Type: "bad-input", Text: err.Error()}
}

// SARIF is the report for code scanning: SARIF 2.1.0 with one run, one
// rule per check (in the order first reported) and one result per
// finding, located in the authored input, or in the result's config file
// when a finding has no place of its own. Artifact URIs are
// slash-separated and, under Dir, relative to it.
type SARIF struct {
	// Version is the drydock version named as the tool's.
	Version string
	// Dir is the directory absolute paths are made relative to ("": none).
	Dir string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     check.Level     `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// Write writes the SARIF log of r to w.
func (s SARIF) Write(w io.Writer, r *check.Result) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "drydock", Version: s.Version,
		InformationURI: "https://github.com/drydock-dev/drydock", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	index := map[string]int{}
	for _, suite := range r.Suites {
		for _, f := range suite.Findings {
			i, ok := index[f.Check]
			if !ok {
				i = len(run.Tool.Driver.Rules)
				index[f.Check] = i
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: f.Check, ShortDescription: sarifMessage{Text: checkDescription(f.Check)}})
			}
			run.Results = append(run.Results, s.result(suite.Name, f, i, r.Config))
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// result is the SARIF result of finding f of suite, whose rule is at
// index; config is where a finding without a place points.
func (s SARIF) result(suite string, f check.Finding, index int, config string) sarifResult {
	pos := f.Pos
	if !pos.IsValid() {
		pos = manifest.Pos{File: config}
	}
	return sarifResult{RuleID: f.Check, RuleIndex: index, Level: f.Level,
		Message: sarifMessage{Text: fmt.Sprintf("suite %s: %s", suite, f.Message)},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifact{URI: s.artifactURI(pos.File)},
			Region:           sarifRegion{StartLine: max(pos.Line, 1), StartColumn: pos.Col},
		}}}}
}

func checkDescription(name string) string {
	switch {
	case name == "render":
		return "The inputs render"
	case name == "golden":
		return "The render matches the committed golden tree"
	case strings.HasPrefix(name, "rules/"):
		return "OPA rule " + strings.TrimPrefix(name, "rules/")
	}
	return name
}

// artifactURI is file slash-separated and, when it is absolute and under
// Dir, relative to Dir (as code scanning wants).
func (s SARIF) artifactURI(file string) string {
	if filepath.IsAbs(file) && s.Dir != "" {
		if r, err := filepath.Rel(s.Dir, file); err == nil && !strings.HasPrefix(r, "..") {
			file = r
		}
	}
	return filepath.ToSlash(file)
}

// GitHub is the report for GitHub Actions: an ::error or ::warning
// workflow command (annotation) per finding, at most AnnotationCap of
// each level and a ::notice counting the rest, then the text report
// fenced by ::stop-commands:: so that nothing it quotes runs as a
// workflow command. stepSummary writes the matching job summary.
type GitHub struct{}

// AnnotationCap is how many annotations of each level GitHub shows for
// one step; GitHub writes the rest as a count.
const AnnotationCap = 10

// Write writes the workflow commands of r to w.
func (GitHub) Write(out io.Writer, r *check.Result) error {
	w := &stickyWriter{w: out}
	shown := map[check.Level]int{}
	hidden := 0
	for _, s := range r.Suites {
		for _, f := range s.Findings {
			if shown[f.Level] >= AnnotationCap {
				hidden++
				continue
			}
			shown[f.Level]++
			fmt.Fprintln(w, annotation(s.Name, f))
		}
	}
	if hidden > 0 {
		fmt.Fprintf(w, "::notice title=drydock::%d more findings are not annotated (GitHub shows %d per level); see the job summary or the text report\n", hidden, AnnotationCap)
	}
	var text strings.Builder
	if err := (Text{}).Write(&text, r); err != nil {
		return err
	}
	writeInert(w, text.String())
	return w.err
}

// annotation is the workflow command of finding f of suite.
func annotation(suite string, f check.Finding) string {
	var props []string
	if f.Pos.IsValid() {
		props = append(props, "file="+ghProperty(filepath.ToSlash(f.Pos.File)))
		if f.Pos.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Pos.Line))
		}
		if f.Pos.Col > 0 {
			props = append(props, fmt.Sprintf("col=%d", f.Pos.Col))
		}
	}
	props = append(props, "title="+ghProperty(fmt.Sprintf("drydock %s: %s", suite, f.Check)))
	msg := f.Message
	if f.Diff != "" {
		msg += "\n" + f.Diff
	}
	return fmt.Sprintf("::%s %s::%s", f.Level, strings.Join(props, ","), ghData(msg))
}

// writeInert writes text (which quotes rule messages, file names and
// diffs, any line of which could read as a workflow command such as
// ::add-mask:: or ::error::) between ::stop-commands:: and its end
// marker, so GitHub runs none of it. The marker is a hash of the text:
// deterministic, and not something the text can contain in advance.
func writeInert(w io.Writer, text string) {
	sum := sha256.Sum256([]byte(text))
	token := "drydock-" + hex.EncodeToString(sum[:12])
	fmt.Fprintf(w, "::stop-commands::%s\n%s::%s::\n", token, text, token)
}

// ghData escapes an annotation message; ghProperty also a property value.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// stepSummary writes the Markdown job summary of r to w in one write: a
// table of the suites (status, objects, errors, warnings), then each
// suite's findings. Every finding stays on its line: line breaks become
// <br> and no line can start a workflow command. The caller opens the
// destination (GitHub's $GITHUB_STEP_SUMMARY, for appending).
func stepSummary(w io.Writer, r *check.Result) error {
	var b strings.Builder
	b.WriteString("## drydock test\n\n| suite | status | objects | errors | warnings |\n|---|---|---|---|---|\n")
	for _, s := range r.Suites {
		errs, warns := s.Counts()
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", mdText(s.Name), s.Status(), s.Objects, errs, warns)
	}
	for _, s := range r.Suites {
		if len(s.Findings) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", mdText(s.Name))
		for _, f := range s.Findings {
			fmt.Fprintf(&b, "- **%s** %s%s%s\n", f.Level, mdCode(f.Check), mdCode(locate(f.Pos)), mdText(f.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCode is s as a Markdown code span on one line ("" stays "").
func mdCode(s string) string {
	if s == "" {
		return ""
	}
	s = strings.ReplaceAll(strings.TrimSuffix(mdText(s), ": "), "`", "'")
	return "`" + s + "` "
}

// mdText keeps s on its line of the summary: line breaks become <br>,
// table pipes are escaped, and no line can start a workflow command.
func mdText(s string) string {
	return strings.NewReplacer("\r\n", "<br>", "\n", "<br>", "\r", "<br>", "|", "\\|").Replace(s)
}
