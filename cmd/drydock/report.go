package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// A reporter writes the results of `drydock test` in one format.
type reporter func(w io.Writer, results []*suiteResult, o testOptions) error

var reporters = map[string]reporter{
	"text":   reportText,
	"json":   reportJSON,
	"junit":  reportJUnit,
	"sarif":  reportSARIF,
	"github": reportGitHub,
}

func suiteStatus(r *suiteResult) string {
	switch {
	case r.Err != nil:
		return "ERROR"
	case r.failed():
		return "FAIL"
	}
	return "ok"
}

func counts(r *suiteResult) (errs, warns int) {
	for _, f := range r.Findings {
		if f.Level == levelError {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

func locate(p manifest.Pos) string {
	if s := p.String(); s != "" {
		return s + ": "
	}
	return ""
}

func reportText(w io.Writer, results []*suiteResult, o testOptions) error {
	failed := 0
	for _, r := range results {
		errs, warns := counts(r)
		fmt.Fprintf(w, "suite %s: %s (%d objects, %d errors, %d warnings)\n", r.Name, suiteStatus(r), r.Objects, errs, warns)
		if r.Status() != "ok" {
			failed++
		}
		for _, f := range r.Findings {
			fmt.Fprintf(w, "  %s%s [%s] %s\n", locate(f.Pos), f.Level, f.Check, f.Message)
			if f.Diff != "" {
				for _, line := range strings.Split(strings.TrimRight(f.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "    %s\n", line)
				}
			}
		}
		for _, p := range r.Updated {
			fmt.Fprintf(w, "  updated %s\n", p)
		}
	}
	fmt.Fprintf(w, "%d suites: %d ok, %d failed\n", len(results), len(results)-failed, failed)
	return nil
}

// Status is the suite's one-word outcome.
func (r *suiteResult) Status() string { return suiteStatus(r) }

type jsonFinding struct {
	finding
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
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

func reportJSON(w io.Writer, results []*suiteResult, o testOptions) error {
	out := struct {
		OK     bool        `json:"ok"`
		Suites []jsonSuite `json:"suites"`
	}{OK: true, Suites: []jsonSuite{}}
	for _, r := range results {
		s := jsonSuite{Name: r.Name, Status: suiteStatus(r), Objects: r.Objects, Checks: r.Checks, Findings: []jsonFinding{}, Updated: r.Updated}
		if r.Err != nil {
			s.Error = r.Err.Error()
		}
		if s.Status != "ok" {
			out.OK = false
		}
		for _, f := range r.Findings {
			s.Findings = append(s.Findings, jsonFinding{finding: f, File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col})
		}
		out.Suites = append(out.Suites, s)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// JUnit: one testsuite per suite, one testcase per check that ran.
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

func reportJUnit(w io.Writer, results []*suiteResult, o testOptions) error {
	var out junitSuites
	for _, r := range results {
		js := junitSuite{Name: r.Name}
		byCheck := map[string][]finding{}
		checks := append([]string(nil), r.Checks...)
		for _, f := range r.Findings {
			if _, ok := byCheck[f.Check]; !ok && !slices.Contains(checks, f.Check) {
				checks = append(checks, f.Check)
			}
			byCheck[f.Check] = append(byCheck[f.Check], f)
		}
		sort.Strings(checks)
		for _, c := range checks {
			tc := junitCase{Name: c, Classname: r.Name}
			var errLines, warnLines []string
			for _, f := range byCheck[c] {
				line := locate(f.Pos) + f.Message
				if f.Diff != "" {
					line += "\n" + f.Diff
				}
				if f.Level == levelError {
					errLines = append(errLines, line)
				} else {
					warnLines = append(warnLines, line)
				}
			}
			switch {
			case c == "render" && r.Err != nil:
				tc.Error = &junitMessage{Message: firstLine(r.Err.Error()), Type: "bad-input", Text: r.Err.Error()}
				js.Errors++
			case len(errLines) > 0:
				tc.Failure = &junitMessage{Message: fmt.Sprintf("%d findings", len(errLines)), Type: c, Text: strings.Join(errLines, "\n")}
				js.Failures++
			}
			if len(warnLines) > 0 {
				tc.SystemOut = "warnings:\n" + strings.Join(warnLines, "\n")
			}
			js.Cases = append(js.Cases, tc)
		}
		if r.Err != nil && !slices.Contains(checks, "render") {
			js.Cases = append(js.Cases, junitCase{Name: "render", Classname: r.Name, Error: &junitMessage{Message: firstLine(r.Err.Error()), Type: "bad-input", Text: r.Err.Error()}})
			js.Errors++
		}
		js.Tests = len(js.Cases)
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

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// SARIF 2.1.0: one run, one rule per check, one result per finding, each
// located in the authored input (the config file when a finding has no
// place of its own).
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
	Level     string          `json:"level"`
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

func reportSARIF(w io.Writer, results []*suiteResult, o testOptions) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "drydock", Version: version,
		InformationURI: "https://github.com/drydock-dev/drydock", Rules: []sarifRule{}}}, Results: []sarifResult{}}
	index := map[string]int{}
	for _, r := range results {
		for _, f := range r.Findings {
			i, ok := index[f.Check]
			if !ok {
				i = len(run.Tool.Driver.Rules)
				index[f.Check] = i
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: f.Check, ShortDescription: sarifMessage{Text: checkDescription(f.Check)}})
			}
			pos := f.Pos
			if !pos.IsValid() {
				pos = manifest.Pos{File: o.config}
			}
			msg := fmt.Sprintf("suite %s: %s", r.Name, f.Message)
			run.Results = append(run.Results, sarifResult{RuleID: f.Check, RuleIndex: i, Level: f.Level, Message: sarifMessage{Text: msg},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifact{URI: artifactURI(pos.File)},
					Region:           sarifRegion{StartLine: max(pos.Line, 1), StartColumn: pos.Col},
				}}}})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

func checkDescription(check string) string {
	switch {
	case check == "render":
		return "The inputs render"
	case check == "golden":
		return "The render matches the committed golden tree"
	case strings.HasPrefix(check, "rules/"):
		return "OPA rule " + strings.TrimPrefix(check, "rules/")
	}
	return check
}

// artifactURI is a relative, slash-separated path (as code scanning wants).
func artifactURI(file string) string {
	if filepath.IsAbs(file) {
		if wd, err := os.Getwd(); err == nil {
			if r, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(r, "..") {
				file = r
			}
		}
	}
	return filepath.ToSlash(file)
}

// githubAnnotationCap is how many annotations of each level GitHub shows
// for one step; the rest are summarised.
const githubAnnotationCap = 10

func reportGitHub(w io.Writer, results []*suiteResult, o testOptions) error {
	shown := map[string]int{}
	hidden := 0
	for _, r := range results {
		for _, f := range r.Findings {
			if shown[f.Level] >= githubAnnotationCap {
				hidden++
				continue
			}
			shown[f.Level]++
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
			props = append(props, "title="+ghProperty(fmt.Sprintf("drydock %s: %s", r.Name, f.Check)))
			msg := f.Message
			if f.Diff != "" {
				msg += "\n" + f.Diff
			}
			fmt.Fprintf(w, "::%s %s::%s\n", f.Level, strings.Join(props, ","), ghData(msg))
		}
	}
	if hidden > 0 {
		fmt.Fprintf(w, "::notice title=drydock::%d more findings are not annotated (GitHub shows %d per level); see the job summary or the text report\n", hidden, githubAnnotationCap)
	}
	var text strings.Builder
	if err := reportText(&text, results, o); err != nil {
		return err
	}
	return writeInert(w, text.String())
}

// writeInert writes text (which quotes rule messages, file names and
// diffs, any line of which could read as a workflow command such as
// ::add-mask:: or ::error::) between ::stop-commands:: and its end
// marker, so GitHub runs none of it. The marker is a hash of the text:
// deterministic, and not something the text can contain in advance.
func writeInert(w io.Writer, text string) error {
	sum := sha256.Sum256([]byte(text))
	token := "drydock-" + hex.EncodeToString(sum[:12])
	_, err := fmt.Fprintf(w, "::stop-commands::%s\n%s::%s::\n", token, text, token)
	return err
}

// ghData escapes an annotation message; ghProperty also a property value.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// writeStepSummary appends a Markdown summary to $GITHUB_STEP_SUMMARY
// when GitHub Actions provides one.
func writeStepSummary(results []*suiteResult) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("## drydock test\n\n| suite | status | objects | errors | warnings |\n|---|---|---|---|---|\n")
	for _, r := range results {
		errs, warns := counts(r)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", mdText(r.Name), suiteStatus(r), r.Objects, errs, warns)
	}
	for _, r := range results {
		if len(r.Findings) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", mdText(r.Name))
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "- **%s** %s%s%s\n", f.Level, mdCode(f.Check), mdCode(locate(f.Pos)), mdText(f.Message))
		}
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
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
