package tree

// Report is what an update found and did: the difference between the
// rendered tree and the directory it updated. All path lists are sorted
// and hold slash paths relative to the directory. A comparison reports
// the same fields (golden.Report embeds it).
type Report struct {
	// Added are rendered but had no file.
	Added []string
	// Removed had a file drydock owns but are no longer rendered.
	Removed []string
	// Changed are in both, with different contents.
	Changed []string
	// Unchanged counts the files that are in both and equal.
	Unchanged int
	// Pruned is set by Update when it deleted the Removed files.
	Pruned bool
	// Kept are Removed files Update did not prune because they lie on
	// another file system than the directory (a mount inside it).
	Kept []string
	// Adopted are the files drydock did not write that Update took over
	// (UpdateOptions.Adopt).
	Adopted []string
	// Unowned is set when the directory holds .yaml files but no
	// OwnershipFile: drydock owns none of them, so none can be Removed.
	Unowned bool
	// Leftovers says what was found of an update that was killed (its
	// journal) and done with it: completed or rolled back before the
	// comparison.
	Leftovers []string
}

// OK reports whether the rendered tree matched the directory: no file
// added, removed or changed. For a Report from Update it reports whether
// there was nothing to do.
func (r *Report) OK() bool {
	return len(r.Added) == 0 && len(r.Removed) == 0 && len(r.Changed) == 0
}
