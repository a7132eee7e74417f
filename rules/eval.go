package rules

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// Context is where a rendered object comes from. Rules read it with
// drydock.context() (see the package documentation).
type Context struct {
	Cluster     string
	Namespace   string
	Application string
	Component   string
	// Source is the file:line of the authored input the object came from.
	Source string
	// File is that input's file, as data.conftest.file names it.
	File string
}

// Input is one document to check and its render context: a rendered
// object, or a plain manifest's document that is not one.
type Input struct {
	// Object is the object; nil when the document is not a mapping.
	Object *manifest.Object
	// Document is the input document when Object is nil: a plain
	// manifest's empty document (null), scalar or sequence, which conftest
	// evaluates as it is.
	Document any
	Context  Context
}

// data is the input document the rules see.
func (in Input) data() any {
	if in.Object == nil {
		return in.Document
	}
	return in.Object.Data
}

// Kind classifies a Result.
type Kind int

// The kinds of results. deny and violation rules fail, warn rules warn.
const (
	Failure Kind = iota + 1
	Warning
	Exception
)

// String returns "failure", "warning" or "exception".
func (k Kind) String() string {
	switch k {
	case Failure:
		return "failure"
	case Warning:
		return "warning"
	case Exception:
		return "exception"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Result is one message a check produced for one input.
type Result struct {
	// Input is the index of the input in Eval's inputs, or of the group in
	// EvalCombined's sorted group names.
	Input int
	// Group is the group's name (EvalCombined only).
	Group string
	// Namespace is the check's package without "data.".
	Namespace string
	// Rule is the check's name, e.g. deny_no_latest.
	Rule    string
	Kind    Kind
	Message string
	// Metadata holds the result object's keys other than msg, and "query".
	// Numbers are int64 when whole, float64 otherwise.
	Metadata map[string]any
}

// Summary counts, the way conftest does, what one namespace's checks gave
// for one input (or group).
type Summary struct {
	Input      int
	Group      string
	Namespace  string
	Successes  int
	Failures   int
	Warnings   int
	Exceptions int
}

// Print is the output of one print() call during an evaluation.
type Print struct {
	Input     int
	Group     string
	Namespace string
	// Location is the file:line of the print call.
	Location string
	Message  string
}

// Report is the outcome of an evaluation. Everything in it is sorted by
// input (or group), then namespace; Results then by rule, message, kind and
// metadata; Prints keep their evaluation order.
type Report struct {
	Results   []Result
	Summaries []Summary
	Prints    []Print
	// Stopped are the namespaces a budget stopped or skipped, by input
	// (only with WithBudget: else Eval returns the stops as its error).
	Stopped []Stopped
}

// Failed reports whether any check failed.
func (r *Report) Failed() bool {
	return slices.ContainsFunc(r.Results, func(x Result) bool { return x.Kind == Failure })
}

// outcome is one input's (or group's) share of a Report.
type outcome struct {
	results   []Result
	summaries []Summary
	prints    []Print
	stopped   []Stopped
}

// job is one document to evaluate against every selected namespace.
type job struct {
	index int
	group string
	// combined: the input is a group's objects (EvalCombined).
	combined bool
	input    ast.Value
	context  Context
	label    string
}

// Eval evaluates the selected namespaces' checks against each input, with
// the object as input document, on up to workers goroutines (workers < 1
// means GOMAXPROCS). The report does not depend on workers. An evaluation
// error wraps ErrInvalid and names the input; when several inputs fail, the
// error of the first one (in input order) is returned. A namespace whose
// evaluation on one input outlives Options.QueryTimeout is not evaluated
// on the inputs after it: the error (a *StopError, wrapping ErrTimeout)
// names its rule, the input and how many evaluations were skipped. Under
// WithBudget, stops are in Report.Stopped instead.
func (e *Engine) Eval(ctx context.Context, inputs []Input, workers int) (*Report, error) {
	return e.run(ctx, len(inputs), workers, func(i int) (job, error) {
		in := inputs[i]
		v, err := ast.InterfaceToValue(in.data())
		if err != nil {
			return job{}, fmt.Errorf("%s: %w", inputLabel(in), err)
		}
		return job{index: i, input: v, context: in.Context, label: inputLabel(in)}, nil
	})
}

// EvalCombined evaluates the checks once per group, with the group's objects
// as one input document, as conftest's --combine does: a list of
// {"path": <authored input file>, "contents": <object>, "cluster":
// <cluster>, "output": <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml}
// sorted by path, then output path (stable: a file's documents in order);
// an input with no cluster (a plain manifest's document) has conftest's
// {"path", "contents"} only. path is the file the object was
// written in (Context.File, as given on the command line), as conftest's;
// an object without one has its output path there. The cluster is the
// input's Context.Cluster, or the group's name when that is empty.
// drydock.context() gives {"cluster": <group name>} and empty other keys.
// Results name the group (Group, and Input as its index in sorted order).
func (e *Engine) EvalCombined(ctx context.Context, groups map[string][]Input) (*Report, error) {
	names := slices.Sorted(maps.Keys(groups))
	return e.run(ctx, len(names), 0, func(i int) (job, error) {
		name := names[i]
		v, err := ast.InterfaceToValue(combine(name, groups[name]))
		if err != nil {
			return job{}, fmt.Errorf("group %s: %w", name, err)
		}
		return job{index: i, group: name, combined: true, input: v, context: Context{Cluster: name}, label: "group " + name}, nil
	})
}

// combine builds conftest's combined input for one group.
func combine(group string, inputs []Input) []any {
	type entry struct {
		path, output, cluster string
		doc                   any
	}
	entries := make([]entry, len(inputs))
	for i, in := range inputs {
		cluster := cmp.Or(in.Context.Cluster, group)
		var out string
		if cluster != "" {
			out = objectPath(cluster, in.Object)
		}
		entries[i] = entry{cmp.Or(in.Context.File, out), out, cluster, in.data()}
	}
	slices.SortStableFunc(entries, func(a, b entry) int {
		return cmp.Or(strings.Compare(a.path, b.path), strings.Compare(a.output, b.output))
	})
	out := make([]any, len(entries))
	for i, en := range entries {
		if en.cluster == "" {
			out[i] = map[string]any{"path": en.path, "contents": en.doc}
			continue
		}
		out[i] = map[string]any{"path": en.path, "contents": en.doc, "cluster": en.cluster, "output": en.output}
	}
	return out
}

// objectPath is where obj lives in drydock's output tree under cluster
// (tree.Path, long names shortened as the written file's are); "" for a
// document that is not an object.
func objectPath(cluster string, obj *manifest.Object) string {
	if obj == nil {
		return ""
	}
	return tree.Path(cluster, obj)
}

func inputLabel(in Input) string {
	var b strings.Builder
	if in.Object == nil {
		b.WriteString(cmp.Or(in.Context.Source, "input") + ": document")
		return b.String()
	}
	if src := cmp.Or(in.Context.Source, in.Object.Pos.String()); src != "" {
		b.WriteString(src + ": ")
	}
	b.WriteString(in.Object.Key().String())
	if in.Context.Cluster != "" {
		b.WriteString(" in cluster " + in.Context.Cluster)
	}
	return b.String()
}

// run evaluates n jobs on a pool of workers and assembles the report in job
// order. Workers take jobs in increasing order and stop taking jobs past the
// first failed one, so the error returned is always the first in order.
func (e *Engine) run(ctx context.Context, n, workers int, mk func(int) (job, error)) (*Report, error) {
	eng, own := e.runBudget()
	rep, err := eng.runJobs(ctx, n, workers, mk)
	if err != nil || !own {
		return rep, err
	}
	if err := rep.StopErrors(); err != nil {
		return nil, err
	}
	return rep, nil
}

// runJobs is run under the engine's budget.
func (e *Engine) runJobs(ctx context.Context, n, workers int, mk func(int) (job, error)) (*Report, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n))
	outs := make([]outcome, n)
	errs := make([]error, n)
	var next atomic.Int64
	var stop atomic.Int64
	stop.Store(int64(n))
	var wg sync.WaitGroup
	var panicked atomic.Pointer[workerPanic]
	for range workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, &workerPanic{value: r, stack: debug.Stack()})
					stop.Store(-1)
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || int64(i) > stop.Load() {
					return
				}
				if err := e.runOne(ctx, i, mk, &outs[i]); err != nil {
					errs[i] = err
					storeMin(&stop, int64(i))
				}
			}
		})
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p) // in the caller's goroutine, where a recover can catch it
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	rep := &Report{}
	for _, o := range outs {
		rep.Results = append(rep.Results, o.results...)
		rep.Summaries = append(rep.Summaries, o.summaries...)
		rep.Prints = append(rep.Prints, o.prints...)
		rep.Stopped = append(rep.Stopped, o.stopped...)
	}
	return rep, nil
}

