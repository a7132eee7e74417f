package tree

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// step is called before each change an update makes on disk; tests set
// it to kill the process there.
var step = func() {}

// ownedDir is a directory whose drydock-owned files are updated in place:
// no directory is ever renamed, replaced or recreated, so its inode,
// owner, mode bits and anything mounted inside it stay. Every file is
// written beside its target under a temporary name and renamed over it at
// commit, under the journal (see JournalFile) and the lock (LockFile).
// Every path is reached through an os.Root, so no symbolic link leads out
// of the directory, and each directory on the way is checked once to be a
// real directory, not a link.
type ownedDir struct {
	target string // absolute, symbolic links resolved
	root   *os.Root
	dev    uint64 // the file system of target (0 where unknown)
	unlock func()
	// recovered says what the run found of an interrupted update and did
	// with it (empty when there was none).
	recovered []string

	runID    string
	seq      int
	j        *journal            // nil until the first change is staged
	staged   map[string]string   // tree path → its staged temporary file
	dirs     *realDirs           // the checked directories, opened once
	dirFiles map[string]*os.File // the same, as files (for renameNoReplace)
	ownTmp   string              // the new OwnershipFile, staged at commit
	// committed is set once the journal's commit line is synced: from
	// then on the update is only ever rolled forward.
	committed bool
	// fresh are the staged paths that held no file: put in place only
	// if no other process created one meanwhile (renameNoReplace).
	fresh map[string]bool
	// ownData is the new OwnershipFile's content, staged at commit.
	ownData []byte
}

// openOwned opens dir for an update: created if missing, locked, and an
// interrupted update's journal completed. With base set, dir lies below
// it and is reached from it component by component (see
// UpdateOptions.Base).
func openOwned(dir, base string, adopt bool) (*ownedDir, error) {
	target, root, err := openTarget(dir, base)
	if err != nil {
		return nil, err
	}
	d, err := openRoot(target, root)
	if err != nil {
		return nil, err
	}
	if d.unlock, err = lock(d.root, target); err != nil {
		d.root.Close()
		return nil, err
	}
	if d.recovered, err = d.recover(adopt); err != nil {
		d.close()
		return nil, fmt.Errorf("directory %s: complete an interrupted update: %w", target, err)
	}
	return d, nil
}

