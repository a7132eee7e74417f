package golden

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

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
