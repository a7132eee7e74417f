package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/drydock-dev/drydock/reconcile"
)

var actionMarks = map[reconcile.Action]string{reconcile.Create: "+", reconcile.Update: "~", reconcile.Delete: "-"}

// ANSI colours of the text diff.
const (
	ansiBold  = "\x1b[1m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
	ansiCyan  = "\x1b[36m"
	ansiReset = "\x1b[0m"
)

// DiffText starts with the counts per cluster and per application,
// then groups the changes by cluster and namespace, each update with its
// diff, sums up per application the updates that only change KubeVela's
// bookkeeping (listed one by one with ShowBookkeeping), counts those
// that only change ignored fields, and ends with a summary line. It
// writes through a PrintableWriter: names, reasons and diff lines from
// inputs keep their controls visible; only its own colours (Colour) go
// to w as they are.
func DiffText(w io.Writer, p *reconcile.Plan, base string, o DiffOptions) error {
	sw := &StickyWriter{W: w}
	pw := &PrintableWriter{W: sw}
	paint := func(colour, s string) {
		if o.Colour && colour != "" {
			io.WriteString(sw, colour)
			io.WriteString(pw, s)
			io.WriteString(sw, ansiReset)
			return
		}
		io.WriteString(pw, s)
	}
	if len(p.Changes) > 0 {
		writeTallies(pw, p)
	}
	lastCluster, lastNS := "", "\x00"
	for i := range p.Changes {
		c := &p.Changes[i]
		if !shown(c, o) {
			continue
		}
		if c.Cluster != lastCluster {
			paint(ansiBold, "cluster "+c.Cluster)
			io.WriteString(pw, "\n")
			lastCluster, lastNS = c.Cluster, "\x00"
		}
		if c.Key.Namespace != lastNS {
			fmt.Fprintf(pw, "  namespace %s\n", NamespaceOf(c.Key.Namespace))
			lastNS = c.Key.Namespace
		}
		io.WriteString(pw, "    ")
		paint(ansiBold, fmt.Sprintf("%s %s %s", actionMarks[c.Action], c.Action, objectName(c.Key)))
		fmt.Fprintf(pw, ": %s\n", c.Reason)
		if c.Action == reconcile.Update {
			for line := range strings.Lines(p.ChangeDiff(c)) {
				io.WriteString(pw, "        ")
				paint(lineColour(line), strings.TrimSuffix(line, "\n"))
				io.WriteString(pw, "\n")
			}
		}
	}
	for _, b := range p.BookkeepingByApp() {
		fmt.Fprintf(pw, "%s\n", bookkeepingLine(b, appName(b.App), func(s string) string { return s }))
	}
	if line := ignoredLine(p, func(s string) string { return s }); line != "" {
		fmt.Fprintf(pw, "%s\n", line)
	}
	for _, k := range p.Kept {
		fmt.Fprintf(pw, "kept in cluster %s, namespace %s: %s: %s\n", k.Cluster, NamespaceOf(k.Key.Namespace), objectName(k.Key), k.Reason)
	}
	paint(ansiBold, summaryLine(p, base))
	io.WriteString(pw, "\n")
	return sw.Err
}

// lineColour is the colour of a unified diff line: its file headers
// bold, hunk headers cyan, removed lines red, added lines green.
func lineColour(line string) string {
	switch {
	case strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "+++ "):
		return ansiBold
	case strings.HasPrefix(line, "@@"):
		return ansiCyan
	case strings.HasPrefix(line, "-"):
		return ansiRed
	case strings.HasPrefix(line, "+"):
		return ansiGreen
	}
	return ""
}

// writeTallies writes the tables of counts per cluster and per
// application, columns aligned.
func writeTallies(w io.Writer, p *reconcile.Plan) {
	ignored := p.Total().Ignored > 0
	table := func(what string, rows []reconcile.Tally, name func(string) string) {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := what + "\tcreate\tupdate\tdelete\tbookkeeping only"
		if ignored {
			head += "\tignored only"
		}
		fmt.Fprintln(tw, head)
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d", name(r.Name), r.Create, r.Update, r.Delete, r.Bookkeeping)
			if ignored {
				fmt.Fprintf(tw, "\t%d", r.Ignored)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		fmt.Fprintln(w)
	}
	table("cluster", p.ByCluster(), func(s string) string { return s })
	table("application", p.ByApplication(), appName)
}