// workerPanic is a panic of an evaluation worker, raised again in the
// caller's goroutine with the worker's stack.
type workerPanic struct {
	value any
	stack []byte
}

func (p *workerPanic) Error() string      { return fmt.Sprint(p.value) }
func (p *workerPanic) StackTrace() []byte { return p.stack }

func storeMin(v *atomic.Int64, x int64) {
	for {
		cur := v.Load()
		if x >= cur || v.CompareAndSwap(cur, x) {
			return
		}
	}
}

func (e *Engine) runOne(ctx context.Context, i int, mk func(int) (job, error), out *outcome) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	j, err := mk(i)
	if err != nil {
		return invalid(err)
	}
	for _, nc := range e.checks {
		if err := e.evalNamespace(ctx, j, nc, out); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return invalid(fmt.Errorf("%s: namespace %s: %w", j.label, nc.name, e.explain(err)))
		}
	}
	slices.SortStableFunc(out.results, compareResults)
	return nil
}

// evalNamespace runs one namespace's prepared query on one job.
func (e *Engine) evalNamespace(ctx context.Context, j job, nc *namespaceChecks, out *outcome) error {
	st := &evalState{context: j.context, input: j.index, group: j.group, combined: j.combined, ns: nc.name, debug: e.debug, root: e.root}
	opts := []rego.EvalOption{rego.EvalParsedInput(j.input)}
	if !e.now.IsZero() {
		opts = append(opts, rego.EvalTime(e.now))
	}
	var builtinErrs []topdown.Error
	if e.strictBuiltins {
		opts = append(opts, rego.EvalBuiltinErrorList(&builtinErrs))
	}
	var rs rego.ResultSet
	stopped, err := e.evalBudgeted(ctx, j, nc, st, out, func(qctx context.Context) error {
		var err error
		rs, err = nc.query.Eval(withState(qctx, st), opts...)
		return err
	})
	out.prints = append(out.prints, st.prints...)
	if err == nil && len(builtinErrs) > 0 {
		err = builtinError(builtinErrs)
	}
	if err != nil || stopped {
		return err
	}
	want := 2 * len(nc.queried()) // each rule's marker and value
	if len(rs) != 1 || len(rs[0].Expressions) != want {
		return fmt.Errorf("unexpected query result %v", rs)
	}
	values := make([]any, want/2)
	for i := range values {
		values[i] = rs[0].Expressions[2*i+1].Value
	}
	return tally(j, nc, values, out)
}

