package render

import (
	"errors"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Error is what went wrong rendering an Application: the component, trait
// or policy being rendered, the cause, and where in a definition template
// it arose. Render's packages return it inside a manifest.Error (see
// Locate), which carries the position in the authored input, the
// subjects, and the template's place and the deploy step as Related
// entries.
type Error struct {
	// Pos is where the error is located in the authored input (Locate
	// moves it onto the manifest.Error).
	Pos       manifest.Pos
	App       string
	Component string
	Trait     string
	// Policy names the policy whose PolicyDefinition was rendered (then
	// Component and Trait are empty).
	Policy string
	// Template is the position in a definition template, when known
	// (Locate makes it a Related entry, "template").
	Template manifest.Pos
	Err      error
}

// Locate returns e as the error render's packages return: a
// manifest.Error at e.Pos about the application and the component and
// trait (or the policy) e names, with the template's place as a Related
// entry when it is another place. Its text is
// `pos: application "a"[: policy "p"][ component "c"][ trait "t"]: message`
// followed by ` (template pos)` when known (and ` (deploy step "d",
// override policies o1, o2)` when DeployContext adds it); a CUE cause
// shows as CUEMessage shows it.
func Locate(e *Error) *manifest.Error {
	subjects := []manifest.Subject{{Kind: "application", Name: e.App}}
	if e.Component != "" {
		subjects = append(subjects, manifest.Subject{Kind: "component", Name: e.Component})
	}
	if e.Trait != "" {
		subjects = append(subjects, manifest.Subject{Kind: "trait", Name: e.Trait})
	}
	located := &manifest.Error{Pos: e.Pos, Subjects: subjects, Err: e}
	if e.Template.IsValid() && e.Template != e.Pos {
		located.Related = []manifest.Related{{Pos: e.Template, What: "template"}}
	}
	return located
}

// DeployContext names, in the render error in err's chain, the deploy
// step that rendered it and the override policies that shaped the
// component (an override may be what made the properties invalid): a
// Related note `deploy step "d", override policies o1, o2`. It reports
// whether err holds a render error.
func DeployContext(err error, step string, overrides []string) bool {
	me := renderLocated(err)
	if me == nil {
		return false
	}
	note := fmt.Sprintf("deploy step %q", step)
	if len(overrides) > 0 {
		note += ", override policies " + strings.Join(overrides, ", ")
	}
	for i, r := range me.Related {
		if !r.Pos.IsValid() && strings.HasPrefix(r.What, "deploy step ") {
			me.Related[i].What = note // a later call names its step
			return true
		}
	}
	me.Related = append(me.Related, manifest.Related{What: note})
	return true
}

// renderLocated is the first manifest.Error in err's chain (depth first,
// as errors.As looks) that Locate made.
func renderLocated(err error) *manifest.Error {
	for err != nil {
		if me, ok := err.(*manifest.Error); ok {
			if _, ok := me.Err.(*Error); ok {
				return me
			}
		}
		if list, ok := err.(interface{ Unwrap() []error }); ok {
			for _, inner := range list.Unwrap() {
				if me := renderLocated(inner); me != nil {
					return me
				}
			}
			return nil
		}
		err = errors.Unwrap(err)
	}
	return nil
}

// Error formats what Locate puts after the subjects.
func (e *Error) Error() string {
	if e.Policy != "" {
		return fmt.Sprintf("policy %q: %s", e.Policy, CUEMessage(e.Err))
	}
	return CUEMessage(e.Err)
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

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
		more := "and 1 more error"
		if n := len(msgs) - 5; n > 1 {
			more = fmt.Sprintf("and %d more errors", n)
		}
		msgs = append(msgs[:5], more)
	}
	return strings.Join(msgs, "; ")
}

// PositionedCUE is a CUE error located (a manifest.Error) at the position
// of its first error that has one, with CUEMessage's message.
func PositionedCUE(err error) error {
	errs := cueerrors.Errors(err)
	if len(errs) == 0 {
		return err
	}
	for _, p := range cueerrors.Positions(errs[0]) {
		if p.IsValid() {
			return manifest.At(manifest.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}, "%s", CUEMessage(err))
		}
	}
	return fmt.Errorf("%s", CUEMessage(err))
}

// CUEPositions is where the CUE error e arose: its own positions, or, for
// an error CUE reports without any (a structural cycle: `a: b: a`), the
// position of the field at e's path in root (the value that failed to
// evaluate), or of the nearest enclosing field root holds.
func CUEPositions(root cue.Value, e cueerrors.Error) []token.Pos {
	ps := cueerrors.Positions(e)
	for _, p := range ps {
		if p.IsValid() {
			return ps
		}
	}
	// root may be bottom (the cycle made it so) or the zero Value: a
	// lookup in either is safe and finds what it can.
	var sels []cue.Selector
	for _, label := range e.Path() {
		sels = append(sels, labelSelector(label))
	}
	for n := len(sels); n > 0; n-- {
		if p := root.LookupPath(cue.MakePath(sels[:n]...)).Pos(); p.IsValid() {
			return []token.Pos{p}
		}
	}
	return nil
}

// IsStructuralCycle reports whether err holds a CUE structural cycle.
func IsStructuralCycle(err error) bool {
	for _, e := range cueerrors.Errors(err) {
		if format, _ := e.Msg(); format == "structural cycle" {
			return true
		}
	}
	return false
}

// labelSelector is the selector of one label of a CUE error's path: an
// identifier, a definition (#A), an index or a quoted string as CUE
// prints them, else the label as a string.
func labelSelector(label string) cue.Selector {
	if sels := cue.ParsePath(label).Selectors(); len(sels) == 1 && cue.ParsePath(label).Err() == nil {
		return sels[0]
	}
	return cue.Str(label)
}

// PolicyError is an error about policy p of app located at field
// (relative to its properties; the policy itself when it has none),
// worded as KubeVela's policy parsers word their refusals.
func PolicyError(app *Application, p *Policy, field fieldpath.Path, format string, args ...any) error {
	path := p.Path.Child("properties").Join(field)
	if p.Properties == nil {
		path = p.Path
	}
	return Locate(&Error{Pos: p.FieldPos(app, path), App: app.Name,
		Err: fmt.Errorf("policy %q: %s", p.Name, fmt.Sprintf(format, args...))})
}

// PolicyFieldError is a refusal of a policy's properties in KubeVela's
// words, naming the field (rel, relative to the properties).
func PolicyFieldError(app *Application, p *Policy, rel fieldpath.Path, format string, args ...any) error {
	path := p.Path.Child("properties").Join(rel)
	if p.Properties == nil {
		path = p.Path
	}
	return Locate(&Error{Pos: p.FieldPos(app, path), App: app.Name,
		Err: fmt.Errorf("policy %q: %s: %s", p.Name, path, fmt.Sprintf(format, args...))})
}
