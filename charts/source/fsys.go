package source

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// fsys is where the cache reads: the OS with paths as given, or an
// fs.FS with paths relative to it.
type fsys struct {
	fs fs.FS // nil: the OS
}

// clean makes p a name the fs.FS accepts ("./a/../b" → "b").
func (f fsys) clean(p string) string {
	if f.fs == nil {
		return p
	}
	p = path.Clean(filepath.ToSlash(p))
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return "."
	}
	return p
}

func (f fsys) join(elem ...string) string {
	if f.fs == nil {
		return filepath.Join(elem...)
	}
	return path.Join(elem...)
}

func (f fsys) readFile(p string) ([]byte, error) {
	if f.fs == nil {
		return os.ReadFile(p)
	}
	return fs.ReadFile(f.fs, f.clean(p))
}

func (f fsys) readDir(p string) ([]fs.DirEntry, error) {
	if f.fs == nil {
		return os.ReadDir(p)
	}
	return fs.ReadDir(f.fs, f.clean(p))
}

// stat follows symbolic links, as Helm's loader does.
func (f fsys) stat(p string) (fs.FileInfo, error) {
	if f.fs == nil {
		return os.Stat(p)
	}
	return fs.Stat(f.fs, f.clean(p))
}

// exists reports whether p names a regular file.
func (f fsys) isFile(p string) bool {
	fi, err := f.stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func (f fsys) isDir(p string) bool {
	fi, err := f.stat(p)
	return err == nil && fi.IsDir()
}
