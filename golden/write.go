package golden

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkPaths checks, before anything is written, that each path can be
// written under the existing directory dir without leaving it.
func checkPaths(dir string, paths []string) error {
	root, err := resolveRoot(dir)
	if err != nil {
		return err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, p := range paths {
		if _, err := checkTarget(r, root, p); err != nil {
			return err
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
