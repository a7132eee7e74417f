package rules

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/topdown/print"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/drydock-dev/drydock/regosandbox"
)

// contextBuiltin is the name of the function exposing the render context.
const contextBuiltin = "drydock.context"

// contextType is the static type of drydock.context(): an object whose
// five keys are strings.
var contextType = types.NewObject([]*types.StaticProperty{
	types.NewStaticProperty("application", types.S),
	types.NewStaticProperty("cluster", types.S),
	types.NewStaticProperty("component", types.S),
	types.NewStaticProperty("namespace", types.S),
	types.NewStaticProperty("source", types.S),
}, nil)

var contextDecl = &rego.Function{
	Name: contextBuiltin,
	Decl: types.NewFunction(nil, contextType),
}

// capabilities returns base (OPA's own when nil) in drydock's sandbox
// (package regosandbox), plus drydock's built-ins. withClock keeps the
// clock built-ins.
func capabilities(base *ast.Capabilities, withClock bool) *ast.Capabilities {
	caps := regosandbox.Capabilities(base, withClock)
	for _, b := range builtins {
		caps.Builtins = append(caps.Builtins, &ast.Builtin{Name: b.decl.Name, Decl: b.decl.Decl})
	}
	// The queries' rule marker: a policy calling it only mislabels a stop.
	caps.Builtins = append(caps.Builtins, &ast.Builtin{Name: ruleMarker, Decl: ruleMarkerDecl.Decl})
	return caps
}

// loadCapabilities reads an OPA capabilities file (conftest
// --capabilities): a policy may use only the built-ins and features it
// lists, and never those the sandbox removes. "" is OPA's own.
func loadCapabilities(file string) (*ast.Capabilities, error) {
	if file == "" {
		return nil, nil
	}
	caps, err := ast.LoadCapabilitiesFile(file)
	if err != nil {
		return nil, invalid(fmt.Errorf("capabilities %s: %w", file, err))
	}
	return caps, nil
}

// newCompiler returns a compiler for the sandbox's capabilities, keeping
// print() calls (their output is collected, never printed).
func newCompiler(base *ast.Capabilities, withClock bool) *ast.Compiler {
	return ast.NewCompiler().
		WithCapabilities(capabilities(base, withClock)).
		WithEnablePrintStatements(true)
}

// evalState is what one evaluation carries in its context.Context: the
// render context for drydock.context() and the collector of print() output.
type evalState struct {
	context Context
	term    *ast.Term
	prints  []Print
	input   int
	group   string
	// combined: the input is a group's objects (EvalCombined).
	combined bool
	ns       string
	debug    *syncWriter
	// root is the directory parse_config_file reads below ("": the
	// working directory).
	root string
	// rule is the index, among the namespace's queried rules, of the rule
	// being evaluated (-1 before the first); read by a budget's stop.
	rule atomic.Int32
}

type stateKey struct{}

func withState(ctx context.Context, s *evalState) context.Context {
	return context.WithValue(ctx, stateKey{}, s)
}

// contextFunc implements drydock.context(). Without an evaluation state (as
// in Verify) it returns the empty context.
func contextFunc(bctx rego.BuiltinContext, _ []*ast.Term) (*ast.Term, error) {
	s, _ := bctx.Context.Value(stateKey{}).(*evalState)
	if s == nil {
		return contextTerm(Context{}), nil
	}
	if s.term == nil {
		s.term = contextTerm(s.context)
	}
	return s.term, nil
}

func contextTerm(c Context) *ast.Term {
	return ast.ObjectTerm(
		ast.Item(ast.StringTerm("application"), ast.StringTerm(c.Application)),
		ast.Item(ast.StringTerm("cluster"), ast.StringTerm(c.Cluster)),
		ast.Item(ast.StringTerm("component"), ast.StringTerm(c.Component)),
		ast.Item(ast.StringTerm("namespace"), ast.StringTerm(c.Namespace)),
		ast.Item(ast.StringTerm("source"), ast.StringTerm(c.Source)),
	)
}

// printHook collects print() output into the evaluation's state.
type printHook struct{}

func (printHook) Print(pctx print.Context, msg string) error {
	s, _ := pctx.Context.Value(stateKey{}).(*evalState)
	if s == nil {
		return nil
	}
	p := Print{Input: s.input, Group: s.group, Namespace: s.ns, Message: msg}
	if pctx.Location != nil {
		p.Location = pctx.Location.String()
	}
	s.prints = append(s.prints, p)
	if s.debug != nil {
		s.debug.printf("%s: %s\n", p.Location, msg)
	}
	return nil
}

// syncWriter serializes writes from the evaluation goroutines.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) printf(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.w, format, args...)
}

// explainRemoved adds the sandbox's reason to "undefined function X"
// compile errors about built-ins it removed, and for the clock ones how to
// allow them.
func explainRemoved(errs ast.Errors, withClock bool) {
	regosandbox.Explain(errs, withClock, " (set a fixed time to allow it: --now, or now: in drydock.yaml)", nil)
}
