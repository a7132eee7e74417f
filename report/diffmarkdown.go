package report

import (
	"fmt"
	"io"

	"github.com/drydock-dev/drydock/reconcile"
)

// DiffMarkdown is a pull-request comment: a table per cluster, each
// object's diff in a collapsed section. Every name, kind, namespace and
// reason is MarkdownText or MarkdownCode and every diff a MarkdownFence:
// nothing from an input becomes markup.
func DiffMarkdown(w io.Writer, p *reconcile.Plan, base string) error {
	sw := &StickyWriter{W: w}
	fmt.Fprintf(sw, "### drydock diff\n\n%s.\n", summaryLine(p, MarkdownCode(base)))
	byCluster := map[string][]reconcile.Change{}
	var clusters []string
	for _, c := range p.Changes {
		if byCluster[c.Cluster] == nil {
			clusters = append(clusters, c.Cluster)
		}
		byCluster[c.Cluster] = append(byCluster[c.Cluster], c)
	}
	for _, cl := range clusters {
		changes := byCluster[cl]
		counts := map[reconcile.Action]int{}
		for _, c := range changes {
			counts[c.Action]++
		}
		fmt.Fprintf(sw, "\n#### cluster %s\n\n| create | update | delete |\n|---|---|---|\n| %d | %d | %d |\n\n",
			MarkdownCode(cl), counts[reconcile.Create], counts[reconcile.Update], counts[reconcile.Delete])
		for _, c := range changes {
			fmt.Fprintf(sw, "<details><summary>%s %s %s in %s: %s</summary>\n\n%s\n</details>\n",
				c.Action, MarkdownText(c.Key.Kind), MarkdownCode(c.Key.Name), MarkdownText(NamespaceOf(c.Key.Namespace)),
				MarkdownText(c.Reason), MarkdownFence("diff", p.ChangeDiff(&c)))
		}
	}
	if len(p.Kept) > 0 {
		fmt.Fprintf(sw, "\n#### kept as they are by the controllers\n\n")
		for _, k := range p.Kept {
			fmt.Fprintf(sw, "- %s %s %s in %s: %s\n", MarkdownCode(k.Cluster), MarkdownText(k.Key.Kind), MarkdownCode(k.Key.Name),
				MarkdownText(NamespaceOf(k.Key.Namespace)), MarkdownText(k.Reason))
		}
	}
	return sw.Err
}
