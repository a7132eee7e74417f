package report

import (
	"io"
	"strings"

	"github.com/drydock-dev/drydock/reconcile"
)

// DiffGitHub is the text for a GitHub Actions log (DiffText, never
// coloured), inert (no line of an object can run a workflow command),
// and a notice with the summary. The caller appends DiffMarkdown to the
// job summary, capped at what is left of SummaryCap.
func DiffGitHub(w io.Writer, p *reconcile.Plan, base string, o DiffOptions) error {
	var text strings.Builder
	o.Colour = false
	if err := DiffText(&text, p, base, o); err != nil {
		return err
	}
	sw := &StickyWriter{W: w}
	WriteInert(sw, text.String())
	Notice(sw, "drydock diff", summaryLine(p, base))
	return sw.Err
}
