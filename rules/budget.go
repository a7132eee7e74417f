package rules

import (
	"context"
	"errors"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// Stopped is a namespace that was not evaluated on one input (or group)
// because of the budget: its evaluation there was stopped by a limit, or
// an earlier one was (Skipped).
type Stopped struct {
	Input     int
	Group     string
	Namespace string
	// Stop is the budget's stop: the rule, the input and the limit. All
	// the Stopped entries of one stop share it.
	Stop *regosandbox.Stop
	// Skipped tells the namespace was not started on this input.
	Skipped bool
}

// WithBudget returns an engine sharing e's policies whose evaluations run
// under b instead of a budget of their own per Eval call (b.Timeout
// replaces Options.QueryTimeout). A namespace stopped by b is not
// evaluated again under b, whatever the inputs; its stops are reported in
// Report.Stopped rather than as an error, since the budget may outlive
// the call. Share b among the evaluations of one run.
func (e *Engine) WithBudget(b *regosandbox.Budget) *Engine {
	c := *e
	c.budget = b
	return &c
}

// runBudget is the budget of one Eval call: the engine's own, or a new
// one with the query time limit; own tells which.
func (e *Engine) runBudget() (eng *Engine, own bool) {
	if e.budget != nil {
		return e, false
	}
	return e.WithBudget(&regosandbox.Budget{Timeout: e.timeout}), true
}

// StopError is one stop of a budget in a report: the rule whose
// evaluation was stopped (where, on which input, which limit) and how
// many evaluations of its namespace the report has not run because of it.
// It wraps ErrInvalid, regosandbox.ErrStopped and, for the time limit,
// ErrTimeout.
type StopError struct {
	Stop *regosandbox.Stop
	// Here tells the stop happened in the report (else earlier in the
	// run, and every evaluation here was skipped).
	Here bool
	// Namespace is the namespace not evaluated.
	Namespace string
	// Skipped counts the evaluations not run, the stopped one left out.
	Skipped int
}

func (e *StopError) Error() string {
	if e.Here && e.Skipped == 0 {
		return e.Stop.String()
	}
	if e.Here {
		return fmt.Sprintf("%s; namespace %s was not evaluated on the %d inputs after it", e.Stop, e.Namespace, e.Skipped)
	}
	return fmt.Sprintf("namespace %s was not evaluated on %d inputs: earlier in the run, %s", e.Namespace, e.Skipped, e.Stop)
}

// Unwrap returns the sentinels the error stands for and the stop, located
// at the stopped rule (its text is part of the error's).
func (e *StopError) Unwrap() []error {
	errs := []error{ErrInvalid, regosandbox.ErrStopped, e.Stop.Located()}
	if !e.Stop.Memory {
		errs = append(errs, ErrTimeout)
	}
	return errs
}

// StopErrors returns one *StopError per namespace in r.Stopped (joined),
// or nil when nothing was stopped. It names the first input, in input
// order, whose evaluation was stopped in r (else the stop, earlier in the
// run, that made r skip the namespace) and counts the other entries.
func (r *Report) StopErrors() error {
	var order []string
	byNS := map[string]*StopError{}
	for _, s := range r.Stopped {
		se := byNS[s.Namespace]
		if se == nil {
			se = &StopError{Stop: s.Stop, Namespace: s.Namespace}
			byNS[s.Namespace] = se
			order = append(order, s.Namespace)
		}
		if !s.Skipped && !se.Here {
			se.Stop, se.Here = s.Stop, true
		}
		se.Skipped++ // all entries, for now
	}
	errs := make([]error, len(order))
	for i, ns := range order {
		if se := byNS[ns]; se.Here {
			se.Skipped-- // the one named
		}
		errs[i] = byNS[ns]
	}
	return manifest.Join(errs...)
}

// ruleMarker records, before each rule of a namespace's query, which one
// runs: a budget's stop names it.
const ruleMarker = "drydock.__rule"

var ruleMarkerDecl = &rego.Function{Name: ruleMarker, Decl: types.NewFunction(types.Args(types.N), types.B)}

func markRule(bctx rego.BuiltinContext, args []*ast.Term) (*ast.Term, error) {
	s, _ := bctx.Context.Value(stateKey{}).(*evalState)
	n, ok := args[0].Value.(ast.Number)
	if s == nil || !ok {
		return ast.BooleanTerm(true), nil
	}
	i, _ := n.Int()
	s.rule.Store(int32(i))
	return ast.BooleanTerm(true), nil
}

// naming names, for a stop, the rule of nc that st's evaluation runs.
func naming(nc *namespaceChecks, st *evalState) regosandbox.Naming {
	return func() (manifest.Pos, string) {
		names := nc.queried()
		i := int(st.rule.Load())
		if i < 0 || i >= len(names) {
			return nc.pos, "namespace " + nc.name
		}
		pos := nc.rulePos[names[i]]
		if !pos.IsValid() {
			pos = nc.pos
		}
		return pos, "rule " + nc.name + "." + names[i]
	}
}

// evalBudgeted runs query under the engine's budget; a stop is added to
// out.stopped and is not an error.
func (e *Engine) evalBudgeted(ctx context.Context, j job, nc *namespaceChecks, st *evalState, out *outcome, query func(context.Context) error) (stopped bool, err error) {
	st.rule.Store(-1)
	err = e.budget.Eval(ctx, nc, naming(nc, st), j.label, query)
	var se *regosandbox.StopError
	if !errors.As(err, &se) {
		return false, err
	}
	out.stopped = append(out.stopped, Stopped{Input: j.index, Group: j.group, Namespace: nc.name, Stop: se.Stop, Skipped: se.Skipped})
	return true, nil
}
