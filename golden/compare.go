package golden

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/tree"
)

// Report is the difference between a rendered tree and a golden
// directory: tree.Report (what Compare and tree.Update have in common), with
// the diff of each changed file.
type Report struct {
	tree.Report
	// Diffs holds, for each Changed path, a unified diff from
	// "golden/<path>" to "rendered/<path>" (3 lines of context).
	Diffs map[string]string
	// Known counts the Unchanged files known without reading them
	// (Comparer.Known).
	Known int
}

// String is a human summary: one line of counts, one line per drifted
// file, then the diff of each changed file.
func (r *Report) String() string {
	removed := "removed"
	if r.Pruned {
		removed = "pruned"
	}
	var sb strings.Builder
	for _, l := range r.Leftovers {
		fmt.Fprintf(&sb, "golden: %s\n", l)
	}
	if r.Unowned {
		fmt.Fprintf(&sb, "golden: the directory has no %s: drydock wrote none of its files, so stale ones are not reported (take the tree over with --adopt)\n", tree.OwnershipFile)
	}
	for _, p := range r.Adopted {
		fmt.Fprintf(&sb, "adopted  %s\n", p)
	}
	for _, p := range r.Kept {
		fmt.Fprintf(&sb, "kept     %s (on another file system: not pruned)\n", p)
	}
	if r.OK() {
		fmt.Fprintf(&sb, "golden: up to date, %d unchanged\n", r.Unchanged)
		return sb.String()
	}
	fmt.Fprintf(&sb, "golden: %d changed, %d added, %d %s, %d unchanged\n",
		len(r.Changed), len(r.Added), len(r.Removed), removed, r.Unchanged)
	for _, l := range []struct {
		label string
		paths []string
	}{{"changed", r.Changed}, {"added", r.Added}, {removed, r.Removed}} {
		for _, p := range l.paths {
			fmt.Fprintf(&sb, "%-8s %s\n", l.label, p)
		}
	}
	for _, p := range r.Changed {
		sb.WriteString("\n")
		sb.WriteString(r.Diffs[p])
	}
	return sb.String()
}
