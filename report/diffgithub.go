package report

import (
	"io"
	"strings"

	"github.com/drydock-dev/drydock/reconcile"
)

// DiffGitHub is the text for a GitHub Actions log, inert (no line of an
// object can run a workflow command), and a notice with the summary. The
// caller appends DiffMarkdown to the job summary.
func DiffGitHub(w io.Writer, p *reconcile.Plan, base string) error {
	var text strings.Builder
	if err := DiffText(&text, p, base); err != nil {
		return err
	}
	sw := &StickyWriter{W: w}
	WriteInert(sw, text.String())
	Notice(sw, "drydock diff", summaryLine(p, base))
	return sw.Err
}
