package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
)

// Subject is one level of what an error is about, outermost first: an
// application, a component in it, a trait of the component; a policy; a
// workflow step; a Karmada policy; a Cluster.
type Subject struct {
	// Kind is the subject's kind as messages name it: "application",
	// "component", "trait", "policy", "step", "PropagationPolicy", ...
	Kind string
	Name string
	// Bare prints the name unquoted, as Karmada names its objects
	// ("PropagationPolicy default/web").
	Bare bool
}

// String is `kind "name"` (`kind name` when Bare, `kind` without a name).
func (s Subject) String() string {
	switch {
	case s.Name == "":
		return s.Kind
	case s.Bare:
		return s.Kind + " " + s.Name
	}
	return fmt.Sprintf("%s %q", s.Kind, s.Name)
}

// KeySubject is the object k names as a subject: its kind (with the
// group) and its namespace/name, unquoted as Kubernetes writes keys
// ("Deployment.apps shop/web").
func KeySubject(k Key) Subject {
	kind := k.Kind
	if k.Group != "" {
		kind += "." + k.Group
	}
	name := k.Name
	if k.Namespace != "" {
		name = k.Namespace + "/" + k.Name
	}
	return Subject{Kind: kind, Name: name, Bare: true}
}

// Error is a problem with an authored input, located and named: the place
// in the input, what it is about (Subjects, outermost first), the field
// path inside the object, other places it relates to, and what is wrong.
// It is the one located error type of drydock's packages: callers read its
// parts with errors.As instead of parsing its text, and Format writes it
// with its positions.
type Error struct {
	Pos      Pos
	Subjects []Subject
	// Field is the path of the offending field in the object (empty when
	// the error is about the object as a whole).
	Field fieldpath.Path
	// Related are other places (and notes) the error relates to: the
	// definition template line it arose at, the deploy step that rendered
	// it; written after the message, in order.
	Related []Related
	// Err is what is wrong; it wraps the sentinel a caller branches on.
	Err error
}

// Related is a place an Error relates to, or a note about it: What names
// it ("template", "first at"); Pos is the place (zero for a note without
// one). Format writes it " (What Pos Note)"; Note follows the position
// with its own punctuation ("; ...", ", ...").
type Related struct {
	Pos  Pos
	What string
	Note string
}

// Errorf returns an Error at pos about subjects, with a message made by
// fmt.Errorf (so %w wraps).
func Errorf(pos Pos, subjects []Subject, format string, args ...any) *Error {
	return &Error{Pos: pos, Subjects: subjects, Err: fmt.Errorf(format, args...)}
}

// At returns an Error at pos with a message made by fmt.Errorf (so %w
// wraps); Format writes it "pos: message".
func At(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Err: fmt.Errorf(format, args...)}
}

// Error is the error's text without its positions:
// `kind "name" kind "name": message (note)`. Format writes it with them
// (`file:line:col: ... (what file:line:col)`); print errors with Format.
func (e *Error) Error() string { return e.text(nil, nil) }

// text writes the error; pos writes a position (nil: positions are left
// out, and so are related entries that have one), inner the wrapped error.
func (e *Error) text(pos func(Pos) string, inner func(error) string) string {
	var b strings.Builder
	if pos != nil {
		if s := pos(e.Pos); s != "" {
			b.WriteString(s)
			b.WriteString(": ")
		}
	}
	for i, s := range e.Subjects {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.String())
	}
	if len(e.Subjects) > 0 {
		b.WriteString(": ")
	}
	if e.Err != nil {
		if inner != nil {
			b.WriteString(inner(e.Err))
		} else {
			b.WriteString(e.Err.Error())
		}
	}
	for _, r := range e.Related {
		switch {
		case !r.Pos.IsValid():
			fmt.Fprintf(&b, " (%s%s)", r.What, r.Note)
		case pos != nil:
			fmt.Fprintf(&b, " (%s %s%s)", r.What, pos(r.Pos), r.Note)
		}
	}
	return b.String()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// PosOf returns the position of the first Error in err's chain that has
// one.
func PosOf(err error) (Pos, bool) {
	for err != nil {
		switch e := err.(type) {
		case *Error:
			if e.Pos.IsValid() {
				return e.Pos, true
			}
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				if p, ok := PosOf(inner); ok {
					return p, true
				}
			}
			return Pos{}, false
		}
		err = errors.Unwrap(err)
	}
	return Pos{}, false
}

// Errors is a list of errors reported whole: deduplicated, sorted by
// position (errors without one last, in their order). Join flattens the
// lists it is given, marked ones (Mark) included: the list never holds a
// list.
type Errors []error

// Join returns nil for no errors, the error itself for one, else the
// sorted, deduplicated list.
func Join(errs ...error) error {
	var out Errors
	seen := map[string]bool{}
	var add func(err error)
	add = func(err error) {
		if list, ok := err.(Errors); ok {
			for _, e := range list {
				add(e)
			}
			return
		}
		// A list marked as one class (Mark) is its errors, each marked.
		if m, ok := err.(*marked); ok {
			if list, ok := m.err.(Errors); ok {
				for _, e := range list {
					add(Mark(m.kind, e))
				}
				return
			}
		}
		if msg := Format(err, nil); !seen[msg] {
			seen[msg] = true
			out = append(out, err)
		}
	}
	for _, err := range errs {
		if err != nil {
			add(err)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	slices.SortStableFunc(out, func(a, b error) int {
		pa, okA := PosOf(a)
		pb, okB := PosOf(b)
		switch {
		case okA && okB:
			return pa.Compare(pb)
		case okA:
			return -1
		case okB:
			return 1
		}
		return 0
	})
	return out
}

// Error lists the errors, one per line.
func (l Errors) Error() string {
	msgs := make([]string, len(l))
	for i, err := range l {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns the errors, so errors.Is and errors.As see each.
func (l Errors) Unwrap() []error { return l }

// Compare orders positions by file, line and column.
func (p Pos) Compare(q Pos) int {
	switch {
	case p.File != q.File:
		return strings.Compare(p.File, q.File)
	case p.Line != q.Line:
		return p.Line - q.Line
	}
	return p.Col - q.Col
}

// Mark returns err as it is, except that errors.Is(·, kind) also holds:
// the way a package tags errors as one class (bad input, an invalid
// policy) without changing their text (Format writes it as it writes err).
// nil stays nil, and an error already of that kind is returned as it is.
func Mark(kind, err error) error {
	if err == nil || errors.Is(err, kind) {
		return err
	}
	return &marked{kind: kind, err: err}
}

type marked struct{ kind, err error }

func (e *marked) Error() string   { return e.err.Error() }
func (e *marked) Unwrap() []error { return []error{e.kind, e.err} }
