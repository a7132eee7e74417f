package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/drydock-dev/drydock/check"
)

// Text is the report for people: per suite a status line, its findings
// (with golden diffs indented below), in a shard's report the count of
// its unclaimed findings, and the golden files it updated, then a closing
// count of ok and failed suites.
type Text struct {
	// Colour paints statuses and levels with ANSI colours (a terminal's
	// report; Options.Colour).
	Colour bool
}

// paint writes s, in the ANSI colour of what it says when t.Colour, to
// w: the raw writer, for s is one of drydock's status words.
func (t Text) paint(w io.Writer, s string) {
	code := map[string]string{"ok": "32", "FAIL": "31", "ERROR": "31", "error": "31", "warning": "33"}[s]
	if !t.Colour || code == "" {
		io.WriteString(w, s)
		return
	}
	io.WriteString(w, "\x1b["+code+"m"+s+"\x1b[0m")
}

// Write writes the text report of r to w. Everything but the colours
// goes through a PrintableWriter: names, messages and diffs from inputs
// reach a terminal or a log with their controls made visible.
func (t Text) Write(out io.Writer, r *check.Result) error {
	w := &StickyWriter{W: out}
	p := &PrintableWriter{W: w}
	for _, s := range r.Suites {
		errs, warns := s.Counts()
		fmt.Fprintf(p, "suite %s: ", s.Name)
		t.paint(w, s.Status())
		fmt.Fprintf(p, " (%s, %s%s, %s)\n", Count(s.Objects, "object"), definitionTests(s.Checks), Count(errs, "error"), Count(warns, "warning"))
		if causes := driftCauses(s.Findings); causes != "" {
			fmt.Fprintf(p, "  golden drift by cause: %s\n", causes)
		}
		for _, f := range s.Findings {
			fmt.Fprintf(p, "  %s", locate(f.Pos))
			t.paint(w, string(f.Level))
			fmt.Fprintf(p, " [%s] %s%s\n", f.Check, where(f), f.Message)
			if f.Diff != "" {
				for _, line := range strings.Split(strings.TrimRight(f.Diff, "\n"), "\n") {
					fmt.Fprintf(p, "    %s\n", line)
				}
			}
		}
		if n := len(s.Unclaimed); n > 0 {
			// A shard's (--shard): not findings of the suite until every
			// shard makes them.
			fmt.Fprintf(p, "  unclaimed: %s this shard cannot decide (a golden file it does not render is stale only if no shard renders it): drydock report merge decides\n", Count(n, "finding"))
		}
		for _, u := range s.Updated {
			fmt.Fprintf(p, "  updated %s\n", u)
		}
		for _, a := range s.Adopted {
			fmt.Fprintf(p, "  adopted %s\n", a)
		}
		writeCoverage(p, s.Coverage)
	}
	failed := r.FailedSuites()
	fmt.Fprintf(w, "%s: %d ok, %d failed\n", Count(len(r.Suites), "suite"), len(r.Suites)-failed, failed)
	return w.Err
}

// where names the cluster and namespace of a rule finding about an object
// (its output path cluster/namespace/file), or the cluster of a combined
// rule's finding or of a Gatekeeper finding (whose message names the
// object, kind namespace/name); "" for other findings, whose messages
// name their objects.
func where(f check.Finding) string {
	gk := strings.HasPrefix(f.Check, "gatekeeper/")
	if !(strings.HasPrefix(f.Check, "rules/") || gk) || f.Object == "" {
		return ""
	}
	parts := strings.Split(f.Object, "/")
	switch {
	case len(parts) == 1 || gk:
		return "cluster " + parts[0] + ": "
	case parts[1] == "_cluster":
		return "cluster " + parts[0] + ", cluster-scoped: "
	}
	return "cluster " + parts[0] + ", namespace " + parts[1] + ": "
}

// driftCauses summarises a suite's golden drift by what produced the
// objects ("application shop component web: 2 files; template a.yaml:3:1:
// 1 file"), in order of appearance; "" without drift.
func driftCauses(findings []check.Finding) string {
	var order []string
	count := map[string]int{}
	for _, f := range findings {
		if f.Check != "golden" || f.Object == "" {
			continue
		}
		cause := f.Origin.Subject()
		switch {
		case cause != "":
		case f.Origin.Pos.IsValid():
			cause = f.Origin.Pos.String()
		case strings.Contains(f.Message, "no longer renders"):
			cause = "no longer rendered"
		case f.Pos.IsValid():
			cause = f.Pos.String()
		default:
			cause = "the golden tree"
		}
		if count[cause] == 0 {
			order = append(order, cause)
		}
		count[cause]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%s: %s", c, Count(count[c], "file"))
	}
	return strings.Join(parts, "; ")
}

// writeCoverage lists, per tested definition, how many of its template's
// ifs the definition tests took both ways, and those they did not.
func writeCoverage(w io.Writer, cov []check.BranchCoverage) {
	var defs []string
	by := map[string][]check.BranchCoverage{}
	for _, b := range cov {
		if _, ok := by[b.Definition]; !ok {
			defs = append(defs, b.Definition)
		}
		by[b.Definition] = append(by[b.Definition], b)
	}
	for _, d := range defs {
		both := 0
		for _, b := range by[d] {
			if b.True && b.False {
				both++
			}
		}
		fmt.Fprintf(w, "  coverage %s: %d of %s taken both ways\n", d, both, Count(len(by[d]), "if branch"))
		for _, b := range by[d] {
			switch {
			case b.True && b.False:
			case b.True:
				fmt.Fprintf(w, "    %s: if %s: never false\n", b.Pos, b.Condition)
			case b.False:
				fmt.Fprintf(w, "    %s: if %s: never true\n", b.Pos, b.Condition)
			default:
				fmt.Fprintf(w, "    %s: if %s: not decided by any test's parameters\n", b.Pos, b.Condition)
			}
		}
	}
}

// definitionTests says how many definition tests a suite ran ("N
// definition tests, "), or "" for none: each is a check "tests/<name>".
func definitionTests(checks []string) string {
	n := 0
	for _, c := range checks {
		if strings.HasPrefix(c, "tests/") {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return Count(n, "definition test") + ", "
}
