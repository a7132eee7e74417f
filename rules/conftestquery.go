package rules

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown/print"
)

// Query is one query conftest test runs on one input, with what it
// printed and, when traced, OPA's trace.
type Query struct {
	// Input is the index of the input in Queries' inputs.
	Input     int
	Namespace string
	// Query is the query as conftest writes it: data.<ns>.<rule>, or
	// data.<ns>.exception[_][_] == "<name>".
	Query string
	// Passed: the query gave no message (conftest's QueryResult.Passed).
	Passed bool
	// Prints are its print() calls as conftest keeps them:
	// "file:line: message\n".
	Prints []string
	// Trace is OPA's pretty trace, a line each (empty lines left out).
	Trace []string
}

// HasPrint reports whether a policy calls print().
func (e *Engine) HasPrint() bool {
	found := false
	for name, m := range e.compiler.Modules {
		if name == conftestModuleName {
			continue
		}
		ast.WalkExprs(m, func(x *ast.Expr) bool {
			if x.IsCall() && (x.Operator().Equal(ast.Print.Ref()) || x.Operator().Equal(ast.InternalPrint.Ref())) {
				found = true
			}
			return found
		})
	}
	return found
}

// Queries runs, for each input and each selected namespace, the queries
// conftest test runs, in its order (conftest v0.71.1 policy/engine.go
// check): for each check rule of the namespace, in the order of the
// policy files (by name) and of the rules in them, the exception query,
// then the rule's. Its print() output is collected per query, as conftest
// collects it (a helper that two checks call prints twice, an exception
// rule once per check); with trace, OPA's trace too. Drydock's own
// evaluation (Eval) runs every check of a namespace in one query, so its
// prints are fewer; conftest's output shows these.
func (e *Engine) Queries(ctx context.Context, inputs []Input, trace bool) ([]Query, error) {
	var out []Query
	for i, in := range inputs {
		v, err := ast.InterfaceToValue(in.data())
		if err != nil {
			return nil, invalid(fmt.Errorf("%s: %w", inputLabel(in), err))
		}
		for _, nc := range e.checks {
			st := &evalState{context: in.Context, input: i, ns: nc.name, root: e.root}
			for _, rule := range e.moduleOrder(nc.name) {
				for _, q := range []string{
					fmt.Sprintf("data.%s.exception[_][_] == %q", nc.name, exceptionName(rule)),
					fmt.Sprintf("data.%s.%s", nc.name, rule),
				} {
					res, err := e.conftestQuery(ctx, st, v, q, trace)
					if err != nil {
						return nil, invalid(fmt.Errorf("%s: %s: %w", inputLabel(in), q, err))
					}
					res.Input, res.Namespace = i, nc.name
					out = append(out, res)
				}
			}
		}
	}
	return out, nil
}

// QueriesCombined is Queries on the one input conftest --combine
// evaluates: the inputs' {path, contents} (see EvalCombined); the queries
// have Input 0.
func (e *Engine) QueriesCombined(ctx context.Context, inputs []Input, trace bool) ([]Query, error) {
	return e.Queries(ctx, []Input{{Document: combine("", inputs), Context: Context{}}}, trace)
}

// CheckOrder is the namespace's check rules in the order conftest
// queries them (see Queries): the order of its results.
func (e *Engine) CheckOrder(ns string) []string { return e.moduleOrder(ns) }

// moduleOrder is a namespace's check rules in the order of its modules
// (sorted by file name; conftest's is its map's) and their rules, once
// each: conftest's order of queries.
func (e *Engine) moduleOrder(ns string) []string {
	var names []string
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range e.compiler.Modules {
			if !yield(n) {
				return
			}
		}
	}) {
		m := e.compiler.Modules[name]
		if name == conftestModuleName || strings.TrimPrefix(m.Package.Path.String(), "data.") != ns {
			continue
		}
		for _, r := range m.Rules {
			if rule, ok := checkName(r); ok && !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, rule) }) {
				names = append(names, rule)
			}
		}
	}
	return names
}

// queryPrints collects one query's print() output as conftest does.
type queryPrints struct{ s *[]string }

func (p queryPrints) Print(pctx print.Context, msg string) error {
	*p.s = append(*p.s, fmt.Sprintf("%v: %s\n", pctx.Location, msg))
	return nil
}

// conftestQuery runs one query as conftest's Engine.query does.
func (e *Engine) conftestQuery(ctx context.Context, st *evalState, input ast.Value, query string, trace bool) (Query, error) {
	if e.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.timeout)
		defer cancel()
	}
	prints := []string{}
	opts := []func(*rego.Rego){
		rego.Query(query),
		rego.Compiler(e.compiler),
		rego.Store(e.store),
		rego.Capabilities(e.compiler.Capabilities()),
		rego.ParsedInput(input),
		rego.PrintHook(queryPrints{&prints}),
		rego.Trace(trace),
	}
	if !e.now.IsZero() {
		opts = append(opts, rego.Time(e.now))
	}
	for _, b := range builtins {
		opts = append(opts, rego.FunctionDyn(b.decl, b.impl))
	}
	r := rego.New(opts...)
	rs, err := r.Eval(withState(ctx, st))
	if err != nil {
		return Query{}, err
	}
	q := Query{Query: query, Passed: passed(rs), Prints: prints}
	var buf bytes.Buffer
	rego.PrintTrace(&buf, r)
	for line := range strings.SplitSeq(buf.String(), "\n") {
		if line != "" {
			q.Trace = append(q.Trace, line)
		}
	}
	return q, nil
}

// passed is conftest's QueryResult.Passed: no value of the query is a
// message (a string, or an object with one).
func passed(rs rego.ResultSet) bool {
	for _, r := range rs {
		for _, x := range r.Expressions {
			values, _ := x.Value.([]any)
			for _, v := range values {
				switch v := v.(type) {
				case string:
					if v != "" {
						return false
					}
				case map[string]any:
					if msg, _ := v["msg"].(string); msg != "" {
						return false
					}
				}
			}
		}
	}
	return true
}
