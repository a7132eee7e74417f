package tree

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/drydock-dev/drydock/manifest"
)

// UpdateOptions tunes Update.
type UpdateOptions struct {
	// Prune deletes the files drydock owns (see OwnershipFile) that are no
	// longer rendered, and the directories that deleting them leaves
	// empty. Without it they are kept, still owned, and reported as
	// Removed.
	Prune bool
	// Adopt takes over the files drydock did not write (not listed in the
	// OwnershipFile) at the rendered paths: they are rewritten and listed
	// as owned from now on, and reported as Adopted. Without it such a
	// file is an error: drydock never rewrites what it did not write.
	Adopt bool
	// Base, when set, is a directory holding dir (given below it): dir is
	// reached from Base component by component, through an os.Root opened
	// at Base, so no symbolic link is followed on the way (one is an
	// error wrapping ErrInvalidPath) and, whatever another process swaps
	// in meanwhile, nothing outside Base is written. Missing directories
	// are made.
	Base string
	// Changed, when set, is called by Put with each file that differs
	// from the directory's file at its path, both normalised (see
	// Normalize), before it is staged: what a caller needs to show the
	// diff of what it updates.
	Changed func(p string, old, rendered []byte)
}

// ErrNotOwned is wrapped by the refusal to rewrite a file drydock did not
// write (see OwnershipFile and UpdateOptions.Adopt).
var ErrNotOwned = errors.New("not written by drydock")

// Updater updates a directory file by file, in place, for a tree too large
// to hold in memory; Update is an Updater given a whole tree. It compares
// each file with the directory's file at its path (see Normalize) and
// stages the Added and Changed ones beside their targets; Commit puts
// them in place (see Update). An Updater is not safe for concurrent use.
type Updater struct {
	// Known, when set, are the directory's files an earlier update (or
	// comparison) found equal to their rendered files: PutDigest does not
	// read them again while they and the rendered objects are as they
	// were. Start is when the update began (NewUpdater sets it): a file
	// changed since, or just before (FileID.Racy), is not learned.
	Known Known
	Start time.Time

	learned Known
	list    *Listing
	paths   *PathSet
	state   map[string]fileState
	opts    UpdateOptions
	dir     string
	d       *ownedDir // nil while dir does not exist
	target  string
	// adopted are the rendered paths whose existing file drydock did not
	// own.
	adopted map[string]bool
}

// NewUpdater takes dir's lock (see Update), completes what an interrupted
// update left, and lists dir. A missing dir is created at the first file
// to write.
func NewUpdater(dir string, opts UpdateOptions) (*Updater, error) {
	target, err := manifest.RealPath(dir)
	if err != nil {
		return nil, err
	}
	if opts.Base != "" {
		if rel, err := filepath.Rel(filepath.Clean(opts.Base), filepath.Clean(dir)); err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("directory %s: %w: not below %s", dir, ErrInvalidPath, opts.Base)
		}
	}
	u := &Updater{opts: opts, dir: dir, target: target, adopted: map[string]bool{}, Start: time.Now(), learned: Known{}}
	if _, err := os.Stat(target); err == nil {
		if err := u.open(); err != nil {
			return nil, err
		}
	}
	var done []string
	if u.d != nil {
		done, target = u.d.recovered, u.d.target // as opened
	}
	if u.list, err = newListing(target, done); err != nil {
		u.close()
		return nil, err
	}
	u.paths = NewPathSet(false) // an output tree may hold other files (an addon's NOTES.txt)
	u.state = map[string]fileState{}
	return u, nil
}

// fileState is how a rendered file compares with the directory's file.
type fileState int8

const (
	added fileState = iota
	changed
	unchanged
)

// compare checks the rendered file at p and compares it with the
// directory's file there.
func (u *Updater) compare(p string, data []byte) (fileState, error) {
	if err := u.paths.Add(p); err != nil {
		return 0, err
	}
	old, listed, err := u.list.Read(p)
	if err != nil {
		return 0, err
	}
	st := added
	if listed {
		st = unchanged
		if a, b := Normalize(old), Normalize(data); !bytes.Equal(a, b) {
			st = changed
			if u.opts.Changed != nil {
				u.opts.Changed(p, a, b)
			}
		}
	}
	u.state[p] = st
	return st, nil
}

// report is the comparison of every file Put with the directory.
func (u *Updater) report() *Report {
	r := &Report{}
	for _, p := range u.paths.Paths() {
		switch u.state[p] {
		case added:
			r.Added = append(r.Added, p)
		case changed:
			r.Changed = append(r.Changed, p)
		default:
			r.Unchanged++
		}
	}
	r.Removed = u.list.Removed(u.paths.Has)
	r.Unowned = u.list.Unowned()
	return r
}

