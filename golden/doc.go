// Package golden owns drydock's canonical output tree and its comparison
// with a committed golden directory: the golden-file half of a CI or
// pre-commit check.
//
// # The tree
//
// A Tree holds one object per file under
// <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml (see
// ObjectPath), encoded by Encode: sigs.k8s.io/yaml, keys sorted, LF line
// ends, byte-identical across runs. Write puts a tree on disk.
//
// A render too large to hold as a Tree streams instead: Comparer and
// Updater take one file at a time (Put), in any order, and finish with
// what Compare and Update do (Report, Commit; Abort leaves the directory's
// files as they were). Write, Compare and Update are built on them.
//
// # Compare
//
// Compare reads every *.yaml file under a golden directory (recursively;
// README and other files are ignored and never touched) and reports the
// paths that were Added (rendered, no golden file), Removed (golden file,
// no longer rendered) and Changed, with a unified diff per changed file.
//
// Files are compared as bytes, not as parsed YAML. drydock's output is
// canonical, so any byte difference (key order, quoting, indentation, a
// comment) is drift that the golden file should record. Two
// normalisations only, on both sides: CRLF line ends become LF, and a
// missing final newline is added. A checkout with core.autocrlf or an
// editor that drops the final newline therefore does not drift, and
// Update leaves such a file as it is while its content matches.
//
// # CI and pre-commit
//
// A check never writes: call Compare, print Report.String, and fail unless
// Report.OK, which is false on any added (missing golden), removed (stale
// golden) or changed file. To accept a render, call Update; with
// UpdateOptions.Prune it also deletes the stale golden files.
//
// # Safety
//
// Nothing golden writes leaves the directory it was given. Tree paths must
// be clean relative slash paths (no "..", no leading "/", no backslash)
// and, for Compare and Update, end in .yaml. The directory itself may be a
// symbolic link (resolved once); inside it every path is opened through an
// os.Root, each directory on the way is checked to be a real directory,
// and a symbolic link, FIFO or device where a file or directory of the
// tree belongs is refused before it is opened (ErrInvalidPath).
//
// Ownership is the only licence to rewrite or delete: drydock creates new
// files, and rewrites or deletes only those its OwnershipFile lists. A
// directory without one owns nothing; UpdateOptions.Adopt takes such a
// tree over explicitly and lists what it adopts.
//
// Update works in place: no directory is renamed, replaced or recreated,
// so the directory keeps its inode, owner, mode bits and whatever is
// mounted in it, and files other processes write meanwhile stay. Each
// file is written beside its target and renamed over it at commit, under
// a journal (JournalFile) that the next run rolls forward or back, so
// after a kill and the next run the owned files are wholly the old tree
// or wholly the new one. The journal is checked whole before it is
// replayed: it may only rename drydock's own temporary files over files
// drydock owns (or over nothing), and delete owned files. Pruning never deletes on another file system.
// Updates of one directory take turns through a lock (LockFile) inside
// it, removed when done.
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
