// Package shards is drydock test's JSON report as data (Report: the
// schema report.JSON writes) and the merge of the reports of the shards
// of one run (`drydock test --shard i/n`) into the report of the whole
// (Merge: `drydock report merge`). It imports only the standard library,
// so that a small binary can merge reports without drydock's renderer.
package shards

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Report is drydock test's JSON report: {"ok": bool, "config": file,
// "drydock": version (a shard's), "shard": {index, count}, "suites": [...]}, empty optional fields left
// out.
type Report struct {
	OK bool `json:"ok"`
	// Config is the configuration file the suites came from: where a
	// finding without a place of its own points.
	Config string `json:"config,omitempty"`
	// Drydock is, in a shard's report, the version of drydock that made
	// it: shards of one run are of one drydock (the merge refuses
	// others). A whole run's report leaves it out.
	Drydock string `json:"drydock,omitempty"`
	// Shard is the part of the run the report is of (--shard i/n); nil
	// for a whole run (read as shard 1 of 1).
	Shard  *Shard  `json:"shard,omitempty"`
	Suites []Suite `json:"suites"`
}

// Shard is shard Index of Count, 1-based.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Suite is what one suite found: its status ("ok", "FAIL", "ERROR"), the
// objects it checked, the checks that ran, its findings, the golden files
// an update wrote (updated) or took over (adopted), and its error (it
// could not be checked).
type Suite struct {
	Name     string    `json:"name"`
	Status   string    `json:"status"`
	Objects  int       `json:"objects"`
	Checks   []string  `json:"checks"`
	Findings []Finding `json:"findings"`
	Updated  []string  `json:"updated,omitempty"`
	Adopted  []string  `json:"adopted,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Unclaimed are, in a shard's report, the findings that hold of the
	// suite only if every shard that ran it has them: the golden files
	// the shard did not render (stale only when no shard renders them)
	// and "nothing to check".
	Unclaimed []Finding `json:"unclaimed,omitempty"`
}

// Finding is one thing a check reports. Source says where it points and
// what produced its object; file, line and column repeat the place flat
// (deprecated: read source).
type Finding struct {
	Suite   string    `json:"suite"`
	Check   string    `json:"check"`
	Level   string    `json:"level"`
	Message string    `json:"message"`
	Object  string    `json:"object,omitempty"`
	Source  *Source   `json:"source,omitempty"`
	Related []Related `json:"related,omitempty"`
	Diff    string    `json:"diff,omitempty"`
	File    string    `json:"file,omitempty"`
	Line    int       `json:"line,omitempty"`
	Column  int       `json:"column,omitempty"`
	// Metadata is a rule finding's metadata (conftest's).
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Source is where something comes from, as drydock's JSON formats write
// it: a place in a file (file, line, column) and, for a rendered object,
// what produced it (application, component, trait, policy). Empty fields
// are left out. drydock's JSON (test's report, render --format json,
// explain --format json) writes every source so, never as a
// "file:line:col" string.
type Source struct {
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
	Column      int    `json:"column,omitempty"`
	Application string `json:"application,omitempty"`
	Component   string `json:"component,omitempty"`
	Trait       string `json:"trait,omitempty"`
	Policy      string `json:"policy,omitempty"`
	// Text is render's description of the writer (its # Source comment:
	// "application shop, component web, step deploy"), when there is one.
	Text string `json:"text,omitempty"`
}

// Related is another place a finding relates to (the template line of a
// render error): what it is, a note, and the place.
type Related struct {
	What   string `json:"what,omitempty"`
	Note   string `json:"note,omitempty"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// Levels and statuses, as the report writes them.
const (
	LevelError   = "error"
	LevelWarning = "warning"
	StatusOK     = "ok"
	StatusFail   = "FAIL"
	StatusError  = "ERROR"
)

// Read decodes a JSON report. Unknown fields are an error (the file is
// not drydock test's JSON report, or of a newer drydock), as is a
// report without "suites".
func Read(data []byte) (*Report, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw struct {
		Report
		Suites *[]Suite `json:"suites"`
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not drydock test's JSON report (--format json): %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		// Reports concatenated into one file would merge as the first.
		return nil, fmt.Errorf("not one drydock test JSON report (--format json): more follows the report")
	}
	if raw.Suites == nil {
		return nil, fmt.Errorf("not drydock test's JSON report (--format json): no \"suites\"")
	}
	r := raw.Report
	r.Suites = *raw.Suites
	if s := r.Shard; s != nil && (s.Count < 1 || s.Index < 1 || s.Index > s.Count) {
		return nil, fmt.Errorf("shard %d/%d: want i/n with 1 <= i <= n", s.Index, s.Count)
	}
	return &r, nil
}

// Write encodes r as drydock writes its JSON report: indented, one
// trailing newline.
func (r *Report) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Exit codes, as drydock test's (check's contract).
const (
	ExitOK    = 0
	ExitFail  = 1
	ExitInput = 2
)

// Exit is the exit code drydock test gives for the suites of r: 2 when a
// suite could not be checked, else 1 when a finding is an error (or,
// with failOnWarn, a warning), else 0.
func (r *Report) Exit(failOnWarn bool) int {
	code := ExitOK
	for _, s := range r.Suites {
		if s.Error != "" {
			return ExitInput
		}
		for _, f := range s.Findings {
			if f.Level == LevelError || failOnWarn && f.Level == LevelWarning {
				code = ExitFail
			}
		}
	}
	return code
}

// status is the suite's one-word outcome, as check.SuiteResult.Status.
func (s *Suite) status() string {
	if s.Error != "" {
		return StatusError
	}
	for _, f := range s.Findings {
		if f.Level == LevelError {
			return StatusFail
		}
	}
	return StatusOK
}
