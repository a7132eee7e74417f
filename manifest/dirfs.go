package manifest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// DirFS is the directory dir as an fs.FS (fs.StatFS, fs.ReadFileFS,
// fs.ReadDirFS and fs.ReadLinkFS) that its symbolic links may not lead
// out of, as WalkFiles keeps to a repository: a path through a link
// leading out is refused with a *LinkOutsideError naming dir's real
// path and the target's, a loop with ErrLinkLoop. Links are compared as
// real absolute paths, and every operation goes through an os.Root of
// dir, which refuses an escape even should a link change after the
// check. The root stays open for the process's life.
func DirFS(dir string) (fs.FS, error) {
	real, err := realPath(dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fileError(err)
	}
	return &dirFS{real: real, root: root.FS()}, nil
}

type dirFS struct {
	real string
	root fs.FS
}

var (
	_ fs.ReadFileFS = (*dirFS)(nil)
	_ fs.ReadDirFS  = (*dirFS)(nil)
	_ fs.StatFS     = (*dirFS)(nil)
	_ fs.ReadLinkFS = (*dirFS)(nil)
)

// check refuses name when its links (the last one too if follow) lead
// out of the directory or loop. A path that does not resolve is left to
// the operation to report.
func (d *dirFS) check(op, name string, follow bool) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	p := filepath.Join(d.real, filepath.FromSlash(name))
	if !follow {
		if name == "." {
			return nil
		}
		p = filepath.Dir(p)
	}
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		if _, serr := os.Stat(p); errors.Is(serr, syscall.ELOOP) {
			return &fs.PathError{Op: op, Path: name, Err: ErrLinkLoop}
		}
		return nil
	}
	if Within(d.real, target) {
		return nil
	}
	fi, err := os.Stat(target)
	out := &LinkOutsideError{Where: "the base directory " + d.real, Target: target, Dir: err == nil && fi.IsDir()}
	return &fs.PathError{Op: op, Path: name, Err: out}
}

// Open opens name, its links followed inside the directory.
func (d *dirFS) Open(name string) (fs.File, error) {
	if err := d.check("open", name, true); err != nil {
		return nil, err
	}
	return d.root.Open(name)
}

// Stat describes name, its links followed inside the directory.
func (d *dirFS) Stat(name string) (fs.FileInfo, error) {
	if err := d.check("stat", name, true); err != nil {
		return nil, err
	}
	return fs.Stat(d.root, name)
}

// ReadFile reads name, its links followed inside the directory.
func (d *dirFS) ReadFile(name string) ([]byte, error) {
	if err := d.check("read", name, true); err != nil {
		return nil, err
	}
	return fs.ReadFile(d.root, name)
}

// ReadDir lists the directory name, its links followed inside the
// directory.
func (d *dirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := d.check("readdir", name, true); err != nil {
		return nil, err
	}
	return fs.ReadDir(d.root, name)
}

// Lstat describes name without following a final link.
func (d *dirFS) Lstat(name string) (fs.FileInfo, error) {
	if err := d.check("lstat", name, false); err != nil {
		return nil, err
	}
	return fs.Lstat(d.root, name)
}

// ReadLink returns the target of the link name.
func (d *dirFS) ReadLink(name string) (string, error) {
	if err := d.check("readlink", name, false); err != nil {
		return "", err
	}
	return fs.ReadLink(d.root, name)
}
