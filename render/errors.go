package render

import (
	"fmt"
	"strings"

	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/manifest"
)

// Error is a render failure located in the authored input: the place in the
// Application (or in a definition template) and what was being rendered.
type Error struct {
	Pos       manifest.Pos
	App       string
	Component string
	Trait     string
	// Policy names the policy whose PolicyDefinition was rendered (then
	// Component and Trait are empty).
	Policy string
	// Template is the position in a definition template, when known.
	Template manifest.Pos
	// Step and Overrides name the deploy step and the override policies
	// that shaped the component, when the error arose in a deploy.
	Step      string
	Overrides []string
	Err       error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.IsValid() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "application %q", e.App)
	if e.Policy != "" {
		fmt.Fprintf(&b, ": policy %q", e.Policy)
	}
	if e.Component != "" {
		fmt.Fprintf(&b, " component %q", e.Component)
	}
	if e.Trait != "" {
		fmt.Fprintf(&b, " trait %q", e.Trait)
	}
	b.WriteString(": ")
	b.WriteString(CUEMessage(e.Err))
	if e.Template.IsValid() && e.Template != e.Pos {
		fmt.Fprintf(&b, " (template %s)", e.Template)
	}
	if e.Step != "" {
		fmt.Fprintf(&b, " (deploy step %q", e.Step)
		if len(e.Overrides) > 0 {
			fmt.Fprintf(&b, ", override policies %s", strings.Join(e.Overrides, ", "))
		}
		b.WriteString(")")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

func (r *componentRun) errAt(path, trait string, err error) error {
	return r.newErr(r.app.Object.FieldPos(path), trait, err)
}

// newErr is an Error about what r renders: a component (or its trait),
// or a policy's definition.
func (r *componentRun) newErr(pos manifest.Pos, trait string, err error) *Error {
	if r.policy {
		return &Error{Pos: pos, App: r.app.Name, Policy: r.comp.Name, Err: err}
	}
	return &Error{Pos: pos, App: r.app.Name, Component: r.comp.Name, Trait: trait, Err: err}
}

// cueErr locates a CUE evaluation error: a parameter error points at the
// property in the Application, anything else at the template line.
func (r *componentRun) cueErr(def *Definition, path, trait string, err error) error {
	e := r.newErr(r.app.Object.FieldPos(path), trait, err)
	var param []string
	for _, ce := range cueerrors.Errors(err) {
		if p := templatePos(def, cueerrors.Positions(ce)); p.IsValid() && !e.Template.IsValid() {
			e.Template = p
		}
		if cpath := ce.Path(); param == nil && len(cpath) > 1 && cpath[0] == "parameter" {
			param = cpath[1:]
		}
	}
	switch {
	case param != nil:
		e.Pos = r.app.Object.FieldPos(PropertyPath(path, param))
		// A value an override policy wrote is located in the policy.
		overlays := r.comp.Overlays
		if trait != "" {
			overlays = nil
			for _, t := range r.comp.Traits {
				if t.Path == path && t.Type == trait {
					overlays = t.Overlays
				}
			}
		}
		for k := len(overlays) - 1; k >= 0; k-- {
			if op := PropertyPath(overlays[k], param); r.app.Object.HasField(op) {
				e.Pos = r.app.Object.FieldPos(op)
				break
			}
		}
	case e.Template.IsValid():
		e.Pos = e.Template
	}
	return e
}

func templatePos(def *Definition, ps []token.Pos) manifest.Pos {
	for _, p := range ps {
		if p.IsValid() && p.Filename() == def.TemplateFile && def.TemplateFile != "" {
			return manifest.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
		}
	}
	return manifest.Pos{}
}

// CUEMessage formats a (possibly multiple) CUE error without positions:
// its distinct messages joined by "; ", at most five and a count of the
// rest. It is drydock's one way of showing a CUE error; an error that is
// not CUE's shows as its Error().
func CUEMessage(err error) string {
	errs := cueerrors.Errors(err)
	if len(errs) == 0 {
		return err.Error()
	}
	seen := map[string]bool{}
	var msgs []string
	for _, e := range errs {
		m := e.Error()
		if len(errs) > 1 && strings.HasSuffix(m, "errors in empty disjunction:") {
			continue
		}
		if !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	if len(msgs) > 5 {
		msgs = append(msgs[:5], fmt.Sprintf("and %d more errors", len(msgs)-5))
	}
	return strings.Join(msgs, "; ")
}

// positioned formats a CUE error as "file:line:col: message".
func positioned(err error) error {
	errs := cueerrors.Errors(err)
	if len(errs) == 0 {
		return err
	}
	for _, p := range cueerrors.Positions(errs[0]) {
		if p.IsValid() {
			return fmt.Errorf("%s:%d:%d: %s", p.Filename(), p.Line(), p.Column(), CUEMessage(err))
		}
	}
	return fmt.Errorf("%s", CUEMessage(err))
}
