package report

import (
	"errors"
	"io"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/shards"
)

// JSON is the report for tools: one indented object (shards.Report),
// {"ok": bool, "config": file, "shard": {index, count}, "suites": [{name,
// status, objects, checks, findings, updated, error, unclaimed}]}, each
// finding {suite, check, level, message, object, source, related, diff,
// metadata} with empty optional fields left out. A finding's source is an
// object (Source): {file, line, column} of where it points, and the
// application, component, trait or policy that produced its object. The
// finding's file, line and column are also given flat, as before source
// (deprecated: read source). A shard's report (--shard) names its shard
// and drydock's version and holds what `drydock report merge` needs: the
// unclaimed findings.
type JSON struct {
	// Version is the drydock version a shard's report names (shards of
	// one run must be of one drydock); "" names none.
	Version string
}

// Write writes the JSON report of r to w.
func (j JSON) Write(w io.Writer, r *check.Result) error {
	out := JSONReport(r)
	if out.Shard != nil {
		out.Drydock = j.Version
	}
	return out.Write(w)
}

// JSONReport is r as the JSON report's data.
func JSONReport(r *check.Result) *shards.Report {
	out := &shards.Report{OK: r.OK(), Config: r.Config, Suites: []shards.Suite{}}
	if r.Shard.Count > 0 {
		out.Shard = &shards.Shard{Index: r.Shard.Index, Count: r.Shard.Count}
	}
	for _, s := range r.Suites {
		js := shards.Suite{Name: s.Name, Status: s.Status(), Objects: s.Objects, Checks: s.Checks, Findings: jsonFindings(s.Findings), Updated: s.Updated, Adopted: s.Adopted}
		if js.Checks == nil {
			js.Checks = []string{}
		}
		if s.Err != nil {
			js.Error = manifest.Format(s.Err, nil)
		}
		if len(s.Unclaimed) > 0 {
			js.Unclaimed = jsonFindings(s.Unclaimed)
		}
		out.Suites = append(out.Suites, js)
	}
	return out
}

// jsonFindings are findings as the JSON report writes them (never nil).
func jsonFindings(fs []check.Finding) []shards.Finding {
	out := []shards.Finding{}
	for _, f := range fs {
		jf := shards.Finding{Suite: f.Suite, Check: f.Check, Level: string(f.Level), Message: f.Message,
			Object: f.Object, Source: SourceOf(f.Pos, f.Origin), Diff: f.Diff, File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col, Metadata: f.Metadata}
		for _, r := range f.Related {
			jf.Related = append(jf.Related, shards.Related{What: r.What, Note: r.Note, File: r.Pos.File, Line: r.Pos.Line, Column: r.Pos.Col})
		}
		out = append(out, jf)
	}
	return out
}

// ResultOf is the check.Result a JSON report (a merged one) stands for,
// for JUnit and SARIF to write as from the run itself: what JSON writes
// of r, read back (the text formats may group golden drift otherwise:
// the report does not say which place was the object's origin). A
// suite's error is its text.
func ResultOf(r *shards.Report) *check.Result {
	out := &check.Result{Config: r.Config}
	if r.Shard != nil {
		out.Shard = check.Shard{Index: r.Shard.Index, Count: r.Shard.Count}
	}
	for _, s := range r.Suites {
		cs := &check.SuiteResult{Name: s.Name, Objects: s.Objects, Checks: s.Checks, Updated: s.Updated, Adopted: s.Adopted,
			Findings: checkFindings(s.Findings), Unclaimed: checkFindings(s.Unclaimed)}
		if s.Error != "" {
			cs.Err = errors.New(s.Error)
		}
		out.Suites = append(out.Suites, cs)
	}
	return out
}

// checkFindings are JSON findings as check's.
func checkFindings(fs []shards.Finding) []check.Finding {
	var out []check.Finding
	for _, f := range fs {
		cf := check.Finding{Suite: f.Suite, Check: f.Check, Level: check.Level(f.Level), Message: f.Message, Object: f.Object,
			Pos: manifest.Pos{File: f.File, Line: f.Line, Col: f.Column}, Diff: f.Diff, Metadata: f.Metadata}
		if s := f.Source; s != nil {
			cf.Pos = manifest.Pos{File: s.File, Line: s.Line, Col: s.Column}
			cf.Origin = cluster.Origin{Application: s.Application, Component: s.Component, Trait: s.Trait, Policy: s.Policy}
			if cf.Origin != (cluster.Origin{}) {
				cf.Origin.Pos = cf.Pos
			}
		}
		for _, r := range f.Related {
			cf.Related = append(cf.Related, manifest.Related{What: r.What, Note: r.Note, Pos: manifest.Pos{File: r.File, Line: r.Line, Col: r.Column}})
		}
		out = append(out, cf)
	}
	return out
}
