package manifest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"syscall"
)

// ReadFile reads the file name for decoding: it must be a regular file (a
// device, FIFO or socket is refused before it is opened, so none can block
// or stream forever) of at most MaxInputBytes, a limit enforced on the
// bytes read, not only on the size the file system reports.
func ReadFile(name string) ([]byte, error) {
	if err := regular(name); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should name become a FIFO after the check, opening it
	// still cannot wait for a writer.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fileError(err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return nil, fileError(err)
	}
	if len(data) > MaxInputBytes {
		return nil, tooLarge(name)
	}
	return data, nil
}

// ReadFS is ReadFile for a file of fsys (a slash path): a regular file of
// at most MaxInputBytes. Errors start with name.
func ReadFS(fsys fs.FS, name string) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, fileError(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(name, fi.Mode())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, fileError(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return nil, fileError(err)
	}
	if len(data) > MaxInputBytes {
		return nil, tooLarge(name)
	}
	return data, nil
}

// regular checks that name (symlinks followed) is a regular file.
func regular(name string) error {
	fi, err := os.Stat(name)
	if err != nil {
		return fileError(err)
	}
	if !fi.Mode().IsRegular() {
		return notRegular(name, fi.Mode())
	}
	if fi.Size() > MaxInputBytes {
		return tooLarge(name)
	}
	return nil
}

func notRegular(name string, m fs.FileMode) error {
	return fmt.Errorf("%s: not a regular file (%s): devices, FIFOs and sockets cannot be inputs", name, fileType(m))
}

// ErrTooLarge is wrapped by the refusal of a file larger than
// MaxInputBytes.
var ErrTooLarge = errors.New("larger than MaxInputBytes")

func tooLarge(name string) error { return tooLargeError{name} }

type tooLargeError struct{ name string }

func (e tooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %d bytes (MaxInputBytes)", e.name, MaxInputBytes)
}

func (e tooLargeError) Is(target error) bool { return target == ErrTooLarge }

// fileError rewords an *fs.PathError ("stat x.yaml: no such file or
// directory" names a system call) as "x.yaml: no such file or directory".
// The cause stays wrapped: errors.Is(err, fs.ErrNotExist) still holds.
func fileError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

func fileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// RepoRoot is the repository holding the absolute directory dir: its
// nearest ancestor (dir included) with a .git entry, else dir itself.
func RepoRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// RealPath is p made absolute with the symlinks of its longest existing
// prefix resolved: where p is, or would be once created.
func RealPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for q := abs; ; q = filepath.Dir(q) {
		real, err := filepath.EvalSymlinks(q)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(q) == q {
			return "", fileError(err)
		}
		rest = filepath.Join(filepath.Base(q), rest)
	}
}

// Within reports whether the absolute, clean path p is root or below it.
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.IsLocal(rel)
}

// WalkOptions tune WalkFiles.
type WalkOptions struct {
	// Keep selects files by name.
	Keep func(name string) bool
	// SkipDir skips a directory below the root by name (nil: none).
	SkipDir func(name string) bool
	// SkipPath skips a directory below the root by its path as the walk
	// reached it: root joined with the names below it (nil: none).
	SkipPath func(path string) bool
}

// skip reports whether opts leave out the directory d at path p.
func (opts WalkOptions) skip(p string, d fs.DirEntry) bool {
	return (opts.SkipDir != nil && opts.SkipDir(d.Name())) || (opts.SkipPath != nil && opts.SkipPath(p))
}

// WalkFiles lists the files under root (a file or a directory given
// explicitly, which may be anywhere) that opts.Keep selects, sorted.
//
// Walking a directory stays inside the repository holding it (RepoRoot):
// a symlink found there whose target resolves outside is an error naming
// the link and the target; one inside is read if it is a file and not
// followed if it is a directory (the repository's own directory is walked
// where it stands). A selected entry that is not a regular file (a FIFO,
// a device, a socket) is an error, never skipped silently.
func WalkFiles(root string, opts WalkOptions) ([]string, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fileError(err)
	}
	if !info.IsDir() {
		return []string{root}, regular(root)
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fileError(err)
	}
	repo := RepoRoot(abs)
	// A trailing separator makes WalkDir enter a root that is a symlink.
	walkRoot := filepath.Clean(root) + string(filepath.Separator)
	var files []string
	err = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return fileError(err)
		case d.IsDir():
			if path != walkRoot && opts.skip(path, d) {
				return filepath.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			return walkLink(path, repo, opts, &files)
		case !opts.Keep(d.Name()):
			return nil
		case !d.Type().IsRegular():
			return notRegular(path, d.Type())
		}
		files = append(files, path)
		return nil
	})
	sort.Strings(files)
	return files, err
}

// ListFiles lists the files under paths (files, or directories walked
// with WalkFiles) that keep selects, sorted and without duplicates. A file
// given directly is kept whatever its name.
func ListFiles(paths []string, keep func(name string) bool) ([]string, error) {
	var files []string
	for _, root := range paths {
		found, err := WalkFiles(root, WalkOptions{Keep: keep})
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// WalkFS is WalkFiles over fsys (slash paths, such as a git revision's
// tree): the files under root that opts.Keep selects, sorted. The tree
// decides where a symbolic link may lead (its Stat refuses one that
// leaves it); a link to a selected file is listed, one to a directory is
// not followed. Errors start with the path they are about.
func WalkFS(fsys fs.FS, root string, opts WalkOptions) ([]string, error) {
	info, err := fs.Stat(fsys, root)
	if err != nil {
		return nil, fileError(err)
	}
	if !info.IsDir() {
		return []string{root}, nil
	}
	var files []string
	err = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return fileError(err)
		case d.IsDir():
			if p != root && opts.skip(p, d) {
				return fs.SkipDir
			}
			return nil
		case !opts.Keep(d.Name()):
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			target, err := fs.Stat(fsys, p)
			if err != nil {
				return fileError(err)
			}
			if target.IsDir() {
				return nil
			}
		}
		files = append(files, p)
		return nil
	})
	sort.Strings(files)
	return files, err
}

// walkLink handles a symlink met while walking the repository repo: a
// link to a directory, or to a file Keep selects, must stay inside.
func walkLink(path, repo string, opts WalkOptions, files *[]string) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		if opts.Keep(filepath.Base(path)) {
			return fmt.Errorf("%s: broken symlink: %w", path, fileError(err))
		}
		return nil
	}
	fi, err := os.Stat(target)
	if err != nil {
		return fileError(err)
	}
	if !fi.IsDir() && !opts.Keep(filepath.Base(path)) {
		return nil
	}
	if !Within(repo, target) {
		return fmt.Errorf("%s: symlink leads outside the repository %s (to %s); give that path on the command line if you mean it", path, repo, target)
	}
	if fi.IsDir() {
		return nil
	}
	if !fi.Mode().IsRegular() {
		return notRegular(path, fi.Mode())
	}
	*files = append(*files, path)
	return nil
}
