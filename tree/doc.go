// Package tree owns drydock's output tree: the canonical encoding of an
// object, where each object lives in the tree, and the writer of the
// directories drydock owns (render -o, golden trees, snapshots).
//
// # The tree
//
// A Tree holds one object per file under
// <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml (see
// Path; a file name over 255 bytes is shortened), encoded by Encode:
// sigs.k8s.io/yaml, keys sorted, LF line ends, byte-identical across
// runs. Write puts a tree on disk; Update makes a directory hold it.
//
// A render too large to hold as a Tree streams instead: Updater takes one
// file at a time (Put), in any order, and finishes with what Update does
// (Commit; Abort leaves the directory's files as they were). Write and
// Update are built on it. List reads a directory as a comparison sees it
// (golden compares with it).
//
// A file is compared with the directory's file at its path after two
// normalisations on both sides (Normalize): CRLF line ends become LF, and
// a missing final newline is added. A checkout with core.autocrlf or an
// editor that drops the final newline therefore does not drift, and
// Update leaves such a file as it is while its content matches.
//
// # Safety
//
// Nothing drydock writes leaves the directory it was given. Tree paths
// must be clean relative slash paths (no "..", no leading "/", no
// backslash) and, for Update, end in .yaml. The directory itself may be a
// symbolic link (resolved once); inside it every path is opened through
// an os.Root, each directory on the way is checked to be a real
// directory, and a symbolic link, FIFO or device where a file or directory
// of the tree belongs is refused before it is opened (ErrInvalidPath).
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
// drydock owns (or over nothing), and delete owned files. Pruning never
// deletes on another file system. Updates of one directory take turns
// through a lock (LockFile) inside it, removed when done.
//
// tree does not render, print, or read the environment, and imports no
// drydock package but manifest.
package tree
