package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/drydock-dev/drydock/manifest"
)

// treePaths checks a tree's paths as they come, one by one, as validate
// checks a whole tree: each a valid path, none both a file and a
// directory.
type treePaths struct {
	yamlOnly bool
	files    map[string]bool
	dirs     map[string]bool
}

func newTreePaths(yamlOnly bool) *treePaths {
	return &treePaths{yamlOnly: yamlOnly, files: map[string]bool{}, dirs: map[string]bool{}}
}

// add checks p against the paths added before it.
func (t *treePaths) add(p string) error {
	if t.files[p] {
		return nil
	}
	if err := validPath(p, t.yamlOnly); err != nil {
		return err
	}
	if t.dirs[p] {
		return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", p, ErrInvalidPath)
	}
	for d := path.Dir(p); d != "." && !t.dirs[d]; d = path.Dir(d) {
		if t.files[d] {
			return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", d, ErrInvalidPath)
		}
		t.dirs[d] = true
	}
	t.files[p] = true
	return nil
}

// openTarget resolves the directory a tree goes to, creates its parent
// and takes its lock; leftovers of interrupted runs are completed or
// removed, and named.
func openTarget(dir string) (target string, unlock func(), cleaned []string, err error) {
	if target, err = realTarget(dir); err != nil {
		return "", nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return "", nil, nil, err
	}
	if unlock, err = lock(target); err != nil {
		return "", nil, nil, err
	}
	if cleaned, err = recoverLeftovers(target); err != nil {
		unlock()
		return "", nil, nil, err
	}
	return target, unlock, cleaned, nil
}

// staging is a new tree being built beside target, to be swapped in with
// one rename: it starts as a copy of target (hard links), and files are
// written into it one by one.
type staging struct {
	target string
	dir    string
	// root is target opened (nil when target does not exist), real its
	// resolved path: what written paths are checked against.
	root *os.Root
	real string
	// carried are the regular files linked from target, made the
	// directories known to exist in dir, written the files written,
	// parents the parent directories of target already checked.
	carried, made, written, parents map[string]bool
}

// newStaging creates the staging directory of target and carries
// target's entries into it. A directory holding a .git entry (a
// repository's root) is refused: the whole directory would be replaced.
func newStaging(target string) (*staging, error) {
	if _, err := os.Lstat(filepath.Join(target, ".git")); err == nil {
		return nil, fmt.Errorf("directory %s: %w: it holds .git; drydock replaces the whole directory it writes, so give it a directory of its own", target, ErrInvalidPath)
	}
	s := &staging{target: target, carried: map[string]bool{}, made: map[string]bool{".": true}, written: map[string]bool{}, parents: map[string]bool{}}
	parent, base := filepath.Dir(target), filepath.Base(target)
	dir, err := os.MkdirTemp(parent, "."+base+stagingInfix+"new-")
	if err != nil {
		return nil, err
	}
	s.dir = dir
	// MkdirTemp makes 0700; the tree keeps the old directory's mode.
	perm := fs.FileMode(0o755)
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
		if err := s.open(); err != nil {
			s.abort()
			return nil, err
		}
	}
	if err := os.Chmod(dir, perm); err != nil {
		s.abort()
		return nil, err
	}
	if s.root != nil {
		if err := s.carry(); err != nil {
			s.abort()
			return nil, fmt.Errorf("golden directory %s: %w", target, err)
		}
	}
	return s, nil
}

// open opens the existing target for the checks of written paths.
func (s *staging) open() error {
	real, err := resolveRoot(s.target)
	if err != nil {
		return err
	}
	if s.root, err = os.OpenRoot(real); err != nil {
		return err
	}
	s.real = real
	return nil
}