// openTarget resolves dir, creates it if missing and opens it. Without
// base, dir's symbolic links are followed (it may be one). With base, dir
// is a path below base that is walked from an os.Root at base: every
// component must be a real directory (missing ones are made), and
// whatever changes meanwhile nothing outside base is opened.
func openTarget(dir, base string) (string, *os.Root, error) {
	if base == "" {
		target, err := manifest.RealPath(dir)
		if err != nil {
			return "", nil, err
		}
		if err := os.MkdirAll(target, 0o755); err != nil {
			return "", nil, err
		}
		root, err := os.OpenRoot(target)
		return target, root, err
	}
	realBase, err := manifest.RealPath(base)
	if err != nil {
		return "", nil, err
	}
	rel, err := filepath.Rel(filepath.Clean(base), filepath.Clean(dir))
	if err != nil || !filepath.IsLocal(rel) {
		return "", nil, fmt.Errorf("directory %s: %w: not below %s", dir, ErrInvalidPath, base)
	}
	br, err := os.OpenRoot(realBase)
	if err != nil {
		return "", nil, err
	}
	walk := newRealDirs(br)
	defer func() { walk.close(); br.Close() }()
	made, err := walk.get(filepath.ToSlash(rel), func(parent *os.Root, name, _ string) error {
		if err := parent.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("directory %s: %w", dir, err)
	}
	root, err := made.OpenRoot(".") // a handle of its own: walk's are closed
	return filepath.Join(realBase, rel), root, err
}

// openRoot makes the ownedDir of the directory target, opened as root.
func openRoot(target string, root *os.Root) (*ownedDir, error) {
	fi, err := root.Stat(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	d := &ownedDir{target: target, root: root, dev: deviceOf(fi), runID: randomSuffix(),
		staged: map[string]string{}, dirs: newRealDirs(root), dirFiles: map[string]*os.File{}, fresh: map[string]bool{}}
	return d, nil
}

// close releases the lock and the directory.
func (d *ownedDir) close() {
	if d.unlock != nil {
		d.unlock()
		d.unlock = nil
	}
	for dir := range d.dirFiles {
		d.forget(dir)
	}
	d.dirs.close()
	d.root.Close()
}

// at is the tree path p as its checked directory and its name there.
func (d *ownedDir) at(p string) (*os.Root, string) { return d.dirs.at(p) }

// dirFile is the directory holding p (r, from at) opened as a file, once.
func (d *ownedDir) dirFile(p string, r *os.Root) (*os.File, error) {
	dir := path.Dir(p)
	if f, ok := d.dirFiles[dir]; ok {
		return f, nil
	}
	f, err := r.Open(".")
	if err != nil {
		return nil, err
	}
	d.dirFiles[dir] = f
	return f, nil
}

// forget drops the removed directory dir.
func (d *ownedDir) forget(dir string) {
	d.dirs.forget(dir)
	if f, ok := d.dirFiles[dir]; ok {
		f.Close()
		delete(d.dirFiles, dir)
	}
}

// recover completes what a killed update left: its journal rolled forward
// when committed, back when not, once the whole journal is checked (see
// checkReplay). It says what it did.
func (d *ownedDir) recover(adopt bool) ([]string, error) {
	data, err := readIn(d.root, JournalFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, committed, err := parseJournal(data)
	if err != nil {
		return nil, err
	}
	var did string
	if committed {
		var plan replayPlan
		if plan, err = d.checkReplay(entries, adopt); err == nil {
			err = d.replay(entries, plan)
		}
		did = fmt.Sprintf("completed an interrupted update (%d staged files)", count(entries, opStage))
	} else {
		if err = d.checkRollback(entries); err == nil {
			err = d.rollback(entries)
		}
		did = fmt.Sprintf("rolled back an interrupted update (%d staged files discarded)", count(entries, opStage))
	}
	if err != nil {
		return nil, err
	}
	if err := d.root.Remove(JournalFile); err != nil {
		return nil, err
	}
	return []string{did}, nil
}

func count(entries []journalEntry, op string) int {
	n := 0
	for _, e := range entries {
		if e.op == op {
			n++
		}
	}
	return n
}

// renameStaged renames the staged file tmp over p; a tmp that is gone was
// renamed already.
func (d *ownedDir) renameStaged(tmp, p string) error {
	if ok, err := d.isStaged(tmp); !ok {
		return err
	}
	return d.root.Rename(tmp, p)
}

// removeStaged removes the staged file tmp if it is there.
func (d *ownedDir) removeStaged(tmp string) error {
	if ok, err := d.isStaged(tmp); !ok {
		return err
	}
	return d.root.Remove(tmp)
}

// isStaged reports whether the staged file tmp is there: a regular file
// (anything else at its name is refused).
func (d *ownedDir) isStaged(tmp string) (bool, error) {
	fi, err := d.root.Lstat(tmp)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("%q: %w: a staged file is not a regular file", tmp, ErrInvalidPath)
	}
	return true, nil
}

// begin opens the journal at the first change.
func (d *ownedDir) begin() error {
	if d.j != nil {
		return nil
	}
	f, err := d.root.OpenFile(JournalFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("directory %s: %w", d.target, err)
	}
	d.j = &journal{f: f}
	if _, err := f.WriteString(journalHeader); err != nil {
		return err
	}
	return nil
}

// existing is what lies at the tree path p before the update.
type existing struct {
	found bool
	info  fs.FileInfo
}

// lookup checks the directories on the way to p (real directories, not
// links) and returns what is at p: nothing, or a regular file; anything
// else is refused.
func (d *ownedDir) lookup(p string) (existing, error) {
	r, err := d.dirs.get(path.Dir(p), nil)
	if r == nil || err != nil {
		return existing{}, err // nil, nil: a parent is missing
	}
	fi, err := r.Lstat(path.Base(p))
	if errors.Is(err, fs.ErrNotExist) {
		return existing{}, nil
	}
	if err != nil {
		return existing{}, fmt.Errorf("path %q: %w", p, err)
	}
	if !fi.Mode().IsRegular() {
		return existing{}, fmt.Errorf("path %q: %w: exists and is not a regular file (%s)", p, ErrInvalidPath, fi.Mode().Type())
	}
	return existing{found: true, info: fi}, nil
}

// checkDirs checks dir and its parents, each once (see realDirs): a
// missing one is made when make is set (and journaled), else left
// unknown.
func (d *ownedDir) checkDirs(dir string, make bool) error {
	var mkdir func(parent *os.Root, name, made string) error
	if make {
		mkdir = func(parent *os.Root, name, made string) error {
			if err := d.begin(); err != nil {
				return err
			}
			if err := d.j.add(opMkdir, made); err != nil {
				return err
			}
			step()
			return parent.Mkdir(name, 0o755)
		}
	}
	_, err := d.dirs.get(dir, mkdir)
	return err
}

// stage writes data beside the tree path p under a temporary name, to be
// renamed over p at commit; old is what p holds now (its mode and owner
// are kept); adopt says drydock did not write it.
func (d *ownedDir) stage(p string, data []byte, old existing, adopt bool) error {
	if err := d.checkDirs(path.Dir(p), true); err != nil {
		return err
	}
	if err := d.begin(); err != nil {
		return err
	}
	if err := d.unstage(p); err != nil {
		return err
	}
	d.seq++
	tmp := path.Join(path.Dir(p), ".drydock-"+d.runID+"-"+strconv.Itoa(d.seq)+".tmp")
	if err := d.j.add(opStage, tmp, p); err != nil {
		return err
	}
	if old.found && adopt {
		if err := d.j.add(opAdopt, p); err != nil {
			return err
		}
	}
	d.staged[p] = tmp
	if old.found {
		delete(d.fresh, p)
	} else {
		d.fresh[p] = true
	}
	return d.writeNew(tmp, data, old)
}

// writeNew creates the file name (which must not exist) holding data,
// with old's permission bits and owner when there is an old file.
func (d *ownedDir) writeNew(name string, data []byte, old existing) error {
	perm := fs.FileMode(0o644)
	if old.found {
		perm = old.info.Mode().Perm()
	}
	step()
	r, base := d.at(name)
	if createAt {
		dir, err := d.dirFile(name, r)
		if err != nil {
			return err
		}
		return createExcl(dir, r.Name(), base, data, perm, old)
	}
	f, err := r.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	step()
	_, err = f.Write(data)
	if err == nil && old.found {
		err = f.Chmod(perm) // the umask does not narrow a rewritten file
		keepOwner(f, old.info)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// unstage discards p's staged file, if any.
func (d *ownedDir) unstage(p string) error {
	tmp, ok := d.staged[p]
	if !ok {
		return nil
	}
	delete(d.staged, p)
	return d.removeStaged(tmp)
}

// commit journals the deletions and the new OwnershipFile, syncs the
// journal, then makes every change and removes the journal. It returns
// the pruned files kept because they lie on another file system.
func (d *ownedDir) commit(ownership []byte, deletes []string) (kept []string, err error) {
	if err := d.begin(); err != nil {
		return nil, err
	}
	for _, p := range deletes {
		if err := d.j.add(opDelete, p); err != nil {
			return nil, err
		}
	}
	d.seq++
	tmp := ".drydock-" + d.runID + "-" + strconv.Itoa(d.seq) + ".tmp"
	d.ownTmp = tmp
	if err := d.j.add(opOwn, tmp); err != nil {
		return nil, err
	}
	old, err := d.lookup(OwnershipFile)
	if err != nil {
		return nil, err
	}
	if err := d.writeNew(tmp, ownership, old); err != nil {
		return nil, err
	}
	d.ownData = ownership
	if err := d.j.commit(); err != nil {
		return nil, err
	}
	d.committed = true
	kept, err = d.apply(deletes)
	if err != nil {
		return nil, fmt.Errorf("%w; the update is committed: the next drydock run on the directory completes it", err)
	}
	return kept, nil
}

// apply makes the committed changes (as replay would after a kill). A
// file another process created at a staged path that held none is kept:
// drydock's is discarded, the path left out of the OwnershipFile, and the
// error names it once the rest is done.
func (d *ownedDir) apply(deletes []string) (kept []string, err error) {
	var taken []string
	for _, p := range sortedPaths(d.staged) {
		step()
		ok, err := d.put(p)
		if err != nil {
			return nil, err
		}
		if !ok {
			taken = append(taken, p)
		}
	}
	d.staged = map[string]string{}
	for _, p := range deletes {
		ok, err := d.prune(p)
		if err != nil {
			return nil, err
		}
		if !ok {
			kept = append(kept, p)
		}
	}
	if err := d.j.f.Close(); err != nil {
		return nil, err
	}
	if len(taken) > 0 {
		if err := d.disown(taken); err != nil {
			return nil, err
		}
	}
	step()
	if err := d.root.Rename(d.ownTmp, OwnershipFile); err != nil {
		return nil, err
	}
	d.j = nil
	step()
	if err := d.root.Remove(JournalFile); err != nil {
		return nil, err
	}
	if len(taken) > 0 {
		return kept, fmt.Errorf("%w: another process created %s during the update: kept as it is, not drydock's", ErrNotOwned, strings.Join(taken, ", "))
	}
	return kept, nil
}

// put renames p's staged file over it. A fresh p (no file when staged)
// is not replaced if a file appeared there since: ok is false and the
// staged file is removed.
func (d *ownedDir) put(p string) (ok bool, err error) {
	r, name := d.at(p)
	tmp := path.Base(d.staged[p])
	if !d.fresh[p] {
		return true, r.Rename(tmp, name)
	}
	dir, err := d.dirFile(p, r)
	if err != nil {
		return false, err
	}
	err = renameNoReplace(dir, tmp, name)
	if errors.Is(err, errors.ErrUnsupported) {
		if _, lerr := r.Lstat(name); lerr == nil {
			err = fs.ErrExist
		} else {
			err = r.Rename(tmp, name)
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return false, r.Remove(tmp)
	}
	return err == nil, err
}

// disown rewrites the staged OwnershipFile without the paths taken.
func (d *ownedDir) disown(taken []string) error {
	o, err := parseOwnership(d.ownData)
	if err != nil {
		return err
	}
	for _, p := range taken {
		delete(o.listed, p)
	}
	if err := d.root.Remove(d.ownTmp); err != nil {
		return err
	}
	return d.writeNew(d.ownTmp, encodeOwnership(sortedKeys(o.listed)), existing{})
}

// prune deletes the owned file p and the directories that leaves empty,
// unless p lies on another file system than the directory (then ok is
// false and nothing is deleted). A p already gone is done.
func (d *ownedDir) prune(p string) (ok bool, err error) {
	r, name := d.at(p)
	fi, err := r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, fmt.Errorf("path %q: %w: an owned file is no longer a regular file (%s)", p, ErrInvalidPath, fi.Mode().Type())
	}
	if deviceOf(fi) != d.dev {
		return false, nil
	}
	step()
	if err := r.Remove(name); err != nil {
		return false, err
	}
	for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
		fi, err := d.root.Lstat(dir)
		if err != nil || !fi.IsDir() || deviceOf(fi) != d.dev || d.root.Remove(dir) != nil {
			break // not empty, a mount point, or gone: stop climbing
		}
		d.forget(dir)
	}
	return true, nil
}

// abort discards what was staged: staged files and made directories.
// A committed update is never rolled back: its journal stays for the next
// run to complete.
func (d *ownedDir) abort() {
	if d.j == nil {
		return
	}
	d.j.f.Close()
	d.j = nil
	if d.committed {
		return
	}
	data, err := readIn(d.root, JournalFile)
	if err != nil {
		return
	}
	if entries, _, err := parseJournal(data); err == nil && d.rollback(entries) == nil {
		_ = d.root.Remove(JournalFile)
	}
}

func sortedPaths(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// readIn reads the regular file name under root (manifest.ReadIn): a
// symbolic link, FIFO or device is refused (ErrInvalidPath) before it is
// opened, and at most manifest.MaxInputBytes are read.
func readIn(root *os.Root, name string) ([]byte, error) {
	data, err := manifest.ReadIn(root, name)
	if errors.Is(err, manifest.ErrNotRegular) {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPath, err)
	}
	return data, err
}

// randomSuffix is 16 random hex digits: names that cannot collide across
// runs or processes.
func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
