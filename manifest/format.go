package manifest

import "strings"

// Format writes err as drydock shows it: its text with the position of
// each Error in its chain written before the Error's own text
// ("file:line:col: kind "name": message"), and its related places after
// the message. rel rewrites each position first (nil: as it is): the edge
// (the CLI, a report) passes one that makes paths relative. An error
// wrapping an Error (fmt.Errorf's %w, errors.Join, Mark, Errors) keeps its
// text, with the Error's part written with positions.
func Format(err error, rel func(Pos) Pos) string {
	if err == nil {
		return ""
	}
	pos := func(p Pos) string {
		if rel != nil && p.IsValid() {
			p = rel(p)
		}
		return p.String()
	}
	return format(err, pos)
}

// format is Format with the position writer made.
func format(err error, pos func(Pos) string) string {
	switch e := err.(type) {
	case *Error:
		return e.text(pos, func(inner error) string { return format(inner, pos) })
	case Errors:
		lines := make([]string, len(e))
		for i, inner := range e {
			lines[i] = format(inner, pos)
		}
		return strings.Join(lines, "\n")
	case *marked:
		return format(e.err, pos)
	case interface{ Unwrap() error }:
		return substitute(err.Error(), []error{e.Unwrap()}, pos)
	case interface{ Unwrap() []error }:
		return substitute(err.Error(), e.Unwrap(), pos)
	}
	return err.Error()
}

// substitute writes, in a wrapper's text, each wrapped error's part as
// format writes it: the wrapped texts are found in order (fmt.Errorf and
// errors.Join write them so), the last occurrence for a single one (a
// context prefix may repeat its words).
func substitute(text string, inner []error, pos func(Pos) string) string {
	var b strings.Builder
	rest := text
	for _, in := range inner {
		if in == nil {
			continue
		}
		plain := in.Error()
		formatted := format(in, pos)
		if plain == formatted || plain == "" {
			continue
		}
		i := strings.Index(rest, plain)
		if len(inner) == 1 {
			i = strings.LastIndex(rest, plain)
		}
		if i < 0 {
			continue
		}
		b.WriteString(rest[:i])
		b.WriteString(formatted)
		rest = rest[i+len(plain):]
	}
	b.WriteString(rest)
	return b.String()
}
