// Package report owns the formats in which `drydock test` reports a
// check.Result: text for people, JSON for tools, JUnit XML for test
// dashboards, SARIF 2.1.0 for code scanning, and GitHub Actions workflow
// commands (annotations) plus a Markdown job summary. It also writes what
// `drydock diff` found (a reconcile.Plan) as text, Markdown, JSON or for
// GitHub Actions (LookupDiff), one file per format.
//
// report only formats: it does not run checks (package check does) or
// reconcile renders (package reconcile does), pick
// an exit code, read the environment or open files. A Format writes to the
// io.Writer it is given; the caller decides where that is (standard
// output, a -o file, $GITHUB_STEP_SUMMARY) and reports write errors.
// Every format is deterministic: the same Result gives the same bytes.
package report

import (
	"io"
	"strings"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// Format writes a check.Result in one format.
type Format interface {
	// Write writes the report of r to w and returns the first write
	// error; after one it writes nothing more.
	Write(w io.Writer, r *check.Result) error
}

// Options are what some formats need besides the result.
type Options struct {
	// Version is the drydock version SARIF names as its tool's, and a
	// shard's JSON report.
	Version string
	// Dir is the directory SARIF makes absolute file paths relative to
	// (the working directory); a path outside it, or any path when Dir
	// is "", stays as it is.
	Dir string
	// Colour lets the text format paint statuses and levels (for a
	// terminal; never in files, pipes or CI logs).
	Colour bool
}

// Formats are the names Lookup knows, in the order help text lists them.
var Formats = []string{"text", "json", "junit", "sarif", "github"}

// Lookup returns the format named name (one of Formats); ok is false for
// any other name.
func Lookup(name string, o Options) (f Format, ok bool) {
	switch name {
	case "text":
		return Text{Colour: o.Colour}, true
	case "json":
		return JSON{Version: o.Version}, true
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

// StickyWriter remembers the first write error of W; later writes are
// dropped and return it. Err is that error (nil when every write worked).
type StickyWriter struct {
	W   io.Writer
	Err error
}

// Write writes p to W unless an earlier write failed.
func (s *StickyWriter) Write(p []byte) (int, error) {
	if s.Err != nil {
		return 0, s.Err
	}
	n, err := s.W.Write(p)
	s.Err = err
	return n, err
}
