package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/drydock-dev/drydock/check"
)

// GitHub is the report for GitHub Actions: an ::error or ::warning
// workflow command (annotation) per finding, at most AnnotationCap of
// each level and a ::notice counting the rest, then the text report
// fenced by ::stop-commands:: so that nothing it quotes runs as a
// workflow command. StepSummary writes the matching job summary.
type GitHub struct{}

// AnnotationCap is how many annotations of each level GitHub shows for
// one step; GitHub writes the rest as a count.
const AnnotationCap = 10

// Write writes the workflow commands of r to w.
func (GitHub) Write(out io.Writer, r *check.Result) error {
	w := &StickyWriter{W: out}
	shown := map[check.Level]int{}
	hidden := 0
	for _, s := range r.Suites {
		for _, f := range s.Findings {
			if shown[f.Level] >= AnnotationCap {
				hidden++
				continue
			}
			shown[f.Level]++
			fmt.Fprintln(w, annotation(s.Name, f))
		}
	}
	if hidden > 0 {
		more := fmt.Sprintf("%d more findings are", hidden)
		if hidden == 1 {
			more = "1 more finding is"
		}
		Notice(w, "drydock", fmt.Sprintf("%s not annotated (GitHub shows %d per level); see the job summary or the text report", more, AnnotationCap))
	}
	var text strings.Builder
	if err := (Text{}).Write(&text, r); err != nil {
		return err
	}
	WriteInert(w, text.String())
	return w.Err
}

// annotation is the workflow command of finding f of suite.
func annotation(suite string, f check.Finding) string {
	var props []string
	if f.Pos.IsValid() {
		props = append(props, "file="+ghProperty(filepath.ToSlash(f.Pos.File)))
		if f.Pos.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", f.Pos.Line))
		}
		if f.Pos.Col > 0 {
			props = append(props, fmt.Sprintf("col=%d", f.Pos.Col))
		}
	}
	props = append(props, "title="+ghProperty(fmt.Sprintf("drydock %s: %s", suite, f.Check)))
	msg := f.Message
	if f.Diff != "" {
		msg += "\n" + f.Diff
	}
	level := string(f.Level)
	if f.Level == check.LevelException {
		level = "notice"
	}
	return fmt.Sprintf("::%s %s::%s", level, strings.Join(props, ","), ghData(msg))
}

// Notice writes a ::notice workflow command (an annotation of the run),
// its title and message escaped so that it stays one command.
func Notice(w io.Writer, title, msg string) {
	fmt.Fprintf(w, "::notice title=%s::%s\n", ghProperty(title), ghData(msg))
}

// WriteInert writes text (which quotes rule messages, file names and
// diffs, any line of which could read as a workflow command such as
// ::add-mask:: or ::error::) between ::stop-commands:: and its end
// marker, so GitHub runs none of it. The marker is a hash of the text:
// deterministic, and not something the text can contain in advance.
func WriteInert(w io.Writer, text string) {
	text = Printable(text)
	sum := sha256.Sum256([]byte(text))
	token := "drydock-" + hex.EncodeToString(sum[:12])
	fmt.Fprintf(w, "::stop-commands::%s\n%s::%s::\n", token, text, token)
}

// ghData is s as a workflow command's message: controls made visible
// (Printable), then escaped as GitHub's toolkit escapes command data
// (escapeData in @actions/core), so that it stays one command.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(Printable(s))
}

// ghProperty is ghData for a property value, which also escapes the
// property separators : and , (escapeProperty in @actions/core).
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(Printable(s))
}

// StepSummary writes the Markdown job summary of r to w in one write: a
// table of the suites (status, objects, errors, warnings), then each
// suite's findings. Every field from inputs is MarkdownText or
// MarkdownCode: it stays text on its line (no markup, no HTML, no table
// cell or code span ended early, no line that starts a workflow command).
// Past limit bytes (0: no cap; the caller gives what the step's summary
// has left of SummaryCap) the findings from the first that does not fit
// are left out and a notice says how many, and that the step's log holds
// them all (the text report GitHub writes there). The caller opens the
// destination (GitHub's $GITHUB_STEP_SUMMARY, for appending).
func StepSummary(w io.Writer, r *check.Result, limit int) error {
	var b strings.Builder
	b.WriteString("## drydock test\n\n| suite | status | objects | errors | warnings |\n|---|---|---|---|---|\n")
	for _, s := range r.Suites {
		errs, warns := s.Counts()
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", MarkdownText(s.Name), s.Status(), s.Objects, errs, warns)
	}
	blocks := []mdBlock{{text: b.String()}}
	for _, s := range r.Suites {
		heading := fmt.Sprintf("\n### %s\n\n", MarkdownText(s.Name))
		for _, f := range s.Findings {
			line := fmt.Sprintf("- **%s** %s %s\n", f.Level, MarkdownCode(f.Check), withSpace(MarkdownCode(f.Pos.String()))+MarkdownText(f.Message))
			blocks = append(blocks, mdBlock{text: heading + line, rank: 1, what: "finding"})
			heading = ""
		}
	}
	_, err := io.WriteString(w, capMarkdown(blocks, limit, SummaryCapName(limit), "this step's log, which holds every finding"))
	return err
}

// SummaryCapName names the room a job summary has (DiffOptions.MaxSizeName): "1 MiB", or what
// is left of it after what the step wrote before.
func SummaryCapName(room int) string {
	if room >= SummaryCap {
		return sizeName(SummaryCap)
	}
	return "the " + sizeName(room) + " left of the job summary's " + sizeName(SummaryCap)
}

// withSpace is s and a space, or "" for "".
func withSpace(s string) string {
	if s == "" {
		return ""
	}
	return s + " "
}
