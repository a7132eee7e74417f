package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/drydock-dev/drydock/reconcile"
)

var actionMarks = map[reconcile.Action]string{reconcile.Create: "+", reconcile.Update: "~", reconcile.Delete: "-"}

// DiffText groups the changes by cluster and namespace, each update with
// its diff, and ends with a summary line. It writes through a
// PrintableWriter: names, reasons and diff lines from inputs keep their
// controls visible.
func DiffText(w io.Writer, p *reconcile.Plan, base string) error {
	sw := &StickyWriter{W: w}
	pw := &PrintableWriter{W: sw}
	lastCluster, lastNS := "", "\x00"
	for _, c := range p.Changes {
		if c.Cluster != lastCluster {
			fmt.Fprintf(pw, "cluster %s\n", c.Cluster)
			lastCluster, lastNS = c.Cluster, "\x00"
		}
		if c.Key.Namespace != lastNS {
			fmt.Fprintf(pw, "  namespace %s\n", NamespaceOf(c.Key.Namespace))
			lastNS = c.Key.Namespace
		}
		fmt.Fprintf(pw, "    %s %s %s: %s\n", actionMarks[c.Action], c.Action, objectName(c.Key), c.Reason)
		if c.Action == reconcile.Update {
			for line := range strings.Lines(p.ChangeDiff(&c)) {
				fmt.Fprintf(pw, "        %s", line)
			}
		}
	}
	for _, k := range p.Kept {
		fmt.Fprintf(pw, "kept in cluster %s, namespace %s: %s: %s\n", k.Cluster, NamespaceOf(k.Key.Namespace), objectName(k.Key), k.Reason)
	}
	fmt.Fprintf(pw, "%s\n", summaryLine(p, base))
	return sw.Err
}
