package report

import (
	"fmt"
	"io"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/reconcile"
)

// DiffFormat writes what `drydock diff` found, a reconcile.Plan; base
// names the base it compared with (a git revision or a directory). It
// returns the first write error.
type DiffFormat func(w io.Writer, p *reconcile.Plan, base string) error

// DiffFormats are the names LookupDiff knows, in the order help text
// lists them.
var DiffFormats = []string{"text", "markdown", "json", "github"}

// LookupDiff returns the diff format named name (one of DiffFormats); ok
// is false for any other name.
func LookupDiff(name string) (f DiffFormat, ok bool) {
	switch name {
	case "text":
		return DiffText, true
	case "markdown":
		return DiffMarkdown, true
	case "json":
		return DiffJSON, true
	case "github":
		return DiffGitHub, true
	}
	return nil, false
}

// summaryLine is the plan in one line: the counts of each action.
func summaryLine(p *reconcile.Plan, base string) string {
	line := fmt.Sprintf("compared with %s: %d to create, %d to update, %d to delete, %d unchanged",
		base, p.Count(reconcile.Create), p.Count(reconcile.Update), p.Count(reconcile.Delete), p.Unchanged)
	if len(p.Kept) > 0 {
		line += fmt.Sprintf(", %d kept as they are by the controllers", len(p.Kept))
	}
	return line
}

// objectName is how a change names its object: kind[.group] name (the
// namespace is printed apart).
func objectName(k manifest.Key) string {
	k.Namespace = ""
	return k.String()
}

// NamespaceOf is how drydock's outputs (diff, the render stream's
// # Source comments) name an object's namespace: "(cluster-scoped)" for
// none.
func NamespaceOf(ns string) string {
	if ns == "" {
		return "(cluster-scoped)"
	}
	return ns
}
