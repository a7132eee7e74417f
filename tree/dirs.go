package tree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// realDirs opens the directories of a tree below its root: each checked
// once to be a real directory (a symbolic link is refused, never
// followed) and opened once, so that a file's operations there cost one
// system call each, not one per path element. It is what every reader and
// writer of a tree reaches a directory through.
type realDirs struct {
	root *os.Root
	open map[string]*os.Root // checked directories, "." the root
}

func newRealDirs(root *os.Root) *realDirs {
	return &realDirs{root: root, open: map[string]*os.Root{".": root}}
}

// get returns the directory dir (a tree path) opened, checking it and its
// parents. A missing one is made by mkdir (given its opened parent, its
// name there and its tree path) when mkdir is not nil; otherwise get returns nil and no error.
func (r *realDirs) get(dir string, mkdir func(parent *os.Root, name, dir string) error) (*os.Root, error) {
	if sub, ok := r.open[dir]; ok {
		return sub, nil
	}
	parent, err := r.get(path.Dir(dir), mkdir)
	if parent == nil || err != nil {
		return nil, err
	}
	name := path.Base(dir)
	fi, err := parent.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) && mkdir == nil:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		if err := mkdir(parent, name, dir); err != nil {
			return nil, fmt.Errorf("path %q: %w", dir, err)
		}
	case err != nil:
		return nil, fmt.Errorf("path %q: %w", dir, err)
	case !fi.IsDir():
		return nil, fmt.Errorf("path %q: %w: not a directory (%s); drydock does not follow links inside the tree", dir, ErrInvalidPath, fi.Mode().Type())
	}
	sub, err := parent.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("path %q: %w", dir, err)
	}
	r.open[dir] = sub
	return sub, nil
}

// at is the tree path p as its directory (opened, when it was checked
// before) and its name there; the root and p where it was not.
func (r *realDirs) at(p string) (*os.Root, string) {
	if sub, ok := r.open[path.Dir(p)]; ok {
		return sub, path.Base(p)
	}
	return r.root, p
}

// forget closes and drops the directory dir (removed).
func (r *realDirs) forget(dir string) {
	if sub, ok := r.open[dir]; ok && dir != "." {
		sub.Close()
		delete(r.open, dir)
	}
}

// close closes every directory opened below the root (not the root).
func (r *realDirs) close() {
	for dir := range r.open {
		r.forget(dir)
	}
}
