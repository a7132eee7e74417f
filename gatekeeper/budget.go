package gatekeeper

import (
	"context"
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// WithBudget returns the set evaluating its Rego templates under b: each
// evaluation on one object may take b.Timeout; a template that takes
// longer is not evaluated again under b (for any of its constraints, on
// any object), and past b.Memory every evaluation stops. CEL templates
// are not bounded by b. Share b among the reviews of one run.
func (s *Set) WithBudget(b *regosandbox.Budget) *Set {
	c := *s
	c.budget = b
	return &c
}

// Outcome is what Check found: the violations and the evaluations the
// budget stopped or skipped.
type Outcome struct {
	Violations []Violation
	Stopped    []Stopped
}

// Stopped is a constraint not evaluated on one object because of the
// budget: its template's evaluation there was stopped by a limit, or had
// been earlier (Skipped).
type Stopped struct {
	Object     int
	Constraint string
	// Stop is the budget's stop; its entries share it.
	Stop *regosandbox.Stop
	// Skipped tells the evaluation was not started.
	Skipped bool
}

// StopError is a template the budget stopped: the stop (template,
// constraint, object, limit) and how many evaluations (of a constraint on
// an object) were not run because of it: of the template's constraints
// for a time limit, of every constraint for the memory limit. It wraps ErrInvalid and regosandbox.ErrStopped.
type StopError struct {
	Stop *regosandbox.Stop
	// Here tells the stop happened in this outcome (else earlier in the
	// run, and every evaluation here was skipped).
	Here    bool
	Skipped int
}

func (e *StopError) Error() string {
	switch {
	case e.Here && e.Skipped == 0:
		return e.Stop.String()
	case e.Here:
		if e.Skipped == 1 {
			return e.Stop.String() + "; 1 later evaluation was skipped"
		}
		return fmt.Sprintf("%s; %d later evaluations were skipped", e.Stop, e.Skipped)
	}
	// Not wrapped (the stop's place is not this error's): its position is
	// written into the text.
	n := fmt.Sprintf("%d evaluations", e.Skipped)
	if e.Skipped == 1 {
		n = "1 evaluation"
	}
	return fmt.Sprintf("%s skipped: earlier in the run, %s", n, manifest.Format(e.Stop.Located(), nil))
}

// Unwrap returns ErrInvalid and regosandbox.ErrStopped, and the stop,
// located at the template, when the error's text starts with it (Here).
func (e *StopError) Unwrap() []error {
	if e.Here {
		return []error{ErrInvalid, regosandbox.ErrStopped, e.Stop.Located()}
	}
	return []error{ErrInvalid, regosandbox.ErrStopped}
}

// StopErrors returns one *StopError per stop (joined): the first object,
// in order, whose evaluation was stopped here, counting the other entries
// of its template; nil when nothing was stopped.
func (o *Outcome) StopErrors() error {
	return StopErrors(o.Stopped)
}

// StopErrors is Outcome.StopErrors over the entries of several outcomes
// (of one run's clusters, say), in order.
func StopErrors(stopped []Stopped) error {
	var order []manifest.Pos
	byWhat := map[manifest.Pos]*StopError{}
	for _, s := range stopped {
		key := s.Stop.Pos // the template's place
		se := byWhat[key]
		if se == nil {
			se = &StopError{Stop: s.Stop}
			byWhat[key] = se
			order = append(order, key)
		}
		if !s.Skipped && !se.Here {
			se.Stop, se.Here = s.Stop, true
		}
		se.Skipped++
	}
	errs := make([]error, len(order))
	for i, k := range order {
		se := byWhat[k]
		if se.Here {
			se.Skipped--
		}
		errs[i] = se
	}
	return manifest.Join(errs...)
}

// evalBudgeted runs eval under b (directly when b is nil); a stop is
// returned apart from the errors.
func (c *constraint) evalBudgeted(ctx context.Context, b *regosandbox.Budget, q rego.PreparedEvalQuery, review ast.Value, label string) ([]result, *regosandbox.StopError, error) {
	if b == nil {
		res, err := c.eval(ctx, q, review)
		return res, nil, err
	}
	var res []result
	naming := func() (manifest.Pos, string) {
		return c.tmpl.pos, fmt.Sprintf("ConstraintTemplate %q (constraint %s)", c.tmpl.name, c.id)
	}
	err := b.Eval(ctx, c.tmpl, naming, label, func(ectx context.Context) error {
		var err error
		res, err = c.eval(ectx, q, review)
		return err
	})
	if se, ok := err.(*regosandbox.StopError); ok {
		return nil, se, nil
	}
	return res, nil, err
}

// objectLabel names an object in a stop: its place and key.
func objectLabel(o *manifest.Object) string {
	if !o.Pos.IsValid() {
		return o.Key().String()
	}
	return o.Pos.String() + ": " + o.Key().String()
}
