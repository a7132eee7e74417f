package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/drydock-dev/drydock/manifest"
)

// evalError is an evaluation error of OPA reworded for users; the
// original stays wrapped.
type evalError struct {
	msg string
	err error
}

func (e *evalError) Error() string { return e.msg }
func (e *evalError) Unwrap() error { return e.err }

// explain rewords an evaluation error of OPA ("policy/main.rego:4:
// eval_builtin_error: to_number: strconv.ParseFloat: parsing "abc":
// invalid syntax") as file:line:col of the failing expression, the rule
// it is in, and OPA's message with Go's number-parsing text in plain
// words: `policy/main.rego:4:7: rule deny: to_number: "abc" is not a
// number`. Other errors are returned as they are.
func (e *Engine) explain(err error) error {
	var te *topdown.Error
	if !errors.As(err, &te) || te.Location == nil {
		return err
	}
	loc := te.Location
	var msg string
	if r := e.enclosingRule(loc); r != nil && !r.Location.Equal(loc) {
		msg = "rule " + r.Head.Ref().String() + ": "
	}
	return manifest.At(manifest.Pos{File: loc.File, Line: loc.Row, Col: loc.Col}, "%w", &evalError{msg: msg + plainMessage(te), err: err})
}

// enclosingRule is the rule whose text holds loc: the last rule of loc's
// module starting at or before it.
func (e *Engine) enclosingRule(loc *ast.Location) *ast.Rule {
	m := e.compiler.Modules[loc.File]
	if m == nil {
		return nil
	}
	var found *ast.Rule
	for _, r := range m.Rules {
		rl := r.Location
		if rl == nil || rl.Compare(loc) > 0 {
			continue
		}
		if found == nil || rl.Compare(found.Location) > 0 {
			found = r
		}
	}
	return found
}

// plainMessage is OPA's message of te, with a Go number-parsing error
// (strconv.ParseFloat: parsing "abc": invalid syntax) said in plain words.
func plainMessage(te *topdown.Error) string {
	var ne *strconv.NumError
	if !errors.As(te, &ne) {
		return te.Message
	}
	var plain string
	switch {
	case errors.Is(ne.Err, strconv.ErrSyntax):
		plain = fmt.Sprintf("%q is not a number", ne.Num)
	case errors.Is(ne.Err, strconv.ErrRange):
		plain = fmt.Sprintf("%q is out of range", ne.Num)
	default:
		plain = fmt.Sprintf("%q cannot be read as a number: %v", ne.Num, ne.Err)
	}
	return strings.Replace(te.Message, ne.Error(), plain, 1)
}

// builtinError is the error of an evaluation in which built-ins failed
// (collected only with Options.StrictBuiltinErrors): the first one, which
// explain positions, and how many more there were.
func builtinError(errs []topdown.Error) error {
	first := errs[0]
	if len(errs) == 1 {
		return &first
	}
	return &moreErrors{first: &first, more: len(errs) - 1}
}

// moreErrors is a first error and the number of others like it.
type moreErrors struct {
	first error
	more  int
}

func (e *moreErrors) Error() string {
	return fmt.Sprintf("%v (and %d more failing built-in calls)", e.first, e.more)
}
func (e *moreErrors) Unwrap() error { return e.first }