// open opens (and creates) the directory under its lock.
func (u *Updater) open() error {
	if u.d != nil {
		return nil
	}
	d, err := openOwned(u.dir, u.opts.Base, u.opts.Adopt)
	if err != nil {
		return err
	}
	u.d = d
	return nil
}

func (u *Updater) close() {
	if u.list != nil {
		u.list.Close()
	}
	if u.d != nil {
		u.d.close()
	}
}

// Put compares the rendered file at p with its golden file and, if it is
// new or different, stages it; a second Put of p replaces the first.
func (u *Updater) Put(p string, data []byte) error {
	delete(u.learned, p)
	_, err := u.put(p, data)
	return err
}

// PutDigest is Put for a rendered object whose digest is d and whose file
// encode makes: when Known holds p with digest d and the file's FileID,
// the file is unchanged without reading it or calling encode. Either way,
// a file equal to the rendered one is learned (Learned).
func (u *Updater) PutDigest(p string, d Digest, encode func() ([]byte, error)) error {
	delete(u.learned, p)
	id, stable := u.list.Stat(p) // before reading: a later write changes it
	if k, ok := u.Known[p]; ok && stable && k == (KnownFile{File: id, Rendered: d}) {
		if err := u.paths.Add(p); err != nil {
			return err
		}
		u.state[p] = unchanged
		u.learned[p] = k
		return u.keep(p)
	}
	data, err := encode()
	if err != nil {
		return err
	}
	st, err := u.put(p, data)
	if err == nil && st == unchanged && stable && !id.Racy(u.Start) {
		u.learned[p] = KnownFile{File: id, Rendered: d}
	}
	return err
}

// Learned is the Known of the next update: the files Put with a digest
// that were equal to their rendered files (those it writes are not).
// changed says whether it differs from Known.
func (u *Updater) Learned() (k Known, changed bool) {
	return u.learned, !maps.Equal(u.learned, u.Known)
}

// keep keeps the file at p as it is (unchanged): it must be drydock's,
// and what an earlier Put of p staged goes.
func (u *Updater) keep(p string) error {
	if err := u.mayWrite(p, true); err != nil {
		return err
	}
	if u.d != nil {
		return u.d.unstage(p)
	}
	return nil
}

// put is Put: how the file at p compared.
func (u *Updater) put(p string, data []byte) (fileState, error) {
	st, err := u.compare(p, data)
	if err != nil {
		return st, err
	}
	if st == unchanged {
		return st, u.keep(p)
	}
	if err := u.open(); err != nil {
		return st, err
	}
	old, err := u.d.lookup(p)
	if err != nil {
		return st, err
	}
	if err := u.mayWrite(p, old.found); err != nil {
		return st, err
	}
	if err := u.d.stage(p, data, old, u.adopted[p]); err != nil {
		return st, fmt.Errorf("directory %s: %w; its files are left as they were", u.target, err)
	}
	return st, nil
}

// mayWrite checks that drydock may write the rendered path p, where a
// file exists (exists) or not: a file it did not write needs Adopt.
func (u *Updater) mayWrite(p string, exists bool) error {
	if !exists || u.owned(p) {
		delete(u.adopted, p)
		return nil
	}
	if !u.opts.Adopt {
		return fmt.Errorf("%s: %w: %s exists and is not listed in %s; drydock rewrites only files it wrote: move the file away, or take the tree over with --adopt", u.target, ErrNotOwned, p, OwnershipFile)
	}
	u.adopted[p] = true
	return nil
}

func (u *Updater) owned(p string) bool {
	return u.list.owns(p)
}

// Commit finishes the update: it prunes (with UpdateOptions.Prune),
// writes the OwnershipFile and puts the staged files in place, unless
// nothing changes; the lock is released. The report is the comparison.
func (u *Updater) Commit() (*Report, error) {
	defer u.close()
	rep := u.report()
	rep.Leftovers = u.list.recovered
	rep.Adopted = sortedKeys(u.adopted)
	deletes, err := u.prunable(rep)
	if err != nil {
		u.abort()
		return nil, err
	}
	owned := u.paths.Paths()
	if !u.opts.Prune {
		owned = append(owned, rep.Removed...)
	} else {
		owned = append(owned, rep.Kept...)
	}
	ownedData := encodeOwnership(owned)
	if !u.needed(rep, deletes, ownedData) {
		u.abort()
		return rep, nil
	}
	if err := u.open(); err != nil {
		return nil, err
	}
	if _, err := u.d.commit(ownedData, deletes); err != nil {
		u.abort()
		if !u.d.committed {
			err = fmt.Errorf("%w; its files are left as they were", err)
		}
		return nil, fmt.Errorf("directory %s: %w", u.target, err)
	}
	rep.Pruned = len(deletes) > 0
	return rep, nil
}

