package manifest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"syscall"
)

// MaxLinks is how many symbolic links one path's resolution may follow,
// the links in links' targets included: the kernel's MAXSYMLINKS.
const MaxLinks = 40

// ErrLinkLoop is the refusal of a path whose resolution follows more than
// MaxLinks symbolic links: a loop, such as a link to itself or to an
// ancestor followed again and again, or too long a chain. It wraps
// syscall.ELOOP.
var ErrLinkLoop = fmt.Errorf("%w (a symbolic link loop, or more than %d links to follow)", syscall.ELOOP, MaxLinks)

// ErrSubmodule is the note for a git submodule met while walking a
// directory, in the work tree (a directory holding a .git) as in a git
// revision (a gitlink): it is skipped, on both sides alike, and named
// explicitly it is refused in a revision.
var ErrSubmodule = errors.New("a git submodule, not read: its files are another repository's")

// Submodule is what FileInfo.Sys returns for a git submodule of a tree
// that holds one as a gitlink (a git revision's, which has only its
// commit): WalkFS skips it as WalkFiles skips a submodule's directory.
type Submodule struct{}

// LinkOutsideError is the refusal of a symbolic link whose target leads
// out of the tree it is confined to (a repository, a base directory).
type LinkOutsideError struct {
	// Link is the link, when it is not the path being resolved.
	Link string
	// Where names the tree: "the repository /src/repo".
	Where string
	// Target is where the link leads.
	Target string
	// Dir is set when the target is known to be a directory.
	Dir bool
}

func (e *LinkOutsideError) Error() string {
	if e.Link != "" {
		return fmt.Sprintf("symlink %s leads outside %s (to %s)", e.Link, e.Where, e.Target)
	}
	return fmt.Sprintf("symlink leads outside %s (to %s)", e.Where, e.Target)
}

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
// at most MaxInputBytes, refused from the size Stat reports before it is
// opened. Errors start with name.
func ReadFS(fsys fs.FS, name string) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, fileError(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(name, fi.Mode())
	}
	// The size the tree reports (a git blob's header) is checked before
	// anything is read; the bytes read are checked too.
	if fi.Size() > MaxInputBytes {
		return nil, tooLarge(name)
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
	return fmt.Errorf("%s: %w (%s): devices, FIFOs and sockets cannot be inputs", name, ErrNotRegular, FileType(m))
}

// ErrNotRegular is wrapped by the refusal of a path that is not a regular
// file (a directory, link, FIFO, socket or device).
var ErrNotRegular = errors.New("not a regular file")

// ReadIn reads the regular file name (a slash path) under root without
// following a symbolic link at name: anything but a regular file is
// refused before it is opened (ErrNotRegular), the file opened must be the
// one checked (O_NONBLOCK and a same-file check close the race with a
// swap), and at most MaxInputBytes are read. Errors start with the path
// below root.Name().
func ReadIn(root *os.Root, name string) ([]byte, error) {
	full := filepath.Join(root.Name(), filepath.FromSlash(name))
	fi, err := root.Lstat(name)
	if err != nil {
		return nil, fileError(err)
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(full, fi.Mode())
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fileError(err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		return nil, fmt.Errorf("%s: %w: replaced while it was opened", full, ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInputBytes+1))
	if err != nil {
		return nil, fileError(err)
	}
	if len(data) > MaxInputBytes {
		return nil, tooLarge(full)
	}
	return data, nil
}

// ErrTooLarge is wrapped by the refusal of a file larger than
// MaxInputBytes.
var ErrTooLarge = errors.New("larger than MaxInputBytes")

func tooLarge(name string) error { return tooLargeError{name} }

// TooLarge is the refusal of the file name, larger than MaxInputBytes
// (it wraps ErrTooLarge): for a reader that knows the size before
// reading, such as a git revision's.
func TooLarge(name string) error { return tooLargeError{name} }

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
		if errors.Is(pe.Err, syscall.ELOOP) {
			return fmt.Errorf("%s: %w", pe.Path, ErrLinkLoop)
		}
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// FileType names the kind of a file that is not a regular one, for
// messages: "a directory", "a FIFO", "a socket", "a device".
func FileType(m fs.FileMode) string {
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
	// Skipped hears of what a walk leaves out that the user should know
	// of (nil: nothing told): a git submodule (ErrSubmodule), with one
	// note, path first, in the work tree and in a revision.
	Skipped func(note string)
}

// skip reports whether opts leave out the directory d at path p.
func (opts WalkOptions) skip(p string, d fs.DirEntry) bool {
	return (opts.SkipDir != nil && opts.SkipDir(d.Name())) || (opts.SkipPath != nil && opts.SkipPath(p))
}

// skipSubmodule tells opts.Skipped that the submodule p is left out.
func (opts WalkOptions) skipSubmodule(p string) {
	if opts.Skipped != nil {
		opts.Skipped(fmt.Sprintf("%s: %v", p, ErrSubmodule))
	}
}

// WalkFiles lists the files under root (a file or a directory given
// explicitly, which may be anywhere) that opts.Keep selects, sorted.
//
// Walking a directory stays inside the repository holding it (RepoRoot):
// a symlink found there whose target resolves outside is an error naming
// the link and the target; one inside is read if it is a file and not
// followed if it is a directory (the repository's own directory is walked
// where it stands). Links are compared as real absolute paths, however
// root is given. A directory holding a .git (a submodule, a nested
// repository) is another repository's: skipped, told to opts.Skipped. A
// selected entry that is not a regular file (a FIFO, a device, a socket)
// is an error, never skipped silently.
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
			if path == walkRoot {
				return nil
			}
			if opts.skip(path, d) {
				return filepath.SkipDir
			}
			if _, err := os.Lstat(filepath.Join(path, ".git")); err == nil {
				opts.skipSubmodule(path)
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
// decides where a symbolic link may lead: its Stat refuses one that
// leaves it with a *LinkOutsideError, an error here as in WalkFiles (a
// link to a selected file or to a directory); a link to a selected file
// is listed, one to a directory is not followed. A git submodule (a
// directory holding a .git, or an entry whose FileInfo.Sys is a
// Submodule) is skipped and told to opts.Skipped. Errors start with the
// path they are about.
func WalkFS(fsys fs.FS, root string, opts WalkOptions) ([]string, error) {
	info, err := fs.Stat(fsys, root)
	if err != nil {
		return nil, fileError(err)
	}
	if _, ok := info.Sys().(Submodule); ok {
		return nil, fmt.Errorf("%s: %w", root, ErrSubmodule)
	}
	if !info.IsDir() {
		return []string{root}, nil
	}
	var files []string
	err = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fileError(err)
		}
		if submodule(fsys, p, d) && p != root {
			opts.skipSubmodule(p)
			return skipEntry(d)
		}
		switch {
		case d.IsDir():
			if p != root && opts.skip(p, d) {
				return fs.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			return walkFSLink(fsys, p, opts, &files)
		case !opts.Keep(d.Name()):
			return nil
		}
		files = append(files, p)
		return nil
	})
	sort.Strings(files)
	return files, err
}

