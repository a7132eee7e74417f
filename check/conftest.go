package check

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/rules"
)

// ConftestResult is what conftest reports for one input file and one
// namespace (conftest v0.71.1 output/result.go CheckResult): a plain
// suite's rule results in conftest's grouping, which conftest's output
// formats (report.LookupConftest) write.
type ConftestResult struct {
	// File is the file as given (a directory's files joined to it);
	// "Combined" for conftest --combine.
	File      string
	Namespace string
	// Successes counts the checks that passed, as conftest counts them.
	Successes  int
	Failures   []ConftestMessage
	Warnings   []ConftestMessage
	Exceptions []ConftestMessage
	// Prints are the policies' print() output as conftest keeps it:
	// "file:line: message\n" per call.
	Prints []string
	// Traces are, with Options.Trace, conftest's queries on the file's
	// documents with OPA's trace of each.
	Traces []ConftestTrace
}

// ConftestTrace is one query conftest ran and its trace.
type ConftestTrace struct {
	Query string
	// Passed: the query gave no message.
	Passed bool
	Lines  []string
}

// ConftestMessage is one failure, warning or exception (conftest's
// output.Result).
type ConftestMessage struct {
	Message string
	// Metadata is the result object's keys but msg and _loc, and "query";
	// nil for an exception.
	Metadata map[string]any
	// LocFile and LocLine are the result's _loc ({file, line}), "" when
	// it has none.
	LocFile, LocLine string
}

// conftestFile is the name conftest gives the evaluation of --combine.
const conftestFile = "Combined"

// conftestResults groups a plain suite's rule report as conftest does:
// for each selected namespace (in conftest's order), one result per file
// (in the order the files were read; conftest's own order is its map's,
// random), the file's documents summed.
func conftestResults(s Suite, eng *rules.Engine, rep *rules.Report, objs []*sunk) []ConftestResult {
	fileOf := func(input int) string {
		if s.Combine {
			return conftestFile
		}
		return objs[input].origin.Pos.File
	}
	var files []string
	if s.Combine {
		files = []string{conftestFile}
	}
	for i := range objs {
		if f := fileOf(i); !s.Combine && !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	var out []ConftestResult
	for _, ns := range conftestNamespaces(s, eng.Namespaces()) {
		results := inConftestOrder(rep.Results, ns, eng.CheckOrder(ns))
		for _, f := range files {
			cr := ConftestResult{File: f, Namespace: ns}
			for _, sum := range rep.Summaries {
				if sum.Namespace == ns && fileOf(sum.Input) == f {
					cr.Successes += sum.Successes
				}
			}
			for _, p := range rep.Prints {
				if p.Namespace == ns && fileOf(p.Input) == f {
					cr.Prints = append(cr.Prints, fmt.Sprintf("%s: %s\n", p.Location, p.Message))
				}
			}
			for _, r := range results {
				if fileOf(r.Input) != f {
					continue
				}
				switch m := conftestMessage(r); r.Kind {
				case rules.Failure:
					cr.Failures = append(cr.Failures, m)
				case rules.Warning:
					cr.Warnings = append(cr.Warnings, m)
				case rules.Exception:
					cr.Exceptions = append(cr.Exceptions, m)
				}
			}
			out = append(out, cr)
		}
	}
	return out
}

// inConftestOrder are ns's results in conftest's order: by input, then
// by check in the order the policies declare them (conftest's queries),
// each check's messages in OPA's set order, which Report keeps.
func inConftestOrder(results []rules.Result, ns string, order []string) []rules.Result {
	var out []rules.Result
	for _, r := range results {
		if r.Namespace == ns {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b rules.Result) int {
		return cmp.Or(cmp.Compare(a.Input, b.Input), cmp.Compare(slices.Index(order, a.Rule), slices.Index(order, b.Rule)))
	})
	return out
}

// conftestMessage is r as conftest's output.Result: _loc out of the
// metadata (policy/engine.go's NewResult), and without drydock's copy of
// the package's __rego_metadata__, which conftest does not add.
func conftestMessage(r rules.Result) ConftestMessage {
	m := ConftestMessage{Message: r.Message}
	if r.Kind == rules.Exception {
		return m
	}
	m.Metadata = maps.Clone(r.Metadata)
	delete(m.Metadata, "__rego_metadata__")
	if loc, ok := m.Metadata["_loc"]; ok {
		delete(m.Metadata, "_loc")
		if l, ok := loc.(map[string]any); ok {
			m.LocFile, _ = l["file"].(string)
			if line, ok := l["line"]; ok && isNumber(line) {
				m.LocLine = fmt.Sprint(line)
			}
		}
	}
	return m
}

func isNumber(v any) bool {
	switch v.(type) {
	case int64, float64:
		return true
	}
	return false
}

// conftestNamespaces are the namespaces conftest evaluates, in its order
// (conftest v0.71.1 runner/test.go): every namespace with
// --all-namespaces, those matching the patterns when one holds a glob
// character, else the names as given (default main), each giving results
// even when no policy has it.
func conftestNamespaces(s Suite, found []string) []string {
	if s.AllNamespaces {
		return found
	}
	selected := s.Namespaces
	if len(selected) == 0 {
		selected = []string{"main"}
	}
	if !slices.ContainsFunc(selected, func(p string) bool { return strings.ContainsAny(p, "*?[") }) {
		return selected
	}
	var out []string
	for _, ns := range found {
		if slices.ContainsFunc(selected, func(p string) bool { ok, _ := path.Match(p, ns); return ok }) {
			out = append(out, ns)
		}
	}
	return out
}

// conftestQueries runs, in conftest mode, conftest's own queries on the
// inputs when a policy prints or the run traces, and puts their print()
// output and traces in results (in place of the prints of drydock's one
// query per namespace, which runs a helper or an exception rule once).
func (r *runner) conftestQueries(ctx context.Context, s Suite, eng *rules.Engine, inputs []rules.Input, results []ConftestResult) error {
	if !r.opts.Conftest || !(r.opts.Trace || eng.HasPrint()) {
		return nil
	}
	var qs []rules.Query
	var err error
	if s.Combine {
		qs, err = eng.QueriesCombined(ctx, inputs, r.opts.Trace)
	} else {
		qs, err = eng.Queries(ctx, inputs, r.opts.Trace)
	}
	if err != nil {
		return err
	}
	for i := range results {
		cr := &results[i]
		cr.Prints = nil
		for _, q := range qs {
			file := conftestFile
			if !s.Combine {
				file = inputs[q.Input].Context.File
			}
			if q.Namespace != cr.Namespace || file != cr.File {
				continue
			}
			cr.Prints = append(cr.Prints, q.Prints...)
			if r.opts.Trace {
				cr.Traces = append(cr.Traces, ConftestTrace{Query: q.Query, Passed: q.Passed, Lines: q.Trace})
			}
		}
	}
	return nil
}