// prunable is what Prune deletes of the Removed files: those on the
// directory's file system; the others are kept (Report.Kept).
func (u *Updater) prunable(rep *Report) ([]string, error) {
	if !u.opts.Prune || len(rep.Removed) == 0 {
		return nil, nil
	}
	var deletes []string
	for _, p := range rep.Removed {
		old, err := u.d.lookup(p)
		if err != nil {
			return nil, err
		}
		if old.found && deviceOf(old.info) != u.d.dev {
			rep.Kept = append(rep.Kept, p)
			continue
		}
		deletes = append(deletes, p)
	}
	return deletes, nil
}

// needed reports whether the directory must change: files to write or
// prune, or an OwnershipFile that is missing or different.
func (u *Updater) needed(rep *Report, deletes []string, owned []byte) bool {
	g := u.list.g
	switch {
	case len(rep.Added) > 0 || len(rep.Changed) > 0 || len(deletes) > 0 || len(rep.Adopted) > 0:
		return true
	case u.paths.Len() == 0 && g == nil:
		return false
	}
	return g == nil || string(g.ownershipData) != string(owned)
}

func (u *Updater) abort() {
	if u.d != nil {
		u.d.abort()
	}
}

// Abort discards the update and releases the lock; the directory's files
// are left as they were.
func (u *Updater) Abort() {
	defer u.close()
	u.abort()
}

// Update makes the directory dir hold got, in place.
//
// It compares them file by file (see Normalize), then writes each Added and Changed
// file beside its target under a temporary name, appending each step to
// the directory's journal (JournalFile); at commit it journals the
// deletions (with Prune) and the new OwnershipFile, syncs the journal, and
// only then renames the files over their targets and deletes. A run killed
// at any moment leaves a journal that the next drydock run opening dir
// (Update, List, golden.Compare) rolls forward or back, so the files drydock owns are
// then wholly the old tree or wholly the new one. No directory is
// renamed, replaced or recreated: dir keeps its inode, owner and mode,
// and whatever other processes write into it meanwhile stays. A missing
// dir is created.
//
// drydock writes only files it owns (OwnershipFile): a rendered path
// taken by a file it did not write is an error wrapping ErrNotOwned,
// unless UpdateOptions.Adopt. Pruning deletes only owned files, and never
// one on another file system than dir's (a mount inside it): those are
// kept, still owned, and listed in Report.Kept.
//
// Concurrent Updates of one directory take turns: a lock (LockFile, in
// dir) makes a second one wait up to LockWait, then fail; it is removed
// when the update ends.
//
// Nothing is written outside dir: tree paths are validated, every path is
// opened under dir without following a symbolic link out of it, and a
// symbolic link, FIFO or device where a file or directory of the tree
// belongs is refused (ErrInvalidPath). dir itself may be a symbolic link
// (it is resolved once). A rewritten file keeps its permission bits (and
// owner, when run as root); a new one gets 0644 (less umask). The journal
// is synced; the files are not, so the guarantee holds against a killed
// process, not a power loss.
//
// With nothing to change, Update writes nothing (a missing dir stays
// missing).
func Update(dir string, got Tree, opts UpdateOptions) (*Report, error) {
	if err := got.Validate(true); err != nil {
		return nil, err
	}
	u, err := NewUpdater(dir, opts)
	if err != nil {
		return nil, err
	}
	for _, p := range got.Paths() {
		if err := u.Put(p, got[p]); err != nil {
			u.Abort()
			return nil, err
		}
	}
	return u.Commit()
}

// Write writes the tree t under dir, in place, as Update without pruning
// does: the files of t are added or rewritten (they must be drydock's or
// new), every other file stays, and the OwnershipFile lists what drydock
// wrote. Unlike Update, t's paths need not end in .yaml.
func Write(dir string, t Tree) error {
	if err := t.Validate(false); err != nil {
		return err
	}
	u, err := NewUpdater(dir, UpdateOptions{})
	if err != nil {
		return err
	}
	for _, p := range t.Paths() {
		if err := u.Put(p, t[p]); err != nil {
			u.Abort()
			return err
		}
	}
	_, err = u.Commit()
	return err
}