// carry recreates target's directories and symlinks in the staging
// directory and links its files (copying where links fail).
func (s *staging) carry() error {
	return filepath.WalkDir(s.target, func(full string, d fs.DirEntry, err error) error {
		if err != nil || full == s.target {
			return err
		}
		rel, err := filepath.Rel(s.target, full)
		if err != nil {
			return err
		}
		slash, dst := filepath.ToSlash(rel), filepath.Join(s.dir, rel)
		switch {
		case d.IsDir():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			s.made[slash] = true
			return os.Mkdir(dst, fi.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(full)
			if err != nil {
				return err
			}
			return os.Symlink(link, dst)
		case d.Type().IsRegular():
			s.carried[slash] = true
			return linkOrCopy(full, dst)
		}
		return fmt.Errorf("%q: %w: not a regular file, directory or symlink", slash, ErrInvalidPath)
	})
}

// write writes data at the tree path p (valid) of the staging directory,
// replacing what is there. When target exists, p must be writable under
// it without leaving it (see check); a rewritten file keeps its
// permission bits.
func (s *staging) write(p string, data []byte) error {
	perm := fs.FileMode(0o644)
	if s.root != nil {
		var err error
		if perm, err = s.check(p); err != nil {
			return err
		}
	}
	name := filepath.Join(s.dir, filepath.FromSlash(p))
	if dir := path.Dir(p); !s.made[dir] {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		for ; !s.made[dir]; dir = path.Dir(dir) {
			s.made[dir] = true
		}
	}
	if s.carried[p] || s.written[p] {
		// Unlink first: the old tree's file, which a carried link
		// shares, stays intact.
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	s.written[p] = true
	err := createFile(name, data, perm)
	if errors.Is(err, fs.ErrExist) { // carried under another path through a symlinked directory
		if err = os.Remove(name); err == nil {
			err = createFile(name, data, perm)
		}
	}
	return err
}

// check checks that the tree path p can be written under the existing
// target: p, if it exists, must be a regular file, and its parent must
// stay inside target (each parent is checked once). It returns the
// permissions to write p with: those of the existing file, else 0644.
func (s *staging) check(p string) (fs.FileMode, error) {
	name := filepath.FromSlash(p)
	perm := fs.FileMode(0o644)
	switch fi, err := os.Lstat(filepath.Join(s.real, name)); {
	case err == nil && !fi.Mode().IsRegular():
		return 0, fmt.Errorf("path %q: %w: exists and is not a regular file", p, ErrInvalidPath)
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Errorf("path %q: %w", p, err)
	}
	if dir := path.Dir(p); !s.parents[dir] {
		if err := checkParent(s.root, s.real, name); err != nil {
			return 0, fmt.Errorf("path %q: %w", p, err)
		}
		s.parents[dir] = true
	}
	return perm, nil
}

// restore puts target's file at p back in place of a written one.
func (s *staging) restore(p string) error {
	if !s.written[p] {
		return nil
	}
	name := filepath.Join(s.dir, filepath.FromSlash(p))
	if err := os.Remove(name); err != nil {
		return err
	}
	delete(s.written, p)
	if s.carried[p] {
		return linkOrCopy(filepath.Join(s.target, filepath.FromSlash(p)), name)
	}
	return nil
}

// remove deletes the file at p from the staging directory and the
// directories that leaves empty.
func (s *staging) remove(p string) error {
	if err := os.Remove(filepath.Join(s.dir, filepath.FromSlash(p))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	delete(s.written, p)
	return removeEmptied(s.dir, map[string]bool{p: true})
}

// commit swaps the staging directory in for target.
func (s *staging) commit() error {
	s.close()
	stale, err := swapIn(s.dir, s.target)
	if err != nil {
		_ = os.RemoveAll(s.dir)
		if errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EXDEV) {
			return fmt.Errorf("directory %s: swap in the new tree: %w (a mount point cannot be replaced: give a directory inside it)", s.target, err)
		}
		return fmt.Errorf("directory %s: swap in the new tree: %w", s.target, err)
	}
	if stale != "" {
		return os.RemoveAll(stale)
	}
	return nil
}

// abort removes the staging directory; target is left as it was.
func (s *staging) abort() {
	s.close()
	_ = os.RemoveAll(s.dir)
}

func (s *staging) close() {
	if s.root != nil {
		s.root.Close()
		s.root = nil
	}
}

// createFile creates name (which must not exist) holding data.
func createFile(name string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Writer writes a tree under a directory file by file, for a tree too
// large to hold in memory; Write is a Writer given a whole tree. The files
// go into a staging directory beside the directory, which starts with the
// files the directory already holds (Writer never deletes) and replaces it
// at Commit in one atomic step, under the lock Update takes, so a killed
// render leaves the old directory or the new one. Put checks each path
// before it writes it: a clean relative slash path, neither a file and a
// directory of the tree, nor a file whose parent directory resolves
// outside the directory through a symlink or passes an absolute symlink
// (os.Root rules); errors wrap ErrInvalidPath. Nothing reaches the
// directory before Commit, so after an error the caller calls Abort and
// the directory is as it was. Unlike Update a Writer neither compares,
// nor prunes, nor records ownership. A Writer is not safe for concurrent
// use.
type Writer struct {
	unlock func()
	stage  *staging
	paths  *treePaths
}

// NewWriter starts writing a tree under dir; a directory holding .git is
// refused.
func NewWriter(dir string) (*Writer, error) {
	target, unlock, _, err := openTarget(dir)
	if err != nil {
		return nil, err
	}
	stage, err := newStaging(target)
	if err != nil {
		unlock()
		return nil, err
	}
	return &Writer{unlock: unlock, stage: stage, paths: newTreePaths(false)}, nil
}

// Put writes data at the tree path p; a second Put of p replaces the
// first.
func (w *Writer) Put(p string, data []byte) error {
	if err := w.paths.add(p); err != nil {
		return err
	}
	return w.stage.write(p, data)
}

// Commit swaps the new tree in and releases the lock.
func (w *Writer) Commit() error {
	defer w.unlock()
	return w.stage.commit()
}

// Abort discards what was written and releases the lock.
func (w *Writer) Abort() {
	defer w.unlock()
	w.stage.abort()
}

// Write writes the tree t under dir in one atomic step (see Writer): the
// new tree holds the files of t and every file already in dir. Every path
// of t is checked before anything is swapped in.
func Write(dir string, t Tree) error {
	if err := validate(t, false); err != nil {
		return err
	}
	w, err := NewWriter(dir)
	if err != nil {
		return err
	}
	for _, p := range t.Paths() {
		if err := w.Put(p, t[p]); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Commit()
}

// Comparer compares a tree with a golden directory file by file, for a
// tree too large to hold in memory; Compare is a Comparer given a whole
// tree. It lists the golden directory when made and reads each golden
// file when the rendered file of its path is Put; it holds only the
// paths and the diffs of changed files. A Comparer is not safe for
// concurrent use.
type Comparer struct {
	// Mask, when set, rewrites a file (its tree path and canonical
	// bytes) before the comparison, on both sides: what it leaves out
	// (fields a project does not pin) neither differs nor shows in the
	// diff.
	Mask func(p string, data []byte) []byte

	dir string
	g   *goldenDir
	// paths are the rendered paths, state their comparison.
	paths *treePaths
	state map[string]fileState
}

// fileState is how a rendered file compares with its golden file.
type fileState struct {
	kind int8 // added, changed or unchanged
	diff string
}

const (
	added int8 = iota
	changed
	unchanged
)

// NewComparer lists the golden directory dir (a missing dir is an empty
// golden tree); dir must not hold symlinked directories or symlinked .yaml
// files (errors wrap ErrInvalidPath).
func NewComparer(dir string) (*Comparer, error) {
	g, err := listGolden(dir)
	if err != nil {
		return nil, err
	}
	return &Comparer{dir: dir, g: g, paths: newTreePaths(true), state: map[string]fileState{}}, nil
}

// Put compares the rendered file at the tree path p (a clean relative
// slash path ending in .yaml) with its golden file; a second Put of p
// replaces the first.
func (c *Comparer) Put(p string, data []byte) error {
	_, err := c.put(p, data)
	return err
}

func (c *Comparer) put(p string, data []byte) (fileState, error) {
	if err := c.paths.add(p); err != nil {
		return fileState{}, err
	}
	st := fileState{kind: added}
	if c.g != nil && c.g.files[p] {
		old, err := manifest.ReadFile(filepath.Join(c.g.root, filepath.FromSlash(p)))
		if err != nil {
			return fileState{}, fmt.Errorf("golden directory %s: %w", c.dir, err)
		}
		st.kind = unchanged
		a, b := normalize(old), normalize(data)
		if c.Mask != nil {
			a, b = c.Mask(p, a), c.Mask(p, b)
		}
		if !bytes.Equal(a, b) {
			st = fileState{kind: changed, diff: Unified("golden/"+p, "rendered/"+p, a, b)}
		}
	}
	c.state[p] = st
	return st, nil
}

// Report is the comparison of every file Put with the golden directory:
// golden files that were not Put count as Removed if drydock owns them.
// Leftovers name what an interrupted Update left beside the directory.
func (c *Comparer) Report() *Report {
	r := c.report()
	if target, err := realTarget(c.dir); err == nil {
		r.Leftovers, _ = leftovers(target)
	}
	return r
}

func (c *Comparer) report() *Report {
	r := &Report{Diffs: map[string]string{}}
	for _, p := range sortedKeys(c.paths.files) {
		switch st := c.state[p]; st.kind {
		case added:
			r.Added = append(r.Added, p)
		case changed:
			r.Changed = append(r.Changed, p)
			r.Diffs[p] = st.diff
		default:
			r.Unchanged++
		}
	}
	if c.g != nil {
		for _, p := range sortedKeys(c.g.files) {
			if !c.paths.files[p] && c.g.owned.owns(p) {
				r.Removed = append(r.Removed, p)
			}
		}
	}
	return r
}

// Compare reads the golden directory dir and compares it with got. Only
// files named *.yaml under dir (recursively) take part; other files are
// ignored. A missing dir is an empty golden tree. Contents are compared
// byte for byte after normalising CRLF to LF and adding a missing final
// newline on both sides. Every path of got must be a clean relative slash
// path ending in .yaml, and dir must not hold symlinked directories or
// symlinked .yaml files (errors wrap ErrInvalidPath).
func Compare(dir string, got Tree) (*Report, error) {
	if err := validate(got, true); err != nil {
		return nil, err
	}
	c, err := NewComparer(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range got.Paths() {
		if err := c.Put(p, got[p]); err != nil {
			return nil, err
		}
	}
	return c.Report(), nil
}

// Updater updates a golden directory file by file, for a tree too large
// to hold in memory; Update is an Updater given a whole tree. It compares
// each file as a Comparer does and writes the Added and Changed ones into
// a staging directory (made at the first of them, from the directory's
// files), which Commit swaps in (see Update). An Updater is not safe for
// concurrent use.
type Updater struct {
	cmp     *Comparer
	opts    UpdateOptions
	target  string
	unlock  func()
	cleaned []string
	stage   *staging
}

// NewUpdater takes dir's lock (see Update), completes or removes what an
// interrupted update left, and lists dir.
func NewUpdater(dir string, opts UpdateOptions) (*Updater, error) {
	target, unlock, cleaned, err := openTarget(dir)
	if err != nil {
		return nil, err
	}
	cmp, err := NewComparer(target)
	if err != nil {
		unlock()
		return nil, err
	}
	return &Updater{cmp: cmp, opts: opts, target: target, unlock: unlock, cleaned: cleaned}, nil
}

// Put compares the rendered file at p with its golden file and, if it is
// new or different, writes it into the new tree; a second Put of p
// replaces the first.
func (u *Updater) Put(p string, data []byte) error {
	st, err := u.cmp.put(p, data)
	if err != nil {
		return err
	}
	if st.kind == unchanged {
		if u.stage != nil {
			return u.stage.restore(p)
		}
		return nil
	}
	if err := u.staged(); err != nil {
		return err
	}
	return u.stage.write(p, data)
}

// staged makes the staging directory at the first need.
func (u *Updater) staged() error {
	if u.stage != nil {
		return nil
	}
	s, err := newStaging(u.target)
	if err != nil {
		return err
	}
	u.stage = s
	return nil
}

// Commit finishes the update: it prunes (with UpdateOptions.Prune),
// writes the OwnershipFile and swaps the new tree in, unless nothing
// changes; the lock is released. The report is the comparison.
func (u *Updater) Commit() (*Report, error) {
	defer u.unlock()
	rep := u.cmp.report()
	rep.Leftovers = u.cleaned
	owned := sortedKeys(u.cmp.paths.files)
	if !u.opts.Prune {
		owned = append(owned, rep.Removed...)
	}
	ownedData := encodeOwnership(owned)
	if !u.needed(rep, ownedData) {
		if u.stage != nil {
			u.stage.abort()
		}
		return rep, nil
	}
	if err := u.finish(rep, ownedData); err != nil {
		if u.stage != nil {
			u.stage.abort()
		}
		return nil, err
	}
	rep.Pruned = u.opts.Prune && len(rep.Removed) > 0
	return rep, nil
}

// needed reports whether the directory must change: files to write or
// prune, or an OwnershipFile that is missing or different.
func (u *Updater) needed(rep *Report, owned []byte) bool {
	g := u.cmp.g
	switch {
	case len(rep.Added) > 0 || len(rep.Changed) > 0 || (u.opts.Prune && len(rep.Removed) > 0):
		return true
	case len(u.cmp.paths.files) == 0 && g == nil:
		return false
	}
	return g == nil || string(g.ownershipData) != string(owned)
}

// finish prunes, writes the OwnershipFile and swaps the new tree in.
func (u *Updater) finish(rep *Report, owned []byte) error {
	if err := u.staged(); err != nil {
		return err
	}
	if u.opts.Prune {
		for _, p := range rep.Removed {
			if err := u.stage.remove(p); err != nil {
				return fmt.Errorf("golden directory %s: %w", u.target, err)
			}
		}
	}
	name := filepath.Join(u.stage.dir, OwnershipFile)
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := createFile(name, owned, 0o644); err != nil {
		return fmt.Errorf("golden directory %s: %w", u.target, err)
	}
	return u.stage.commit()
}

// Abort discards the update and releases the lock; the directory is left
// as it was.
func (u *Updater) Abort() {
	defer u.unlock()
	if u.stage != nil {
		u.stage.abort()
	}
}

// Update makes the golden directory dir hold got, as one atomic step.
//
// It compares them as Compare does, then builds the whole new tree in a
// staging directory beside dir (".<base>.drydock-new-<random>"): the Added
// and Changed files, hard links to the Unchanged files (so their
// modification times stay) and to every file drydock does not own (a
// README, a user's own .yaml), and the OwnershipFile. It then swaps the
// staging directory in with one rename (Linux: renameat2 RENAME_EXCHANGE;
// elsewhere two renames under a journal that the next Update completes),
// so an interruption at any moment leaves dir holding the old tree or the
// new one, never a mix. A missing dir is created by the same rename.
//
// Concurrent Updates of one directory take turns: a lock (flock on a file in
// the temporary directory) makes a second one wait up to LockWait, then fail. Leftovers of
// an interrupted Update (staging directories, a journal) are completed or
// removed first and listed in Report.Leftovers.
//
// Nothing is written outside dir and its staging directory: tree paths are
// validated, and dir is resolved to its real path first, so a symlink at
// dir is followed, never replaced. A rewritten file keeps its permission
// bits; a new one gets 0644 (less umask). Files are not fsynced: the swap
// is atomic against a killed process, not against a power loss.
//
// With nothing to change, Update writes nothing (a missing dir stays
// missing).
func Update(dir string, got Tree, opts UpdateOptions) (*Report, error) {
	if err := validate(got, true); err != nil {
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