// tally turns the query's values into results and a summary the way
// conftest does: an excepted check reports its exceptions only; a defined
// check without messages is a success; and a check whose rule has several
// bodies counts each body, the shortfall counted as successes.
func tally(j job, nc *namespaceChecks, values []any, out *outcome) error {
	excepted := exceptionCounts(values[len(nc.rules)])
	var packageMetadata any
	if nc.metadata {
		if m, _ := values[len(nc.rules)+1].([]any); len(m) == 1 {
			packageMetadata = manifest.FromJSONNumbers(m[0])
		}
	}
	sum := Summary{Input: j.index, Group: j.group, Namespace: nc.name}
	for k, rule := range nc.rules {
		if n := excepted[exceptionName(rule)]; n > 0 {
			q := fmt.Sprintf("%s[_][_] == %q", nc.path.Append(ast.StringTerm("exception")), exceptionName(rule))
			for range n {
				out.results = append(out.results, Result{Input: j.index, Group: j.group, Namespace: nc.name, Rule: rule, Kind: Exception, Message: q})
			}
			sum.Exceptions += n
			continue
		}
		res, passed, err := ruleResults(nc, rule, values[k])
		if err != nil {
			return err
		}
		if passed {
			sum.Successes++
		}
		for _, r := range res {
			r.Input, r.Group = j.index, j.group
			if packageMetadata != nil {
				r.Metadata[regoMetadata] = packageMetadata
			}
			out.results = append(out.results, r)
			if r.Kind == Failure {
				sum.Failures++
			} else {
				sum.Warnings++
			}
		}
	}
	if total := sum.Failures + sum.Warnings + sum.Exceptions + sum.Successes; total < nc.bodies {
		sum.Successes += nc.bodies - total
	}
	out.summaries = append(out.summaries, sum)
	return nil
}

// exceptionCounts counts the names listed by the namespace's exceptions.
func exceptionCounts(v any) map[string]int {
	names, _ := v.([]any)
	if len(names) == 0 {
		return nil
	}
	counts := map[string]int{}
	for _, n := range names {
		if s, ok := n.(string); ok {
			counts[s]++
		}
	}
	return counts
}

// ruleResults turns one check's value (wrapped in an array, empty when the
// rule is undefined) into results. passed is conftest's success: the rule is
// defined but holds no messages.
func ruleResults(nc *namespaceChecks, rule string, wrapped any) (res []Result, passed bool, err error) {
	outer, _ := wrapped.([]any)
	if len(outer) == 0 {
		return nil, false, nil
	}
	values, _ := outer[0].([]any)
	if len(values) == 0 {
		return nil, true, nil
	}
	kind := Warning
	if failureRule().MatchString(rule) {
		kind = Failure
	}
	query := nc.path.Append(ast.StringTerm(rule)).String()
	for _, v := range values {
		r := Result{Namespace: nc.name, Rule: rule, Kind: kind}
		switch x := v.(type) {
		case string:
			r.Message, r.Metadata = x, map[string]any{"query": query}
		case map[string]any:
			msg, ok := x["msg"].(string)
			if !ok {
				return nil, false, fmt.Errorf("%s: result %s has no string msg field", query, jsonText(x))
			}
			r.Message, r.Metadata = msg, map[string]any{}
			for k, mv := range x {
				if k != "msg" {
					r.Metadata[k] = manifest.FromJSONNumbers(mv)
				}
			}
			r.Metadata["query"] = query
		default:
			continue
		}
		res = append(res, r)
	}
	return res, false, nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func compareResults(a, b Result) int {
	if c := cmp.Or(
		cmp.Compare(a.Input, b.Input),
		strings.Compare(a.Namespace, b.Namespace),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Message, b.Message),
		cmp.Compare(a.Kind, b.Kind),
	); c != 0 {
		return c
	}
	return compareMetadata(a.Metadata, b.Metadata)
}

func compareMetadata(a, b map[string]any) int {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	return strings.Compare(jsonText(a), jsonText(b))
}
