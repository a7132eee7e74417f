// Package golden compares drydock's output tree with a committed golden
// directory: the golden-file half of a CI or pre-commit check. The tree
// itself (its paths, canonical encoding and the in-place writer of the
// directories drydock owns) is package tree's.
//
// # Compare
//
// Compare reads every *.yaml file under a golden directory (recursively;
// README and other files are ignored and never touched) through
// tree.List and reports the paths that were Added (rendered, no golden
// file), Removed (golden file drydock owns, no longer rendered) and
// Changed, with a unified diff per changed file (Unified).
//
// A render too large to hold as a Tree streams instead: a Comparer takes
// one file at a time (Put), in any order, and finishes with what Compare
// does (Report). Compare is built on it.
//
// Files are compared as bytes, not as parsed YAML. drydock's output is
// canonical, so any byte difference (key order, quoting, indentation, a
// comment) is drift that the golden file should record. Two
// normalisations only, on both sides (tree.Normalize): CRLF line ends
// become LF, and a missing final newline is added. A checkout with
// core.autocrlf or an editor that drops the final newline therefore does
// not drift.
//
// # CI and pre-commit
//
// A check never writes: call Compare, print Report.String, and fail unless
// Report.OK, which is false on any added (missing golden), removed (stale
// golden) or changed file. To accept a render, call tree.Update; with
// tree.UpdateOptions.Prune it also deletes the stale golden files. What
// Update guarantees (ownership, the journal, the lock, nothing written
// outside the directory) is described in package tree.
//
// # Go tests
//
// Check is the helper for users' own tests: it compares and reports drift
// with t.Errorf, and with the -update flag it updates (with prune)
// instead:
//
//	var _ = flag.Bool("update", false, "rewrite golden files")
//
//	func TestRender(t *testing.T) {
//		golden.Check(t, "testdata/golden", render(t))
//	}
//
// Run `go test -update` to accept the new output. The test package must
// define the -update flag (as above, or its own) so the test binary
// accepts it; Check looks it up by name and shares it.
//
// golden does not render, print, or read the environment; it does not
// compare YAML semantically and is not a general-purpose diff library.
package golden
