package golden

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
)

// UpdateOptions tunes Update.
type UpdateOptions struct {
	// Prune deletes golden files that are no longer rendered, and the
	// directories that deleting them leaves empty. Without it they are
	// kept and only reported as Removed.
	Prune bool
}

// Update makes the golden directory dir hold got: it compares them as
// Compare does, then rewrites the Changed files and creates the Added ones
// (with their directories, dir included), each atomically through a
// temporary file in the same directory and a rename. Unchanged files are
// not touched, so their modification times stay. With opts.Prune it then
// deletes the Removed files and the directories that leaves empty (never
// dir itself). Nothing is written outside dir: every path is checked
// before the first write (symlinked directories inside dir are refused, as
// Compare refuses them; a parent that resolves outside dir is rejected),
// and all writes and deletes go through an os.Root.
// A rewritten file keeps its permission bits; a new one gets 0644 (less
// umask). Files are not fsynced.
//
// The Report says what Update did (what it found before writing). On error
// the files already written stay written; each one is complete.
func Update(dir string, got Tree, opts UpdateOptions) (*Report, error) {
	rep, err := Compare(dir, got)
	if err != nil {
		return nil, err
	}
	writes := append(append([]string{}, rep.Changed...), rep.Added...)
	sort.Strings(writes)
	pruning := opts.Prune && len(rep.Removed) > 0
	if len(writes) == 0 && !pruning {
		return rep, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := writeFiles(dir, got, writes); err != nil {
		return nil, err
	}
	if pruning {
		if err := prune(dir, rep.Removed); err != nil {
			return nil, err
		}
		rep.Pruned = true
	}
	return rep, nil
}

// writeFiles writes the given paths of t under the existing directory dir,
// after checking all of them.
func writeFiles(dir string, t Tree, paths []string) error {
	root, err := resolveRoot(dir)
	if err != nil {
		return err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	perms := make([]fs.FileMode, len(paths))
	for i, p := range paths {
		if perms[i], err = checkTarget(r, root, p); err != nil {
			return err
		}
	}
	for i, p := range paths {
		if err := writeAtomic(r, p, t[p], perms[i]); err != nil {
			return fmt.Errorf("write %s: %w", p, err)
		}
	}
	return nil
}

// checkTarget checks that p (a validated tree path) can be written under
// root (absolute, symlinks resolved; r is opened on it): p, if it exists,
// must be a regular file, and its parent must stay inside root. It returns
// the permissions to write p with: those of the existing file, else 0644.
func checkTarget(r *os.Root, root, p string) (fs.FileMode, error) {
	name := filepath.FromSlash(p)
	perm := fs.FileMode(0o644)
	switch fi, err := os.Lstat(filepath.Join(root, name)); {
	case err == nil && !fi.Mode().IsRegular():
		return 0, fmt.Errorf("path %q: %w: exists and is not a regular file", p, ErrInvalidPath)
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Errorf("path %q: %w", p, err)
	}
	if err := checkParent(r, root, name); err != nil {
		return 0, fmt.Errorf("path %q: %w", p, err)
	}
	return perm, nil
}

// checkParent checks the nearest existing ancestor of name (relative to
// root): it must resolve to a directory inside root both by
// filepath.EvalSymlinks and by the rules of os.Root, which also refuse
// absolute symlinks.
func checkParent(r *os.Root, root, name string) error {
	dir := filepath.Dir(name)
	for dir != "." {
		_, err := os.Lstat(filepath.Join(root, dir))
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		dir = filepath.Dir(dir)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, dir))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidPath, err)
	}
	if !within(root, real) {
		return fmt.Errorf("%w: %s leads outside the directory (to %s)", ErrInvalidPath, filepath.ToSlash(dir), real)
	}
	fi, err := r.Stat(dir)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidPath, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrInvalidPath, filepath.ToSlash(dir))
	}
	return nil
}

// within reports whether the absolute path p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.IsLocal(rel)
}

// tmpSeq numbers temporary files; with the process id it makes their
// names unique without randomness.
var tmpSeq atomic.Uint64

// writeAtomic writes data to p under r: a temporary file in p's directory
// (named .golden-*.tmp, so never mistaken for a golden file), renamed over
// p.
func writeAtomic(r *os.Root, p string, data []byte, perm fs.FileMode) error {
	name := filepath.FromSlash(p)
	dir := filepath.Dir(name)
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".golden-%d-%d.tmp", os.Getpid(), tmpSeq.Add(1)))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, name)
	}
	if err != nil {
		_ = r.Remove(tmp)
	}
	return err
}

// prune deletes the given golden files under dir and then each parent
// directory (below dir) that is left empty.
func prune(dir string, paths []string) error {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, p := range paths {
		name := filepath.FromSlash(p)
		if err := r.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("prune %s: %w", p, err)
		}
		for d := filepath.Dir(name); d != "."; d = filepath.Dir(d) {
			if r.Remove(d) != nil { // not empty (or gone): stop climbing
				break
			}
		}
	}
	return nil
}
