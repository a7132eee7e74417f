package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// SARIF is the report for code scanning: SARIF 2.1.0 with one run, one
// rule per check (in the order first reported) and one result per
// finding, located in the authored input, or in the result's config file
// when a finding has no place of its own. Artifact URIs are
// percent-encoded (RFC 3986): a path under Dir is a relative reference
// to it, any other relative path one to the working directory, and an
// absolute path elsewhere a file: URI.
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
	// RelatedLocations are the finding's related places (the template
	// line of a render error).
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Properties       map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	// ID numbers a related location (from 0), as SARIF asks.
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	// Message says what a related location is ("template").
	Message *sarifMessage `json:"message,omitempty"`
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
	level := f.Level
	if level == check.LevelException {
		level = "note" // SARIF's level for what is reported but waived
	}
	res := sarifResult{RuleID: f.Check, RuleIndex: index, Level: level, Properties: f.Metadata,
		Message:   sarifMessage{Text: fmt.Sprintf("suite %s: %s", suite, f.Message)},
		Locations: []sarifLocation{{PhysicalLocation: s.physical(pos)}}}
	for _, r := range f.Related {
		if r.Pos.IsValid() {
			id := len(res.RelatedLocations)
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: s.physical(r.Pos), Message: &sarifMessage{Text: r.What}})
		}
	}
	return res
}

// physical is the SARIF physical location of pos.
func (s SARIF) physical(pos manifest.Pos) sarifPhysical {
	return sarifPhysical{
		ArtifactLocation: sarifArtifact{URI: s.artifactURI(pos.File)},
		Region:           sarifRegion{StartLine: max(pos.Line, 1), StartColumn: pos.Col},
	}
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

// artifactURI is file as a URI reference: relative to Dir when it is
// absolute and under Dir (as code scanning wants), else relative as it
// is, or a file: URI when it is absolute.
func (s SARIF) artifactURI(file string) string {
	if filepath.IsAbs(file) && s.Dir != "" && manifest.Within(s.Dir, file) {
		file, _ = filepath.Rel(s.Dir, file)
	}
	file = filepath.ToSlash(file)
	if filepath.IsAbs(file) || filepath.VolumeName(file) != "" {
		if !strings.HasPrefix(file, "/") {
			file = "/" + file // C:/x is file:///C:/x
		}
		return "file://" + uriPath(file)
	}
	return uriPath(file)
}

// uriPath percent-encodes the slash-separated path p as the path of a
// URI (RFC 3986): every byte but the unreserved characters, the
// sub-delims, @ and / is %XX, so spaces, %, #, ? and non-ASCII
// characters cannot end the path or change what it names. A colon is
// encoded too, so that a relative path's first segment never reads as a
// scheme.
func uriPath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=@/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
