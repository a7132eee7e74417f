package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/drydock-dev/drydock/reconcile"
)

// DiffMarkdown is a pull-request comment: the summary line, tables of the
// counts per cluster and per application, a line per application whose
// updates only change KubeVela's bookkeeping, then per cluster each
// object's diff in a collapsed section, and the objects the controllers
// keep. Every name, kind, namespace and reason is MarkdownText or
// MarkdownCode and every diff a MarkdownFence: nothing from an input
// becomes markup. Past o.MaxSize it leaves out the objects' diffs from
// the first that does not fit, then the kept objects, the bookkeeping
// lines and the application rows (capMarkdown), and says so.
func DiffMarkdown(w io.Writer, p *reconcile.Plan, base string, o DiffOptions) error {
	var blocks []mdBlock
	add := func(rank int, what, app, text string) {
		blocks = append(blocks, mdBlock{text: text, rank: rank, what: what, app: app})
	}
	add(0, "", "", fmt.Sprintf("### drydock diff\n\n%s.\n", summaryLine(p, MarkdownCode(base))))
	if len(p.Changes) > 0 {
		ignored := p.Total().Ignored > 0
		head := func(what string) string {
			h, rule := "\n| "+what+" | create | update | delete | bookkeeping only |", "\n|---|---|---|---|---|"
			if ignored {
				h, rule = h+" ignored only |", rule+"---|"
			}
			return h + rule + "\n"
		}
		row := func(name string, t reconcile.Tally) string {
			r := fmt.Sprintf("| %s | %d | %d | %d | %d |", name, t.Create, t.Update, t.Delete, t.Bookkeeping)
			if ignored {
				r += fmt.Sprintf(" %d |", t.Ignored)
			}
			return r + "\n"
		}
		var cl strings.Builder
		cl.WriteString(head("cluster"))
		for _, t := range p.ByCluster() {
			cl.WriteString(row(MarkdownCode(t.Name), t))
		}
		add(0, "", "", cl.String())
		prefix := head("application")
		for _, t := range p.ByApplication() {
			name := MarkdownText(appName(t.Name))
			if t.Name != "" {
				name = MarkdownCode(t.Name)
			}
			add(1, "application row", "", prefix+row(name, t))
			prefix = ""
		}
	}
	code := func(s string) string { return MarkdownCode(s) }
	notes := p.BookkeepingByApp()
	ignoredNote := ignoredLine(p, code)
	prefix := "\n"
	for _, b := range notes {
		name := MarkdownText(appName(b.App))
		if b.App != "" {
			name = MarkdownCode(b.App)
		}
		add(2, "bookkeeping line", b.App, prefix+"- "+bookkeepingLine(b, name, code)+"\n")
		prefix = ""
	}
	if ignoredNote != "" {
		add(2, "ignored-fields line", "", prefix+"- "+ignoredNote+"\n")
	}
	lastCluster := "\x00"
	for i := range p.Changes {
		c := &p.Changes[i]
		if !shown(c, o) {
			continue
		}
		var b strings.Builder
		if c.Cluster != lastCluster {
			fmt.Fprintf(&b, "\n#### cluster %s\n\n", MarkdownCode(c.Cluster))
			lastCluster = c.Cluster
		}
		fmt.Fprintf(&b, "<details><summary>%s %s %s in %s: %s</summary>\n\n%s\n</details>\n",
			c.Action, MarkdownText(c.Key.Kind), MarkdownCode(c.Key.Name), MarkdownText(NamespaceOf(c.Key.Namespace)),
			MarkdownText(c.Reason), MarkdownFence("diff", p.ChangeDiff(c)))
		add(4, "object diff", c.App, b.String())
	}
	if len(p.Kept) > 0 {
		prefix := "\n#### kept as they are by the controllers\n\n"
		for _, k := range p.Kept {
			add(3, "kept object", "", prefix+fmt.Sprintf("- %s %s %s in %s: %s\n", MarkdownCode(k.Cluster), MarkdownText(k.Key.Kind), MarkdownCode(k.Key.Name),
				MarkdownText(NamespaceOf(k.Key.Namespace)), MarkdownText(k.Reason)))
			prefix = ""
		}
	}
	whole := o.WholeReport
	if whole == "" {
		whole = "run " + MarkdownCode("drydock diff") + " again with " + MarkdownCode("--max-size 0")
	}
	_, err := io.WriteString(w, capMarkdown(blocks, o.MaxSize, o.MaxSizeName, whole))
	return err
}
