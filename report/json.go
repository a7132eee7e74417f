package report

import (
	"encoding/json"
	"io"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// JSON is the report for tools: one indented object,
// {"ok": bool, "suites": [{name, status, objects, checks, findings,
// updated, error}]}, each finding {suite, check, level, message, object,
// source, diff, metadata} with empty optional fields left out. A
// finding's source is an object (Source): {file, line, column} of where
// it points, and the application, component, trait or policy that
// produced its object. The finding's file, line and column are also
// given flat, as before source (deprecated: read source).
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
	Adopted  []string      `json:"adopted,omitempty"`
	Error    string        `json:"error,omitempty"`
}

type jsonFinding struct {
	Suite   string      `json:"suite"`
	Check   string      `json:"check"`
	Level   check.Level `json:"level"`
	Message string      `json:"message"`
	Object  string      `json:"object,omitempty"`
	Source  *Source     `json:"source,omitempty"`
	Diff    string      `json:"diff,omitempty"`
	File    string      `json:"file,omitempty"`
	Line    int         `json:"line,omitempty"`
	Column  int         `json:"column,omitempty"`
	// Metadata is a rule finding's metadata (conftest's).
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Write writes the JSON report of r to w.
func (JSON) Write(w io.Writer, r *check.Result) error {
	out := jsonReport{OK: r.OK(), Suites: []jsonSuite{}}
	for _, s := range r.Suites {
		js := jsonSuite{Name: s.Name, Status: s.Status(), Objects: s.Objects, Checks: s.Checks, Findings: []jsonFinding{}, Updated: s.Updated, Adopted: s.Adopted}
		if s.Err != nil {
			js.Error = manifest.Format(s.Err, nil)
		}
		for _, f := range s.Findings {
			js.Findings = append(js.Findings, jsonFinding{Suite: f.Suite, Check: f.Check, Level: f.Level, Message: f.Message,
				Object: f.Object, Source: SourceOf(f.Pos, f.Origin), Diff: f.Diff, File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col, Metadata: f.Metadata})
		}
		out.Suites = append(out.Suites, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