// submodule reports whether the entry d at p of fsys is a git submodule.
func submodule(fsys fs.FS, p string, d fs.DirEntry) bool {
	if d.IsDir() {
		_, err := fs.Lstat(fsys, path.Join(p, ".git"))
		return err == nil
	}
	if d.Type()&fs.ModeIrregular == 0 {
		return false
	}
	info, err := d.Info()
	if err != nil {
		return false
	}
	_, ok := info.Sys().(Submodule)
	return ok
}

// skipEntry leaves the entry d out of a walk.
func skipEntry(d fs.DirEntry) error {
	if d.IsDir() {
		return fs.SkipDir
	}
	return nil
}

// walkFSLink is walkLink for a link of fsys.
func walkFSLink(fsys fs.FS, p string, opts WalkOptions, files *[]string) error {
	keep := opts.Keep(path.Base(p))
	target, err := fs.Stat(fsys, p)
	var out *LinkOutsideError
	switch {
	case errors.As(err, &out) && (keep || out.Dir), errors.Is(err, syscall.ELOOP):
		return fileError(err)
	case err != nil && keep && !errors.As(err, &out):
		return fileError(err)
	case err != nil || target.IsDir() || !keep:
		return nil
	}
	*files = append(*files, p)
	return nil
}

// walkLink handles a symlink met while walking the repository repo: a
// link to a directory, or to a file Keep selects, must stay inside.
func walkLink(p, repo string, opts WalkOptions, files *[]string) error {
	target, err := realPath(p)
	if err != nil {
		if errors.Is(err, ErrLinkLoop) {
			return fmt.Errorf("%s: %w", p, err)
		}
		if opts.Keep(filepath.Base(p)) {
			return fmt.Errorf("%s: broken symlink: %w", p, err)
		}
		return nil
	}
	fi, err := os.Stat(target)
	if err != nil {
		return fileError(err)
	}
	if !fi.IsDir() && !opts.Keep(filepath.Base(p)) {
		return nil
	}
	if !Within(repo, target) {
		return fmt.Errorf("%s: %w; give that path on the command line if you mean it",
			p, &LinkOutsideError{Where: "the repository " + repo, Target: target, Dir: fi.IsDir()})
	}
	if fi.IsDir() {
		return nil
	}
	if !fi.Mode().IsRegular() {
		return notRegular(p, fi.Mode())
	}
	*files = append(*files, p)
	return nil
}

// realPath is the real absolute path p leads to, all its symbolic links
// followed (a relative p from the working directory's real path); a
// loop is ErrLinkLoop.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	// EvalSymlinks says "too many links" without ELOOP: ask the kernel.
	if _, serr := os.Stat(abs); errors.Is(serr, syscall.ELOOP) {
		return "", ErrLinkLoop
	}
	return "", fileError(err)
}

// FormatBytes writes n in binary units (512MiB, 4GiB, 1.5GiB): sizes and
// limits in messages.
func FormatBytes(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	f, i := float64(n), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d%s", int64(f), units[i])
	}
	return fmt.Sprintf("%.1f%s", f, units[i])
}
