package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/reconcile"
)

// DiffOptions are how a diff format shows a plan.
type DiffOptions struct {
	// ShowBookkeeping lists the updates that only change KubeVela's
	// bookkeeping labels one by one, with their diffs, besides the line
	// per application that sums them up.
	ShowBookkeeping bool
	// Colour paints the text format for a terminal: added lines green,
	// removed lines red, headings bold.
	Colour bool
	// MaxSize caps the Markdown format, in bytes (which a character never
	// has fewer of): past it whole sections are left out, the objects'
	// diffs first, and a notice says what and where the whole report is
	// (WholeReport). 0: no cap.
	MaxSize int
	// MaxSizeName names MaxSize in the notice ("": its size, 65,536
	// bytes).
	MaxSizeName string
	// WholeReport says where the whole report is, for that notice
	// (Markdown, as MarkdownText).
	WholeReport string
}

// Size caps of GitHub: a pull-request comment holds at most 65,536
// characters; a step's job summary at most 1 MiB.
const (
	CommentCap = 65536
	SummaryCap = 1 << 20
)

// DiffFormat writes what `drydock diff` found, a reconcile.Plan (its
// updates classified, reconcile.Plan.Classify); base names the base it
// compared with (a git revision or a directory). It returns the first
// write error.
type DiffFormat func(w io.Writer, p *reconcile.Plan, base string, o DiffOptions) error

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
	t := p.Total()
	update := fmt.Sprintf("%d to update", t.Update)
	var of []string
	if t.Bookkeeping > 0 {
		of = append(of, fmt.Sprintf("%d only in KubeVela's bookkeeping labels", t.Bookkeeping))
	}
	if t.Ignored > 0 {
		of = append(of, fmt.Sprintf("%d only in ignored fields", t.Ignored))
	}
	if len(of) > 0 {
		update += " (" + strings.Join(of, ", ") + ")"
	}
	line := fmt.Sprintf("compared with %s: %d to create, %s, %d to delete, %d unchanged",
		base, t.Create, update, t.Delete, p.Unchanged)
	if len(p.Kept) > 0 {
		line += fmt.Sprintf(", %d kept as they are by the controllers", len(p.Kept))
	}
	return line
}

// shown reports whether c is listed object by object.
func shown(c *reconcile.Change, o DiffOptions) bool {
	switch c.Noise {
	case reconcile.Bookkeeping:
		return o.ShowBookkeeping
	case reconcile.Ignored:
		return false
	}
	return true
}

// appName names an application in a summary: "(no application)" for
// objects no application owns.
func appName(app string) string {
	if app == "" {
		return "(no application)"
	}
	return app
}

// bookkeepingLine is one application's Bookkeeping updates in a line
// (keys shown as key(s) does: plain, or MarkdownCode).
func bookkeepingLine(b reconcile.AppBookkeeping, name string, keys func(string) string) string {
	what := "labels"
	for _, k := range b.Keys {
		if k.Annotation {
			what = "labels and annotations"
		}
	}
	var ks []string
	for i, k := range b.Keys {
		if i == 4 {
			ks = append(ks, fmt.Sprintf("and %d more", len(b.Keys)-i))
			break
		}
		ks = append(ks, keys(k.String()))
	}
	return fmt.Sprintf("application %s: %s only in KubeVela's bookkeeping %s (%s)", name, objects(b.Objects), what, strings.Join(ks, ", "))
}

// ignoredLine counts the Ignored updates and names the rules ("" for
// none).
func ignoredLine(p *reconcile.Plan, rule func(string) string) string {
	rules, n := p.IgnoredRules()
	if n == 0 {
		return ""
	}
	for i := range rules {
		rules[i] = rule(rules[i])
	}
	return fmt.Sprintf("%s only in ignored fields (--ignore %s), not shown", objects(n), strings.Join(rules, ", "))
}

// objects is "1 object differs" or "N objects differ".
func objects(n int) string {
	if n == 1 {
		return "1 object differs"
	}
	return fmt.Sprintf("%d objects differ", n)
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
